// The prompt popover's countdown when the player's computer clock is minutes off the
// bridge's: items shaped like Owlbear's, a real bridge on loopback, and every seat's
// `Date.now` ten minutes fast. The popover shows the time the bridge said was left, to
// the one who answers and to the mover waiting on the answer.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { startBridge } from "../../../clients/js/test/helpers.js";
import { COMMAND_CHANNEL, STATE_CHANNEL } from "../src/messages.js";
import { panelHtml } from "../src/panel.js";
import { OwlbearTable, waitUntil } from "./driver.js";

let bridge;
/** @type {OwlbearTable} */
let table;
const realNow = Date.now;

before(async () => {
  bridge = await startBridge({ tables: ["owl"] });
});

after(async () => {
  Date.now = realNow;
  await table?.close();
  await bridge?.stop();
});

test("a computer clock ten minutes fast: the prompt popover counts down the bridge's time left", async () => {
  Date.now = () => realNow() + 10 * 60_000; // this process's seats, not the bridge
  table = await OwlbearTable.open({ url: bridge.url, tokens: bridge.tables.owl });
  table.addMap(12, 12);
  table.addToken({ id: "ogre", name: "Ogre", owner: "gm", side: "monsters", x: 5, y: 5, size: 1, reach: 1, movement: 6,
    stats: { ocv: 5, dcv: 3, init: 12 } });
  table.addToken({ id: "hero", name: "Hero", owner: "alice", side: "heroes", x: 4, y: 5, size: 1, reach: 1, movement: 6,
    stats: { ocv: 6, dcv: 4, init: 14 } });
  await table.sendScene();
  await table.startCombat("hero-supplement", { seed: 7 });
  await table.drag("alice", "hero", [2.62, 4.31]); // leaves the ogre's reach: the GM is asked
  const gm = table.player("gm");
  const [prompt] = gm.client.myPrompts();
  assert.equal(prompt.kind, "attack_of_opportunity");
  // By this clock the bridge's deadline passed minutes ago.
  assert.ok(prompt.deadlineMs < Date.now() - 5 * 60_000);

  // The popover, opened for the prompt, asks for the table and counts from its arrival.
  const summaries = [];
  gm.obr.broadcast.onMessage(STATE_CHANNEL, ({ data }) => summaries.push({ data, at: performance.now() }));
  await gm.obr.broadcast.sendMessage(COMMAND_CHANNEL, { op: "state" }, { destination: "LOCAL" });
  await waitUntil(() => summaries.some((s) => s.data.prompts.length > 0));
  const { data, at } = summaries.findLast((s) => s.data.prompts.length > 0);
  const left = data.prompts[0].remainingMs;
  assert.ok(left > 20_000 && left <= 30_000, `${left} ms`); // the table's 30 s timeout, less the trip
  const html = panelHtml(data, performance.now() - at, { view: "prompt" });
  const seconds = Number(/(\d+) s left/.exec(html)?.[1]);
  assert.ok(seconds > 20 && seconds <= 30, html);
  // The summary holds no wall-clock reading the popover could misread.
  assert.equal("deadlineMs" in data.prompts[0], false);

  // The mover's popover (alice's) counts the same prompt down, waiting on the GM, with
  // no answer buttons: only the GM answers.
  const alice = table.player("alice");
  const hers = [];
  alice.obr.broadcast.onMessage(STATE_CHANNEL, ({ data }) => hers.push({ data, at: performance.now() }));
  await alice.obr.broadcast.sendMessage(COMMAND_CHANNEL, { op: "state" }, { destination: "LOCAL" });
  await waitUntil(() => hers.some((s) => s.data.waiting?.length > 0));
  const seen = hers.findLast((s) => s.data.waiting?.length > 0);
  assert.deepEqual(seen.data.prompts, []);
  const [waiting] = seen.data.waiting;
  assert.equal(waiting.prompt, prompt.prompt);
  assert.equal(waiting.controller, "gm");
  assert.equal(waiting.question, "Ogre may attack Hero, who is leaving its reach");
  assert.ok(waiting.remainingMs > 20_000 && waiting.remainingMs <= 30_000, `${waiting.remainingMs} ms`);
  const panel = panelHtml(seen.data, performance.now() - seen.at);
  const her = Number(/Waiting on <b>gm<\/b>: Ogre may attack Hero, who is leaving its reach \((\d+) s left\)/.exec(panel)?.[1]);
  assert.ok(her > 20 && her <= 30, panel);
  assert.equal(panel.includes('data-op="answer"'), false);
  await table.answer("gm", false);
  await waitUntil(() => alice.client.waitingPrompts().length === 0);
});
