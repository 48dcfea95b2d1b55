// The hook wiring in Foundry-shaped clients (foundry-sim.js: one recording Hooks per
// client, Foundry's pre/post hook order) against a real bridge: who sends what, the
// module's own placements not re-entering its hook, the GM's bypass, doors, names.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { startBridge } from "../../../clients/js/test/helpers.js";
import { makeFoundryAdapter } from "../../demo/foundry-adapter.js";
import { countdown } from "../src/prompts.js";
import { waitFor } from "../../demo/runner.js";

const script = {
  ruleset: "hero-supplement",
  seed: 3,
  grid: { columns: 12, rows: 10, cell_size: 1, unit: "m" },
  users: [{ name: "gm", gm: true }, { name: "alice" }, { name: "bob" }],
  tokens: [
    { id: "hero", name: "Hero", owner: "alice", side: "heroes", cell: [1, 5], size: 1, reach: 1, movement: 6, stats: { ocv: 6, dcv: 4, init: 14 } },
    { id: "ogre", name: "Ogre", owner: "gm", side: "monsters", cell: [8, 5], size: 1, reach: 1, movement: 6, stats: { ocv: 5, dcv: 3, init: 12 } },
    { id: "wolf", name: "Wolf", owner: "bob", side: "heroes", cell: [1, 1], size: 1, reach: 1, movement: 6, stats: { ocv: 4, dcv: 4, init: 10 } },
    { id: "lurker", name: "Lurker", owner: "gm", side: "monsters", cell: [10, 8], size: 1, reach: 1, movement: 6, stats: { ocv: 3, dcv: 3, init: 8 }, hidden: true },
  ],
  walls: [{ id: "d1", a: [6, 0], b: [6, 3], door: "closed" }],
  steps: [],
};

let bridge;
const adapters = [];
before(async () => {
  bridge = await startBridge({ tables: ["v13", "v12", "threat", "skew", "ending", "settings", "fly13", "fly12"] });
});
after(async () => {
  for (const a of adapters) await a.close();
  await bridge?.stop();
});

async function table(generation, fight = script, name = `v${generation}`) {
  const adapter = await makeFoundryAdapter({ script: fight, bridgeUrl: bridge.url, gmToken: bridge.tables[name].gm, generation });
  adapters.push(adapter);
  await adapter.setup();
  await adapter.settle();
  return adapter;
}

const cellOf = (adapter, id) => adapter.positions()[id];
const preMoves = (seat) => seat.foundry.Hooks.calls.filter((c) => c.name === "preMoveToken").map((c) => c.result);

test("v13: one drag, one move_points, from the mover's client only; its placement passes its own hook", async () => {
  const a = await table(13);
  const [gm, alice, bob] = ["gm", "alice", "bob"].map((n) => a.seats.get(n));
  assert.equal(alice.foundry.Hooks.count("preMoveToken"), 1);
  assert.equal(alice.foundry.Hooks.count("preUpdateToken"), 0);
  // Players never send the scene, even when their canvas is ready.
  const seq = alice.bridge.seq;
  alice.foundry.Hooks.callAll("canvasReady", {});
  await a.settle();
  assert.equal(alice.bridge.seq, seq);
  // Hidden tokens go without their name; the module names them only for the GM.
  const lurker = a.tokenIds.get("lurker");
  assert.equal(gm.bridge.view.tokens[lurker].name, "");
  assert.equal(alice.parts.desk.io.nameOf(lurker), "someone");
  assert.equal(gm.parts.desk.io.nameOf(lurker), "Lurker");

  await a.step({ do: "start", user: "gm" });
  await a.settle();
  const [gmSeq, bobSeq] = [gm.bridge.seq, bob.bridge.seq];
  await a.step({ do: "drag", user: "alice", token: "hero", through: [[2.3, 5.2], [3.4, 4.8]] });
  await a.settle();
  assert.deepEqual(cellOf(a, "hero"), [3, 5]);
  assert.deepEqual(preMoves(alice), [false, true]); // the drag refused, the placement let through
  assert.deepEqual(preMoves(gm), []);
  assert.deepEqual([gm.bridge.seq, bob.bridge.seq], [gmSeq, bobSeq]); // nobody else sent anything
  assert.equal(a.events().filter((e) => e.kind === "move_started").length, 1);

  // Not her turn any more: the bridge refuses, Foundry's token stays, she is told why.
  await a.step({ do: "end_turn", user: "alice" });
  await a.settle();
  await a.step({ do: "drag", user: "alice", token: "hero", through: [[4.2, 5.1]] });
  await a.settle();
  assert.deepEqual(cellOf(a, "hero"), [3, 5]);
  assert.match(alice.notes.at(-1).text, /not_your_turn|refused/);

  // Bob may not end the ogre's action; the tracker's button does nothing for him.
  const before = bob.bridge.seq;
  await a.step({ do: "end_turn", user: "bob" });
  await a.settle();
  assert.equal(bob.bridge.seq, before);
  assert.equal(a.events().filter((e) => e.kind === "combatant_acts").at(-1).data.combatant, "ogre");

  // A move the mover's Foundry client does not place (made with the client library
  // directly, as after a reload mid-move): the active GM puts the token there.
  const wolf = a.tokenIds.get("wolf");
  await gm.bridge.send("end_phase", { token: a.tokenIds.get("ogre") });
  const { x, y } = a.world.tokenData(wolf);
  await bob.bridge.movePoints(wolf, [[x + 200, y + 100]]);
  await new Promise((r) => setTimeout(r, 400));
  await a.settle();
  assert.deepEqual(cellOf(a, "wolf"), [gm.bridge.view.tokens[wolf].x, gm.bridge.view.tokens[wolf].y]);
  assert.deepEqual(cellOf(a, "wolf"), [3, 2]);
  await a.step({ do: "end_turn", user: "bob" });
  await a.settle();

  // The GM's bypass: a clean-up move out of turn goes through Foundry, not the bridge.
  gm.keys.bypass = true;
  await a.step({ do: "drag", user: "gm", token: "lurker", through: [[9, 8]] });
  gm.keys.bypass = false;
  await a.settle();
  assert.deepEqual(cellOf(a, "lurker"), [9, 8]);
  assert.deepEqual([gm.bridge.view.tokens[lurker].x, gm.bridge.view.tokens[lurker].y], [10, 8]);
  assert.match(gm.notes.at(-1).text, /outside the bridge/);
  // Token moves in a fight are not scene edits: the GM was never told edits must wait.
  assert.ok(!gm.notes.some((n) => /edits reach the bridge/.test(n.text)));

  // A door opened in Foundry during the fight opens on the bridge.
  const door = a.world.sceneData.walls[0];
  a.world.updateWall(gm.foundry, door._id, { ds: 1 });
  await a.settle();
  assert.deepEqual(a.events().at(-1), { kind: "door_changed", data: { wall: "d1", open: true } });

  // The tracker shows the bridge's order and whose action it is, on every client.
  const combat = bob.foundry.findCombat(a.world.sceneData._id);
  assert.deepEqual(combat.turns.map((c) => [...a.tokenIds].find(([, id]) => id === c.tokenId)[0]), ["hero", "ogre", "wolf", "lurker"]);
  assert.equal(combat.turns[combat.turn].tokenId, a.tokenIds.get("lurker"));
  assert.equal(combat.flags["vtt-bridge"].label, "Turn 1, Phase 1");
});

test("v12: preUpdateToken instead, and the same refusal and placement", async () => {
  const a = await table(12);
  const alice = a.seats.get("alice");
  assert.equal(alice.foundry.Hooks.count("preMoveToken"), 0);
  assert.equal(alice.foundry.Hooks.count("preUpdateToken"), 1);
  await a.step({ do: "start", user: "gm" });
  await a.settle();
  await a.step({ do: "drag", user: "alice", token: "hero", through: [[3.4, 4.8]] });
  await a.settle();
  assert.deepEqual(cellOf(a, "hero"), [3, 5]);
  const updates = alice.foundry.Hooks.calls.filter((c) => c.name === "preUpdateToken").map((c) => c.result);
  assert.deepEqual(updates, [false, true]);
});

/** The script with the hero given Flight 10 (the Hero supplement's `flight` stat). */
function flightFight() {
  const fight = structuredClone(script);
  fight.tokens.find((t) => t.id === "hero").stats.flight = 10;
  return fight;
}

test("v13: a drag whose waypoints rise is a flight: the heights go to the bridge, the token lands at its height", async () => {
  const a = await table(13, flightFight(), "fly13");
  const [gm, alice] = ["gm", "alice"].map((n) => a.seats.get(n));
  await a.step({ do: "start", user: "gm" });
  await a.settle();
  const hero = a.tokenIds.get("hero");
  await a.step({ do: "drag", user: "alice", token: "hero", through: [[2, 5], [3, 5]], heights: [1, 2] });
  await a.settle();
  await waitFor(() => gm.bridge.view.tokens[hero]?.elevation === 2, 5_000, "the flight on the bridge");
  assert.deepEqual(cellOf(a, "hero"), [3, 5]);
  await waitFor(() => gm.foundry.token(hero).elevation === 2, 5_000, "the token's height in Foundry");
  // The wolf has no Flight: its climbing drag is refused and it stays on the ground.
  await gm.bridge.send("end_phase", { token: hero });
  await a.settle();
  const wolf = a.tokenIds.get("wolf");
  const bob = a.seats.get("bob");
  while (gm.bridge.view.combat.actor !== wolf) {
    await gm.bridge.send("end_phase", { token: gm.bridge.view.combat.actor });
    await a.settle();
  }
  await a.step({ do: "drag", user: "bob", token: "wolf", through: [[2, 1]], heights: [3] });
  await a.settle();
  await waitFor(() => bob.notes.some((n) => /no Flight/.test(n.text)), 5_000, "the refusal");
  assert.equal(gm.foundry.token(wolf).elevation, 0);
  assert.deepEqual(cellOf(a, "wolf"), [1, 1]);
  assert.equal(alice.foundry.token(hero).elevation, 2);
});

test("v12: a change of elevation alone is a flight in place", async () => {
  const a = await table(12, flightFight(), "fly12");
  const gm = a.seats.get("gm");
  await a.step({ do: "start", user: "gm" });
  await a.settle();
  const hero = a.tokenIds.get("hero");
  const doc = a.seats.get("alice").foundry.token(hero);
  await doc.update({ elevation: 3 });
  await a.settle();
  await waitFor(() => gm.bridge.view.tokens[hero]?.elevation === 3, 5_000, "the climb on the bridge");
  assert.deepEqual(cellOf(a, "hero"), [1, 5]);
  await waitFor(() => gm.foundry.token(hero).elevation === 3, 5_000, "the token's height in Foundry");
});

/** The script with the lurker gone and the ogre bob's, next to the hero. */
function threatFight() {
  const fight = structuredClone(script);
  fight.tokens = fight.tokens.filter((t) => t.id !== "lurker");
  Object.assign(fight.tokens.find((t) => t.id === "ogre"), { owner: "bob", side: "monsters", cell: [2, 5] });
  return fight;
}

test("a player's threatener: only its player gets the dialog, with the deadline; the move then finishes", async () => {
  const a = await table(13, threatFight(), "threat");
  const [gm, alice, bob] = ["gm", "alice", "bob"].map((n) => a.seats.get(n));
  await a.step({ do: "start", user: "gm" });
  await a.settle();
  await a.step({ do: "drag", user: "alice", token: "hero", through: [[0.2, 5.3], [0.3, 7.2]] });
  await a.settle();
  assert.equal(alice.parts.tracker.phase(a.tokenIds.get("hero")), "paused");
  assert.deepEqual([gm.dialogs.length, alice.dialogs.length, bob.dialogs.length], [0, 0, 1]);
  const dialog = bob.dialogs[0];
  assert.equal(dialog.model.text, "Ogre may attack Hero, who is leaving its reach"); // the Hero rules' words, the bridge's
  assert.ok(dialog.model.localDeadlineMs > performance.now());
  // The mover and the GM see in their trackers whom the fight waits on, with the same
  // countdown (the bridge's prompt_waiting); bob's own prompt is his dialog, not a line.
  for (const seat of [alice, gm]) {
    const [line, ...more] = seat.parts.waiting();
    assert.deepEqual(more, []);
    assert.equal(line.prompt, dialog.model.id);
    const seconds = Number(/^Waiting on bob: Ogre may attack Hero, who is leaving its reach \((\d+) s\)$/.exec(line.text)?.[1]);
    assert.ok(seconds > 20 && seconds <= 30, line.text);
  }
  assert.deepEqual(bob.parts.waiting(), []);
  dialog.open = false; // a button click closes a DialogV2
  await dialog.answer(false);
  await a.settle();
  assert.deepEqual(bob.parts.desk.pending(), []); // the bridge's prompt_closed
  assert.deepEqual(alice.parts.waiting(), []);
  assert.deepEqual(cellOf(a, "hero"), [0, 7]);
  assert.equal(alice.parts.tracker.phase(a.tokenIds.get("hero")), "idle");
});

test("a player's computer clock minutes fast: the dialog counts down the time the bridge gave", async () => {
  const realNow = Date.now;
  Date.now = () => realNow() + 10 * 60_000; // every seat's clock, not the bridge's
  try {
    const a = await table(13, threatFight(), "skew");
    const bob = a.seats.get("bob");
    await a.step({ do: "start", user: "gm" });
    await a.settle();
    await a.step({ do: "drag", user: "alice", token: "hero", through: [[0.2, 5.3], [0.3, 7.2]] });
    await a.settle();
    const dialog = bob.dialogs[0];
    // By this clock the bridge's deadline passed minutes ago ...
    const prompt = bob.bridge.view.prompts[dialog.model.id];
    assert.ok(prompt.deadlineMs < Date.now() - 5 * 60_000);
    // ... but the dialog shows the table's 30 s prompt timeout, less the time since.
    const shown = countdown(dialog.model.localDeadlineMs);
    const seconds = Number(/^(\d+) s$/.exec(shown)?.[1]);
    assert.ok(seconds > 20 && seconds <= 30, shown);
    dialog.open = false;
    await dialog.answer(false);
    await a.settle();
    assert.deepEqual(bob.parts.desk.pending(), []);
  } finally {
    Date.now = realNow;
  }
});

test("End Combat in Foundry ends the bridge's fight; a fight the bridge ended takes Foundry's Combat", async () => {
  const a = await table(13, script, "ending");
  const gm = a.seats.get("gm");
  const sceneId = gm.foundry.scene()._id;
  await a.step({ do: "start", user: "gm" });
  await a.settle();
  const combat = gm.foundry.findCombat(sceneId);
  assert.ok(combat && gm.bridge.view.combat);
  // The tracker's "End Combat": Foundry deletes the Combat; the bridge's fight ends.
  a.world.deleteCombat(gm.foundry, combat.id);
  await a.settle();
  for (const { bridge: b } of a.seats.values()) assert.equal(b.view.combat, null);
  assert.deepEqual(a.events().filter((e) => e.kind === "combat_ended").map((e) => e.data), [{ reason: "ended in Foundry" }]);

  // A second fight starts from Foundry's "Begin Combat"; ended on the bridge (the table
  // view's button), the module deletes Foundry's Combat and sends nothing back.
  await a.step({ do: "start", user: "gm" });
  await a.settle();
  assert.ok(gm.foundry.findCombat(sceneId) && gm.bridge.view.combat);
  await gm.bridge.endCombat("from the table view");
  await a.settle();
  assert.equal(gm.foundry.findCombat(sceneId), null);
  assert.equal(a.events().filter((e) => e.kind === "combat_ended").length, 2);
  assert.deepEqual(gm.notes.filter((n) => n.level !== "info"), []);
});

test("Square Grid Diagonals: the world setting goes with the scene, and again when the GM changes it", async () => {
  const a = await table(13, script, "settings");
  const [gm, alice] = ["gm", "alice"].map((n) => a.seats.get(n));
  // The stored grid has no diagonals (fixtures.js); the rule comes from core.gridDiagonals.
  assert.equal("diagonals" in a.world.sceneData.grid, false);
  assert.equal(gm.bridge.view.scene.grid.diagonal, "one"); // EQUIDISTANT, Foundry's default
  const seq = alice.bridge.seq;
  a.world.updateSetting("core.gridDiagonals", 4); // ALTERNATING_1 (1/2/1)
  await waitFor(() => gm.bridge.view.scene.grid.diagonal === "alternating", 5000, "the scene sent again");
  await waitFor(() => alice.bridge.view.scene.grid.diagonal === "alternating", 5000, "the players' view");
  assert.equal(alice.bridge.seq, seq); // only the GM sends scenes
});

test("v14: a move to another level is refused in a fight, and never reaches the bridge", async () => {
  const a = await table(13, script, "settings");
  const alice = a.seats.get("alice");
  await a.step({ do: "start", user: "gm" });
  await a.settle();
  const id = a.tokenIds.get("hero");
  const doc = alice.foundry.token(id);
  // TokenPreMovementOperation as v14 passes it: origin and waypoints carry a `level` id.
  const wp = { x: doc.x + 100, y: doc.y, elevation: 0, width: 1, height: 1, depth: 1, shape: 4, level: "upstairs", action: "walk", snapped: true, explicit: true, checkpoint: true, intermediate: false };
  const movement = {
    id: "move1", chain: [], origin: { x: doc.x, y: doc.y, elevation: 0, width: 1, height: 1, depth: 1, shape: 4, level: "ground" },
    destination: wp, passed: { waypoints: [] }, pending: { waypoints: [wp] }, method: "dragging", split: false, subpathId: "sp1",
  };
  const seq = alice.bridge.seq;
  assert.equal(alice.foundry.Hooks.call("preMoveToken", doc, movement, {}), false);
  assert.equal(alice.bridge.seq, seq);
  assert.match(alice.notes.at(-1).text, /cannot change level/);
  // The same move on its own level goes to the bridge as before.
  const flat = { ...movement, destination: { ...wp, level: "ground" }, pending: { waypoints: [{ ...wp, level: "ground" }] } };
  assert.equal(alice.foundry.Hooks.call("preMoveToken", doc, flat, {}), false);
  await a.settle();
  assert.equal(a.events().filter((e) => e.kind === "move_started").length, 1);
});
