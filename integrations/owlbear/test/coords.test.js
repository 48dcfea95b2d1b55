// The pixel conversions against geometry/vtt_coords.py, on vectors it computes in this run
// (test/vectors.py): the extension and the bridge must agree on every cell.

import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "node:test";

import { pythonJson } from "../../../clients/js/test/helpers.js";
import { hexItemCell, hexItemPosition, pixelToPoint, squareItemCell, squareItemPosition } from "../src/coords.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const vectors = await pythonJson([path.join(HERE, "vectors.py")]);

const close = (/** @type {number} */ a, /** @type {number} */ b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

test("square grids: position to top-left cell and back, as OwlbearScene does", () => {
  assert.ok(vectors.square.length >= 300);
  for (const v of vectors.square) {
    const label = JSON.stringify(v);
    assert.deepEqual(squareItemCell(v.dpi, v.xy[0], v.xy[1], v.size, v.image), v.origin, label);
    const p = squareItemPosition(v.dpi, v.cell, v.size, v.image);
    assert.ok(close(p.x, v.position[0]) && close(p.y, v.position[1]), label);
    // A position the extension writes maps back to the same cell.
    assert.deepEqual(squareItemCell(v.dpi, p.x, p.y, v.size, v.image), v.cell, label);
    const point = pixelToPoint({ kind: "square", dpi: v.dpi, cellSize: v.cellSize }, v.xy[0], v.xy[1]);
    assert.ok(close(point[0], v.point[0]) && close(point[1], v.point[1]), label);
  }
});

test("hex grids: centre to hex and back, as OwlbearHexScene does", () => {
  assert.ok(vectors.hex.length >= 300);
  for (const v of vectors.hex) {
    const label = JSON.stringify(v);
    assert.deepEqual(hexItemCell(v.dpi, v.xy[0], v.xy[1], v.flat), v.cellAt, label);
    const p = hexItemPosition(v.dpi, v.cell, v.flat);
    assert.ok(close(p.x, v.position[0]) && close(p.y, v.position[1]), label);
    assert.deepEqual(hexItemCell(v.dpi, p.x, p.y, v.flat), v.cell, label);
    const grid = { kind: v.flat ? "hex_flat" : "hex_pointy", dpi: v.dpi, cellSize: v.cellSize };
    const point = pixelToPoint(grid, v.xy[0], v.xy[1]);
    assert.ok(close(point[0], v.point[0]) && close(point[1], v.point[1]), label);
  }
});
