// Where cells are on the page, in the scene's own units (the SVG's viewBox is in them, so
// walls and terrain, which the scene gives in those units, are drawn as they are).  The
// same layout as geometry/square.py and geometry/hexgrid.py: a square cell (c, r) covers
// [c, c+1] x [r, r+1] cell sizes; hexes are offset coordinates whose `cell_size` is the
// distance between adjacent centres, with the grid's left and top edges at 0.  A gridless
// scene has no cells to stand on: a token's position is the point of its centre and its
// footprint a disc `size` cells across; the cells an action's area names are still
// squares of `cell_size` (as the bridge counts them there).  Drawing only: which cells a
// token threatens or may reach is the bridge's to say.

import { footprintCells } from "../client/src/pixels.js";

const SQRT3 = Math.sqrt(3);

/**
 * @typedef {[number, number]} Point
 * @typedef {object} Layout
 * @property {number} width the scene's width in its units
 * @property {number} height
 * @property {(cell: [number, number]) => Point} center
 * @property {(cell: [number, number]) => Point[]} corners the cell's outline
 * @property {(point: Point) => [number, number]} cellAt the cell under a point
 * @property {(position: [number, number]) => Point} at where a token position is drawn: a
 *   cell's centre, or gridless the point itself
 * @property {(point: Point) => [number, number]} positionAt the position a pointer at
 *   `point` names: the cell under it, or gridless the point to a tenth of a cell
 * @property {boolean} gridless
 * @property {(token: {x: number, y: number, size: number}) => {center: Point, outline: Point[], cells: Array<[number, number]>}} footprint
 *   the token's cells (geometry's footprint), their centre and the outline around them
 */

/** @param {Record<string, any>} grid the scene's grid @returns {Layout} */
export function layoutFor(grid) {
  if (grid.kind === "gridless") return gridlessLayout(grid);
  const layout = grid.kind === "square" ? squareLayout(grid) : hexLayout(grid);
  return { ...layout, at: layout.center, positionAt: layout.cellAt, gridless: false };
}

/** Corners of a regular polygon of `n` sides approximating the circle of `radius`
 * around `center`. @param {Point} center @param {number} radius @param {number} [n]
 * @returns {Point[]} */
export function circle([x, y], radius, n = 32) {
  return Array.from({ length: n }, (_, i) => {
    const a = (2 * Math.PI * i) / n;
    return /** @type {Point} */ ([x + radius * Math.cos(a), y + radius * Math.sin(a)]);
  });
}

/** @param {Record<string, any>} grid @returns {Layout} */
function gridlessLayout(grid) {
  const cells = squareLayout(grid);
  const step = grid.cell_size / 10;
  const snap = (v) => Math.round(v / step) * step;
  return {
    ...cells,
    at: (position) => position,
    positionAt: ([x, y]) => [snap(x), snap(y)],
    gridless: true,
    footprint: ({ x, y, size }) => ({
      cells: [],
      center: [x, y],
      outline: circle([x, y], (size * grid.cell_size) / 2),
    }),
  };
}

/** @param {Record<string, any>} grid @returns {Layout} */
function squareLayout(grid) {
  const s = grid.cell_size;
  return {
    width: grid.width * s,
    height: grid.height * s,
    center: ([c, r]) => [(c + 0.5) * s, (r + 0.5) * s],
    corners: ([c, r]) => [[c * s, r * s], [(c + 1) * s, r * s], [(c + 1) * s, (r + 1) * s], [c * s, (r + 1) * s]],
    cellAt: ([x, y]) => [Math.floor(x / s), Math.floor(y / s)],
    footprint: ({ x, y, size }) => ({
      cells: footprintCells(grid, [x, y], size),
      center: [(x + size / 2) * s, (y + size / 2) * s],
      outline: [[x * s, y * s], [(x + size) * s, y * s], [(x + size) * s, (y + size) * s], [x * s, (y + size) * s]],
    }),
  };
}

/** @param {Record<string, any>} grid @returns {Layout} */
function hexLayout(grid) {
  const s = grid.cell_size;
  const radius = s / SQRT3; // centre to corner
  const pointy = grid.kind === "hex_pointy";
  const even = grid.offset === "even";
  // Along the staggered axis a line is pushed half a hex when its index is odd (or even).
  const push = (i) => (even ? 1 - (i & 1) / 2 : 0.5 + (i & 1) / 2);
  /** @type {(cell: [number, number]) => Point} */
  const center = pointy
    ? ([c, r]) => [s * (c + push(r)), radius + (s * SQRT3 * r) / 2]
    : ([c, r]) => [radius + (s * SQRT3 * c) / 2, s * (r + push(c))];
  const start = pointy ? -90 : 0;
  const hexAround = ([x, y], k) =>
    Array.from({ length: 6 }, (_, i) => {
      const a = ((start + 60 * i) * Math.PI) / 180;
      return /** @type {Point} */ ([x + k * Math.cos(a), y + k * Math.sin(a)]);
    });
  const last = center([grid.width - 1, grid.height - 1]);
  return {
    width: pointy ? last[0] + s : last[0] + radius,
    height: pointy ? last[1] + radius : last[1] + s,
    center,
    corners: (cell) => hexAround(center(cell), radius),
    cellAt: (point) => {
      // The nearest centre among the candidates around the point.
      const guess = pointy
        ? [Math.round(point[0] / s - 0.5), Math.round((point[1] - radius) / ((s * SQRT3) / 2))]
        : [Math.round((point[0] - radius) / ((s * SQRT3) / 2)), Math.round(point[1] / s - 0.5)];
      let best = /** @type {[number, number]} */ (guess);
      let bestD = Infinity;
      for (let dc = -1; dc <= 1; dc++) {
        for (let dr = -1; dr <= 1; dr++) {
          const cell = /** @type {[number, number]} */ ([guess[0] + dc, guess[1] + dr]);
          const [x, y] = center(cell);
          const d = (x - point[0]) ** 2 + (y - point[1]) ** 2;
          if (d < bestD) [best, bestD] = [cell, d];
        }
      }
      return best;
    },
    // The hexes of the token's shape (the scene's VTT's, geometry/hexshapes.py), their
    // centre (geometry's footprint_center) and the outline around them.
    footprint: ({ x, y, size }) => {
      const cells = footprintCells(grid, [x, y], size);
      const centres = cells.map(center);
      const mean = /** @type {Point} */ ([0, 1].map((i) => centres.reduce((a, p) => a + p[i], 0) / cells.length));
      return { cells, center: mean, outline: boundary(cells.map((cell) => hexAround(center(cell), radius))) };
    },
  };
}

/**
 * The outer ring of a set of touching polygons given with their corners in the same
 * rotational order: every edge two polygons share cancels out, and the edges left,
 * followed end to start, go round the whole.  (A token's hexes enclose no hole.)
 * @param {Point[][]} polygons @returns {Point[]}
 */
export function boundary(polygons) {
  if (polygons.length === 1) return polygons[0];
  const key = ([x, y]) => `${x.toFixed(6)},${y.toFixed(6)}`;
  /** @type {Map<string, [Point, Point]>} */
  const edges = new Map();
  for (const corners of polygons) {
    corners.forEach((a, i) => {
      const b = corners[(i + 1) % corners.length];
      const back = `${key(b)}>${key(a)}`;
      if (edges.has(back)) edges.delete(back); // shared with a neighbour: inside
      else edges.set(`${key(a)}>${key(b)}`, [a, b]);
    });
  }
  const next = new Map([...edges.values()].map(([a, b]) => [key(a), /** @type {[Point, Point]} */ ([a, b])]));
  const [first] = next.values();
  const ring = [];
  let edge = first;
  do {
    ring.push(edge[0]);
    edge = /** @type {[Point, Point]} */ (next.get(key(edge[1])));
  } while (edge && edge !== first && ring.length <= edges.size);
  return ring;
}
