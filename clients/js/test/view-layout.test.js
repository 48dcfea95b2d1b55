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
