// Owlbear items to cells and back against geometry/vtt_coords.py: every Owlbear vector of
// the client library's fixture (clients/js/test/fixtures/vtt-coords.json, written by
// tests/clients/pixel_vectors.py) is played as an image item shaped like SDK 3.1.0's,
// so what the extension reads from an item (image grid, scale, link size) is checked,
// not only the client's pixel helpers.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { itemImage, pixelToPoint, wireImage } from "../src/coords.js";
import { cellPosition, itemCell, LINK_KEY } from "../src/items.js";
import { imageItem } from "./fake-obr.js";

const FIXTURE = JSON.parse(readFileSync(new URL("../../../clients/js/test/fixtures/vtt-coords.json", import.meta.url), "utf8"));

const close = (/** @type {number} */ a, /** @type {number} */ b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

/**
 * A linked token of `size` cells at `position`: with `image` ([offsetX, offsetY, dpi,
 * scaleX, scaleY], the fixture's), an image of `size` cells at that dpi with that grid
 * offset and scale; without, an item whose position is its centre.
 * @param {{x: number, y: number}} position @param {number} size @param {number[] | null} image
 */
function token(position, size, image) {
  const [offsetX, offsetY, dpi, scaleX, scaleY] = image ?? [0, 0, 150, 1, 1];
  const item = imageItem({
    name: "Token", position, width: size * dpi, height: size * dpi, gridDpi: dpi, offset: { x: offsetX, y: offsetY },
    scale: { x: scaleX, y: scaleY }, metadata: { [LINK_KEY]: { owner: "gm", side: "a", reach: 1, movement: 6, size } },
    createdUserId: "obr-gm",
  });
  if (image === null) delete (/** @type {any} */ (item)).grid; // no image grid: the position is the centre
  return item;
}

/**
 * Play every vector of one Python scene class through the extension's own functions:
 * the cell of an item at a position (`item_origin` on squares, `item_cell` on hexes,
 * one-hex items without an image there), the position that puts an item on a cell and
 * back, and pixels as points. Returns how many were checked.
 * @param {string} kind "OwlbearScene" or "OwlbearHexScene"
 */
function playVectors(kind) {
  let n = 0;
  for (const v of FIXTURE.scenes.filter((/** @type {any} */ s) => s.scene === kind)) {
    const [dpi, cellSize, flat] = v.args;
    const grid = { kind: kind === "OwlbearScene" ? "square" : flat ? "hex_flat" : "hex_pointy", dpi, cellSize };
    for (const { method, args, result } of v.calls) {
      const label = `${kind}(${v.args}).${method}(${JSON.stringify(args)})`;
      if (method === "item_origin" || method === "item_cell") {
        const [x, y, size = 1, image = null] = args;
        assert.deepEqual(itemCell(grid, token({ x, y }, size, image?.image ?? null)), result, label);
      } else if (method === "item_position") {
        const [cell, size = 1, image = null] = args;
        const item = token({ x: 0, y: 0 }, size, image?.image ?? null);
        const p = cellPosition(grid, item, cell);
        assert.ok(close(p.x, result[0]) && close(p.y, result[1]), label);
        // A position the extension writes maps back to the same cell.
        assert.deepEqual(itemCell(grid, item, p), cell, label);
      } else if (method === "to_point") {
        const point = pixelToPoint(grid, args[0], args[1]);
        assert.ok(close(point[0], result[0]) && close(point[1], result[1]), label);
      } else continue;
      n++;
    }
  }
  return n;
}

test("square grids: an item's cell, the position for a cell, points, as OwlbearScene", () => {
  assert.ok(playVectors("OwlbearScene") >= 100);
});

test("hex grids: an item's hex, the centre of a hex, points, as OwlbearHexScene", () => {
  assert.ok(playVectors("OwlbearHexScene") >= 100);
});

test("a flipped item (negative scale) stands where its mirrored image is", () => {
  const grid = { kind: "square", dpi: 150, cellSize: 5 };
  // A 2-cell image at 150 dpi whose offset is 60 px from its left edge, flipped: drawn
  // mirrored about its position, its left edge is (300 - 60) px left of the position.
  const flipped = token({ x: 3 * 150 + 240, y: 4 * 150 + 60 }, 2, [60, 60, 150, -1, 1]);
  assert.deepEqual(itemCell(grid, flipped), [3, 4]);
  assert.deepEqual(wireImage(/** @type {any} */ (itemImage(flipped))), { offset: [240, 60], dpi: 150, scale: [1, 1] });
  assert.deepEqual(cellPosition(grid, flipped, [3, 4]), flipped.position);
});
