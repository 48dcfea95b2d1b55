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

for (const { grid, centres, samples } of grids) {
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
}
