#!/usr/bin/env node
// The demo: one scripted fight driven through every VTT adapter against a real bridge,
// the events compared.
//
//   node --experimental-websocket integrations/demo/run.js [fight.json] [adapter ...]
//
// Starts `vtt-bridge serve` (the repository's .venv, or $VTT_BRIDGE_PYTHON) on a free
// port with a fresh database, one table per adapter, runs the fight through each, prints
// each adapter's events as JSON lines, and exits 1 if any two disagree.

import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";

import { startBridge } from "../../clients/js/test/helpers.js";
import { ADAPTERS } from "./adapters.js";
import { comparable, runFight, VTT_FIELDS } from "./runner.js";

const args = process.argv.slice(2);
const file = args.find((a) => a.endsWith(".json")) ?? new URL("./fight.json", import.meta.url);
const names = args.filter((a) => !a.endsWith(".json"));
const chosen = names.length ? names : Object.keys(ADAPTERS);
for (const name of chosen) {
  if (!ADAPTERS[name]) {
    console.error(`unknown adapter ${name}: one of ${Object.keys(ADAPTERS).join(", ")}`);
    process.exit(2);
  }
}
const script = JSON.parse(readFileSync(file, "utf8"));
const tables = chosen.map((name) => name.replace(/[^A-Za-z0-9_-]/g, "-"));
const bridge = await startBridge({ tables });
let failed = false;
try {
  const results = [];
  for (const [k, name] of chosen.entries()) {
    const result = await runFight(script, ADAPTERS[name], { bridgeUrl: bridge.url, gmToken: bridge.tables[tables[k]].gm });
    results.push(result);
    console.log(`# ${name}: ${result.events.length} events, positions ${JSON.stringify(result.positions)}`);
    for (const event of result.events) console.log(JSON.stringify({ adapter: name, ...event }));
  }
  console.log(`# compared without the fields that name the VTT: ${VTT_FIELDS.join(", ")}`);
  const [first, ...rest] = results.map(comparable);
  for (const [k, other] of rest.entries()) {
    const verdict = [];
    for (const part of /** @type {const} */ (["events", "positions", "skipped"])) {
      if (!isDeepStrictEqual(first[part], other[part])) verdict.push(`different ${part}${part === "events" ? ` (first at #${firstDifference(first.events, other.events)})` : ""}`);
    }
    console.log(`# ${chosen[0]} vs ${chosen[k + 1]}: ${verdict.length ? verdict.join(", ") : `the same ${first.events.length} events, positions and skipped steps`}`);
    failed ||= verdict.length > 0;
  }
} finally {
  await bridge.stop();
}
process.exit(failed ? 1 : 0);

/** The index of the first event two runs disagree on. @param {any[]} a @param {any[]} b */
function firstDifference(a, b) {
  const k = a.findIndex((e, i) => !isDeepStrictEqual(e, b[i]));
  return k === -1 ? Math.min(a.length, b.length) : k;
}
