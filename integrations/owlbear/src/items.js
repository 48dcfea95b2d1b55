// Owlbear items -> the bridge's scene: which items are combatants, where they stand, and
// the walls. Items are shaped as SDK 3.1.0 declares them: types/items/Item.d.ts (id, name,
// position, rotation, scale, metadata, layer, lastModifiedUserId), types/items/Image.d.ts
// (image: {width, height, mime, url}, grid: {offset, dpi}), types/items/Wall.d.ts (points,
// blocking).
//
// A token takes part when the GM linked it: its metadata holds LINK_KEY, a small map of
// what the bridge needs and Owlbear has not (owner participant, side, reach, movement,
// stats). Item metadata is read by everyone in the room, which is why nothing secret
// goes there (join tokens live in the player's own browser storage: settings.js).

import { itemImage, pixelToPoint, scenePixels, scenePixelsOf } from "./coords.js";
import { GridNotSupported, gridSpec } from "./grid.js";
import { isTerrain, terrainPixels, terrainSpec } from "./terrain.js";

/** Owlbear metadata keys are namespaced by a reverse domain (SDK docs, Metadata). */
export const LINK_KEY = "com.vtt-bridge/token";

/**
 * What the GM links a token with (`metadata[LINK_KEY]`).
 * @typedef {{owner: string, side: string, reach: number, movement: number, size?: number,
 *   stats?: Record<string, boolean | number | string>}} TokenLink
 */

/** @param {any} item @returns {TokenLink | null} */
export function linkOf(item) {
  const link = item?.metadata?.[LINK_KEY];
  return link && typeof link === "object" ? /** @type {TokenLink} */ (link) : null;
}

/** Whether `item` is an image the GM linked to the bridge. */
export function isLinkedToken(/** @type {any} */ item) {
  return item?.type === "IMAGE" && linkOf(item) !== null;
}

/**
 * The item's size in cells: the link's `size`, else its image's width in the image's own
 * grid cells times its scale (a 300 px wide image at 150 dpi, scale 1, is 2 cells).
 * Bridge tokens are square, so the width decides.
 * @param {any} item
 */
export function itemSize(item) {
  const link = linkOf(item);
  if (link?.size) return link.size;
  const cells = (item.image.width / item.grid.dpi) * Math.abs(item.scale?.x ?? 1);
  return Math.max(1, Math.round(cells));
}

/**
 * The cell an item stands on (top-left cell of its footprint on squares; on hexes the
 * anchor of the bridge's hexagon shape centred on its position: its own hex for one or an
 * odd number of hexes across, one of the three meeting under it for two).
 * @param {ReturnType<typeof import("./grid.js").bridgeGrid>} grid @param {any} item
 * @param {{x: number, y: number}} [position] default the item's own
 * @returns {[number, number]}
 */
export function itemCell(grid, item, position = item.position) {
  const pixels = scenePixels(grid);
  if (grid.kind === "square") return /** @type {any} */ (pixels).itemOrigin(position.x, position.y, itemSize(item), itemImage(item));
  const size = itemSize(item);
  if (size !== 2 && size % 2 === 0) {
    throw new GridNotSupported(`${item.name}: a hex token ${size} hexes across has no agreed shape; sizes 1, 2, 3, 5 ... play`);
  }
  // Owlbear draws an item centred on its position: the bridge's hexagon shape, centred.
  return /** @type {any} */ (pixels).itemCell(position.x, position.y, size);
}

/**
 * The position that puts an item on `cell`.
 * @param {ReturnType<typeof import("./grid.js").bridgeGrid>} grid @param {any} item
 * @param {[number, number]} cell
 * @returns {{x: number, y: number}}
 */
export function cellPosition(grid, item, cell) {
  const pixels = /** @type {any} */ (scenePixels(grid));
  const size = itemSize(item);
  const [x, y] = grid.kind === "square" ? pixels.itemPosition(cell, size, itemImage(item)) : pixels.itemPosition(cell, size);
  return { x, y };
}

/** A `load_scene` TokenSpec for a linked item. */
export function tokenSpec(/** @type {ReturnType<typeof import("./grid.js").bridgeGrid>} */ grid, /** @type {any} */ item) {
  const link = /** @type {TokenLink} */ (linkOf(item));
  const [x, y] = itemCell(grid, item);
  if (x < 0 || y < 0) {
    throw new GridNotSupported(`${item.name} is left of or above the map's top-left corner (scene pixel 0, 0), off the bridge's grid`);
  }
  return {
    id: item.id,
    name: String(item.name ?? "").slice(0, 128),
    owner: link.owner,
    side: link.side,
    x,
    y,
    size: itemSize(item),
    reach: link.reach,
    movement: link.movement,
    stats: link.stats ?? {},
  };
}

/**
 * A wall item's points in scene pixels. Like a curve's, a wall's points are relative to
 * its position, scaled and rotated (degrees) with the item.
 * @param {any} wall @returns {{x: number, y: number}[]}
 */
export function wallPixels(wall) {
  return scenePixelsOf(wall, wall.points);
}


/**
 * The bridge's walls for Owlbear's blocking walls: one segment per pair of points, ids
 * `<item id>:<n>`, blocking movement and sight (an Owlbear wall blocks vision, and a
 * wall a token cannot see through is one it should not walk through). Non-blocking walls
 * are left out; Owlbear has no doors.
 * @param {ReturnType<typeof import("./grid.js").bridgeGrid>} grid @param {any[]} walls
 */
export function wallSpecs(grid, walls) {
  const specs = [];
  for (const wall of walls) {
    if (wall.type !== "WALL" || !wall.blocking) continue;
    const points = wallPixels(wall).map((p) => pixelToPoint(grid, p.x, p.y));
    for (let i = 1; i < points.length; i += 1) {
      const [a, b] = [points[i - 1], points[i]];
      if (a[0] === b[0] && a[1] === b[1]) continue;
      specs.push({ id: `${wall.id}:${i}`, a, b, blocks_move: true, blocks_sight: true, door: "none" });
    }
  }
  return specs;
}

/** The bottom-right scene pixel an image item covers (its image box, scaled). */
function imageFarCorner(/** @type {number} */ dpi, /** @type {any} */ item) {
  const k = dpi / item.grid.dpi;
  const kx = k * Math.abs(item.scale?.x ?? 1);
  const ky = k * Math.abs(item.scale?.y ?? 1);
  const left = item.position.x - item.grid.offset.x * kx;
  const top = item.position.y - item.grid.offset.y * ky;
  return { x: left + item.image.width * kx, y: top + item.image.height * ky };
}

/**
 * The whole `load_scene` body's scene from the items of an Owlbear scene: the grid as large
 * as the MAP-layer images, the linked tokens and the walls reach, from scene pixel (0, 0).
 * @param {ReturnType<typeof import("./grid.js").bridgeGrid>} grid @param {any[]} items
 */
export function sceneFromItems(grid, items) {
  const tokens = items.filter(isLinkedToken).map((item) => tokenSpec(grid, item));
  const walls = wallSpecs(grid, items);
  const marked = items.filter(isTerrain);
  let maxX = 0;
  let maxY = 0;
  for (const item of items) {
    if (item.type === "IMAGE" && item.layer === "MAP") {
      const far = imageFarCorner(grid.dpi, item);
      maxX = Math.max(maxX, far.x);
      maxY = Math.max(maxY, far.y);
    }
    if (item.type === "WALL" || isTerrain(item)) {
      for (const p of item.type === "WALL" ? wallPixels(item) : terrainPixels(item)) {
        maxX = Math.max(maxX, p.x);
        maxY = Math.max(maxY, p.y);
      }
    }
  }
  // Cells the far corner reaches: squares are dpi apart; hexes dpi along their rows or
  // columns and dpi * sqrt(3) / 2 across them.
  const across = (grid.dpi * Math.sqrt(3)) / 2;
  const stepX = grid.kind === "hex_flat" ? across : grid.dpi;
  const stepY = grid.kind === "hex_pointy" ? across : grid.dpi;
  let width = Math.ceil(maxX / stepX) + (grid.kind === "square" ? 0 : 1);
  let height = Math.ceil(maxY / stepY) + (grid.kind === "square" ? 0 : 1);
  for (const t of tokens) {
    width = Math.max(width, t.x + t.size);
    height = Math.max(height, t.y + t.size);
  }
  for (const w of walls) {
    for (const [x, y] of [w.a, w.b]) {
      if (x < 0 || y < 0) throw new GridNotSupported(`wall ${w.id} reaches left of or above scene pixel (0, 0), off the bridge's grid`);
    }
  }
  const terrain = marked.map((item) => terrainSpec(grid, item));
  if (width > 10_000 || height > 10_000) throw new GridNotSupported(`the scene is ${width}x${height} cells; the bridge plays up to 10000 a side`);
  return { grid: gridSpec(grid, Math.max(1, width), Math.max(1, height)), tokens, walls, terrain };
}
