// The same fight through every registered adapter (adapters.js): the same events, the
// same positions. With the Owlbear adapter registered, Foundry and Owlbear are compared.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";

import { startBridge } from "../../../clients/js/test/helpers.js";
import { ADAPTERS } from "../adapters.js";
import { runFight } from "../runner.js";

const script = JSON.parse(readFileSync(new URL("../fight.json", import.meta.url), "utf8"));
const names = Object.keys(ADAPTERS);
const table = (name) => name.replace(/[^A-Za-z0-9_-]/g, "-");
let bridge;

before(async () => {
  bridge = await startBridge({ tables: names.map(table) });
});
after(async () => {
  await bridge?.stop();
});

test(`every adapter (${names.join(", ")}) gets the same events and positions`, async () => {
  assert.ok(names.length >= 2);
  const results = {};
  for (const name of names) {
    results[name] = await runFight(script, ADAPTERS[name], { bridgeUrl: bridge.url, gmToken: bridge.tables[table(name)].gm });
  }
  const [first, ...rest] = names;
  assert.ok(results[first].events.length > 10);
  for (const name of rest) {
    assert.deepEqual(results[name].positions, results[first].positions, `${name} vs ${first}`);
    assert.deepEqual(results[name].events, results[first].events, `${name} vs ${first}`);
    assert.deepEqual(results[name].skipped, results[first].skipped, `${name} vs ${first}`);
  }
});
