#!/usr/bin/env node
// Copy the JavaScript client library (clients/js: src/ and vendor/) into the module's
// lib/client/, because Foundry serves only files inside a module's folder.
//
//   node integrations/foundry/scripts/copy-client.mjs          copy (replaces lib/client)
//   node integrations/foundry/scripts/copy-client.mjs --check  exit 1 if the copy is stale
//
// test/client-copy.test.js runs the check, so a change to clients/js that was not
// copied fails the tests.

import { cpSync, existsSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const MODULE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SOURCE = path.resolve(MODULE, "../../clients/js");
const TARGET = path.join(MODULE, "lib", "client");
const PARTS = ["src", "vendor"];

/** Every file under `dir`, relative to it, sorted. */
export function listFiles(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  const walk = (sub) => {
    for (const name of readdirSync(path.join(dir, sub)).sort()) {
      const rel = path.join(sub, name);
      if (statSync(path.join(dir, rel)).isDirectory()) walk(rel);
      else out.push(rel);
    }
  };
  walk("");
  return out;
}

/** The differences between clients/js and a copy of it (the module's lib/client by default): [] when current. */
export function staleFiles(target = TARGET) {
  const problems = [];
  for (const part of PARTS) {
    const want = listFiles(path.join(SOURCE, part));
    const have = new Set(listFiles(path.join(target, part)));
    for (const rel of want) {
      const a = readFileSync(path.join(SOURCE, part, rel));
      if (!have.has(rel)) problems.push(`missing ${part}/${rel}`);
      else if (!a.equals(readFileSync(path.join(target, part, rel)))) problems.push(`changed ${part}/${rel}`);
      have.delete(rel);
    }
    for (const rel of have) problems.push(`extra ${part}/${rel}`);
  }
  return problems;
}

/** Copy clients/js's src and vendor into `target` (the module's lib/client by default). */
export function copyClient(target = TARGET) {
  rmSync(target, { recursive: true, force: true });
  for (const part of PARTS) cpSync(path.join(SOURCE, part), path.join(target, part), { recursive: true });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--check")) {
    const problems = staleFiles();
    for (const p of problems) console.error(p);
    if (problems.length) {
      console.error("lib/client is stale: run node integrations/foundry/scripts/copy-client.mjs");
      process.exit(1);
    }
  } else {
    copyClient();
    console.log(`copied clients/js/{${PARTS.join(",")}} to ${path.relative(process.cwd(), TARGET)}`);
  }
}
