// The last move stays on the view until the next one: its path and every exact point
// where it left a threatened area, whether the attack of opportunity was taken or
// declined, as the bridge's `move_interrupted` events said.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { BridgeClient } from "../src/index.js";
import { startBridge, waitFor } from "./helpers.js";

/** The Hero supplement's 1 m grid: the hero between an ogre and a troll, a wolf away. */
const SCENE = {
  grid: { kind: "square", cell_size: 1, unit: "m", width: 12, height: 12 },
  tokens: [
    { id: "ogre", name: "Ogre", owner: "gm", side: "monsters", x: 5, y: 5, size: 1, reach: 1, movement: 6,
      stats: { ocv: 5, dcv: 3, init: 12 } },
    { id: "troll", name: "Troll", owner: "gm", side: "monsters", x: 3, y: 4, size: 1, reach: 1, movement: 6,
      stats: { ocv: 5, dcv: 3, init: 11 } },
    { id: "hero", name: "Hero", owner: "alice", side: "heroes", x: 4, y: 5, size: 1, reach: 1, movement: 6,
      stats: { ocv: 6, dcv: 4, init: 14 } },
  ],
  walls: [],
  terrain: [],
};

let bridge;
const clients = [];

before(async () => {
  bridge = await startBridge({ tables: ["moves"] });
});

after(async () => {
  for (const client of clients) client.close();
  await bridge?.stop();
});

/** @param {string} who */
async function join(who) {
  const client = new BridgeClient(bridge.url, { token: bridge.tables.moves[who] });
  clients.push(client);
  await client.connect();
  return client;
}

test("a completed move keeps its path and exit points until the next move", async () => {
  const gm = await join("gm");
  const alice = await join("alice");
  const interruptions = [];
  alice.on("event:move_interrupted", (data) => interruptions.push(data));
  await gm.loadScene(SCENE);
  await gm.startCombat("hero-supplement", { seed: 3 });
  await waitFor(() => alice.view.combat?.actor === "hero");

  // Away from both: the bridge says where the move will be stopped, and by whom.
  const plan = await alice.askPath("hero", [1, 7]);
  const { exits } = await alice.askExits("hero", plan.path);
  assert.ok(exits.length >= 1);
  await alice.move("hero", plan.path);
  // The GM declines every attack of opportunity: each leaves its mark all the same.
  while (alice.view.combat.moving) {
    await waitFor(() => gm.myPrompts().length > 0 || !gm.view.combat.moving);
    for (const prompt of gm.myPrompts()) await gm.answerPrompt(prompt.prompt, false);
    await waitFor(() => gm.view.lastEvent === alice.view.lastEvent);
  }
  await waitFor(() => alice.view.lastMove?.end === "completed");

  const last = alice.view.lastMove;
  assert.equal(last.token, "hero");
  assert.deepEqual(last.path, [[4, 5], ...plan.path]);
  assert.deepEqual(last.at, plan.path.at(-1));
  assert.equal(typeof last.cost, "number");
  assert.ok(interruptions.length >= 1, "the move was interrupted at least once");
  assert.deepEqual(last.exits, interruptions.map((d) => ({ by: d.by, at: d.at, point: d.exit_point })));
  // The first stop is the first exit the bridge foresaw, at the same exact point.
  assert.deepEqual([last.exits[0].by, last.exits[0].point], [exits[0].by, exits[0].point]);
  assert.deepEqual(alice.view.prompts, {}, "no prompt open: the marks are the move's, not a prompt's");

  // The Phase ends: the marks stay ...
  await alice.endPhase("hero");
  await waitFor(() => alice.view.combat.actor !== "hero");
  assert.deepEqual(alice.view.lastMove, last);
  assert.deepEqual(gm.view.lastMove, last, "every page folds the same last move");

  // ... until the next move, which starts afresh.
  const mover = alice.view.combat.actor;
  const { x, y } = alice.view.tokens[mover];
  await gm.move(mover, [[x, y + 1]]);
  await waitFor(() => alice.view.lastMove?.token === mover && alice.view.lastMove.end !== "moving");
  assert.deepEqual(alice.view.lastMove.path, [[x, y], [x, y + 1]]);
  assert.deepEqual(alice.view.lastMove.exits, []);
});
