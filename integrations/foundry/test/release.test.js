// The release build (scripts/build-release.mjs): the zip Foundry installs from the
// manifest URL, read back by an independent reader (Python's zipfile), and the manifest
// in the project's release layout.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";

import { REPOSITORY, ZIP_NAME, buildRelease, manifestProblems, releaseUrls } from "../scripts/build-release.mjs";
import { staleFiles } from "../scripts/copy-client.mjs";

const MODULE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PYTHON = process.env.VTT_BRIDGE_PYTHON ?? "python3";
const manifest = JSON.parse(readFileSync(path.join(MODULE, "module.json"), "utf8"));
const pkg = JSON.parse(readFileSync(path.join(MODULE, "package.json"), "utf8"));
const tmp = mkdtempSync(path.join(os.tmpdir(), "foundry-release-test-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("module.json is in the release layout: manifest, download and url, version as package.json", () => {
  assert.deepEqual(manifestProblems(manifest, pkg), []);
  // One version for the whole project's release (README "Releases").
  const pyproject = readFileSync(path.join(MODULE, "../../pyproject.toml"), "utf8");
  assert.equal(pyproject.match(/^version = "([^"]+)"/m)[1], manifest.version);
  assert.equal(manifest.manifest, `${REPOSITORY}/releases/latest/download/module.json`);
  assert.equal(manifest.download, `${REPOSITORY}/releases/download/v${pkg.version}/${ZIP_NAME}`);
  // What a release with a forgotten bump or an open-ended compatibility would say.
  const stale = { ...manifest, version: "9.9.9", compatibility: { minimum: "12", verified: "13" } };
  const problems = manifestProblems(stale, pkg);
  assert.ok(problems.some((p) => /version 9\.9\.9/.test(p)), problems.join("; "));
  assert.ok(problems.some((p) => /download/.test(p) && p.includes(releaseUrls("9.9.9").download)), problems.join("; "));
  assert.ok(problems.some((p) => /maximum/.test(p)), problems.join("; "));
});

test("the zip: module.json at its root, what Foundry loads, and lib/client built from clients/js", () => {
  const built = buildRelease(path.join(tmp, "a"));
  const out = path.join(tmp, "unzipped");
  const listing = execFileSync(PYTHON, ["-c", [
    "import json, sys, zipfile",
    "z = zipfile.ZipFile(sys.argv[1])",
    "assert z.testzip() is None",
    "z.extractall(sys.argv[2])",
    "print(json.dumps(z.namelist()))",
  ].join("\n"), built.zip, out], { encoding: "utf8" });
  const names = JSON.parse(listing);
  assert.equal(names.length, built.files);
  assert.ok(names.includes("module.json") && names.includes("lang/en.json") && names.includes("src/main.js"));
  assert.ok(!names.some((n) => n.startsWith("test/") || n.startsWith("scripts/") || n === "package.json"), names.join(", "));
  assert.deepEqual(readFileSync(path.join(out, "module.json")), readFileSync(path.join(MODULE, "module.json")));
  assert.deepEqual(readFileSync(built.manifest), readFileSync(path.join(MODULE, "module.json")));
  assert.deepEqual(staleFiles(path.join(out, "lib", "client")), []);
  for (const file of [...manifest.esmodules, ...manifest.languages.map((l) => l.path)]) assert.ok(names.includes(file), file);
  // Every file the entry point imports is in the zip (Foundry serves only the module's folder).
  for (const name of names.filter((n) => n.endsWith(".js") && n.startsWith("src/"))) {
    const text = readFileSync(path.join(out, name), "utf8");
    for (const [, spec] of text.matchAll(/^import .* from "(\.[^"]+)";$/gm)) {
      assert.ok(names.includes(path.posix.normalize(path.posix.join(path.posix.dirname(name), spec))), `${name} imports ${spec}`);
    }
  }
});

test("the same sources give the same zip, byte for byte", () => {
  const a = buildRelease(path.join(tmp, "b"));
  const b = buildRelease(path.join(tmp, "c"));
  assert.deepEqual(readFileSync(a.zip), readFileSync(b.zip));
});
