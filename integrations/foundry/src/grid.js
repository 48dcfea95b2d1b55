// A Foundry scene's grid as the bridge's grid, and token positions both ways.
//
// The rules are geometry/vtt_coords.py's (FoundryScene, FoundryHexScene), written again
// here because a Foundry module cannot import Python; test/grid.test.js checks them
// against vectors that module prints (tests/integrations/foundry_vectors.py). Once the
// JavaScript client ships its own pixel helpers, this file should use them instead.
//
// Square grids: a token document's x/y is its top-left corner in canvas pixels,
// padding included; cells count from the scene rectangle (dimensions.sceneX/sceneY).
// Hex grids (grid.type 2-5): cells {i: row, j: column} count from the canvas origin and
// ignore the padding, as Foundry's HexagonalGrid#getOffset does; a token's x/y is the
// top-left of the box around its hexes, and its anchor is its top-left hex.

/** Foundry's CONST.GRID_TYPES. */
export const GRID_TYPES = Object.freeze({ GRIDLESS: 0, SQUARE: 1, HEXODDR: 2, HEXEVENR: 3, HEXODDQ: 4, HEXEVENQ: 5 });

/** Foundry's CONST.GRID_DIAGONALS (scene.grid.diagonals, v12+) -> the bridge's `diagonal`. */
export const DIAGONALS = Object.freeze({
  0: "one", // EQUIDISTANT
  1: "euclidean", // EXACT
  2: "approximate", // APPROXIMATE
  3: "rectilinear", // RECTILINEAR
  4: "alternating", // ALTERNATING_1
  5: "alternating_2", // ALTERNATING_2
  6: "none", // ILLEGAL
});

/** Foundry's CONST.TOKEN_SHAPES (v13 `shape`; v12 TOKEN_HEXAGONAL_SHAPES, `hexagonalShape`). */
export const HEX_SHAPES = Object.freeze({
  0: "ellipse_1",
  1: "ellipse_2",
  2: "trapezoid_1",
  3: "trapezoid_2",
  4: "rectangle_1",
  5: "rectangle_2",
});
/** The shape a new Foundry token has (geometry/hexshapes.py FOUNDRY_DEFAULT_SHAPE). */
export const DEFAULT_HEX_SHAPE = "rectangle_1";

/** A grid Foundry has and the bridge cannot play on (gridless scenes). */
export class UnsupportedGrid extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "UnsupportedGrid";
  }
}

const SQRT3 = Math.sqrt(3);

/**
 * The converter for a scene: its bridge grid and pixel <-> cell for token documents.
 * @param {{grid: {type: number, size: number, distance: number, units?: string, diagonals?: number}}} scene
 *   a SceneDocument (its `grid` field)
 * @param {{sceneX: number, sceneY: number, sceneWidth: number, sceneHeight: number, width: number, height: number}} dimensions
 *   `scene.dimensions` (Scene#getDimensions)
 */
export function sceneGrid(scene, dimensions) {
  const { type, size, distance } = scene.grid;
  if (!(size > 0) || !(distance > 0)) throw new UnsupportedGrid(`grid size ${size} px / ${distance} units is not usable`);
  if (type === GRID_TYPES.SQUARE) return new SquareGrid(scene, dimensions);
  if (type >= GRID_TYPES.HEXODDR && type <= GRID_TYPES.HEXEVENQ) return new HexGrid(scene, dimensions);
  throw new UnsupportedGrid(`grid type ${type} (gridless) has no cells: the bridge needs a square or hex grid`);
}

/** Foundry square grids (FoundryScene in geometry/vtt_coords.py). */
export class SquareGrid {
  constructor(scene, dimensions) {
    this.size = scene.grid.size;
    this.distance = scene.grid.distance;
    this.units = scene.grid.units || "ft";
    this.diagonals = scene.grid.diagonals ?? 0;
    this.sceneX = dimensions.sceneX;
    this.sceneY = dimensions.sceneY;
    this.columns = Math.max(1, Math.ceil(dimensions.sceneWidth / this.size));
    this.rows = Math.max(1, Math.ceil(dimensions.sceneHeight / this.size));
  }

  /** The wire `grid` of load_scene. @param {string | null} [_hexShape] unused on squares */
  spec(_hexShape = null) {
    return {
      kind: "square",
      cell_size: this.distance,
      unit: this.units.slice(0, 16) || "ft",
      width: this.columns,
      height: this.rows,
      diagonal: DIAGONALS[this.diagonals] ?? "one",
      vtt: { kind: "foundry", grid_size: this.size, scene_x: this.sceneX, scene_y: this.sceneY },
    };
  }

  /** The top-left cell of a token document at x/y px. @returns {[number, number]} */
  tokenCell(x, y, _size = 1, _shape = DEFAULT_HEX_SHAPE) {
    return [Math.floor((x - this.sceneX) / this.size + 0.5), Math.floor((y - this.sceneY) / this.size + 0.5)];
  }

  /** The x/y px of a token document whose top-left cell is `cell`. */
  tokenXY(cell, _size = 1, _shape = DEFAULT_HEX_SHAPE) {
    return { x: this.sceneX + cell[0] * this.size, y: this.sceneY + cell[1] * this.size };
  }

  /** A canvas pixel as a point in scene units (walls, terrain). @returns {[number, number]} */
  toPoint(x, y) {
    const k = this.distance / this.size;
    return [(x - this.sceneX) * k, (y - this.sceneY) * k];
  }

  /** The grid's extent in scene units, for clipping walls and terrain. */
  bounds() {
    return { width: this.columns * this.distance, height: this.rows * this.distance };
  }

  /** Is `cell` on the bridge's grid? */
  contains(cell) {
    return cell[0] >= 0 && cell[1] >= 0 && cell[0] < this.columns && cell[1] < this.rows;
  }
}

/** Foundry hex grids, types 2-5 (FoundryHexScene in geometry/vtt_coords.py). */
export class HexGrid {
  constructor(scene, dimensions) {
    this.type = scene.grid.type;
    this.size = scene.grid.size;
    this.distance = scene.grid.distance;
    this.units = scene.grid.units || "ft";
    this.pointy = this.type === GRID_TYPES.HEXODDR || this.type === GRID_TYPES.HEXEVENR; // rows
    this.even = this.type === GRID_TYPES.HEXEVENR || this.type === GRID_TYPES.HEXEVENQ;
    this.long = (this.size * 2) / SQRT3; // the hex's other extent
    // Cells count from the canvas origin, so the grid covers the whole canvas.
    const across = this.pointy ? this.size : 0.75 * this.long;
    const down = this.pointy ? 0.75 * this.long : this.size;
    this.columns = Math.max(1, Math.ceil(dimensions.width / across));
    this.rows = Math.max(1, Math.ceil(dimensions.height / down));
  }

  spec(hexShape = null) {
    return {
      kind: this.pointy ? "hex_pointy" : "hex_flat",
      cell_size: this.distance,
      unit: this.units.slice(0, 16) || "ft",
      width: this.columns,
      height: this.rows,
      offset: this.even ? "even" : "odd",
      vtt: { kind: "foundry", grid_size: this.size, scene_x: 0, scene_y: 0, hex_shape: hexShape },
    };
  }

  /** Canvas pixels of the centre of hex `cell` = [column, row] (HexagonalGrid#getCenterPoint). */
  centerPx(cell) {
    const [j, i] = cell;
    if (this.pointy) {
      const push = (mod2(i) === 0) === this.even ? 0.5 : 0;
      return { x: (j + push) * this.size, y: (0.75 * i + 0.5) * this.long };
    }
    const push = (mod2(j) === 0) === this.even ? 0.5 : 0;
    return { x: (0.75 * j + 0.5) * this.long, y: (i + push) * this.size };
  }

  /** The hex containing canvas pixel x/y: in a regular hex grid, the one with the nearest centre. */
  cellAtPx(x, y) {
    const j0 = this.pointy ? Math.floor(x / this.size) : Math.floor((x / this.long - 0.5) / 0.75);
    const i0 = this.pointy ? Math.floor((y / this.long - 0.5) / 0.75) : Math.floor(y / this.size);
    let best = [j0, i0];
    let bestD = Infinity;
    for (let dj = -1; dj <= 2; dj++) {
      for (let di = -1; di <= 2; di++) {
        const c = this.centerPx([j0 + dj, i0 + di]);
        const d = (c.x - x) ** 2 + (c.y - y) ** 2;
        if (d < bestD - 1e-9) {
          bestD = d;
          best = [j0 + dj, i0 + di];
        }
      }
    }
    return best;
  }

  /**
   * Pixels from the top-left of the box around a token's hexes to the centre of its
   * anchor (top-left) hex. Foundry's shapes span `size` rows (columns on flat-top
   * grids), the widest `size` hexes across the whole box; the first row holds
   * `firstRowWidth` hexes centred in it (geometry/hexshapes.py row_widths).
   */
  anchorOffset(size, shape) {
    const first = firstRowWidth(shape, size);
    const along = ((size - first + 1) * this.size) / 2;
    return this.pointy ? { dx: along, dy: this.long / 2 } : { dx: this.long / 2, dy: along };
  }

  tokenCell(x, y, size = 1, shape = DEFAULT_HEX_SHAPE) {
    const { dx, dy } = this.anchorOffset(size, shape);
    return this.cellAtPx(x + dx, y + dy);
  }

  tokenXY(cell, size = 1, shape = DEFAULT_HEX_SHAPE) {
    const c = this.centerPx(cell);
    const { dx, dy } = this.anchorOffset(size, shape);
    return { x: c.x - dx, y: c.y - dy };
  }

  /** Canvas pixels as a point of the bridge's hex grid (FoundryHexScene.to_point). */
  toPoint(x, y) {
    const k = this.distance / this.size;
    const half = this.distance / 2;
    return this.pointy ? [x * k + half, y * k] : [x * k, y * k + half];
  }

  bounds() {
    // What the bridge accepts for walls and terrain: cells times cell size, both ways.
    return { width: this.columns * this.distance, height: this.rows * this.distance };
  }

  contains(cell) {
    return cell[0] >= 0 && cell[1] >= 0 && cell[0] < this.columns && cell[1] < this.rows;
  }
}

/** How many hexes the first row of a Foundry hex token covers (row_widths(shape, size)[0]). */
export function firstRowWidth(shape, size) {
  if (size <= 1) return 1;
  const n = size;
  switch (shape) {
    case "rectangle_1":
      return n;
    case "rectangle_2":
      return n - 1;
    case "ellipse_1": // growing by one to the widest row
      return Math.floor(n / 2) + (n % 2);
    case "ellipse_2": // ELLIPSE_1 upside down: its last row first
      return Math.floor(n / 2) + 1;
    case "trapezoid_1":
      return 1;
    case "trapezoid_2":
      return n;
    default:
      throw new UnsupportedGrid(`unknown hex token shape ${shape}`);
  }
}

/** The bridge's name of a token document's hex shape (v13 `shape`, v12 `hexagonalShape`). */
export function tokenHexShape(doc) {
  const n = doc.shape ?? doc.hexagonalShape;
  return HEX_SHAPES[n] ?? DEFAULT_HEX_SHAPE;
}

function mod2(n) {
  return ((n % 2) + 2) % 2;
}
