// Owlbear Rodeo pixels <-> bridge cells, the conventions of geometry/vtt_coords.py
// (OwlbearScene, OwlbearImageGrid, OwlbearHexScene) written again in JavaScript.
//
// The client library (clients/js) is getting the same helpers; once they are merged this
// module should import them instead of keeping its own copy. test/coords.test.js checks
// every function here against vectors the Python side computes in the same run.
//
// Square grids: a scene has `dpi` pixels per cell and no padding; cell (0, 0) has its
// top-left corner on scene pixel (0, 0). An item's `position` is where its image's own
// grid `offset` lies (SDK 3.1.0 types/items/Image.d.ts `grid: ImageGrid {offset, dpi}`,
// types/items/Item.d.ts `scale`); the image's top-left corner is that offset, scaled to
// scene pixels (scene dpi / image dpi * item scale), up and left of the position.
//
// Hex grids (the bridge's own numbering, protocol/README.md `vtt`): `dpi` between the
// centres of adjacent hexes, the hex centred on pixel (0, 0) is [0, 0], odd-offset
// [column, row]; an item's position is its centre; one-hex items only.

/** @typedef {{x: number, y: number}} Vector2 SDK 3.1.0 types/Vector2.d.ts */
/** @typedef {{offset: Vector2, dpi: number}} ImageGrid SDK 3.1.0 types/items/ImageGrid.d.ts */
/** @typedef {{offsetX: number, offsetY: number, dpi: number, scaleX: number, scaleY: number}} ItemImage */

/**
 * The image grid and scale of an Owlbear image item, or null for an item without one.
 * @param {{grid?: ImageGrid, scale?: Vector2}} item
 * @returns {ItemImage | null}
 */
export function itemImage(item) {
  if (!item.grid) return null;
  return {
    offsetX: item.grid.offset.x,
    offsetY: item.grid.offset.y,
    dpi: item.grid.dpi,
    scaleX: item.scale?.x ?? 1,
    scaleY: item.scale?.y ?? 1,
  };
}

/** The `image` field of `move_points` (protocol/README.md) for an item image. */
export function wireImage(/** @type {ItemImage} */ image) {
  return { offset: [image.offsetX, image.offsetY], dpi: image.dpi, scale: [image.scaleX, image.scaleY] };
}

/** Scene pixels per image pixel: the image's cells are drawn the scene's cell size. */
function imageScale(/** @type {number} */ dpi, /** @type {ItemImage} */ image) {
  const k = dpi / image.dpi;
  return [k * image.scaleX, k * image.scaleY];
}

/** Python's floor(v + 0.5): halves round up, as vtt_coords.py rounds. */
function roundHalfUp(/** @type {number} */ v) {
  return Math.floor(v + 0.5);
}

/**
 * The top-left cell of a `size`-cell item whose position is `x`/`y` on a square grid
 * (`OwlbearScene.item_origin`).
 * @param {number} dpi @param {number} x @param {number} y @param {number} size
 * @param {ItemImage | null} image
 * @returns {[number, number]}
 */
export function squareItemCell(dpi, x, y, size = 1, image = null) {
  let left;
  let top;
  if (image === null) {
    left = x - (size / 2) * dpi;
    top = y - (size / 2) * dpi;
  } else {
    const [kx, ky] = imageScale(dpi, image);
    left = x - image.offsetX * kx;
    top = y - image.offsetY * ky;
  }
  return [roundHalfUp(left / dpi), roundHalfUp(top / dpi)];
}

/**
 * The position of a `size`-cell item whose top-left cell is `cell` on a square grid
 * (`OwlbearScene.item_position`).
 * @param {number} dpi @param {[number, number]} cell @param {number} size
 * @param {ItemImage | null} image
 * @returns {Vector2}
 */
export function squareItemPosition(dpi, cell, size = 1, image = null) {
  const left = cell[0] * dpi;
  const top = cell[1] * dpi;
  if (image === null) return { x: left + (size / 2) * dpi, y: top + (size / 2) * dpi };
  const [kx, ky] = imageScale(dpi, image);
  return { x: left + image.offsetX * kx, y: top + image.offsetY * ky };
}

const SQRT3 = Math.sqrt(3);

/**
 * The centre pixels of hex `cell` (`OwlbearHexScene.item_position`).
 * @param {number} dpi @param {[number, number]} cell @param {boolean} flat HEX_HORIZONTAL
 * @returns {Vector2}
 */
export function hexItemPosition(dpi, cell, flat) {
  const [col, row] = cell;
  const step = (dpi * SQRT3) / 2;
  if (flat) return { x: col * step, y: (row + 0.5 * mod2(col)) * dpi };
  return { x: (col + 0.5 * mod2(row)) * dpi, y: row * step };
}

function mod2(/** @type {number} */ n) {
  return ((n % 2) + 2) % 2;
}

/**
 * The hex containing pixel `x`/`y` (`OwlbearHexScene.item_cell`): the nearest hex centre,
 * found by cube rounding in the odd-offset layout above.
 * @param {number} dpi @param {number} x @param {number} y @param {boolean} flat
 * @returns {[number, number]}
 */
export function hexItemCell(dpi, x, y, flat) {
  // Axial coordinates with unit spacing between neighbouring centres.
  const u = x / dpi;
  const v = y / dpi;
  let q;
  let r;
  if (flat) {
    q = u / (SQRT3 / 2);
    r = v - q / 2;
  } else {
    r = v / (SQRT3 / 2);
    q = u - r / 2;
  }
  const [cq, cr] = cubeRound(q, r);
  if (flat) return [cq, cr + (cq - mod2(cq)) / 2];
  return [cq + (cr - mod2(cr)) / 2, cr];
}

function roundHalfEven(/** @type {number} */ v) {
  const f = Math.floor(v);
  const d = v - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

function cubeRound(/** @type {number} */ q, /** @type {number} */ r) {
  const s = -q - r;
  // Python's round(): halves to even, so a point on a hex edge rounds as the bridge does.
  let rq = roundHalfEven(q);
  let rr = roundHalfEven(r);
  const rs = roundHalfEven(s);
  const dq = Math.abs(rq - q);
  const dr = Math.abs(rr - r);
  const ds = Math.abs(rs - s);
  if (dq > dr && dq > ds) rq = -rr - rs;
  else if (dr > ds) rr = -rq - rs;
  return [rq + 0, rr + 0];
}

/**
 * Scene pixels as a point in the bridge's distance units (walls, terrain).
 * Square: `OwlbearScene.to_point`; hex: `OwlbearHexScene.to_point` (the bridge's hex
 * grid has the centre of hex [0, 0] at its own half-hex offset).
 * @param {{kind: string, dpi: number, cellSize: number}} grid
 * @param {number} x @param {number} y
 * @returns {[number, number]}
 */
export function pixelToPoint(grid, x, y) {
  const k = grid.cellSize / grid.dpi;
  if (grid.kind === "square") return [x * k, y * k];
  const [ox, oy] = hexOrigin(grid);
  return [x * k + ox, y * k + oy];
}

/** The centre of hex [0, 0] in the bridge's HexGrid (geometry/hexgrid.py), distance units. */
function hexOrigin(/** @type {{kind: string, cellSize: number}} */ grid) {
  // A pointy-top hex of pitch s is s wide and 2s/sqrt(3) tall; flat-top the other way.
  const s = grid.cellSize;
  return grid.kind === "hex_flat" ? [s / SQRT3, s / 2] : [s / 2, s / SQRT3];
}
