// Bridge-authoritative movement: the drag is refused, its waypoints go to the bridge,
// and the token moves only as far as the bridge says.
//
// Theory of operation. Foundry v13's `preMoveToken` (v12: `preUpdateToken`) is
// synchronous and can only reject a move whole, and it runs only on the client that
// asked for the move, so that client, and only it, talks to the bridge:
//
//   drag --(reject, send move_points)--> sent
//   sent --move_started--> moving             (the bridge's path, in cells)
//   moving --move_interrupted--> paused       (place the token on `at`: it stops where
//                                               it leaves reach; a prompt is open)
//   paused --move_completed--> idle           (place it along the rest of the path)
//   any --move_stopped--> idle                (place it where the bridge stopped it)
//   sent --refused--> idle                    (say why; the token never moved)
//
// Placing the token is a move of our own: the wiring marks it (`own`), so the hook
// lets it through instead of sending it to the bridge again. Every other client only
// sees the resulting token updates. Everything that touches this state lives here.

import { t } from "./i18n.js";

/** @typedef {[number, number]} Cell */

/**
 * @typedef {object} MoveIO
 * @property {(token: string, points: Array<[number, number]>, elevations?: number[] | null) => Promise<any>} send
 *   send `move_points` (resolves with the ack, rejects with a BridgeError); `elevations`,
 *   one per point, when the drag changes the token's height (a flight)
 * @property {(token: string, cells: Cell[], heights?: number[] | null) => Promise<void>} place
 *   move the Foundry token through `cells` (already decided: a move of our own), at
 *   `heights` (one per cell) when the bridge's move is a flight
 * @property {(level: "info" | "warn" | "error", text: string) => void} notify
 */

/**
 * What the hook should do with a drag, before any state changes.
 * @param {{own: boolean, inCombat: boolean, known: boolean, bypass: boolean, busy: boolean, otherLevel?: boolean}} drag
 *   own: the module's own placement; inCombat: the bridge runs a fight; known: the token
 *   is on the bridge's scene; bypass: a GM clean-up move (README); busy: a move of this
 *   token is already under way; otherLevel: the move ends on another of the scene's
 *   levels (v14, `changesLevel`), which the bridge's one flat grid has not
 * @returns {"allow" | "bypass" | "send" | "wait" | "level"}
 */
export function judgeDrag({ own, inCombat, known, bypass, busy, otherLevel = false }) {
  if (own) return "allow";
  // Outside a fight Foundry moves tokens and the GM's client sends the scene again.
  if (!inCombat || !known) return "allow";
  if (bypass) return "bypass";
  if (otherLevel) return "level";
  return busy ? "wait" : "send";
}

/**
 * Does a v14 movement go to another level? v14 gave every waypoint and the origin a
 * `level` (TokenProcessedMovementWaypoint.level, "The level ID"); v13's have none, so
 * a v13 move never changes level.
 * @param {{origin?: {level?: string}, passed?: {waypoints?: any[]}, pending?: {waypoints?: any[]}, destination?: {level?: string}}} movement
 */
export function changesLevel(movement) {
  const from = movement.origin?.level;
  if (from === undefined || from === null) return false;
  const waypoints = [...(movement.passed?.waypoints ?? []), ...(movement.pending?.waypoints ?? [])];
  if (movement.destination) waypoints.push(movement.destination);
  return waypoints.some((w) => w.level !== undefined && w.level !== null && w.level !== from);
}

/** The moves this client asked the bridge for, and the placing of their tokens. */
export class MoveTracker {
  /** @param {MoveIO} io */
  constructor(io) {
    this.io = io;
    /** @type {Map<string, {phase: string, start: Cell | null, path: Cell[], heights: number[] | null, done: number}>} */
    this.moves = new Map();
    /** @type {Map<string, Promise<void>>} placements run one after another per token */
    this._placing = new Map();
    /** @type {Set<string>} tokens being placed right now (the re-entrance guard) */
    this.placing = new Set();
  }

  /** Is a move of `token` under way (sent, moving or paused)? */
  busy(token) {
    return this.moves.has(token);
  }

  /** The phase of `token`'s move ("sent", "moving", "paused"), or "idle". */
  phase(token) {
    return this.moves.get(token)?.phase ?? "idle";
  }

  /**
   * Send a refused drag's waypoints to the bridge. Resolves once the bridge answered
   * (the token's own placement follows from the events).
   * @param {string} token
   * @param {Array<[number, number]>} points waypoints in Foundry pixels (token x/y)
   * @param {number[] | null} [elevations] the token's height at each (a flight)
   */
  async send(token, points, elevations = null) {
    this.moves.set(token, { phase: "sent", start: null, path: [], heights: null, done: -1 });
    try {
      return await this.io.send(token, points, elevations);
    } catch (err) {
      this.moves.delete(token);
      this.io.notify("warn", t("VTTBRIDGE.Notify.moveRefused", { error: err.message ?? err }));
      return null;
    }
  }

  /**
   * Fold one bridge event. Only moves this client sent are placed by it.
   * @param {string} kind @param {Record<string, any>} data
   */
  event(kind, data) {
    const move = this.moves.get(data.token);
    if (!move) return;
    if (kind === "move_started") {
      // A flight's heights, one per cell of its path (the bridge's `elevations`).
      const heights = data.elevations ?? null;
      Object.assign(move, { phase: "moving", start: data.start, path: data.path, heights, done: -1 });
    } else if (kind === "move_interrupted") {
      this._advance(data.token, move, data.at);
      move.phase = "paused";
      this.io.notify("info", t("VTTBRIDGE.Notify.movePaused"));
    } else if (kind === "move_completed" || kind === "move_stopped") {
      this._advance(data.token, move, data.at);
      this.moves.delete(data.token);
      if (kind === "move_stopped") this.io.notify("info", t("VTTBRIDGE.Notify.moveStopped", { reason: data.reason }));
    }
  }

  /** Resolves once every placement asked for so far is done. */
  async settled() {
    await Promise.all([...this._placing.values()]);
  }

  /** Place the token along the path from the last placed cell up to `at`. */
  _advance(token, move, at) {
    const from = move.done + 1;
    let to = -1;
    for (let k = move.path.length - 1; k >= from; k--) {
      if (move.path[k][0] === at[0] && move.path[k][1] === at[1]) {
        to = k;
        break;
      }
    }
    if (to < from) return; // stopped before its first step
    const cells = move.path.slice(from, to + 1);
    const heights = move.heights ? move.heights.slice(from, to + 1) : null;
    move.done = to;
    const previous = this._placing.get(token) ?? Promise.resolve();
    const next = previous.then(async () => {
      this.placing.add(token);
      try {
        await this.io.place(token, cells, heights);
      } catch (err) {
        this.io.notify("error", t("VTTBRIDGE.Notify.placeFailed", { error: err.message ?? err }));
      } finally {
        this.placing.delete(token);
      }
    });
    this._placing.set(token, next);
  }
}

/**
 * The waypoints of a v13 movement (`preMoveToken`'s `movement`) as pixel points, in
 * order, without the start: the passed and pending waypoints (TokenMovementSectionData).
 */
export function movementPoints(movement) {
  const waypoints = [...(movement.passed?.waypoints ?? []), ...(movement.pending?.waypoints ?? [])];
  const points = waypoints.map((w) => [w.x, w.y]);
  if (!points.length && movement.destination) points.push([movement.destination.x, movement.destination.y]);
  return points;
}

/**
 * The heights of a v13 movement's waypoints (each one's `elevation`, in the scene's
 * unit), one per point of `movementPoints`, or null when none changes the token's
 * height: a move on the level sends no heights, as before flights.
 * @param {any} movement @param {number} from the token's elevation before the move
 */
export function movementElevations(movement, from) {
  const waypoints = [...(movement.passed?.waypoints ?? []), ...(movement.pending?.waypoints ?? [])];
  if (!waypoints.length && movement.destination) waypoints.push(movement.destination);
  const heights = waypoints.map((w) => Number(w.elevation ?? from));
  return heights.some((h) => h !== from) ? heights : null;
}

/**
 * The waypoints of a v12 `preUpdateToken`: its changes' x/y (the other one unchanged),
 * or null when the update moves nothing. A change of `elevation` alone is a move too
 * (a flier rising in place): its one waypoint is where the token stands.
 */
export function updatePoints(doc, changes) {
  const x = changes.x ?? doc.x;
  const y = changes.y ?? doc.y;
  if (x === doc.x && y === doc.y) return updateElevations(doc, changes) ? [[x, y]] : null;
  return [[x, y]];
}

/**
 * The height a v12 `preUpdateToken` takes the token to, as `elevations` for its one
 * waypoint, or null when it keeps its elevation.
 */
export function updateElevations(doc, changes) {
  if (!("elevation" in changes)) return null;
  const to = Number(changes.elevation ?? 0);
  return to === Number(doc.elevation ?? 0) ? null : [to];
}

/**
 * Cells turned back into Foundry waypoints that walk the same cells. On square grids
 * only the corners of the path (a straight run of equal steps crosses the same cells
 * as a line between its ends); on hex grids every cell, since a run of equal offset
 * steps zig-zags there.
 * @param {Cell[]} cells @param {Cell} from the cell before the first
 * @param {(cell: Cell) => {x: number, y: number}} toXY
 * @param {{square?: boolean}} [grid]
 */
export function cellsToWaypoints(cells, from, toXY, { square = true } = {}) {
  if (!square) return cells.map(toXY);
  const out = [];
  let prev = from;
  for (let k = 0; k < cells.length; k++) {
    const cell = cells[k];
    const next = cells[k + 1];
    const turn = !next || next[0] - cell[0] !== cell[0] - prev[0] || next[1] - cell[1] !== cell[1] - prev[1];
    if (turn) out.push(toXY(cell));
    prev = cell;
  }
  return out;
}
