// Foundry documents (fixtures.js, shaped as Foundry stores them) -> load_scene and set_door.

import assert from "node:assert/strict";
import { test } from "node:test";

import { sceneGrid } from "../src/grid.js";
import { MODULE_ID, doorChange, drawingTerrain, nameFor, ownerOf, regionTerrain, sceneMessage, wallSpec } from "../src/scene.js";
import * as fx from "./fixtures.js";
import "./i18n.js"; // the module in English (lang/en.json)

const gm = fx.user({ name: "Gamemaster", role: 4 });
const alice = fx.user({ name: "Alice" });
const bob = fx.user({ name: "Bob" });
const users = [gm, alice, bob];

/** A 3000 x 2000 px scene, 100 px = 5 ft cells, 25% padding: sceneX 800, sceneY 500. */
function squareScene(extra = {}) {
  const data = fx.scene(extra);
  const dims = fx.squareDimensions(data);
  return { data, dims, grid: sceneGrid(data, dims) };
}

test("Scene#dimensions: padding rounds up to whole cells", () => {
  const { dims, grid } = squareScene();
  assert.deepEqual([dims.sceneX, dims.sceneY], [800, 500]);
  assert.deepEqual([grid.columns, grid.rows], [30, 20]);
});

test("tokens: cells, owner, side, flags, sizes; hidden names never sent", () => {
  const { data, dims, grid } = squareScene();
  const hers = fx.actor({ ownership: { default: 0, [alice._id]: 3 }, flags: { [MODULE_ID]: { reach: 10, stats: { ocv: 6 } } } });
  const monster = fx.actor({ flags: { [MODULE_ID]: {} } });
  const tokens = [
    fx.token({ name: "Alice's hero", x: dims.sceneX + 300, y: dims.sceneY + 400, disposition: 1 }),
    fx.token({ name: "Lurker", x: dims.sceneX + 1000, y: dims.sceneY, hidden: true, width: 2, height: 2 }),
    fx.token({ name: "Shown to owner only", x: dims.sceneX, y: dims.sceneY, displayName: fx.CONST.TOKEN_DISPLAY_MODES.OWNER }),
    fx.token({ name: "Half", width: 0.5, height: 0.5 }),
    fx.token({ name: "Scenery" }), // no flags, no actor: not a combatant
  ];
  tokens[0].actor = hers;
  for (const t of tokens.slice(1, 4)) t.actor = monster;
  data.tokens = tokens;
  const { scene, skipped } = sceneMessage(data, { users, grid });
  assert.deepEqual(scene.tokens.map((t) => [t.name, t.x, t.y, t.size, t.owner, t.side]), [
    ["Alice's hero", 3, 4, 1, alice._id, "friendly"],
    ["", 10, 0, 2, "gm", "hostile"],
    ["", 0, 0, 1, "gm", "hostile"],
  ]);
  assert.deepEqual([scene.tokens[0].reach, scene.tokens[0].movement, scene.tokens[0].stats], [10, 30, { ocv: 6 }]);
  assert.deepEqual(skipped.map((s) => s.id), [tokens[3]._id]);
  // Names in the module's own UI: the GM and owners see them, players only public ones.
  const live = { ...tokens[1], isOwner: false };
  assert.equal(nameFor(live, { isGM: false }), "someone");
  assert.equal(nameFor(live, { isGM: true }), "Lurker");
  assert.equal(nameFor({ ...tokens[0], isOwner: false }, { isGM: false }), "Alice's hero");
});

test("a token's elevation is sent, in the scene's unit; on the ground it is left out", () => {
  const { data, dims, grid } = squareScene();
  const monster = fx.actor({ flags: { [MODULE_ID]: {} } });
  data.tokens = [
    fx.token({ name: "Bird", x: dims.sceneX, y: dims.sceneY, elevation: 15 }),
    fx.token({ name: "Rat", x: dims.sceneX + 100, y: dims.sceneY, elevation: 0 }),
  ];
  for (const t of data.tokens) t.actor = monster;
  const { scene } = sceneMessage(data, { users, grid });
  assert.equal(scene.tokens[0].elevation, 15);
  assert.equal("elevation" in scene.tokens[1], false);
});

test("the owner is the first player owning the actor, by id or by default", () => {
  assert.equal(ownerOf({ actor: fx.actor({ ownership: { default: 3 } }) }, users), alice._id);
  assert.equal(ownerOf({ actor: fx.actor({ ownership: { default: 0, [bob._id]: 3, [alice._id]: 2 } }) }, users), bob._id);
  assert.equal(ownerOf({ actor: null }, users), "gm");
});

test("walls: what blocks, doors and their state, clipped to the grid", () => {
  const { dims, grid } = squareScene();
  const at = (u, v) => [dims.sceneX + u, dims.sceneY + v];
  const S = fx.CONST.WALL_SENSE_TYPES;
  const cases = [
    // a plain wall: 100 px = 5 ft
    [fx.wall({ c: [...at(0, 0), ...at(500, 0)] }), { a: [0, 0], b: [25, 0], blocks_move: true, blocks_sight: true, door: "none" }],
    // a window: movement only
    [fx.wall({ c: [...at(0, 100), ...at(100, 100)], sight: S.NONE, light: S.NONE }), { a: [0, 5], b: [5, 5], blocks_move: true, blocks_sight: false, door: "none" }],
    // a limited (terrain) wall blocks no sight on its own
    [fx.wall({ c: [...at(0, 200), ...at(100, 200)], sight: S.LIMITED }), { a: [0, 10], b: [5, 10], blocks_move: true, blocks_sight: false, door: "none" }],
    // an open door, a locked one (closed), a secret one
    [fx.wall({ c: [...at(0, 300), ...at(100, 300)], door: 1, ds: 1 }), { a: [0, 15], b: [5, 15], blocks_move: true, blocks_sight: true, door: "open" }],
    [fx.wall({ c: [...at(0, 300), ...at(100, 300)], door: 1, ds: 2 }), { a: [0, 15], b: [5, 15], blocks_move: true, blocks_sight: true, door: "closed" }],
    [fx.wall({ c: [...at(0, 300), ...at(100, 300)], door: 2, ds: 0 }), { a: [0, 15], b: [5, 15], blocks_move: true, blocks_sight: true, door: "closed" }],
    // half in the padding: clipped at the scene's edge
    [fx.wall({ c: [...at(-200, 50), ...at(200, 50)] }), { a: [0, 2.5], b: [10, 2.5], blocks_move: true, blocks_sight: true, door: "none" }],
    // wholly in the padding, or blocking nothing: left out
    [fx.wall({ c: [...at(-300, 0), ...at(-100, 0)] }), null],
    [fx.wall({ c: [...at(0, 0), ...at(100, 0)], move: 0, sight: 0 }), null],
  ];
  for (const [data, want] of cases) {
    const got = wallSpec(data, grid);
    assert.deepEqual(got && { ...got, id: undefined }, want && { ...want, id: undefined }, JSON.stringify(data.c));
    if (got) assert.equal(got.id, data._id);
  }
});

test("a door's state change is a set_door, nothing else is", () => {
  const door = fx.wall({ c: [0, 0, 100, 0], door: 1, ds: 1 });
  assert.deepEqual(doorChange(door, { ds: 1 }), { wall: door._id, open: true });
  assert.deepEqual(doorChange(door, { ds: 2 }), { wall: door._id, open: false });
  assert.equal(doorChange(door, { c: [0, 0, 50, 0] }), null);
  assert.equal(doorChange(fx.wall({ c: [0, 0, 1, 1] }), { ds: 1 }), null);
});

test("terrain from flagged regions and drawings; unknown kinds and holes reported", () => {
  const { dims, grid } = squareScene();
  const [sx, sy] = [dims.sceneX, dims.sceneY];
  const flag = (terrain) => ({ [MODULE_ID]: { terrain } });
  const skipped = [];
  const pond = fx.region({ flags: flag("water"), shapes: [
    { type: "rectangle", x: sx + 100, y: sy + 100, width: 200, height: 100, rotation: 0 },
    { type: "polygon", points: [sx, sy, sx + 100, sy, sx + 100, sy + 100] },
    { type: "circle", x: sx + 500, y: sy + 500, radius: 100 },
    { type: "rectangle", x: sx, y: sy, width: 10, height: 10, rotation: 0, hole: true },
  ] });
  const got = regionTerrain(pond, grid, skipped);
  assert.deepEqual(got[0], { kind: "water", polygon: [[5, 5], [15, 5], [15, 10], [5, 10]] });
  assert.deepEqual(got[1].polygon, [[0, 0], [5, 0], [5, 5]]);
  assert.equal(got[2].polygon.length, 32);
  assert.ok(got[2].polygon.every(([u, v]) => Math.abs(Math.hypot(u - 25, v - 25) - 5) < 1e-9));
  assert.equal(got.length, 3);
  assert.match(skipped[0].reason, /hole/);
  assert.deepEqual(regionTerrain(fx.region({ shapes: [] }), grid), []);
  assert.deepEqual(regionTerrain(fx.region({ flags: flag("lava"), shapes: [] }), grid, skipped), []);
  assert.match(skipped[1].reason, /lava/);
  // A drawing: a rectangle turned 90 degrees about its centre; a polygon relative to x/y.
  const mud = fx.drawing({ flags: flag("difficult"), x: sx + 100, y: sy, rotation: 90, shape: { type: "r", width: 200, height: 100 } });
  const turned = drawingTerrain(mud, grid).polygon.map(([u, v]) => [Math.round(u * 1e6) / 1e6, Math.round(v * 1e6) / 1e6]);
  // Corners at 50..150 px across and -50..150 px down from its top-left: the part
  // above the scene is clamped onto its edge.
  assert.deepEqual(turned, [[12.5, 0], [12.5, 7.5], [7.5, 7.5], [7.5, 0]]);
  const cliff = fx.drawing({ flags: flag("climbable"), x: sx, y: sy, shape: { type: "p", points: [0, 0, 100, 0, 100, 100, 0, 0] } });
  assert.deepEqual(drawingTerrain(cliff, grid), { kind: "climbable", polygon: [[0, 0], [5, 0], [5, 5]] });
  assert.equal(drawingTerrain(fx.drawing({ shape: { type: "r" } }), grid), null);
});

test("hex scenes: the wire grid carries the tokens' shape", () => {
  const data = fx.scene({ grid: { type: fx.CONST.GRID_TYPES.HEXODDQ, size: 100, distance: 5 } });
  const dims = fx.squareDimensions(data);
  const grid = sceneGrid(data, dims);
  const big = fx.token({ width: 2, height: 2, shape: 0, flags: { [MODULE_ID]: { side: "monsters" } } });
  Object.assign(big, grid.tokenXY([4, 4], 2, "ellipse_1"));
  data.tokens = [big];
  const { scene } = sceneMessage(data, { users, grid });
  assert.equal(scene.grid.vtt.hex_shape, "ellipse_1");
  assert.deepEqual([scene.tokens[0].x, scene.tokens[0].y, scene.tokens[0].size], [4, 4, 2]);
});

test("hex scenes without large tokens send this generation's default shape (v12 ELLIPSE_1)", () => {
  const data = fx.scene({ grid: { type: fx.CONST.GRID_TYPES.HEXEVENR, size: 100, distance: 5 } });
  const dims = fx.squareDimensions(data);
  for (const [generation, shape] of [[12, "ellipse_1"], [13, "rectangle_1"]]) {
    const grid = sceneGrid(data, dims, { generation });
    const small = fx.token({ generation, flags: { [MODULE_ID]: { side: "monsters" } } });
    Object.assign(small, grid.tokenXY([3, 2], 1));
    // A 2-hex token that joins later is drawn with the shape it was stored with.
    const big = fx.token({ generation, width: 2, height: 2, flags: { [MODULE_ID]: { side: "heroes" } } });
    Object.assign(big, grid.tokenXY([6, 6], 2, shape));
    data.tokens = [small];
    assert.equal(sceneMessage(data, { users, grid }).scene.grid.vtt.hex_shape, shape, `v${generation}`);
    data.tokens = [small, big];
    const { scene } = sceneMessage(data, { users, grid });
    assert.equal(scene.grid.vtt.hex_shape, shape, `v${generation} with a 2-hex token`);
    assert.deepEqual([scene.tokens[1].x, scene.tokens[1].y], [6, 6], `v${generation}`);
  }
});
