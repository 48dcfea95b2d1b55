// A fight through the extension against a real bridge: items shaped like Owlbear's, drags
// dropped off-centre whose lines pass no cell corner, the pause where the hero leaves the
// ogre's reach, the GM's prompt popover, the rest of the move, a refused drag put back.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { startBridge } from "../../../clients/js/test/helpers.js";
import { COMMAND_CHANNEL, PROMPT_POPOVER_ID, STATE_CHANNEL } from "../src/messages.js";
import { OwlbearTable, waitUntil } from "./driver.js";

let bridge;
/** @type {OwlbearTable} */
let table;

before(async () => {
  bridge = await startBridge({ tables: ["owl"] });
});

after(async () => {
  await table?.close();
  await bridge?.stop();
});

const kinds = (/** @type {{kind: string}[]} */ events) => events.map((e) => e.kind);

test("a fight played by dragging Owlbear items", async () => {
  table = await OwlbearTable.open({ url: bridge.url, tokens: bridge.tables.owl });
  table.addMap(12, 12);
  table.addToken({ id: "ogre", name: "Ogre", owner: "gm", side: "monsters", x: 5, y: 5, size: 1, reach: 1, movement: 6,
    stats: { ocv: 5, dcv: 3, init: 12 } });
  table.addToken({ id: "hero", name: "Hero", owner: "alice", side: "heroes", x: 4, y: 5, size: 1, reach: 1, movement: 6,
    stats: { ocv: 6, dcv: 4, init: 14 } });
  table.addToken({ id: "wolf", name: "Wolf", owner: "bob", side: "heroes", x: 1, y: 1, size: 1, reach: 1, movement: 6,
    stats: { ocv: 4, dcv: 4, init: 10 } });
  table.addWall([8, 0], [8, 4]);

  // The GM's Send scene: the bridge has every linked token on the cell Owlbear shows.
  await table.sendScene();
  const gm = table.client("gm");
  assert.deepEqual(gm.view.scene.grid, {
    kind: "square", cell_size: 1, unit: "m", width: 12, height: 12, diagonal: "one",
    offset: gm.view.scene.grid.offset, vtt: gm.view.scene.grid.vtt,
  });
  assert.equal(gm.view.scene.grid.vtt.kind, "owlbear");
  assert.equal(gm.view.scene.grid.vtt.grid_size, 150);
  assert.deepEqual([gm.view.tokens.hero.x, gm.view.tokens.hero.y], [4, 5]);
  assert.deepEqual([gm.view.tokens.ogre.x, gm.view.tokens.ogre.y], [5, 5]);
  assert.deepEqual(gm.view.scene.walls.map((w) => [w.a, w.b]), [[[8, 0], [8, 4]]]);

  await table.startCombat("hero-supplement", { seed: 7 });
  assert.deepEqual(gm.view.combat.order, ["hero", "ogre", "wolf"]);

  // Alice's popover learns the order through the LOCAL broadcast.
  const alice = table.player("alice");
  const states = [];
  alice.obr.broadcast.onMessage(STATE_CHANNEL, ({ data }) => states.push(data));
  alice.adapter.publish();
  await waitUntil(() => states.length > 0);
  assert.deepEqual(states.at(-1).combat.order.map((o) => [o.name, o.acting, o.mine]),
    [["Hero", true, true], ["Ogre", false, false], ["Wolf", false, false]]);

  // Bob drags the wolf out of turn: refused, put back on its cell, told why.
  const wolfBefore = table.room.item("wolf").position;
  await table.drag("bob", "wolf", [3.37, 1.81]);
  assert.deepEqual(await table.cell("wolf"), [1, 1]);
  assert.deepEqual(table.room.item("wolf").position, wolfBefore);
  assert.match(table.player("bob").obr.calls.notifications.at(-1).message, /^Wolf: it is 'hero''s Phase \(Turn 1, Phase 1\)/);

  // Alice drags the hero from [4, 5] to drop its centre at (2.62, 4.31): cell [2, 4], a
  // line from (4.5, 5.5) that crosses no cell corner. It leaves the ogre's reach: paused.
  const first = table.events.length;
  await table.drag("alice", "hero", [2.62, 4.31]);
  const paused = table.events.slice(first);
  assert.deepEqual(kinds(paused), ["move_started", "move_interrupted", "prompt_opened"]);
  const [started, interrupted] = paused;
  assert.deepEqual([started.data.start, started.data.path], [[4, 5], [[3, 5], [2, 4]]]);
  assert.equal(interrupted.data.by, "ogre");
  // The item stands where the bridge paused it, not where it was dropped.
  assert.deepEqual(await table.cell("hero"), interrupted.data.at);
  assert.deepEqual(table.room.item("hero").position,
    { x: (interrupted.data.at[0] + 0.5) * 150, y: (interrupted.data.at[1] + 0.5) * 150 });
  // The ogre's controller, the GM, gets the prompt popover; Alice does not.
  const gmCalls = table.player("gm").obr.calls;
  assert.equal(gmCalls.popovers.at(-1).op, "open");
  assert.equal(gmCalls.popovers.at(-1).id, PROMPT_POPOVER_ID);
  assert.equal(gmCalls.badges.at(-1), "1");
  assert.equal(alice.obr.calls.popovers.length, 0);

  // The GM attacks from the popover; then the rest of the move: the hero ends on [2, 4].
  const resumed = table.events.length;
  await table.answer("gm", true);
  await waitUntil(() => table.events.slice(resumed).some((e) => e.kind === "move_completed"));
  await table.settle();
  const rest = kinds(table.events.slice(resumed));
  assert.equal(rest[0], "prompt_closed");
  assert.ok(rest.includes("attack_rolled"), rest.join(" "));
  assert.equal(rest.at(-1), "move_completed");
  assert.deepEqual(table.events.at(-1).data.at, [2, 4]);
  assert.deepEqual(await table.cell("hero"), [2, 4]);
  assert.deepEqual(table.room.item("hero").position, { x: 2.5 * 150, y: 4.5 * 150 });
  assert.deepEqual(gmCalls.popovers.at(-1), { op: "close", id: PROMPT_POPOVER_ID });

  // Every client agrees, and nothing was sent twice.
  for (const p of table.players.values()) assert.deepEqual([p.client.view.tokens.hero.x, p.client.view.tokens.hero.y], [2, 4]);
  assert.equal(alice.adapter.movesSent, 1);
  assert.equal(alice.adapter.lastSent?.token, "hero");
  assert.equal(table.player("gm").adapter.movesSent, 0);

  // Alice ends her Phase from the popover; the ogre acts and the GM moves it.
  await table.endPhase("alice", "hero");
  assert.equal(gm.view.combat.actor, "ogre");
  await table.drag("gm", "ogre", [6.71, 7.42]);
  assert.equal(table.events.at(-1).kind, "move_completed");
  assert.deepEqual(await table.cell("ogre"), [6, 7]);

  // The GM's bypass: a clean-up drag is neither sent nor put back; afterwards "Put tokens
  // where the bridge has them" returns the ogre to its bridge cell.
  const gmPlayer = table.player("gm");
  const sentBefore = gmPlayer.adapter.movesSent;
  await gmPlayer.obr.broadcast.sendMessage(COMMAND_CHANNEL, { op: "bypass", on: true }, { destination: "LOCAL" });
  await waitUntil(() => gmPlayer.adapter.bypass);
  await table.room.drag(gmPlayer.obr, "ogre", { x: 10.5 * 150, y: 1.5 * 150 });
  await table.settle();
  assert.equal(gmPlayer.adapter.movesSent, sentBefore);
  assert.deepEqual(await table.cell("ogre"), [10, 1]);
  assert.deepEqual([gm.view.tokens.ogre.x, gm.view.tokens.ogre.y], [6, 7]);
  await gmPlayer.obr.broadcast.sendMessage(COMMAND_CHANNEL, { op: "bypass", on: false }, { destination: "LOCAL" });
  await gmPlayer.obr.broadcast.sendMessage(COMMAND_CHANNEL, { op: "place_all" }, { destination: "LOCAL" });
  await waitUntil(() => table.room.item("ogre").position.x === 6.5 * 150);
  assert.deepEqual(await table.cell("ogre"), [6, 7]);

  // The GM's "End combat" in the popover ends the bridge's fight; a second can start.
  await gmPlayer.obr.broadcast.sendMessage(COMMAND_CHANNEL, { op: "end_combat" }, { destination: "LOCAL" });
  await waitUntil(() => gm.view.combat === null);
  await table.settle();
  assert.equal(table.events.at(-1).kind, "combat_ended");
  assert.deepEqual(table.events.at(-1).data, { reason: "ended in Owlbear" });
  assert.equal(table.client("alice").view.combat, null);
  assert.equal(gmPlayer.adapter.error, null);
  await table.startCombat("hero-supplement", { seed: 8 });
  assert.ok(gm.view.combat);

  // No join token, nor anything else, was written to room, scene or player metadata.
  assert.deepEqual(table.room.metadataWrites, []);
});
