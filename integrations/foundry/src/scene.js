// Foundry documents -> the bridge's `load_scene` (and `set_door`).
//
// Everything here reads plain fields of Foundry's documents (SceneDocument, TokenDocument,
// WallDocument, RegionDocument, DrawingDocument, User, Actor), so it runs the same on a
// live document and on test/fixtures.js's copies of their data.
//
// What the module sends, and what it does not:
// * tokens: those with `flags["vtt-bridge"]` on the token or its actor, or every token
//   with an actor when the scene is flagged `flags["vtt-bridge"].allTokens`; square
//   tokens of whole grid units only (Foundry's 0.5 x 0.5 tokens have no cell);
// * names only when every player may read them (the token is not hidden and its
//   nameplate is shown to everyone), since the scene reaches every participant;
// * walls that block movement or sight (sight: Foundry's NORMAL sense only; limited,
//   proximity and distance walls let sight through), doors (secret ones too: the bridge
//   must be able to open them) and their state, clipped to the grid;
// * terrain from Regions and Drawings flagged `flags["vtt-bridge"].terrain` = one of
//   the bridge's kinds (difficult, water, climbable, gap, impassable).

import { HexGrid, tokenHexShape } from "./grid.js";
import { t } from "./i18n.js";

export const MODULE_ID = "vtt-bridge";
/** The bridge's participant for the GM (engine/commands.py GM). */
export const GM_PARTICIPANT = "gm";
export const TERRAIN_KINDS = Object.freeze(["difficult", "water", "climbable", "gap", "impassable"]);

/** Foundry's CONST.WALL_SENSE_TYPES.NORMAL, WALL_DOOR_TYPES, WALL_DOOR_STATES. */
const SENSE_NORMAL = 20;
const DOOR_NONE = 0;
const DOOR_OPEN = 1;
/** CONST.TOKEN_DISPLAY_MODES: nameplates every player sees (HOVER 30, ALWAYS 50). */
const NAME_SHOWN_TO_ALL = new Set([30, 50]);
/** CONST.DOCUMENT_OWNERSHIP_LEVELS.OWNER */
const OWNER = 3;
/** CONST.TOKEN_DISPOSITIONS -> side, when no flag names one. */
const SIDES = { [-2]: "secret", [-1]: "hostile", 0: "neutral", 1: "friendly" };

/** The module's flags on a document, or an empty object. */
export function flagsOf(doc) {
  return doc?.flags?.[MODULE_ID] ?? {};
}

/** A document's id (live documents have `id`, their source data `_id`). */
export function idOf(doc) {
  return doc.id ?? doc._id;
}

/** Plain array of an embedded collection (a Foundry Collection, an array, or nothing). */
export function listOf(collection) {
  if (!collection) return [];
  if (Array.isArray(collection)) return collection;
  return Array.from(collection.contents ?? collection);
}

/**
 * The participant who controls a token: the first player (not a GM) who owns its actor,
 * explicitly or by the actor's default, else the GM. Players join with participant
 * names equal to their Foundry user ids (README: issuing join tokens).
 */
export function ownerOf(doc, users) {
  const ownership = doc.actor?.ownership ?? {};
  for (const user of listOf(users)) {
    if (user.isGM) continue;
    const level = ownership[idOf(user)] ?? ownership.default ?? 0;
    if (level >= OWNER) return idOf(user);
  }
  return GM_PARTICIPANT;
}

/** Should this token be on the bridge's scene? */
export function isCombatToken(doc, scene) {
  if (flagsOf(doc).ignore || flagsOf(doc.actor).ignore) return false;
  if (MODULE_ID in (doc.flags ?? {}) || MODULE_ID in (doc.actor?.flags ?? {})) return true;
  return Boolean(flagsOf(scene).allTokens && doc.actor);
}

/** A token's name if every player may read it, else "" (hidden, or nameplate not shown to all). */
export function publicName(doc) {
  if (doc.hidden || !NAME_SHOWN_TO_ALL.has(doc.displayName)) return "";
  return String(doc.name ?? "").slice(0, 128);
}

/**
 * The `load_scene` body's `scene` for a Foundry scene, with what was left out and why.
 * @param {any} scene a SceneDocument
 * @param {{users: any, grid: import("./grid.js").SquareGrid | import("./grid.js").HexGrid}} context
 * @returns {{scene: Record<string, any>, skipped: Array<{id: string, reason: string}>}}
 */
export function sceneMessage(scene, { users, grid }) {
  const skipped = [];
  const tokens = [];
  const shapes = new Set();
  for (const doc of listOf(scene.tokens)) {
    if (!isCombatToken(doc, scene)) continue;
    const made = tokenSpec(doc, { users, grid });
    if (typeof made === "string") skipped.push({ id: idOf(doc), reason: made });
    else {
      tokens.push(made);
      if (made.size > 1) shapes.add(tokenHexShape(doc, grid.defaultShape));
    }
  }
  // The wire has one hex shape per scene; tokens of other shapes keep the scene's.
  let hexShape = null;
  if (grid instanceof HexGrid) {
    hexShape = shapes.size === 1 ? [...shapes][0] : grid.defaultShape;
    if (shapes.size > 1) skipped.push({ id: "hex_shape", reason: t("VTTBRIDGE.Skip.hexShapes", { shapes: [...shapes].join(", "), shape: hexShape }) });
  }
  const walls = [];
  for (const wall of listOf(scene.walls)) {
    const spec = wallSpec(wall, grid);
    if (spec) walls.push(spec);
  }
  const terrain = [];
  for (const region of listOf(scene.regions)) terrain.push(...regionTerrain(region, grid, skipped));
  for (const drawing of listOf(scene.drawings)) {
    const spec = drawingTerrain(drawing, grid, skipped);
    if (spec) terrain.push(spec);
  }
  return { scene: { grid: grid.spec(hexShape), tokens, walls, terrain }, skipped };
}

/**
 * A TokenDocument as the wire's Token, or the reason it cannot be one.
 * @returns {Record<string, any> | string}
 */
export function tokenSpec(doc, { users, grid }) {
  const flags = { ...flagsOf(doc.actor), ...flagsOf(doc) };
  const { width, height } = doc;
  if (width !== height || width < 1 || !Number.isInteger(width)) {
    return t("VTTBRIDGE.Skip.tokenSize", { width, height });
  }
  const shape = tokenHexShape(doc, grid.defaultShape);
  const cell = grid.tokenCell(doc.x, doc.y, width, shape);
  if (!grid.contains(cell)) return t("VTTBRIDGE.Skip.offGrid", { x: doc.x, y: doc.y });
  const distance = grid.distance;
  return {
    id: idOf(doc),
    name: publicName(doc),
    owner: flags.owner ?? ownerOf(doc, users),
    side: String(flags.side ?? SIDES[doc.disposition] ?? "neutral"),
    x: cell[0],
    y: cell[1],
    size: width,
    // Defaults a table overrides with flags: reach one cell, movement six cells.
    reach: Number(flags.reach ?? distance),
    movement: Number(flags.movement ?? 6 * distance),
    stats: { ...(flags.stats ?? {}) },
    // Foundry's token elevation, in the scene's unit: reach measures in 3D from it.
    // Left out on the ground, as the bridge stores it.
    ...(doc.elevation ? { elevation: Number(doc.elevation) } : {}),
  };
}

/** A WallDocument as the wire's wall (clipped to the grid), or null if it blocks nothing. */
export function wallSpec(wall, grid) {
  const door = wall.door ?? DOOR_NONE;
  const blocksMove = (wall.move ?? 0) !== 0;
  const blocksSight = (wall.sight ?? 0) === SENSE_NORMAL;
  if (door === DOOR_NONE && !blocksMove && !blocksSight) return null;
  const [x0, y0, x1, y1] = wall.c;
  const clipped = clip(grid.toPoint(x0, y0), grid.toPoint(x1, y1), grid.bounds());
  if (!clipped) return null;
  return {
    id: idOf(wall),
    a: clipped[0],
    b: clipped[1],
    blocks_move: blocksMove,
    blocks_sight: blocksSight,
    door: door === DOOR_NONE ? "none" : doorState(wall.ds),
  };
}

/** WALL_DOOR_STATES (CLOSED 0, OPEN 1, LOCKED 2) -> "open" / "closed". */
export function doorState(ds) {
  return ds === DOOR_OPEN ? "open" : "closed";
}

/**
 * The `set_door` body for a WallDocument update, or null when it opens or closes nothing.
 * @param {any} wall the wall after the update
 * @param {Record<string, any>} changes the update's changes
 */
export function doorChange(wall, changes) {
  if (!("ds" in changes) || (wall.door ?? DOOR_NONE) === DOOR_NONE) return null;
  return { wall: idOf(wall), open: changes.ds === DOOR_OPEN };
}

function terrainKind(doc, skipped) {
  const kind = flagsOf(doc).terrain;
  if (kind === undefined) return null;
  if (!TERRAIN_KINDS.includes(kind)) {
    skipped.push({ id: idOf(doc), reason: t("VTTBRIDGE.Skip.terrainKind", { kind: JSON.stringify(kind), kinds: TERRAIN_KINDS.join(", ") }) });
    return null;
  }
  return kind;
}

/**
 * A RegionDocument's terrain: one polygon per shape (BaseShapeData: rectangle, circle,
 * ellipse, polygon); holes are not supported and are reported.
 */
export function regionTerrain(region, grid, skipped = []) {
  const kind = terrainKind(region, skipped);
  if (!kind) return [];
  const out = [];
  for (const shape of region.shapes ?? []) {
    if (shape.hole) {
      skipped.push({ id: idOf(region), reason: t("VTTBRIDGE.Skip.regionHole") });
      continue;
    }
    const pixels = shapePixels(shape);
    if (!pixels) {
      skipped.push({ id: idOf(region), reason: t("VTTBRIDGE.Skip.regionShape", { type: shape.type }) });
      continue;
    }
    const polygon = toPolygon(pixels, grid);
    if (polygon) out.push({ kind, polygon });
  }
  return out;
}

/** A DrawingDocument's terrain (shape.type "r" rectangle, "e" ellipse, "p" polygon). */
export function drawingTerrain(drawing, grid, skipped = []) {
  const kind = terrainKind(drawing, skipped);
  if (!kind) return null;
  const { shape, x, y } = drawing;
  const { width, height } = shape;
  let local;
  if (shape.type === "r") local = rectangle(0, 0, width, height);
  else if (shape.type === "e") local = ellipse(width / 2, height / 2, width / 2, height / 2);
  else if (shape.type === "p") local = pairs(shape.points ?? []);
  else {
    skipped.push({ id: idOf(drawing), reason: t("VTTBRIDGE.Skip.drawingShape", { type: shape.type }) });
    return null;
  }
  const turned = rotate(local, width / 2, height / 2, drawing.rotation ?? 0).map(([px, py]) => [px + x, py + y]);
  const polygon = toPolygon(turned, grid);
  return polygon ? { kind, polygon } : null;
}

function shapePixels(shape) {
  switch (shape.type) {
    case "rectangle":
      return rotate(rectangle(shape.x, shape.y, shape.width, shape.height),
        shape.x + shape.width / 2, shape.y + shape.height / 2, shape.rotation ?? 0);
    case "circle":
      return ellipse(shape.x, shape.y, shape.radius, shape.radius);
    case "ellipse":
      return rotate(ellipse(shape.x, shape.y, shape.radiusX, shape.radiusY), shape.x, shape.y, shape.rotation ?? 0);
    case "polygon":
      return pairs(shape.points);
    default:
      return null;
  }
}

function rectangle(x, y, w, h) {
  return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]];
}

/** An ellipse as a 32-gon (the bridge's terrain is polygons). */
function ellipse(cx, cy, rx, ry) {
  return Array.from({ length: 32 }, (_, k) => {
    const a = (2 * Math.PI * k) / 32;
    return [cx + rx * Math.cos(a), cy + ry * Math.sin(a)];
  });
}

function pairs(flat) {
  const out = [];
  for (let k = 0; k + 1 < flat.length; k += 2) out.push([flat[k], flat[k + 1]]);
  return out;
}

/** Rotate points by `degrees` clockwise (Foundry's rotation) around cx, cy. */
function rotate(points, cx, cy, degrees) {
  if (!degrees) return points;
  const a = (degrees * Math.PI) / 180;
  const [c, s] = [Math.cos(a), Math.sin(a)];
  return points.map(([x, y]) => [cx + (x - cx) * c - (y - cy) * s, cy + (x - cx) * s + (y - cy) * c]);
}

/** Pixels -> scene units, clamped onto the grid; null when fewer than 3 distinct points remain. */
function toPolygon(pixels, grid) {
  const { width, height } = grid.bounds();
  const out = [];
  for (const [x, y] of pixels) {
    const [u, v] = grid.toPoint(x, y);
    const p = [Math.min(width, Math.max(0, u)), Math.min(height, Math.max(0, v))];
    const last = out.at(-1);
    if (!last || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
  }
  if (out.length > 1 && out[0][0] === out.at(-1)[0] && out[0][1] === out.at(-1)[1]) out.pop();
  return out.length >= 3 ? out.slice(0, 256) : null;
}

/** Liang-Barsky: the part of segment a-b inside [0, width] x [0, height], or null. */
function clip(a, b, { width, height }) {
  const [x0, y0] = a;
  const dx = b[0] - x0;
  const dy = b[1] - y0;
  let t0 = 0;
  let t1 = 1;
  for (const [p, q] of [[-dx, x0], [dx, width - x0], [-dy, y0], [dy, height - y0]]) {
    if (p === 0) {
      if (q < 0) return null;
    } else {
      const r = q / p;
      if (p < 0) t0 = Math.max(t0, r);
      else t1 = Math.min(t1, r);
    }
  }
  if (t0 >= t1) return null;
  const at = (r) => [Math.min(width, Math.max(0, x0 + r * dx)), Math.min(height, Math.max(0, y0 + r * dy))];
  return [at(t0), at(t1)];
}

/**
 * A token's name as `user` may see it: the GM and the token's owners see its name,
 * others only a visible token whose nameplate every player sees ("someone" otherwise).
 * @param {any} doc a TokenDocument, or undefined for a token not on this scene
 * @param {{isGM: boolean}} user
 */
export function nameFor(doc, user) {
  const someone = t("VTTBRIDGE.Names.someone");
  if (!doc) return someone;
  if (user.isGM || doc.isOwner) return String(doc.name ?? someone);
  return publicName(doc) || someone;
}
