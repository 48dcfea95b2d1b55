// A game the extension does not name (the tests' toy ruleset, tests/toy_ruleset.py) played
// through the popover against a real bridge: the GM's ruleset choice, the prompt's words,
// the log's lines and its held actions all come from the bridge's description of it.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { startBridge } from "../../../clients/js/test/helpers.js";
import { COMMAND_CHANNEL, STATE_CHANNEL } from "../src/messages.js";
import { panelHtml } from "../src/panel.js";
import { OwlbearTable, waitUntil } from "./driver.js";

let bridge;
/** @type {OwlbearTable} */
let table;

before(async () => {
  bridge = await startBridge({ module: "tests.toy_bridge", tables: ["owl"] });
});

after(async () => {
  await table?.close();
  await bridge?.stop();
});

test("the toy ruleset's choice, prompt and log lines with no edit to the extension", async () => {
  table = await OwlbearTable.open({ url: bridge.url, tokens: bridge.tables.owl });
  table.addMap(12, 12);
  // Ann is fast (speed 9 + 1d6 beats 0 + 1d6): she acts first, whatever the dice.
  table.addToken({ id: "ann", name: "Ann", owner: "alice", side: "a", x: 2, y: 2, size: 1, reach: 1, movement: 4,
    stats: { speed: 9 } });
  table.addToken({ id: "bo", name: "Bo", owner: "gm", side: "b", x: 3, y: 2, size: 1, reach: 1, movement: 4,
    stats: { speed: 0 } });
  await table.sendScene();

  const gm = table.player("gm");
  const states = [];
  gm.obr.broadcast.onMessage(STATE_CHANNEL, ({ data }) => states.push(data));
  gm.adapter.publish();
  await waitUntil(() => states.length > 0);
  // The GM's choice lists what the bridge plays, by its title.
  const toy = states.at(-1).rulesets.find((r) => r.name === "toy-duel");
  assert.deepEqual(toy, { name: "toy-duel", title: "Toy duel" });
  assert.match(panelHtml(states.at(-1), 0), /<option value="toy-duel">Toy duel<\/option>/);

  // Started from the popover's button with that choice.
  await gm.obr.broadcast.sendMessage(COMMAND_CHANNEL, { op: "start_combat", ruleset: "toy-duel", seed: 5 },
    { destination: "LOCAL" });
  await waitUntil(() => gm.client.ruleset?.name === "toy-duel" && gm.client.view.combat?.actor === "ann");
  await table.settle();

  // Ann strides out of Bo's reach: the GM's prompt in the toy's words.
  await table.drag("alice", "ann", [1.5, 2.5]);
  await waitUntil(() => states.at(-1).prompts.length === 1);
  const [prompt] = states.at(-1).prompts;
  assert.deepEqual(prompt.words, {
    question: "Bo may attack Ann, who is leaving its reach",
    accept: "Attack",
    decline: "Let them pass",
    expired: "they pass unattacked",
  });
  const html = panelHtml(states.at(-1), 0, { view: "prompt" });
  assert.match(html, /<p class="question">Bo may attack Ann, who is leaving its reach<\/p>/);
  assert.match(html, /data-accept="true">Attack<\/button>/);
  assert.match(html, /data-accept="false">Let them pass<\/button>/);
  assert.match(html, /if nobody answers, they pass unattacked\./);

  await table.answer("gm", false);
  await waitUntil(() => states.at(-1).log.includes("The question was declined by gm"));
  const { log } = states.at(-1);
  assert.ok(log.includes("The fight begins (Toy duel); aware: Ann, Bo"), log.join("\n"));
  assert.ok(log.includes("Round 1 begins"), log.join("\n"));
  assert.ok(log.every((line) => !/[{}[\]]/.test(line)), log.join("\n"));
  assert.match(panelHtml(states.at(-1), 0), /<section class="log"><h2>Log<\/h2>\n<ol>.*<li>Round 1 begins<\/li>/);

  // Ann lies in ambush: every seat's client holds it, read as the bridge's description of
  // the toy says, and the popover's log words it.
  const alice = table.player("alice");
  await alice.client.act("ann", "ambush", { on: "enter", area: [[5, 5]] });
  for (const seat of [gm, alice]) {
    await seat.client.until((v) => "ann" in v.combat.holds, 10_000);
    assert.deepEqual(seat.client.view.combat.holds.ann,
      { combatant: "ann", kind: "ambush", before: null, action: null, trigger: "enter", triggerBy: null, area: [[5, 5]] });
  }
  await waitUntil(() => states.at(-1).log.at(-1) === "Ann lies in ambush until enter in 1 cells");
});
