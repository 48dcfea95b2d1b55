// The module's token documents <-> cells against the bridge's own rules
// (geometry/vtt_coords.py): src/grid.js turns a SceneDocument into the client library's
// FoundryScene/FoundryHexScene, and here it must answer every Foundry vector of the
// client's fixture (clients/js/test/fixtures/vtt-coords.json, written by
// tests/clients/pixel_vectors.py; every hex token shape in sizes 1-4 among them).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { DIAGONALS, GRID_TYPES, UnsupportedGrid, defaultHexShape, sceneGrid, tokenHexShape } from "../src/grid.js";
import * as fx from "./fixtures.js";

const FIXTURE = JSON.parse(readFileSync(new URL("../../../clients/js/test/fixtures/vtt-coords.json", import.meta.url), "utf8"));

const close = (a, b) => Math.abs(a - b) < 1e-6;

/** A SceneDocument's grid and Scene#dimensions as the converter reads them. */
function scene(grid, dims = {}) {
  const dimensions = { sceneX: 0, sceneY: 0, sceneWidth: 4000, sceneHeight: 3000, width: 6000, height: 4500, ...dims };
  return [{ grid: { units: "ft", ...grid } }, dimensions];
}

/** The fixture's calls of one Python scene class, with the module's grid for its scene. */
function* vectors(kind, makeGrid) {
  for (const v of FIXTURE.scenes.filter((s) => s.scene === kind)) {
    const grid = makeGrid(v.args);
    for (const call of v.calls) if (call.error === undefined) yield { grid, label: `${kind}(${v.args}).${call.method}(${JSON.stringify(call.args)})`, ...call };
  }
}

test("square grids: token x/y of a cell, the cell of any pixel, points in scene units", () => {
  let n = 0;
  const square = ([size, distance, sceneX = 0, sceneY = 0]) => sceneGrid(...scene({ type: GRID_TYPES.SQUARE, size, distance }, { sceneX, sceneY }));
  for (const { grid, method, args, result, label } of vectors("FoundryScene", square)) {
    if (method === "token_xy") {
      const got = grid.tokenXY(args[0]);
      assert.ok(close(got.x, result[0]) && close(got.y, result[1]), label);
      assert.deepEqual(grid.tokenCell(got.x, got.y), args[0], label);
    } else if (method === "token_origin") {
      assert.deepEqual(grid.tokenCell(...args), result, label);
    } else if (method === "to_point") {
      const [u, w] = grid.toPoint(...args);
      assert.ok(close(u, result[0]) && close(w, result[1]), label);
    } else continue;
    n++;
  }
  assert.ok(n >= 100, `${n} vectors`);
});

test("hex grids, every type, shape and size: token x/y, cells and centres", () => {
  let n = 0;
  const shapes = new Set();
  const hex = ([type, size, distance]) => sceneGrid(...scene({ type, size, distance }));
  for (const { grid, method, args, result, label } of vectors("FoundryHexScene", hex)) {
    if (method === "token_xy") {
      const [cell, size, shape] = args;
      const got = grid.tokenXY(cell, size, shape);
      assert.ok(close(got.x, result[0]) && close(got.y, result[1]), label);
      assert.deepEqual(grid.tokenCell(got.x, got.y, size, shape), cell, label);
      shapes.add(`${shape} x${size}`);
    } else if (method === "token_cell") {
      assert.deepEqual(grid.tokenCell(...args), result, label);
    } else if (method === "center_px") {
      const got = grid.centerPx(args[0]);
      assert.ok(close(got.x, result[0]) && close(got.y, result[1]), label);
    } else if (method === "to_point") {
      const [u, w] = grid.toPoint(...args);
      assert.ok(close(u, result[0]) && close(w, result[1]), label);
    } else continue;
    n++;
  }
  assert.ok(n >= 4 * 2 * 19 * 2, `${n} vectors`);
  assert.ok(shapes.size >= 6 * 3 + 1, [...shapes].join(", ")); // every shape in sizes 2-4, and one hex
});

test("the wire grid: kind, offset, diagonals and the vtt conventions", () => {
  const square = sceneGrid(...scene({ type: 1, size: 100, distance: 5 }, { sceneX: 1000, sceneY: 800, sceneWidth: 3050 }), { diagonals: 4 });
  assert.deepEqual(square.spec(), {
    kind: "square", cell_size: 5, unit: "ft", width: 31, height: 30, diagonal: "alternating",
    vtt: { kind: "foundry", grid_size: 100, scene_x: 1000, scene_y: 800 },
  });
  const hex = sceneGrid(...scene({ type: GRID_TYPES.HEXEVENQ, size: 100, distance: 5 }));
  assert.equal(hex.spec("ellipse_1").kind, "hex_flat");
  assert.equal(hex.spec().offset, "even");
  assert.equal(hex.spec("ellipse_1").vtt.hex_shape, "ellipse_1");
  assert.equal(sceneGrid(...scene({ type: GRID_TYPES.HEXODDR, size: 100, distance: 5 })).spec().kind, "hex_pointy");
  assert.throws(() => sceneGrid(...scene({ type: 9, size: 100, distance: 5 })), UnsupportedGrid);
});

test("a gridless scene: a token's position is its centre in scene units, read back within half a pixel", () => {
  const grid = sceneGrid(...scene({ type: GRID_TYPES.GRIDLESS, size: 100, distance: 5 }, { sceneX: 250, sceneY: 150, sceneWidth: 3050 }));
  assert.deepEqual(grid.spec(), {
    kind: "gridless", cell_size: 5, unit: "ft", width: 31, height: 30,
    vtt: { kind: "foundry", grid_size: 100, scene_x: 250, scene_y: 150 },
  });
  // A 2x2 token at (1250, 750) px: its centre is 100 px further, 1100 / 700 px into the scene.
  assert.deepEqual(grid.tokenCell(1250, 750, 2), [55, 35]);
  assert.deepEqual(grid.tokenXY([55, 35], 2), { x: 1250, y: 750 });
  // A paused move's exact point lands on whole pixels, and reads back as the same place.
  const exit = /** @type {[number, number]} */ ([12.3456, 7.891]);
  const { x, y } = grid.tokenXY(exit, 1);
  assert.ok(Number.isInteger(x) && Number.isInteger(y));
  const back = grid.tokenCell(x, y, 1);
  assert.ok(grid.samePlace(back, exit), `${back} vs ${exit}`);
  assert.ok(!grid.samePlace([back[0] + 0.05, back[1]], exit), "a pixel off is another place");
  assert.ok(grid.contains([0, 0]) && grid.contains([155, 150]) && !grid.contains([155.1, 3]));
  // Cells on grids are the same place only when equal.
  const square = sceneGrid(...scene({ type: GRID_TYPES.SQUARE, size: 100, distance: 5 }));
  assert.ok(square.samePlace([2, 3], [2, 3]) && !square.samePlace([2, 3], [3, 3]));
});

test("the diagonal rule: the world's core.gridDiagonals, else the live grid's, else EQUIDISTANT", () => {
  // CONST.GRID_DIAGONALS (v12, v13, v14 alike): EQUIDISTANT 0 ... ILLEGAL 6.
  assert.deepEqual(Object.keys(DIAGONALS).map(Number), [0, 1, 2, 3, 4, 5, 6]);
  const stored = fx.scene().grid; // BaseScene's stored grid: no diagonals field
  assert.equal("diagonals" in stored, false);
  const dims = fx.squareDimensions(fx.scene());
  for (const [n, rule] of Object.entries(DIAGONALS)) {
    assert.equal(sceneGrid({ grid: stored }, dims, { diagonals: Number(n) }).spec().diagonal, rule, n);
  }
  assert.equal(sceneGrid({ grid: stored }, dims).spec().diagonal, "one");
  // A prepared Scene's grid is the live SquareGrid, which has the setting's rule.
  const live = fx.liveGrid(stored, { diagonals: 2 });
  assert.equal(sceneGrid({ grid: live }, dims).spec().diagonal, "approximate");
  assert.equal(sceneGrid({ grid: live }, dims, { diagonals: 3 }).spec().diagonal, "rectilinear");
});

test("hex shapes: v12 tokens start as ELLIPSE_1, v13 tokens as RECTANGLE_1", () => {
  assert.equal(defaultHexShape(12), "ellipse_1");
  assert.equal(defaultHexShape(13), "rectangle_1");
  assert.equal(defaultHexShape(14), "rectangle_1");
  // Documents as each generation stores them: v12 `hexagonalShape`, v13 `shape`, same numbers.
  assert.equal(tokenHexShape(fx.token({ generation: 12 })), "ellipse_1");
  assert.equal(tokenHexShape(fx.token({ generation: 13 })), "rectangle_1");
  assert.equal(tokenHexShape(fx.token({ generation: 12, shape: 4 })), "rectangle_1");
  assert.equal(tokenHexShape(fx.token({ generation: 13, shape: 3 })), "trapezoid_2");
  // A document naming no shape takes its grid's (this generation's) default.
  const hex = (generation) => sceneGrid(...scene({ type: GRID_TYPES.HEXODDQ, size: 100, distance: 5 }), { generation });
  assert.equal(hex(12).defaultShape, "ellipse_1");
  assert.equal(hex(13).defaultShape, "rectangle_1");
  assert.equal(tokenHexShape({ width: 2 }, hex(12).defaultShape), "ellipse_1");
});
