// A whole fight through the library against a real bridge: scene, combat, a move out of
// reach, the attack of opportunity prompt answered by the GM, the end of the Phase.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { BridgeClient, BridgeError, clockLabel, endActionLabel } from "../src/index.js";
import { comparable, startBridge, waitFor } from "./helpers.js";

/** The Hero supplement's 1 m square grid: an ogre, the hero next to it, a wolf away. */
const SCENE = {
  grid: { kind: "square", cell_size: 1, unit: "m", width: 12, height: 12 },
  tokens: [
    { id: "ogre", name: "Ogre", owner: "gm", side: "monsters", x: 5, y: 5, size: 1, reach: 1, movement: 6,
      stats: { ocv: 5, dcv: 3, init: 12 } },
    { id: "hero", name: "Hero", owner: "alice", side: "heroes", x: 4, y: 5, size: 1, reach: 1, movement: 6,
      stats: { ocv: 6, dcv: 4, init: 14 } },
    { id: "wolf", name: "Wolf", owner: "bob", side: "heroes", x: 1, y: 1, size: 1, reach: 1, movement: 6,
      stats: { ocv: 4, dcv: 4, init: 10 } },
  ],
  walls: [{ id: "w1", a: [8, 0], b: [8, 4], blocks_move: true, blocks_sight: true, door: "none" }],
  terrain: [],
};

let bridge;
const clients = [];

/** @param {string} who @param {Partial<import("../src/client.js").ClientOptions>} [options] */
async function join(who, options = {}) {
  const client = new BridgeClient(bridge.url, { token: bridge.tables.fight[who], ...options });
  clients.push(client);
  await client.connect();
  return client;
}

before(async () => {
  bridge = await startBridge({ tables: ["fight"] });
});

after(async () => {
  for (const client of clients) client.close();
  await bridge?.stop();
});

test("a whole fight through the library", async () => {
  const gm = await join("gm");
  const alice = await join("alice", { binary: true });
  const bob = await join("bob", { batch: false });
  assert.equal(gm.welcome.role, "gm");
  assert.equal(alice.welcome.participant, "alice");
  assert.equal(alice.view.lastEvent, -1);
  assert.equal(alice.view.scene, null);

  const seen = [];
  alice.on("event", (event) => seen.push(event.index));
  const moves = [];
  bob.on("event:move_completed", (data) => moves.push(data));

  // The scene: every member's view has it once the GM's command is acknowledged.
  const loaded = await gm.loadScene(SCENE);
  assert.deepEqual([loaded.first_event, loaded.last_event], [0, 0]);
  assert.equal(gm.view.tokens.hero.x, 4);
  assert.deepEqual(gm.view.tokens.ogre.stats, { ocv: 5, dcv: 3, init: 12 });
  await waitFor(() => alice.view.lastEvent === 0 && bob.view.lastEvent === 0);
  assert.deepEqual(alice.view.scene.walls.map((w) => w.id), ["w1"]);

  // Alice may not roll her hero's initiative die at this table (the GM sends the dice);
  // the GM's own, for a character that ties with nobody, are taken back before the start.
  await assert.rejects(alice.rollInitiative("hero", [3]), (err) => err.code === "dice_refused");
  await gm.rollInitiative("hero", [3]);
  await gm.rollInitiative("hero", null);

  // Combat: initiative by INIT, the hero first.
  await gm.startCombat("hero-supplement", { seed: 7 });
  assert.deepEqual(gm.view.combat.order, ["hero", "ogre", "wolf"]);
  assert.equal(gm.view.combat.actor, "hero");
  assert.deepEqual(gm.view.combat.clock, { at: { turn: 1, phase: 1 }, label: "Turn 1, Phase 1" });
  assert.equal(clockLabel(gm.view.combat), "Turn 1, Phase 1");
  assert.equal(endActionLabel(gm.view.combat, "Hero"), "End Hero's Phase");

  // Asking changes nothing and is answered in kind.
  const plan = await alice.askPath("hero", [1, 5]);
  assert.equal(plan.token, "hero");
  assert.deepEqual(plan.path.at(-1), [1, 5]);
  const options = await alice.askOptions("hero");
  assert.equal(options.can_act, true);
  // What the ogre cannot do, each with the refusal its command would get.
  const ogre = await gm.askOptions("ogre");
  assert.equal(ogre.can_act, false);
  assert.deepEqual(ogre.available, ["abort"]); // out of turn, only an abort
  const attack = ogre.unavailable.find((u) => u.action === "attack");
  assert.equal(attack?.code, "not_your_turn");
  await assert.rejects(gm.act("ogre", "attack", { target: "hero" }), (err) => err.code === attack.code);
  // What the ogre threatens, and where the hero's path would be stopped: the bridge's
  // answers, the same for a player and anyone else.
  const threat = await bob.askThreat("ogre");
  assert.equal(threat.cells.length, 8); // 1 m reach on a 1 m grid: the eight around it
  assert.deepEqual(threat.attacks, ["hero", "wolf"]);
  assert.equal(threat.outline.length, 1); // one ring: the 3 x 3 cells from (4, 4) to (7, 7)
  assert.deepEqual(threat.outline[0].map(String).sort(), ["4,4", "4,7", "7,4", "7,7"]);
  const exits = await alice.askExits("hero", plan.path);
  assert.deepEqual(exits.exits.map((e) => [e.kind, e.by, e.at]), [["attack_of_opportunity", "ogre", [4, 5]]]);
  await assert.rejects(alice.askThreat("dragon"), (err) => err instanceof BridgeError && err.code === "unknown_token");

  // A refused command rejects with a typed error and changes nothing.
  const before = alice.view.lastEvent;
  await assert.rejects(bob.move("hero", [[3, 5]]), (err) => {
    assert.ok(err instanceof BridgeError);
    assert.ok(err.code.length > 0);
    assert.equal(err.type, "move");
    return true;
  });
  await assert.rejects(alice.move("hero", [[3, "x"]]), (err) => {
    assert.equal(err.code, "bad_type");
    assert.equal(err.path, "body.path[0][1]");
    return true;
  });
  assert.equal(alice.view.lastEvent, before);

  // The hero walks away from the ogre: the move stops where it leaves reach, and the
  // GM, who controls the ogre, is asked, with a deadline.
  const prompted = new Promise((resolve) => gm.on("prompt", resolve));
  await alice.move("hero", plan.path);
  const prompt = await prompted;
  assert.equal(prompt.kind, "attack_of_opportunity");
  assert.equal(prompt.attacker, "ogre");
  assert.equal(prompt.target, "hero");
  assert.equal(prompt.controller, "gm");
  assert.ok(prompt.deadlineMs > Date.now() - 1000);
  assert.ok(BridgeClient.remainingMs(prompt) > 0);
  assert.deepEqual(gm.myPrompts().map((p) => p.prompt), [prompt.prompt]);
  assert.deepEqual(alice.myPrompts(), []);
  // Not alice's to answer, but she waits on it with the same countdown (prompt_waiting).
  await alice.until((v) => v.prompts[prompt.prompt]?.deadlineMs != null, 10_000);
  assert.equal(alice.view.prompts[prompt.prompt].deadlineMs, prompt.deadlineMs);
  assert.deepEqual(alice.waitingPrompts().map((p) => p.prompt), [prompt.prompt]);
  assert.equal(alice.view.combat.moving.token, "hero");

  // The GM takes the attack; a hit asks whether the hero can go on: yes.
  await gm.answerPrompt(prompt.prompt, true);
  for (const next of gm.myPrompts()) {
    assert.equal(next.kind, "continue_after_hit");
    await gm.answerPrompt(next.prompt, true);
  }
  await waitFor(() => alice.view.combat.moving === null && bob.view.tokens.hero.x === 1);
  assert.deepEqual([alice.view.tokens.hero.x, alice.view.tokens.hero.y], [1, 5]);
  assert.deepEqual(alice.view.prompts, {});
  assert.deepEqual(moves.map((m) => m.token), ["hero"]);

  // End of the hero's Phase: the ogre is up, on every page.
  await alice.endPhase("hero");
  await waitFor(() => gm.view.lastEvent === alice.view.lastEvent && bob.view.lastEvent === alice.view.lastEvent);
  for (const client of [gm, alice, bob]) assert.equal(client.view.combat.actor, "ogre");

  // A ruleset action by name (`act`): the ogre delays; every view holds it.
  await gm.act("ogre", "delay", {});
  await waitFor(() => bob.view.lastEvent === gm.view.lastEvent);
  for (const client of [gm, alice, bob]) assert.equal(client.view.combat.holds.ogre?.kind, "delay");
  await assert.rejects(gm.act("wolf", "no_such_action"), (err) => err instanceof BridgeError && err.type === "act");

  // A lasting effect, started and ended by the GM; one more stays for the late join.
  await gm.setEffect("smoke", null, 1);
  const [smoke] = Object.values(gm.view.combat.effects);
  assert.deepEqual([smoke.name, smoke.token, smoke.source], ["smoke", null, "gm"]);
  await gm.endEffect(smoke.effect);
  assert.deepEqual(gm.view.combat.effects, {});
  await gm.setEffect("blessed", "hero");
  await waitFor(() => alice.view.lastEvent === gm.view.lastEvent && bob.view.lastEvent === gm.view.lastEvent);
  assert.deepEqual(Object.values(alice.view.combat.effects).map((e) => [e.name, e.token]), [["blessed", "hero"]]);


  // Every event reached alice once, in order.
  assert.deepEqual(seen, Array.from({ length: alice.view.lastEvent + 1 }, (_, i) => i));

  // What the three folded is what the bridge itself holds: a fresh join's full state.
  const late = await join("gm");
  assert.equal(late.view.lastEvent, alice.view.lastEvent);
  for (const client of [gm, alice, bob]) assert.deepEqual(comparable(client.view), comparable(late.view));

  // The GM brings a bat in and takes the wolf out, off the scene too.
  await gm.joinCombat({ id: "bat", name: "Bat", owner: "gm", side: "monsters", x: 10, y: 10, size: 1, reach: 1,
    movement: 6, stats: { ocv: 3, dcv: 5, init: 9 } });
  assert.ok(gm.view.combat.order.includes("bat"));
  // No event carries the newcomer's spec: the fold knows its id and cell, a fresh
  // state (a join, a reconnect) the rest.
  assert.deepEqual([gm.view.tokens.bat.x, gm.view.tokens.bat.y], [10, 10]);
  await gm.leaveCombat("wolf", true);
  assert.ok(!gm.view.combat.order.includes("wolf"));
  assert.equal(gm.view.tokens.wolf, undefined);

  // The GM changes the bat's sheet and walls the map, mid-fight: the fold follows, and
  // holds what a fresh join is sent.
  await gm.setStats("bat", { ocv: 4 });
  assert.equal(gm.view.tokens.bat.stats.ocv, 4);
  const wall = { id: "w9", a: [0, 0], b: [0, 5], blocks_move: true, blocks_sight: true, door: "none" };
  await gm.editScene({ walls: [wall] });
  assert.deepEqual(gm.view.scene.walls, [wall]);
  await waitFor(() => alice.view.lastEvent === gm.view.lastEvent);
  const after = await join("gm");
  assert.deepEqual(comparable(alice.view), comparable(after.view));

  const pong = await gm.ping();
  assert.deepEqual(pong, {});
});

test("a bad join token rejects connect() and closes the client", async () => {
  const client = new BridgeClient(bridge.url, { token: "no-such-token" });
  await assert.rejects(client.connect(), (err) => err.code === "bad_token");
  assert.equal(client.status, "closed");
  await assert.rejects(client.ping(), (err) => err.code === "closed");
});

test("values without a wire form are refused before sending", async () => {
  const gm = await join("gm");
  assert.throws(() => gm.send("set_door", { wall: "w1", open: new Date() }), TypeError);
  assert.throws(() => gm.send("move", { token: "hero", path: [[NaN, 1]] }), /not a wire number/);
});
