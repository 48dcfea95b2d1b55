// A game the module does not name (the tests' toy ruleset, tests/toy_ruleset.py) played in
// Foundry-shaped clients against a real bridge: the ruleset setting's choices, the GM told
// when the setting names no game the bridge plays, the prompt dialog's words, the log's
// lines and its held actions all come from the bridge's description of it.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { startBridge } from "../../../clients/js/test/helpers.js";
import { makeFoundryAdapter } from "../../demo/foundry-adapter.js";
import { waitFor } from "../../demo/runner.js";
import { MODULE_ID } from "../src/scene.js";
import { offerRulesets, registerSettings } from "../src/settings.js";

const script = {
  ruleset: "fireball-game", // not played by the bridge: the GM is told, nothing is sent
  seed: 5,
  grid: { columns: 12, rows: 12, cell_size: 1, unit: "m" },
  users: [{ name: "gm", gm: true }, { name: "alice" }],
  tokens: [
    // Ann is fast (speed 9 + 1d6 beats 0 + 1d6): she acts first, whatever the dice.
    { id: "ann", name: "Ann", owner: "alice", side: "a", cell: [2, 2], size: 1, reach: 1, movement: 4, stats: { speed: 9 } },
    { id: "bo", name: "Bo", owner: "gm", side: "b", cell: [3, 2], size: 1, reach: 1, movement: 4, stats: { speed: 0 } },
  ],
  walls: [],
  steps: [],
};

let bridge;
let adapter;
before(async () => {
  bridge = await startBridge({ module: "tests.toy_bridge", tables: ["toy"] });
});
after(async () => {
  await adapter?.close();
  await bridge?.stop();
});

test("the toy ruleset's choice, prompt dialog and log lines with no edit to the module", async () => {
  adapter = await makeFoundryAdapter({ script, bridgeUrl: bridge.url, gmToken: bridge.tables.toy.gm, generation: 13 });
  await adapter.setup();
  await adapter.settle();
  const gm = adapter.seats.get("gm");

  // The ruleset setting offers what the bridge plays, by title (main.js does this on connect).
  const registered = new Map();
  registerSettings({ register: (ns, key, config) => registered.set(`${ns}.${key}`, config) });
  offerRulesets(registered, gm.bridge.rulesets, script.ruleset);
  assert.equal(registered.get(`${MODULE_ID}.ruleset`).choices["toy-duel"], "Toy duel");

  // A setting naming no game the bridge plays: the GM is told which there are; no fight.
  const seq = gm.bridge.seq;
  await gm.parts.startFight();
  assert.equal(gm.bridge.seq, seq);
  assert.match(gm.notes.at(-1).text, /^The bridge does not play "fireball-game" .*Toy duel \(toy-duel\)/);

  script.ruleset = "toy-duel";
  await adapter.step({ do: "start", user: "gm" });
  await waitFor(() => gm.bridge.ruleset?.name === "toy-duel", 10_000, "the description");
  await adapter.settle();
  assert.equal(gm.bridge.view.combat.ruleset, "toy-duel");

  // Ann strides out of Bo's reach: the GM's dialog asks in the toy's words.
  await adapter.step({ do: "drag", user: "alice", token: "ann", through: [[1.2, 2.1]] });
  await adapter.settle();
  await waitFor(() => gm.dialogs.length === 1, 10_000, "the prompt dialog");
  const { model } = gm.dialogs[0];
  assert.deepEqual([model.title, model.text, model.accept, model.decline, model.expired], [
    "Attack of opportunity",
    "Bo may attack Ann, who is leaving its reach",
    "Attack",
    "Let them pass",
    "If nobody answers in time: they pass unattacked.",
  ]);
  await adapter.step({ do: "answer", user: "gm", kind: model.kind, accept: false });
  await adapter.settle();
  assert.deepEqual(adapter.positions().ann, [1, 2]);

  // The log, in the toy's words, with the names Foundry shows.
  await waitFor(() => gm.parts.log.lines(50).includes("The question was declined by gm"), 10_000, "the log");
  const lines = gm.parts.log.lines(50);
  assert.ok(lines.includes("The fight begins (Toy duel); aware: Ann, Bo"), lines.join("\n"));
  assert.ok(lines.includes("Round 1 begins"), lines.join("\n"));
  assert.ok(lines.every((line) => !/[{}[\]]/.test(line)), lines.join("\n"));
  assert.deepEqual(gm.parts.log.lines(2), lines.slice(-2));

  // Ann lies in ambush: every seat's client (the module's copy of the library) holds it,
  // read as the bridge's description of the toy says, and the log words it.
  const alice = adapter.seats.get("alice");
  const ann = adapter.tokenIds.get("ann"); // the token's Foundry id
  await alice.bridge.act(ann, "ambush", { on: "enter", area: [[5, 5]] });
  for (const seat of [gm, alice]) {
    await seat.bridge.until((v) => ann in v.combat.holds, 10_000);
    assert.deepEqual(seat.bridge.view.combat.holds[ann],
      { combatant: ann, kind: "ambush", before: null, action: null, trigger: "enter", triggerBy: null, area: [[5, 5]] });
  }
  await waitFor(() => gm.parts.log.lines(1)[0] === "Ann lies in ambush until enter in 1 cells", 10_000, "the hold's line");
});
