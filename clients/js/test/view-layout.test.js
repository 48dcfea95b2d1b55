// The table view draws cells where the bridge's geometry puts them: the page's layout
// (vtt_bridge/static/view/layout.js) against centres and point lookups exported from
// geometry/ by tests/clients/grid_points.py, for square and every hex orientation and parity.

import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

import { ROOT, pythonJson } from "./helpers.js";

const { layoutFor } = await import(pathToFileURL(path.join(ROOT, "vtt_bridge/static/view/layout.js")).href);
const grids = await pythonJson(["-m", "tests.clients.grid_points"]);

for (const { grid, centres, samples, footprints } of grids) {
  test(`the page lays out a ${grid.kind} ${grid.offset} grid as the bridge does`, () => {
    const layout = layoutFor(grid);
    for (const [c, r, x, y] of centres) {
      const [px, py] = layout.center([c, r]);
      assert.ok(Math.abs(px - x) < 1e-9 && Math.abs(py - y) < 1e-9, `centre of ${c},${r}: ${px},${py} vs ${x},${y}`);
      assert.deepEqual(layout.cellAt([x, y]), [c, r]);
      assert.ok(px <= layout.width && py <= layout.height);
    }
    for (const [x, y, c, r] of samples) assert.deepEqual(layout.cellAt([x, y]), [c, r], `cell under ${x},${y}`);
  });

  test(`tokens on a ${grid.kind} ${grid.offset} grid${grid.vtt ? ` (${grid.vtt.hex_shape ?? grid.vtt.kind})` : ""} cover the bridge's cells`, () => {
    const layout = layoutFor(grid);
    for (const [size, [x, y], cells] of footprints) {
      const drawn = layout.footprint({ x, y, size });
      const sorted = [...drawn.cells].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      assert.deepEqual(sorted, cells, `size ${size} at ${x},${y}`);
      // The outline goes round every cell: each cell's centre is inside it.
      for (const cell of cells) assert.ok(inside(layout.center(cell), drawn.outline), `${cell} inside the outline`);
      if (grid.kind !== "square" && size > 1) assert.ok(drawn.outline.length > 6, "an outline round several hexes");
    }
  });
}

/** Even-odd point in polygon. @param {[number, number]} p @param {Array<[number, number]>} ring */
function inside([x, y], ring) {
  let hit = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) hit = !hit;
  }
  return hit;
}

test("a gridless scene: tokens are discs at their centres, a pointer names a point", () => {
  const grid = { kind: "gridless", cell_size: 1.5, unit: "m", width: 10, height: 8 };
  const layout = layoutFor(grid);
  assert.equal(layout.gridless, true);
  assert.deepEqual([layout.width, layout.height], [15, 12]);
  // A position is drawn where it is; a pointer names it to a tenth of a cell.
  assert.deepEqual(layout.at([3.25, 4.5]), [3.25, 4.5]);
  const [px, py] = layout.positionAt([3.26, 4.49]);
  assert.ok(Math.abs(px - 3.3) < 1e-9 && Math.abs(py - 4.5) < 1e-9, `${px},${py}`);
  // An action's area still names cells of the scene's size.
  assert.deepEqual(layout.cellAt([3.26, 4.49]), [2, 2]);
  assert.deepEqual(layout.center([2, 2]), [3.75, 3.75]);
  // A token two cells across is a disc of radius one cell size round its centre.
  const drawn = layout.footprint({ x: 6, y: 5, size: 2 });
  assert.deepEqual(drawn.center, [6, 5]);
  assert.deepEqual(drawn.cells, []);
  for (const [x, y] of drawn.outline) assert.ok(Math.abs(Math.hypot(x - 6, y - 5) - 1.5) < 1e-9);
  assert.ok(inside([6, 5], drawn.outline) && !inside([7.6, 5], drawn.outline));
});

test("grids draw a position on its cell's centre and name the cell under a pointer", () => {
  const layout = layoutFor({ kind: "square", cell_size: 2, unit: "m", width: 4, height: 4 });
  assert.equal(layout.gridless, false);
  assert.deepEqual(layout.at([1, 2]), layout.center([1, 2]));
  assert.deepEqual(layout.positionAt([3.9, 0.1]), [1, 0]);
});

test("the demo scene without a grid keeps each token's centre", async () => {
  const { withoutGrid } = await import(pathToFileURL(path.join(ROOT, "vtt_bridge/static/view/picker.js")).href);
  const { readFile } = await import("node:fs/promises");
  const scene = JSON.parse(await readFile(path.join(ROOT, "vtt_bridge/static/view/demo-scene.json"), "utf8"));
  const gridless = withoutGrid(scene);
  assert.equal(gridless.grid.kind, "gridless");
  assert.equal(gridless.grid.diagonal, undefined);
  assert.deepEqual(gridless.walls, scene.walls);
  const square = layoutFor(scene.grid);
  scene.tokens.forEach((token, i) => {
    const moved = gridless.tokens[i];
    assert.deepEqual([moved.x, moved.y], square.footprint(token).center, token.id);
    assert.deepEqual({ ...moved, x: token.x, y: token.y }, token);
  });
});
