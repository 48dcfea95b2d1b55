// The module's pixel <-> cell rules against the bridge's own (geometry/vtt_coords.py):
// every vector is computed by Python, so the module and the bridge cannot drift apart.

import assert from "node:assert/strict";
import { before, test } from "node:test";

import { GRID_TYPES, UnsupportedGrid, firstRowWidth, sceneGrid } from "../src/grid.js";
import { pythonJson } from "../../../clients/js/test/helpers.js";

let vectors;
before(async () => {
  vectors = await pythonJson(["-m", "tests.integrations.foundry_vectors"]);
});

const close = (a, b) => Math.abs(a - b) < 1e-6;

/** A SceneDocument's grid and Scene#dimensions as the converter reads them. */
function scene(grid, dims = {}) {
  const dimensions = { sceneX: 0, sceneY: 0, sceneWidth: 4000, sceneHeight: 3000, width: 6000, height: 4500, ...dims };
  return [{ grid: { units: "ft", diagonals: 0, ...grid } }, dimensions];
}

test("square grids: token x/y of a cell, the cell of any pixel, points in scene units", () => {
  for (const v of vectors.squares) {
    const g = sceneGrid(...scene({ type: GRID_TYPES.SQUARE, size: v.grid.size, distance: v.grid.distance },
      { sceneX: v.grid.sceneX, sceneY: v.grid.sceneY }));
    for (const [cell, [x, y]] of v.xy) {
      const got = g.tokenXY(cell);
      assert.ok(close(got.x, x) && close(got.y, y), `cell ${cell}: ${JSON.stringify(got)} vs ${x},${y}`);
      assert.deepEqual(g.tokenCell(got.x, got.y), cell);
    }
    for (const [[x, y], cell] of v.cell) assert.deepEqual(g.tokenCell(x, y), cell, `pixel ${x},${y}`);
    for (const [[x, y], [u, w]] of v.point) {
      const [pu, pw] = g.toPoint(x, y);
      assert.ok(close(pu, u) && close(pw, w));
    }
  }
});

test("hex grids, every type, shape and size: token x/y and cells", () => {
  assert.ok(vectors.hexes.length >= 4 * 2 * 19);
  for (const v of vectors.hexes) {
    const g = sceneGrid(...scene(v.grid));
    const label = `type ${v.grid.type} size ${v.grid.size} ${v.shape} x${v.size}`;
    for (const [cell, [x, y]] of v.xy) {
      const got = g.tokenXY(cell, v.size, v.shape);
      assert.ok(close(got.x, x) && close(got.y, y), `${label} cell ${cell}: ${JSON.stringify(got)} vs ${x},${y}`);
      assert.deepEqual(g.tokenCell(got.x, got.y, v.size, v.shape), cell, label);
    }
    for (const [[x, y], cell] of v.cell) assert.deepEqual(g.tokenCell(x, y, v.size, v.shape), cell, `${label} at ${x},${y}`);
    for (const [[x, y], [u, w]] of v.point) {
      const [pu, pw] = g.toPoint(x, y);
      assert.ok(close(pu, u) && close(pw, w), label);
    }
  }
});

test("the wire grid: kind, offset, diagonals and the vtt conventions", () => {
  const square = sceneGrid(...scene({ type: 1, size: 100, distance: 5, diagonals: 4 }, { sceneX: 1000, sceneY: 800, sceneWidth: 3050 }));
  assert.deepEqual(square.spec(), {
    kind: "square", cell_size: 5, unit: "ft", width: 31, height: 30, diagonal: "alternating",
    vtt: { kind: "foundry", grid_size: 100, scene_x: 1000, scene_y: 800 },
  });
  const hex = sceneGrid(...scene({ type: GRID_TYPES.HEXEVENQ, size: 100, distance: 5 }));
  assert.equal(hex.spec("ellipse_1").kind, "hex_flat");
  assert.equal(hex.spec().offset, "even");
  assert.equal(hex.spec("ellipse_1").vtt.hex_shape, "ellipse_1");
  assert.equal(sceneGrid(...scene({ type: GRID_TYPES.HEXODDR, size: 100, distance: 5 })).spec().kind, "hex_pointy");
  assert.throws(() => sceneGrid(...scene({ type: GRID_TYPES.GRIDLESS, size: 100, distance: 5 })), UnsupportedGrid);
});

test("first rows of Foundry's hex shapes (geometry/hexshapes.py row_widths)", () => {
  assert.deepEqual([2, 3, 4].map((n) => firstRowWidth("rectangle_1", n)), [2, 3, 4]);
  assert.deepEqual([2, 3, 4].map((n) => firstRowWidth("ellipse_2", n)), [2, 2, 3]);
  assert.throws(() => firstRowWidth("blob", 2), UnsupportedGrid);
});
