// The movement state machine and the waypoint conversions, with the Foundry side
// recorded (what the module asked Foundry and the bridge to do).

import assert from "node:assert/strict";
import { test } from "node:test";

import { sceneGrid } from "../src/grid.js";
import { MoveTracker, cellsToWaypoints, changesLevel, judgeDrag, movementElevations, movementPoints, updateElevations, updatePoints } from "../src/movement.js";
import "./i18n.js"; // the module in English (lang/en.json)

/** The Foundry and bridge sides of a tracker, recorded. */
function recorded({ refuse = null } = {}) {
  const log = [];
  const io = {
    send: async (token, points, elevations) => {
      log.push(elevations ? ["send", token, points, elevations] : ["send", token, points]);
      if (refuse) throw new Error(refuse);
      return { first_event: 1, last_event: 2 };
    },
    place: async (token, cells, heights) => {
      log.push(heights ? ["place", token, cells, heights] : ["place", token, cells]);
    },
    notify: (level, text) => log.push(["notify", level, text]),
  };
  return { log, tracker: new MoveTracker(io) };
}

test("judging a drag: own moves pass, fights go to the bridge, GM bypass, one move at a time", () => {
  const base = { own: false, inCombat: true, known: true, bypass: false, busy: false };
  const rows = [
    [{ own: true }, "allow"], // the module placing a token
    [{ inCombat: false }, "allow"], // no fight: Foundry moves, the GM resends the scene
    [{ known: false }, "allow"], // not on the bridge's scene
    [{ bypass: true }, "bypass"], // a GM clean-up move
    [{ busy: true }, "wait"], // its last move is not finished
    [{ otherLevel: true }, "level"], // v14: up or down a level, which the bridge has not
    [{ otherLevel: true, bypass: true }, "bypass"], // the GM may still move it by hand
    [{ otherLevel: true, inCombat: false }, "allow"],
    [{}, "send"],
  ];
  for (const [change, want] of rows) assert.equal(judgeDrag({ ...base, ...change }), want, JSON.stringify(change));
});

test("a move that leaves reach: paused where it leaves, the rest after the prompt", async () => {
  const { log, tracker } = recorded();
  await tracker.send("hero", [[260, 530], [120, 510]]);
  assert.equal(tracker.phase("hero"), "sent");
  tracker.event("move_started", { token: "hero", start: [4, 5], path: [[3, 5], [2, 5], [1, 5]], mode: "combat" });
  tracker.event("move_interrupted", { token: "hero", at: [3, 5], exit_point: [3.5, 5.5], by: "ogre" });
  assert.equal(tracker.phase("hero"), "paused");
  tracker.event("prompt_closed", { prompt: "p1", outcome: "accepted", by: "gm" }); // not the tracker's
  tracker.event("move_completed", { token: "hero", at: [1, 5], cost: 3, movement_left: 3 });
  await tracker.settled();
  assert.equal(tracker.phase("hero"), "idle");
  assert.deepEqual(log.filter((l) => l[0] !== "notify"), [
    ["send", "hero", [[260, 530], [120, 510]]],
    ["place", "hero", [[3, 5]]],
    ["place", "hero", [[2, 5], [1, 5]]],
  ]);
});

test("interrupted before the first step, stopped after a hit, refused: nothing placed wrongly", async () => {
  const a = recorded();
  await a.tracker.send("hero", [[0, 0]]);
  a.tracker.event("move_started", { token: "hero", start: [4, 5], path: [[3, 5], [2, 5]], mode: "combat" });
  a.tracker.event("move_interrupted", { token: "hero", at: [4, 5], exit_point: [4, 5.5], by: "ogre" });
  a.tracker.event("move_stopped", { token: "hero", at: [4, 5], reason: "hit" });
  await a.tracker.settled();
  assert.deepEqual(a.log.filter((l) => l[0] === "place"), []);
  assert.equal(a.tracker.busy("hero"), false);

  const b = recorded({ refuse: "not_your_turn" });
  assert.equal(await b.tracker.send("hero", [[0, 0]]), null);
  assert.equal(b.tracker.busy("hero"), false);
  assert.deepEqual(b.log.at(-1).slice(0, 2), ["notify", "warn"]);
  assert.match(b.log.at(-1)[2], /not_your_turn/);

  // Someone else's move is not this client's to place.
  b.tracker.event("move_completed", { token: "ogre", at: [1, 1], cost: 1, movement_left: 0 });
  assert.equal(b.log.filter((l) => l[0] === "place").length, 0);
});

test("v13 movement waypoints and v12 update changes as points", () => {
  const wp = (x, y) => ({ x, y, elevation: 0, width: 1, height: 1, shape: 4, action: "walk", snapped: false, explicit: true, checkpoint: true, intermediate: false, userId: "u", movementId: "m", cost: 0 });
  const movement = { passed: { waypoints: [wp(100, 0)] }, pending: { waypoints: [wp(200, 0), wp(250, 130)] }, destination: wp(250, 130) };
  assert.deepEqual(movementPoints(movement), [[100, 0], [200, 0], [250, 130]]);
  assert.deepEqual(movementPoints({ passed: { waypoints: [] }, pending: { waypoints: [] }, destination: wp(5, 6) }), [[5, 6]]);
  const doc = { x: 100, y: 200 };
  assert.deepEqual(updatePoints(doc, { x: 300 }), [[300, 200]]);
  assert.equal(updatePoints(doc, { hidden: true }), null);
  assert.equal(updatePoints(doc, { x: 100, y: 200 }), null);
});

test("a drag that changes the token's elevation is a flight: heights per waypoint, none on the level", () => {
  const wp = (x, y, elevation) => ({ x, y, elevation, width: 1, height: 1, shape: 4, action: "fly", snapped: true, explicit: true, checkpoint: true, intermediate: false });
  const flight = { origin: wp(0, 0, 0), passed: { waypoints: [wp(100, 0, 5)] }, pending: { waypoints: [wp(200, 0, 10)] }, destination: wp(200, 0, 10) };
  assert.deepEqual(movementElevations(flight, 0), [5, 10]);
  const level = { origin: wp(0, 0, 5), passed: { waypoints: [] }, pending: { waypoints: [wp(100, 0, 5)] }, destination: wp(100, 0, 5) };
  assert.equal(movementElevations(level, 5), null);
  // Straight up on the token's own square: its one waypoint is where it stands.
  const up = { origin: wp(0, 0, 0), passed: { waypoints: [] }, pending: { waypoints: [wp(0, 0, 10)] }, destination: wp(0, 0, 10) };
  assert.deepEqual([movementPoints(up), movementElevations(up, 0)], [[[0, 0]], [10]]);
  // v12: a change of elevation alone is a move where the token stands.
  const doc = { x: 100, y: 200, elevation: 0 };
  assert.deepEqual([updatePoints(doc, { elevation: 10 }), updateElevations(doc, { elevation: 10 })], [[[100, 200]], [10]]);
  assert.equal(updateElevations(doc, { x: 300 }), null);
  assert.equal(updatePoints(doc, { elevation: 0 }), null);
});

test("a flight's cells are placed at the heights the bridge's move_started gives", async () => {
  const { log, tracker } = recorded();
  await tracker.send("hero", [[300, 100]], [2, 2]);
  assert.deepEqual(log[0], ["send", "hero", [[300, 100]], [2, 2]]);
  tracker.event("move_started", { token: "hero", start: [1, 1], path: [[2, 1], [3, 1]], elevations: [1, 2] });
  tracker.event("move_interrupted", { token: "hero", at: [2, 1], elevation: 1 });
  tracker.event("move_completed", { token: "hero", at: [3, 1], elevation: 2 });
  await tracker.settled();
  assert.deepEqual(log.filter((l) => l[0] === "place"), [
    ["place", "hero", [[2, 1]], [1]],
    ["place", "hero", [[3, 1]], [2]],
  ]);
});

test("cells back to waypoints, on every grid type: square corners only, every hex", () => {
  const dims = { sceneX: 200, sceneY: 100, sceneWidth: 2000, sceneHeight: 2000, width: 2400, height: 2200 };
  for (const type of [1, 2, 3, 4, 5]) {
    const grid = sceneGrid({ grid: { type, size: 100, distance: 5 } }, dims);
    const toXY = (c) => grid.tokenXY(c);
    const cells = [[5, 4], [6, 4], [7, 4], [7, 5], [7, 6], [8, 7]];
    const square = type === 1;
    const got = cellsToWaypoints(cells, [4, 4], toXY, { square });
    const kept = square ? [[7, 4], [7, 6], [8, 7]] : cells; // hexes: every cell
    assert.deepEqual(got, kept.map(toXY), `grid type ${type}`);
    // Each waypoint is read back as its cell (what move_points does with it).
    for (const [k, w] of got.entries()) assert.deepEqual(grid.tokenCell(w.x, w.y), kept[k]);
  }
});

test("v14 levels: a move changes level when a waypoint's level is not the origin's; v13 moves never do", () => {
  // TokenPreMovementOperation: v14 gives origin, destination and every waypoint a `level` id.
  const at = (level) => ({ x: 100, y: 100, elevation: 0, width: 1, height: 1, depth: 1, shape: 4, level, action: "walk" });
  const move = (origin, ...waypoints) => ({ origin: at(origin), destination: waypoints.at(-1), passed: { waypoints: [] }, pending: { waypoints } });
  assert.equal(changesLevel(move("ground", at("ground"), at("ground"))), false);
  assert.equal(changesLevel(move("ground", at("ground"), at("cellar"))), true);
  assert.equal(changesLevel({ ...move("ground", at("ground")), passed: { waypoints: [at("roof")] } }), true);
  // v13: no level anywhere.
  const v13 = { origin: { x: 0, y: 0, elevation: 0, width: 1, height: 1, shape: 4 }, passed: { waypoints: [] }, pending: { waypoints: [{ x: 100, y: 0 }] } };
  assert.equal(changesLevel(v13), false);
});
