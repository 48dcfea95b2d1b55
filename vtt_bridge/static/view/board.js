// The board: the table view drawn as SVG, redrawn whole from the client's view (a fight's
// board is a few hundred shapes; a full redraw per change is simpler than patching and
// fast enough).

import { circle, layoutFor } from "./layout.js";

const NS = "http://www.w3.org/2000/svg";
const TERRAIN_FILL = {
  difficult: "#c9b27c",
  water: "#7fb2e5",
  climbable: "#a7a7a7",
  gap: "#333a44",
  impassable: "#5a3b3b",
};

/**
 * How high a token stands, as the board labels it ("↑ 10 m", "↓ 2 m"), or "" on the ground.
 * @param {{elevation?: number}} token @param {string} unit
 */
export function elevationLabel(token, unit) {
  const height = Number(token.elevation ?? 0);
  if (!height) return "";
  return `${height > 0 ? "\u2191" : "\u2193"} ${Math.abs(height)} ${unit}`;
}

/** @param {string} name @param {Record<string, string | number>} attrs @param {string} [text] */
function el(name, attrs, text) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** @param {Array<[number, number]>} points */
const pointsAttr = (points) => points.map(([x, y]) => `${x.toFixed(3)},${y.toFixed(3)}`).join(" ");

const SIDE_COLOURS = ["#1e63b5", "#c62828", "#2e7d32", "#ef6c00", "#6a1b9a", "#00838f"];

/** A colour per side, the same on every page: by the side's rank among the scene's
 * sides in alphabetical order. @param {string} side @param {string[]} sides sorted */
export function sideColour(side, sides) {
  const i = sides.indexOf(side);
  return i >= 0 ? SIDE_COLOURS[i % SIDE_COLOURS.length] : "#777";
}

/**
 * @typedef {object} BoardState what the page adds to the table view
 * @property {string | null} selected the selected token
 * @property {{token: string, path: Array<[number, number]>, cost: number, budget: number | null, reason: string | null, exits?: Array<{kind: string, by: string, point: [number, number]}>} | null} plan
 *   the bridge's `path_plan`, with the `exits` it answered for that path
 * @property {string | null} participant who this page is
 * @property {{token: string, cells: Array<[number, number]>, outline: Array<Array<[number, number]>>, attacks: string[]} | null} threat
 *   the bridge's `threat` answer for the hovered (else selected) token
 * @property {{token: string, cell: [number, number] | null} | null} drag a path being dragged
 * @property {Array<{name: string, doc: string}>} [triggers] the fight's trigger words, as
 *   its ruleset's description has them
 */

/**
 * Draw `view` into `svg`.
 * @param {SVGSVGElement} svg
 * @param {import("/client/src/table.js").TableView} view
 * @param {BoardState} board
 */
export function drawBoard(svg, view, board) {
  svg.replaceChildren();
  if (!view.scene) {
    svg.setAttribute("viewBox", "0 0 10 4");
    svg.append(el("text", { x: 5, y: 2, "text-anchor": "middle", "font-size": 0.5, class: "empty" }, "No scene loaded yet"));
    return;
  }
  const { grid, walls, terrain } = view.scene;
  const layout = layoutFor(grid);
  const s = grid.cell_size;
  const pad = s / 2;
  svg.setAttribute("viewBox", `${-pad} ${-pad} ${layout.width + 2 * pad} ${layout.height + 2 * pad}`);
  svg.dataset.cellSize = String(s);

  if (layout.gridless) {
    // No cells to stand on: the ground, and a faint scale of one cell size.
    svg.dataset.gridless = "true";
    svg.append(el("rect", { class: "ground", x: 0, y: 0, width: layout.width, height: layout.height }));
    const scale = el("g", { class: "scale" });
    for (let c = 1; c < grid.width; c++) scale.append(el("line", { x1: c * s, y1: 0, x2: c * s, y2: layout.height }));
    for (let r = 1; r < grid.height; r++) scale.append(el("line", { x1: 0, y1: r * s, x2: layout.width, y2: r * s }));
    svg.append(scale);
  } else {
    delete svg.dataset.gridless;
    const cells = el("g", { class: "cells" });
    for (let r = 0; r < grid.height; r++) {
      for (let c = 0; c < grid.width; c++) {
        cells.append(el("polygon", { points: pointsAttr(layout.corners([c, r])), "data-cell": `${c},${r}` }));
      }
    }
    svg.append(cells);
  }

  for (const region of terrain) {
    svg.append(el("polygon", { class: `terrain ${region.kind}`, points: pointsAttr(region.polygon),
      fill: TERRAIN_FILL[region.kind] ?? "#999" }));
  }

  const combat = view.combat;
  // Held actions, whatever the ruleset: the trigger area, labelled with whose it is.
  for (const hold of Object.values(combat?.holds ?? {})) {
    if (!hold.area.length) continue;
    const name = view.tokens[hold.combatant]?.name || hold.combatant;
    const area = el("g", { class: `trigger ${hold.kind}`, "data-hold": hold.combatant });
    area.append(el("title", {}, `${name}: ${describeHold(hold, view, board.triggers)}`));
    for (const cell of hold.area) {
      area.append(el("polygon", { points: pointsAttr(layout.corners(cell)), "data-trigger-cell": `${cell[0]},${cell[1]}` }));
    }
    const [x, y] = layout.center(hold.area[0]);
    area.append(el("text", { x, y: y + s * 0.1, "text-anchor": "middle", "font-size": s * 0.26 }, name));
    svg.append(area);
  }

  // The hovered or selected token's reach and threatened cells, as the bridge answered.
  const threat = board.threat;
  if (threat && view.tokens[threat.token]) {
    const group = el("g", { class: `threat-of${threat.attacks.length ? "" : " spent"}`, "data-threat-of": threat.token });
    for (const cell of threat.cells) {
      group.append(el("polygon", { class: "threat", points: pointsAttr(layout.corners(cell)), "data-threat-cell": `${cell[0]},${cell[1]}` }));
    }
    if (threat.region) {
      // Gridless: the ball the token reaches, drawn on the ground (a token whose centre
      // comes inside is within reach; the bridge measures the height too).
      const { center: [cx, cy], radius } = threat.region;
      group.append(el("circle", { class: "threat region", cx, cy, r: radius, "data-threat-region": `${cx},${cy},${radius}` }));
    }
    const d = threat.outline.map((ring) => `M${pointsAttr(ring).replaceAll(" ", " L")}Z`).join(" ");
    if (d) group.append(el("path", { class: "reach", d, "fill-rule": "evenodd" }));
    svg.append(group);
  }

  for (const wall of walls) {
    const kind = wall.door === "none" ? (wall.blocks_sight ? "wall" : "window") : `door ${wall.door}`;
    svg.append(el("line", { class: kind, x1: wall.a[0], y1: wall.a[1], x2: wall.b[0], y2: wall.b[1], "data-wall": wall.id }));
  }

  // A move under way, else the last one (kept until the next), and the path the player
  // is planning.
  const last = view.lastMove;
  if (combat?.moving) svg.append(pathLine(layout, combat.moving.path, "moving"));
  else if (last && view.tokens[last.token]) {
    const line = pathLine(layout, last.path, "last-move");
    line.dataset.lastMove = last.token;
    svg.append(line);
  }
  if (board.plan?.path.length) {
    const from = view.tokens[board.plan.token];
    if (from) {
      svg.append(pathLine(layout, [[from.x, from.y], ...board.plan.path], "plan"));
      svg.append(ruler(layout, [from.x, from.y], board.plan, grid.unit, s));
    }
  }
  // The cells the action being composed names (a held action's trigger area ...).
  if (board.picked?.length) {
    const picked = el("g", { class: `picked${board.picking ? " picking" : ""}` });
    for (const cell of board.picked) {
      picked.append(el("polygon", { points: pointsAttr(layout.corners(cell)), "data-picked-cell": `${cell[0]},${cell[1]}` }));
    }
    svg.append(picked);
  }
  if (board.drag?.cell) {
    const dragged = view.tokens[board.drag.token];
    const target = layout.gridless
      ? circle(board.drag.cell, ((dragged?.size ?? 1) * s) / 2)
      : layout.corners(board.drag.cell);
    svg.append(el("polygon", { class: "drag-target", points: pointsAttr(target) }));
  }

  const sides = [...new Set(Object.values(view.tokens).map((t) => t.side))].sort();
  for (const token of Object.values(view.tokens)) {
    const { center, outline } = layout.footprint(token);
    const classes = ["token"];
    if (combat?.actor === token.id) classes.push("actor");
    if (board.selected === token.id) classes.push("selected");
    if (board.participant && token.owner === board.participant) classes.push("mine");
    const group = el("g", { class: classes.join(" "), "data-token": token.id });
    const label = token.name || token.id;
    group.append(el("polygon", { points: pointsAttr(outline), fill: sideColour(token.side, sides) }));
    // The name fits the footprint: smaller type for long names on small tokens.
    const type = Math.min(s * 0.34, (1.45 * s * token.size) / Math.max(1, label.length));
    group.append(el("text", { x: center[0], y: center[1] + type * 0.35, "text-anchor": "middle",
      "font-size": type }, label));
    const height = elevationLabel(token, grid.unit);
    if (height) {
      // A flier's height under its name: reach counts it (docs/maps.md, "Flying tokens").
      group.append(el("text", { class: "elevation", x: center[0], y: center[1] + type * 0.35 + s * 0.3,
        "text-anchor": "middle", "font-size": s * 0.22 }, height));
    }
    svg.append(group);
  }

  // Where the planned move would be stopped: the exact points the bridge answered,
  // above the tokens (an exit is on the edge of the square the mover leaves).
  for (const exit of board.plan?.exits ?? []) {
    svg.append(el("circle", { class: `plan-exit ${exit.kind}`, cx: exit.point[0], cy: exit.point[1], r: s / 8, "data-exit-by": exit.by }));
  }

  // Where an open prompt's mover stands ...
  for (const prompt of Object.values(view.prompts)) {
    const [x, y] = layout.at(prompt.at);
    svg.append(el("circle", { class: "prompt-at", cx: x, cy: y, r: s * 0.55 }));
  }
  // ... and the exact points where the last move left a threatened area, as the
  // bridge's move_interrupted events said: taken, declined or unanswered, each stays
  // until the next move.
  for (const exit of last?.exits ?? []) {
    const who = view.tokens[exit.by]?.name || exit.by;
    const mark = el("circle", { class: "exit-point", cx: exit.point[0], cy: exit.point[1], r: s / 9, "data-exit-by": exit.by, "data-exit-point": exit.point.join(",") });
    mark.append(el("title", {}, `left ${who}'s reach at (${placeText(exit.point)})`));
    svg.append(mark);
  }
}

/**
 * A held action in words, from what the bridge said: its kind and action (the
 * ruleset's words), and its trigger as the ruleset's description words it (`triggers`:
 * the running fight's `{name, doc}` list), with the token that sets it off.
 * @param {import("/client/src/table.js").HoldView} hold
 * @param {import("/client/src/table.js").TableView} view
 * @param {Array<{name: string, doc: string}>} [triggers]
 */
export function describeHold(hold, view, triggers = []) {
  const name = (/** @type {string} */ id) => view.tokens[id]?.name || id;
  const words = (/** @type {string} */ w) => w.replaceAll("_", " ");
  const by = hold.triggerBy ? name(hold.triggerBy) : null;
  const doc = triggers.find((t) => t.name === hold.trigger)?.doc;
  let when = "";
  if (doc) when = `when ${doc}${by ? ` (${by})` : ""}`;
  else if (hold.before) when = `before ${name(hold.before)}`;
  else if (by) when = hold.area.length ? `when ${by} enters the area` : `on ${by}'s action`;
  else if (hold.area.length) when = "when someone enters the area";
  return `${words(hold.kind)}${hold.action ? ` ${words(hold.action)}` : ""}${when ? `, ${when}` : ""}`;
}

/** A path's line.  Its width and dashes are the style sheet's, in screen pixels
 * (`vector-effect: non-scaling-stroke`), whatever the cell size and unit.
 * @param {import("./layout.js").Layout} layout @param {Array<[number, number]>} cells @param {string} kind */
function pathLine(layout, cells, kind) {
  return el("polyline", { class: kind, points: pointsAttr(cells.map((c) => layout.at(c))), fill: "none" });
}

/** A number as the ruler shows it (one decimal at most). @param {number} v */
export const short = (v) => String(Math.round(v * 10) / 10);

/** A point as the page writes it: to a hundredth of the scene's unit (a gridless exit
 * point is exact to many more). @param {number[]} point */
export const placeText = (point) => point.map((v) => String(Math.round(v * 100) / 100)).join(", ");

/**
 * The ruler along a planned path: at each waypoint the distance along the line from the
 * token (centre to centre, in the scene's unit) and, once the bridge answered, the cost
 * to get there by its rules.
 * @param {import("./layout.js").Layout} layout @param {[number, number]} from
 * @param {{path: Array<[number, number]>, costs?: number[]}} plan @param {string} unit @param {number} s
 */
function ruler(layout, from, plan, unit, s) {
  const group = el("g", { class: "ruler" });
  let [px, py] = layout.at(from);
  let distance = 0;
  plan.path.forEach((cell, i) => {
    const [x, y] = layout.at(cell);
    distance += Math.hypot(x - px, y - py);
    [px, py] = [x, y];
    const cost = plan.costs?.[i];
    const text = `${short(distance)} ${unit}${cost === undefined ? "" : `, cost ${short(cost)}`}`;
    group.append(el("text", { x, y: y - s * 0.3, "text-anchor": "middle", "font-size": s * 0.2,
      "data-ruler-cell": `${cell[0]},${cell[1]}`, "data-distance": short(distance),
      ...(cost === undefined ? {} : { "data-cost": short(cost) }) }, text));
  });
  return group;
}

/**
 * The cell under a pointer event on the board, or null (the cells an action's area names;
 * on a gridless scene too).
 * @param {SVGSVGElement} svg @param {MouseEvent} event @param {Record<string, any>} grid
 * @returns {[number, number] | null}
 */
export function cellUnder(svg, event, grid) {
  const point = scenePoint(svg, event);
  if (!point) return null;
  const cell = layoutFor(grid).cellAt(point);
  return cell[0] >= 0 && cell[1] >= 0 && cell[0] < grid.width && cell[1] < grid.height ? cell : null;
}

/**
 * The position a pointer event on the board names for a move, or null: the cell under
 * it, or on a gridless scene the point (to a tenth of a cell) in the scene's unit.
 * @param {SVGSVGElement} svg @param {MouseEvent} event @param {Record<string, any>} grid
 * @returns {[number, number] | null}
 */
export function positionUnder(svg, event, grid) {
  const layout = layoutFor(grid);
  if (!layout.gridless) return cellUnder(svg, event, grid);
  const point = scenePoint(svg, event);
  if (!point) return null;
  const [x, y] = layout.positionAt(point);
  return x >= 0 && y >= 0 && x <= layout.width && y <= layout.height ? [x, y] : null;
}

/** A pointer event's point in the scene's units. @param {SVGSVGElement} svg @param {MouseEvent} event
 * @returns {[number, number] | null} */
function scenePoint(svg, event) {
  const matrix = svg.getScreenCTM();
  if (!matrix) return null;
  const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
  return [point.x, point.y];
}
