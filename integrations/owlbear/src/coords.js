// Owlbear items <-> the client library's pixel helpers (clients/js/src/pixels.js, the
// mirror of geometry/vtt_coords.py: OwlbearScene, OwlbearImageGrid, OwlbearHexScene).
// This module holds only what is Owlbear's: reading an item's image grid and scale as the
// SDK declares them, and which helper an extension grid needs.
//
// Square grids: a scene has `dpi` pixels per cell and no padding; cell (0, 0) has its
// top-left corner on scene pixel (0, 0). An item's `position` is where its image's own
// grid `offset` lies (SDK 3.1.0 types/items/Image.d.ts `grid: ImageGrid {offset, dpi}`,
// types/items/Item.d.ts `scale`); the image's top-left corner is that offset, scaled to
// scene pixels (scene dpi / image dpi * item scale), up and left of the position.
//
// Hex grids (the bridge's own numbering, protocol/README.md `vtt`): `dpi` between the
// centres of adjacent hexes, the hex centred on pixel (0, 0) is [0, 0], odd-offset
// [column, row]; an item's position is its centre; an item several hexes across covers
// the bridge's hexagon shape centred there (geometry/hexshapes.py: 7 hexes at 3 across,
// the 3 meeting at a corner at 2).

import { OwlbearImageGrid, pixelsFor } from "../../../clients/js/src/pixels.js";

/** @typedef {{x: number, y: number}} Vector2 SDK 3.1.0 types/Vector2.d.ts */
/** @typedef {{offset: Vector2, dpi: number}} ImageGrid SDK 3.1.0 types/items/ImageGrid.d.ts */

/**
 * The image grid of an Owlbear image item, or null for an item without one.
 *
 * A flipped item (a negative scale, Owlbear's "flip") draws its image mirrored about its
 * position, so the offset is counted from the image's other edge with the scale's size;
 * the footprint is then the same box the player sees.
 * @param {{grid?: ImageGrid, scale?: Vector2, image?: {width: number, height: number}}} item
 * @returns {OwlbearImageGrid | null}
 */
export function itemImage(item) {
  if (!item.grid) return null;
  const sx = item.scale?.x ?? 1;
  const sy = item.scale?.y ?? 1;
  const ox = sx < 0 && item.image ? item.image.width - item.grid.offset.x : item.grid.offset.x;
  const oy = sy < 0 && item.image ? item.image.height - item.grid.offset.y : item.grid.offset.y;
  return new OwlbearImageGrid(ox, oy, item.grid.dpi, Math.abs(sx), Math.abs(sy));
}

/** The `image` field of `move_points` (protocol/README.md) for an item image. */
export function wireImage(/** @type {OwlbearImageGrid} */ image) {
  return { offset: [image.offsetX, image.offsetY], dpi: image.dpi, scale: [image.scaleX, image.scaleY] };
}

/**
 * The pixel helper for an extension grid (grid.js `bridgeGrid`): the client library's
 * OwlbearScene on squares, OwlbearHexScene on hexes, chosen as for any bridge scene.
 * @param {{kind: string, dpi: number, cellSize: number}} grid
 * @returns {import("../../../clients/js/src/pixels.js").OwlbearScene | import("../../../clients/js/src/pixels.js").OwlbearHexScene}
 */
export function scenePixels(grid) {
  return /** @type {any} */ (pixelsFor({ kind: grid.kind, cell_size: grid.cellSize, vtt: { kind: "owlbear", grid_size: grid.dpi } }));
}

/**
 * Scene pixels as a point in the bridge's distance units (walls, terrain).
 * @param {{kind: string, dpi: number, cellSize: number}} grid @param {number} x @param {number} y
 * @returns {[number, number]}
 */
export function pixelToPoint(grid, x, y) {
  return scenePixels(grid).toPoint(x, y);
}

/**
 * Points given relative to an item's position, in scene pixels: scaled and rotated
 * (degrees) with the item, as Owlbear draws a wall's or a curve's points.
 * @param {any} item @param {{x: number, y: number}[]} points @returns {{x: number, y: number}[]}
 */
export function scenePixelsOf(item, points) {
  const rad = ((item.rotation ?? 0) * Math.PI) / 180;
  const cos = Math.cos(rad);
  const sin = Math.sin(rad);
  return points.map((p) => {
    const x = p.x * (item.scale?.x ?? 1);
    const y = p.y * (item.scale?.y ?? 1);
    return { x: item.position.x + x * cos - y * sin, y: item.position.y + x * sin + y * cos };
  });
}
