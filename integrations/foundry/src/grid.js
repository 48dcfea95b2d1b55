// A Foundry scene's grid as the bridge's grid, and token positions both ways.
//
// The pixel rules are the client library's (lib/client/src/pixels.js, FoundryScene and
// FoundryHexScene, the mirror of geometry/vtt_coords.py tested on vectors Python writes);
// this file adds only what is Foundry's: reading a SceneDocument's `grid` and
// `Scene#dimensions`, the grid's extent in cells, the wire `grid` of load_scene, and a
// token document's hex shape field.
//
// Square grids: a token document's x/y is its top-left corner in canvas pixels,
// padding included; cells count from the scene rectangle (dimensions.sceneX/sceneY).
// Hex grids (grid.type 2-5): cells {i: row, j: column} count from the canvas origin and
// ignore the padding, as Foundry's HexagonalGrid#getOffset does; a token's x/y is the
// top-left of the box around its hexes, and its anchor is its top-left hex.
// Gridless scenes (grid.type 0): no cells; a token's position on the bridge is the point
// of its centre in scene units (its document's x/y plus half its width, from the scene
// rectangle), and Foundry keeps whole pixels, so a position read back is the same place
// when it is within half a pixel (`samePlace`).

import { FOUNDRY_DEFAULT_SHAPE, FOUNDRY_TOKEN_SHAPES, FoundryHexScene, FoundryScene } from "../lib/client/src/pixels.js";
import { t } from "./i18n.js";

/** Foundry's CONST.GRID_TYPES. */
export const GRID_TYPES = Object.freeze({ GRIDLESS: 0, SQUARE: 1, HEXODDR: 2, HEXEVENR: 3, HEXODDQ: 4, HEXEVENQ: 5 });

/**
 * Foundry's CONST.GRID_DIAGONALS -> the bridge's `diagonal`. The rule is no field of a
 * scene's stored grid: it is the world setting *Square Grid Diagonals*
 * (`core.gridDiagonals`, v12+, foundryvtt/foundryvtt#9998), which Foundry puts on the
 * live grid object (`SquareGrid#diagonals`, so `canvas.grid.diagonals`, and
 * `scene.grid.diagonals` once Scene#prepareBaseData has replaced the stored grid by a
 * BaseGrid). `sceneGrid` takes it from the setting (`options.diagonals`), else the live grid.
 */
export const DIAGONALS = Object.freeze({
  0: "one", // EQUIDISTANT
  1: "euclidean", // EXACT
  2: "approximate", // APPROXIMATE
  3: "rectilinear", // RECTILINEAR
  4: "alternating", // ALTERNATING_1
  5: "alternating_2", // ALTERNATING_2
  6: "none", // ILLEGAL
});

/** Foundry's CONST.TOKEN_SHAPES (v13 `shape`; v12 TOKEN_HEXAGONAL_SHAPES, `hexagonalShape`):
 * the same numbers in both (ELLIPSE_1 0 ... RECTANGLE_2 5). */
export const HEX_SHAPES = FOUNDRY_TOKEN_SHAPES;
/** The shape a new v13+ token has: BaseToken `shape` initial CONST.TOKEN_SHAPES.RECTANGLE_1
 * (geometry/hexshapes.py FOUNDRY_DEFAULT_SHAPE). */
export const DEFAULT_HEX_SHAPE = FOUNDRY_DEFAULT_SHAPE;
/** The shape a new v12 token has: BaseToken `hexagonalShape` initial
 * CONST.TOKEN_HEXAGONAL_SHAPES.ELLIPSE_1 (v12's field; v13 migrated it to `shape`). */
export const V12_DEFAULT_HEX_SHAPE = HEX_SHAPES[0];

/** The shape a token of Foundry `generation` has unless it says otherwise. */
export function defaultHexShape(/** @type {number} */ generation) {
  return generation >= 13 ? DEFAULT_HEX_SHAPE : V12_DEFAULT_HEX_SHAPE;
}

/** A grid the bridge cannot play on (no size or distance). */
export class UnsupportedGrid extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "UnsupportedGrid";
  }
}

/**
 * @typedef {object} GridOptions
 * @property {number} [generation] Foundry's major version (game.release.generation): which
 *   shape a token without one has (v12 ELLIPSE_1, v13 RECTANGLE_1); default 13
 * @property {number | null} [diagonals] the world's `core.gridDiagonals` (CONST.GRID_DIAGONALS);
 *   absent: the live grid's `diagonals`, else EQUIDISTANT (Foundry's default)
 */

/**
 * The converter for a scene: its bridge grid and pixel <-> cell for token documents.
 * @param {{grid: {type: number, size: number, distance: number, units?: string, diagonals?: number}}} scene
 *   a SceneDocument (its `grid`: the stored fields, or the live BaseGrid)
 * @param {{sceneX: number, sceneY: number, sceneWidth: number, sceneHeight: number, width: number, height: number}} dimensions
 *   `scene.dimensions` (Scene#getDimensions)
 * @param {GridOptions} [options]
 */
export function sceneGrid(scene, dimensions, options = {}) {
  const { type, size, distance } = scene.grid;
  if (!(size > 0) || !(distance > 0)) throw new UnsupportedGrid(t("VTTBRIDGE.Grid.unusable", { size, distance }));
  if (type === GRID_TYPES.SQUARE) return new SquareGrid(scene, dimensions, options);
  if (type >= GRID_TYPES.HEXODDR && type <= GRID_TYPES.HEXEVENQ) return new HexGrid(scene, dimensions, options);
  if (type === GRID_TYPES.GRIDLESS) return new GridlessGrid(scene, dimensions, options);
  throw new UnsupportedGrid(t("VTTBRIDGE.Grid.unknown", { type }));
}

/** What square and hex grids share: the document fields, the extent in cells, and the
 * pixel helper (`pixels`) that does every conversion. */
class FoundryGrid {
  /**
   * @param {{grid: {size: number, distance: number, units?: string}}} scene
   * @param {FoundryScene | FoundryHexScene} pixels @param {number} columns @param {number} rows
   * @param {GridOptions} options
   */
  constructor(scene, pixels, columns, rows, options) {
    this.size = scene.grid.size;
    this.distance = scene.grid.distance;
    this.units = scene.grid.units || "ft";
    this.pixels = pixels;
    this.columns = Math.max(1, columns);
    this.rows = Math.max(1, rows);
    /** The shape of a token whose document names none (this Foundry generation's default). */
    this.defaultShape = defaultHexShape(options.generation ?? 13);
  }

  /** The wire grid's fields every kind has. */
  baseSpec() {
    return { cell_size: this.distance, unit: this.units.slice(0, 16) || "ft", width: this.columns, height: this.rows };
  }

  /** A canvas pixel as a point in scene units (walls, terrain). @returns {[number, number]} */
  toPoint(/** @type {number} */ x, /** @type {number} */ y) {
    return this.pixels.toPoint(x, y);
  }

  /** The grid's extent in scene units, for clipping walls and terrain: cells times cell size, both ways. */
  bounds() {
    return { width: this.columns * this.distance, height: this.rows * this.distance };
  }

  /** Is `cell` on the bridge's grid? @param {[number, number]} cell */
  contains(cell) {
    return cell[0] >= 0 && cell[1] >= 0 && cell[0] < this.columns && cell[1] < this.rows;
  }

  /** Do two bridge positions name the same place? (Cells: the same cell.)
   * @param {[number, number]} a @param {[number, number]} b */
  samePlace(a, b) {
    return a[0] === b[0] && a[1] === b[1];
  }
}

/** Foundry square grids (FoundryScene). */
export class SquareGrid extends FoundryGrid {
  constructor(scene, dimensions, options = {}) {
    const { size, distance } = scene.grid;
    super(scene, new FoundryScene(size, distance, dimensions.sceneX, dimensions.sceneY),
      Math.ceil(dimensions.sceneWidth / size), Math.ceil(dimensions.sceneHeight / size), options);
    this.diagonals = options.diagonals ?? scene.grid.diagonals ?? 0;
    this.sceneX = dimensions.sceneX;
    this.sceneY = dimensions.sceneY;
  }

  /** The wire `grid` of load_scene. @param {string | null} [_hexShape] unused on squares */
  spec(_hexShape = null) {
    return {
      kind: "square",
      ...this.baseSpec(),
      diagonal: DIAGONALS[this.diagonals] ?? "one",
      vtt: { kind: "foundry", grid_size: this.size, scene_x: this.sceneX, scene_y: this.sceneY },
    };
  }

  /** The top-left cell of a token document at x/y px. @returns {[number, number]} */
  tokenCell(x, y, _size = 1, _shape = DEFAULT_HEX_SHAPE) {
    return /** @type {FoundryScene} */ (this.pixels).tokenOrigin(x, y);
  }

  /** The x/y px of a token document whose top-left cell is `cell`. */
  tokenXY(cell, _size = 1, _shape = DEFAULT_HEX_SHAPE) {
    const [x, y] = /** @type {FoundryScene} */ (this.pixels).tokenXY(cell);
    return { x, y };
  }
}

/** Foundry gridless scenes, type 0: positions are token centres in scene units. */
export class GridlessGrid extends FoundryGrid {
  constructor(scene, dimensions, options = {}) {
    const { size, distance } = scene.grid;
    super(scene, new FoundryScene(size, distance, dimensions.sceneX, dimensions.sceneY),
      Math.ceil(dimensions.sceneWidth / size), Math.ceil(dimensions.sceneHeight / size), options);
    this.sceneX = dimensions.sceneX;
    this.sceneY = dimensions.sceneY;
  }

  /** The wire `grid` of load_scene: no diagonal rule, no offset. @param {string | null} [_hexShape] unused */
  spec(_hexShape = null) {
    return {
      kind: "gridless",
      ...this.baseSpec(),
      vtt: { kind: "foundry", grid_size: this.size, scene_x: this.sceneX, scene_y: this.sceneY },
    };
  }

  /** The centre of a token document at x/y px, `size` grid units across, in scene units.
   * @returns {[number, number]} */
  tokenCell(x, y, size = 1, _shape = DEFAULT_HEX_SHAPE) {
    const half = (size * this.size) / 2;
    return this.toPoint(x + half, y + half);
  }

  /** The whole-pixel x/y of a token document centred on `point` (Foundry stores integers). */
  tokenXY(point, size = 1, _shape = DEFAULT_HEX_SHAPE) {
    const [cx, cy] = /** @type {FoundryScene} */ (this.pixels).fromPoint(point);
    const half = (size * this.size) / 2;
    return { x: Math.round(cx - half), y: Math.round(cy - half) };
  }

  /** Is the point on the scene? @param {[number, number]} point */
  contains(point) {
    const { width, height } = this.bounds();
    return point[0] >= 0 && point[1] >= 0 && point[0] <= width && point[1] <= height;
  }

  /** Within half a pixel (a position Foundry rounded to its whole pixels).
   * @param {[number, number]} a @param {[number, number]} b */
  samePlace(a, b) {
    const tolerance = this.distance / this.size / 2 + 1e-9;
    return Math.abs(a[0] - b[0]) <= tolerance && Math.abs(a[1] - b[1]) <= tolerance;
  }
}

/** Foundry hex grids, types 2-5 (FoundryHexScene). */
export class HexGrid extends FoundryGrid {
  constructor(scene, dimensions, options = {}) {
    const { type, size, distance } = scene.grid;
    const pointy = type === GRID_TYPES.HEXODDR || type === GRID_TYPES.HEXEVENR; // rows
    const long = (size * 2) / Math.sqrt(3); // the hex's other extent
    // Cells count from the canvas origin, so the grid covers the whole canvas.
    const across = pointy ? size : 0.75 * long;
    const down = pointy ? 0.75 * long : size;
    super(scene, new FoundryHexScene(type, size, distance), Math.ceil(dimensions.width / across), Math.ceil(dimensions.height / down), options);
    this.type = type;
    this.pointy = pointy;
    this.even = type === GRID_TYPES.HEXEVENR || type === GRID_TYPES.HEXEVENQ;
  }

  spec(hexShape = null) {
    return {
      kind: this.pointy ? "hex_pointy" : "hex_flat",
      ...this.baseSpec(),
      offset: this.even ? "even" : "odd",
      vtt: { kind: "foundry", grid_size: this.size, scene_x: 0, scene_y: 0, hex_shape: hexShape },
    };
  }

  /** Canvas pixels of the centre of hex `cell` = [column, row] (HexagonalGrid#getCenterPoint). */
  centerPx(/** @type {[number, number]} */ cell) {
    const [x, y] = /** @type {FoundryHexScene} */ (this.pixels).centerPx(cell);
    return { x, y };
  }

  /** The anchor hex of a token document at x/y px. @returns {[number, number]} */
  tokenCell(x, y, size = 1, shape = DEFAULT_HEX_SHAPE) {
    return /** @type {FoundryHexScene} */ (this.pixels).tokenCell(x, y, size, shape);
  }

  /** The x/y px of a token document anchored on `cell`. */
  tokenXY(cell, size = 1, shape = DEFAULT_HEX_SHAPE) {
    const [x, y] = /** @type {FoundryHexScene} */ (this.pixels).tokenXY(cell, size, shape);
    return { x, y };
  }
}

/**
 * The bridge's name of a token document's hex shape (v13 `shape`, v12 `hexagonalShape`).
 * @param {any} doc a TokenDocument
 * @param {string} [fallback] the shape of a document that names none: the grid's
 *   `defaultShape` (v12 ELLIPSE_1, v13 RECTANGLE_1)
 */
export function tokenHexShape(doc, fallback = DEFAULT_HEX_SHAPE) {
  const n = doc.shape ?? doc.hexagonalShape;
  return HEX_SHAPES[n] ?? fallback;
}
