// Foundry documents' source data, field for field as Foundry v13 stores them.
//
// Sources: the schemas in League-of-Foundry-Developers/foundry-vtt-types
// (src/foundry/common/documents/{scene,token,wall,region,drawing,combat,combatant,
// user}.d.mts) and Foundry's API docs (foundryvtt.com/api/v13: BaseToken, BaseWall,
// BaseScene, BaseRegion, BaseDrawing, Scene#getDimensions, CONST). v12 differs in what
// these tests touch only by the token's `hexagonalShape` (v13: `shape`), which
// `token(..., {generation: 12})` gives instead, with v12's initial value ELLIPSE_1 (0)
// where v13's `shape` starts as RECTANGLE_1 (4) (v12 branch, client/data/documents/
// token.d.mts; main, client/documents/token.d.mts). A scene's stored `grid` has no
// `diagonals` in either: the rule is the world setting core.gridDiagonals, which only
// the live grid object carries (`liveGrid`).

/** CONST.TOKEN_DISPOSITIONS, CONST.TOKEN_DISPLAY_MODES, CONST.WALL_*, CONST.DOCUMENT_OWNERSHIP_LEVELS */
export const CONST = Object.freeze({
  TOKEN_DISPOSITIONS: { SECRET: -2, HOSTILE: -1, NEUTRAL: 0, FRIENDLY: 1 },
  TOKEN_DISPLAY_MODES: { NONE: 0, CONTROL: 10, OWNER_HOVER: 20, HOVER: 30, OWNER: 40, ALWAYS: 50 },
  WALL_MOVEMENT_TYPES: { NONE: 0, NORMAL: 20 },
  WALL_SENSE_TYPES: { NONE: 0, LIMITED: 10, NORMAL: 20, PROXIMITY: 30, DISTANCE: 40 },
  WALL_DOOR_TYPES: { NONE: 0, DOOR: 1, SECRET: 2 },
  WALL_DOOR_STATES: { CLOSED: 0, OPEN: 1, LOCKED: 2 },
  DOCUMENT_OWNERSHIP_LEVELS: { NONE: 0, LIMITED: 1, OBSERVER: 2, OWNER: 3 },
  GRID_TYPES: { GRIDLESS: 0, SQUARE: 1, HEXODDR: 2, HEXEVENR: 3, HEXODDQ: 4, HEXEVENQ: 5 },
});

let counter = 0;
/** A 16-character id like Foundry's randomID(). */
export function randomID(prefix = "") {
  counter += 1;
  return `${prefix}${String(counter).padStart(16 - prefix.length, "0")}`.slice(0, 16);
}

/** BaseScene source data (the fields a scene's grid and contents are read from). */
export function scene({ width = 3000, height = 2000, padding = 0.25, grid = {}, ...rest } = {}) {
  return {
    _id: randomID("scene"),
    name: "Crossroads",
    active: true,
    navigation: true,
    width,
    height,
    padding,
    initial: { x: null, y: null, scale: null },
    backgroundColor: "#999999",
    grid: { type: 1, size: 100, style: "solidLines", thickness: 1, color: "#000000", alpha: 0.2, distance: 5, units: "ft", ...grid },
    background: { src: null, offsetX: 0, offsetY: 0 },
    tokenVision: true,
    fog: { exploration: true, overlay: null, colors: { explored: null, unexplored: null } },
    tokens: [],
    walls: [],
    regions: [],
    drawings: [],
    flags: {},
    ...rest,
  };
}

/**
 * A prepared Scene's `grid` (Scene#prepareBaseData replaces the stored fields by a
 * BaseGrid): the stored fields plus what Foundry adds, here a square grid's `diagonals`
 * from the world's core.gridDiagonals (SquareGrid#diagonals).
 */
export function liveGrid(stored, { diagonals = 0 } = {}) {
  const grid = { ...stored, isSquare: stored.type === CONST.GRID_TYPES.SQUARE, isHexagonal: stored.type >= 2 };
  if (grid.isSquare) grid.diagonals = diagonals;
  return grid;
}

/**
 * Scene#dimensions as Foundry computes it for a square grid (SquareGrid#calculateDimensions:
 * the padding rounded up to whole cells on each side).
 */
export function squareDimensions(data) {
  const { size, distance } = data.grid;
  const x = Math.ceil((data.padding * data.width) / size) * size;
  const y = Math.ceil((data.padding * data.height) / size) * size;
  const width = data.width + 2 * x;
  const height = data.height + 2 * y;
  return {
    width, height, size,
    rect: { x: 0, y: 0, width, height },
    sceneX: x - data.background.offsetX,
    sceneY: y - data.background.offsetY,
    sceneWidth: data.width,
    sceneHeight: data.height,
    sceneRect: { x, y, width: data.width, height: data.height },
    distance,
    distancePixels: size / distance,
    ratio: data.width / data.height,
    maxR: Math.hypot(width, height),
    rows: Math.ceil(height / size),
    columns: Math.ceil(width / size),
  };
}

/** BaseToken source data. `generation` 12 stores the hex shape as `hexagonalShape`. */
export function token({ generation = 13, shape = generation >= 13 ? 4 : 0, ...fields } = {}) {
  const data = {
    _id: randomID("tok"),
    name: "Token",
    displayName: CONST.TOKEN_DISPLAY_MODES.HOVER,
    actorId: null,
    actorLink: false,
    delta: {},
    width: 1,
    height: 1,
    texture: { src: "icons/svg/mystery-man.svg", anchorX: 0.5, anchorY: 0.5, scaleX: 1, scaleY: 1, fit: "contain", tint: "#ffffff", alphaThreshold: 0.75 },
    x: 0,
    y: 0,
    elevation: 0,
    sort: 0,
    locked: false,
    lockRotation: false,
    rotation: 0,
    alpha: 1,
    hidden: false,
    disposition: CONST.TOKEN_DISPOSITIONS.HOSTILE,
    displayBars: 0,
    bar1: { attribute: "attributes.hp" },
    bar2: { attribute: null },
    sight: { enabled: false, range: 0, angle: 360, visionMode: "basic" },
    detectionModes: [],
    movementAction: null,
    flags: {},
    ...fields,
  };
  if (generation >= 13) data.shape = shape;
  else data.hexagonalShape = shape;
  return data;
}

/** BaseWall source data: `c` is [x0, y0, x1, y1] in canvas pixels. */
export function wall({ c, ...fields }) {
  return {
    _id: randomID("wall"),
    c,
    light: CONST.WALL_SENSE_TYPES.NORMAL,
    move: CONST.WALL_MOVEMENT_TYPES.NORMAL,
    sight: CONST.WALL_SENSE_TYPES.NORMAL,
    sound: CONST.WALL_SENSE_TYPES.NORMAL,
    dir: 0,
    door: CONST.WALL_DOOR_TYPES.NONE,
    ds: CONST.WALL_DOOR_STATES.CLOSED,
    doorSound: "",
    threshold: { light: null, sight: null, sound: null, attenuation: false },
    animation: null,
    flags: {},
    ...fields,
  };
}

/** BaseRegion source data with BaseShapeData shapes (rectangle, circle, ellipse, polygon). */
export function region({ shapes, ...fields }) {
  return {
    _id: randomID("reg"),
    name: "Region",
    color: "#ff0000",
    shapes: shapes.map((s) => ({ hole: false, ...s })),
    elevation: { bottom: null, top: null },
    behaviors: [],
    visibility: 0,
    locked: false,
    flags: {},
    ...fields,
  };
}

/** BaseDrawing source data: `shape.type` "r", "e" or "p"; polygon points relative to x/y. */
export function drawing({ shape, ...fields }) {
  return {
    _id: randomID("draw"),
    author: "gmUser0000000000",
    shape: { type: "r", width: 100, height: 100, radius: null, points: [], ...shape },
    elevation: 0,
    sort: 0,
    x: 0,
    y: 0,
    rotation: 0,
    bezierFactor: 0,
    fillType: 1,
    fillColor: "#00ff00",
    fillAlpha: 0.5,
    strokeWidth: 8,
    strokeColor: "#000000",
    strokeAlpha: 1,
    text: "",
    hidden: false,
    locked: false,
    interface: false,
    flags: {},
    ...fields,
  };
}

/** BaseUser source data (the fields read: id, role; isGM is role >= ASSISTANT 3). */
export function user({ name, role = 1, _id = randomID("user") }) {
  return { _id, name, role, color: "#ff0000", character: null, flags: {}, get isGM() { return this.role >= 3; } };
}

/** BaseActor source data (the fields read: ownership, flags). */
export function actor({ ownership = { default: 0 }, flags = {}, name = "Actor" } = {}) {
  return { _id: randomID("actor"), name, type: "npc", ownership, flags, system: {} };
}
