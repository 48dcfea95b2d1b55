// Terrain from shapes the GM marks: a rectangle, a circle or a drawn (closed) curve whose
// metadata holds TERRAIN_KEY, the bridge's terrain kind, goes into load_scene's terrain
// as a polygon in scene units (the popover's "Mark selected shapes as terrain" form).
//
// Where Owlbear puts a shape's position is our reading of how it draws them (SDK 3.1.0
// types/items/Shape.d.ts gives only width, height and shapeType): a RECTANGLE's position
// is its top-left corner, a CIRCLE's its centre (width and height its diameters); a
// CURVE's points are relative to its position, as a wall's. Triangles and hexagons are
// refused by name: mark a rectangle, a circle or a drawn shape instead.

import { pixelToPoint, scenePixelsOf } from "./coords.js";
import { GridNotSupported } from "./grid.js";

export const TERRAIN_KEY = "com.vtt-bridge/terrain";
/** The bridge's terrain kinds (protocol/README.md `terrain`). */
export const TERRAIN_KINDS = ["difficult", "water", "climbable", "gap", "impassable"];
/** Sides of the polygon a circle is sent as. */
const CIRCLE_SIDES = 24;

/** The terrain kind a form names, checked; "none" unmarks. @param {unknown} kind */
export function parseTerrainKind(kind) {
  const text = String(kind ?? "").trim();
  if (text !== "none" && !TERRAIN_KINDS.includes(text)) {
    throw new TypeError(`terrain: one of ${TERRAIN_KINDS.join(", ")} (or none to unmark)`);
  }
  return text;
}

/** Mark an item draft as terrain of `kind`, or unmark it ("none"). */
export function applyTerrain(/** @type {{metadata: Record<string, unknown>}} */ draft, /** @type {string} */ kind) {
  if (kind === "none") delete draft.metadata[TERRAIN_KEY];
  else draft.metadata[TERRAIN_KEY] = kind;
}

/** Whether the GM marked `item` as terrain. */
export function isTerrain(/** @type {any} */ item) {
  return (item?.type === "SHAPE" || item?.type === "CURVE") && TERRAIN_KINDS.includes(item?.metadata?.[TERRAIN_KEY]);
}

/**
 * A marked shape's outline in scene pixels (see the module comment for where each kind
 * of shape lies). @param {any} item @returns {{x: number, y: number}[]}
 */
export function terrainPixels(item) {
  if (item.type === "CURVE") return scenePixelsOf(item, item.points);
  const { width: w, height: h } = item;
  if (item.shapeType === "RECTANGLE") {
    return scenePixelsOf(item, [{ x: 0, y: 0 }, { x: w, y: 0 }, { x: w, y: h }, { x: 0, y: h }]);
  }
  if (item.shapeType === "CIRCLE") {
    const ring = Array.from({ length: CIRCLE_SIDES }, (_, i) => {
      const a = (2 * Math.PI * i) / CIRCLE_SIDES;
      return { x: (w / 2) * Math.cos(a), y: (h / 2) * Math.sin(a) };
    });
    return scenePixelsOf(item, ring);
  }
  throw new GridNotSupported(`${item.name}: a ${String(item.shapeType).toLowerCase()} cannot be terrain yet; mark a rectangle, a circle or a drawn shape`);
}

/**
 * The `load_scene` terrain region of a marked shape.
 * @param {ReturnType<typeof import("./grid.js").bridgeGrid>} grid @param {any} item
 */
export function terrainSpec(grid, item) {
  const pixels = terrainPixels(item);
  if (pixels.length < 3) throw new GridNotSupported(`${item.name}: terrain needs at least three points`);
  if (pixels.some((p) => p.x < 0 || p.y < 0)) {
    throw new GridNotSupported(`terrain ${item.name} reaches left of or above scene pixel (0, 0), off the bridge's grid`);
  }
  return { kind: item.metadata[TERRAIN_KEY], polygon: pixels.map((p) => pixelToPoint(grid, p.x, p.y)) };
}
