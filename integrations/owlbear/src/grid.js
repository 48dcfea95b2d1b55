// OBR.scene.grid (SDK 3.1.0 types/Grid.d.ts) -> the bridge's GridSpec (protocol/README.md
// `load_scene`), and the pixel conventions that go with it.
//
// What maps:
//   type        SQUARE -> "square"; HEX_VERTICAL (pointy-top: rows share a y) ->
//               "hex_pointy"; HEX_HORIZONTAL (flat-top: columns share an x) -> "hex_flat".
//   measurement CHEBYSHEV -> "one", ALTERNATING -> "alternating", EUCLIDEAN ->
//               "euclidean", MANHATTAN -> "none" (square grids; hexes have no diagonals).
//   scale       GridScale.parsed {multiplier, unit} -> cell_size, unit ("5ft" -> 5, "ft").
//   dpi         -> grid.vtt {kind: "owlbear", grid_size: dpi}: pixels per cell.
// What does not, and why (GridNotSupported says so to the GM):
//   DIMETRIC and ISOMETRIC: the bridge's grids are squares and hexes in a flat plane; an
//     isometric grid's cells are diamonds on screen and Owlbear's SDK gives no mapping
//     from item positions to those cells, so any numbering would be a guess.
//   A scale of zero, or one Owlbear cannot parse into a number: the bridge needs a
//     positive cell size.
//   Owlbear scenes have no edge: the bridge's grid starts at scene pixel (0, 0) and is
//     as large as the map images and tokens need (sceneExtent); anything left of or above
//     pixel (0, 0) is off the bridge's grid.

/** Raised when the Owlbear grid has no bridge equivalent; `message` is for the GM. */
export class GridNotSupported extends Error {
  constructor(/** @type {string} */ message) {
    super(message);
    this.name = "GridNotSupported";
  }
}

const KINDS = { SQUARE: "square", HEX_VERTICAL: "hex_pointy", HEX_HORIZONTAL: "hex_flat" };
const DIAGONALS = { CHEBYSHEV: "one", ALTERNATING: "alternating", EUCLIDEAN: "euclidean", MANHATTAN: "none" };

/**
 * What the extension reads from `OBR.scene.grid`: `getDpi()`, `getType()`,
 * `getMeasurement()`, `getScale()` (SDK 3.1.0 api/scene/SceneGridApi.d.ts).
 * @typedef {{dpi: number, type: string, measurement: string,
 *   scale: {raw: string, parsed: {multiplier: number, unit: string, digits: number}}}} ObrGrid
 */

/**
 * Read the grid through the SDK's getters.
 * @param {{getDpi(): Promise<number>, getType(): Promise<string>, getMeasurement(): Promise<string>,
 *   getScale(): Promise<ObrGrid["scale"]>}} gridApi `OBR.scene.grid`
 * @returns {Promise<ObrGrid>}
 */
export async function readGrid(gridApi) {
  const [dpi, type, measurement, scale] = await Promise.all([
    gridApi.getDpi(),
    gridApi.getType(),
    gridApi.getMeasurement(),
    gridApi.getScale(),
  ]);
  return { dpi, type, measurement, scale };
}

/**
 * The extension's view of a grid: bridge kind, pixels per cell, units per cell.
 * @param {ObrGrid} grid
 * @returns {{kind: "square" | "hex_pointy" | "hex_flat", dpi: number, cellSize: number, unit: string,
 *   diagonal: string | undefined}}
 */
export function bridgeGrid(grid) {
  const kind = KINDS[/** @type {keyof typeof KINDS} */ (grid.type)];
  if (!kind) {
    throw new GridNotSupported(
      `the ${grid.type} grid cannot be played through the bridge: it plays square and hex grids only`,
    );
  }
  if (!(grid.dpi > 0) || !Number.isFinite(grid.dpi)) throw new GridNotSupported(`grid dpi ${grid.dpi} is not a positive number`);
  const multiplier = grid.scale?.parsed?.multiplier;
  if (!(multiplier > 0) || !Number.isFinite(multiplier)) {
    throw new GridNotSupported(`the grid scale ${JSON.stringify(grid.scale?.raw)} is not a positive distance per cell`);
  }
  const diagonal = DIAGONALS[/** @type {keyof typeof DIAGONALS} */ (grid.measurement)];
  if (kind === "square" && !diagonal) throw new GridNotSupported(`unknown grid measurement ${grid.measurement}`);
  // The protocol's unit is 1..16 characters; a bare number ("1") has none.
  const unit = (grid.scale.parsed.unit || "cell").slice(0, 16);
  return { kind, dpi: grid.dpi, cellSize: multiplier, unit, diagonal: kind === "square" ? diagonal : undefined };
}

/**
 * The `grid` of a `load_scene` for `width` x `height` cells.
 * @param {ReturnType<typeof bridgeGrid>} grid @param {number} width @param {number} height
 */
export function gridSpec(grid, width, height) {
  /** @type {Record<string, unknown>} */
  const spec = {
    kind: grid.kind,
    cell_size: grid.cellSize,
    unit: grid.unit,
    width,
    height,
    vtt: { kind: "owlbear", grid_size: grid.dpi },
  };
  if (grid.diagonal) spec.diagonal = grid.diagonal;
  return spec;
}
