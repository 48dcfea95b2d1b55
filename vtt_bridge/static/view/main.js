// The table view: joins with the token in the URL fragment and draws the fight live from
// the client library's view.  It plays too: a player selects its token and clicks a
// cell, or drags from its token, sees the bridge's planned path and cost (ask_path, a
// ruler with the cost to each waypoint) and what it may still do (ask_options, asked
// again on every change: "Not your turn" before any plan), and commits the move (Enter;
// Esc cancels); the action bar (actionbar.js) takes any other action the options list;
// whoever controls a prompt answers it here; the acting combatant's controller ends its
// action (its game's Turn or Phase, as the bridge names them); the GM picks the game
// and loads its demo scene (picker.js).  Hovering a token (or selecting one) shows its
// reach and threatened cells as the bridge answers ask_threat: the page computes no
// rule itself.

import { BridgeClient, BridgeError, endActionLabel } from "/client/src/index.js";
import { cellUnder, drawBoard, placeText, positionUnder, short } from "./board.js";
import { $, h } from "./dom.js";
import { renderLastMove, renderOrder, renderPrompts, tick } from "./panels.js";
import { describe } from "./describe.js";
import { ActionBar } from "./actionbar.js";
import { Picker } from "./picker.js";

const svg = /** @type {SVGSVGElement} */ (/** @type {unknown} */ ($("board")));
const LOG_KEPT = 500;
/** The waypoints of a planned path the ruler asks the cost of (a long path: its first). */
const RULER_ASKED = 24;

/** What the page adds to the table view. */
const board = { selected: null, hovered: null, plan: null, participant: null, options: null, threat: null, drag: null, picked: [], flyTo: null };
/** Queries kept to one in flight each (the protocol README asks as much of a drag). */
const asking = { threat: "", path: false, nextPath: null, options: "" };
/** @type {ActionBar | null} the selected token's actions */
let actionBar = null;
/** @type {Picker | null} the GM's ruleset picker */
let picker = null;
/** A press on the board not yet released: its release is a click unless a drag began. */
let pressed = false;

/** @param {string} text @param {string} [kind] @returns {HTMLElement} */
function log(text, kind = "") {
  const list = $("log");
  const item = h("li", { className: kind, textContent: text });
  list.append(item);
  while (list.children.length > LOG_KEPT) list.firstElementChild?.remove();
  list.scrollTop = list.scrollHeight;
  return item;
}

/** The log's events, each with its line and the fight's ruleset then, worded again
 * when a ruleset's description arrives (a fight's first events may come before it). */
const logged = new Map();
/** The ruleset of the fight the latest events belong to (kept past its end). */
let fightRuleset = undefined;

/** @param {BridgeClient} client @param {{kind: string, data: any}} event */
function logEvent(client, event) {
  fightRuleset = client.view.combat?.ruleset ?? fightRuleset;
  const item = log(describe(client, event, fightRuleset), "event");
  logged.set(item, { event, ruleset: fightRuleset });
  for (const old of logged.keys()) if (!old.isConnected) logged.delete(old);
}

/** @param {BridgeClient} client */
function rewordLog(client) {
  for (const [item, { event, ruleset }] of logged) item.textContent = describe(client, event, ruleset);
}

/** Run a command from a button; a refusal goes to the log, in the bridge's words. */
async function act(what, run) {
  try {
    return await run();
  } catch (err) {
    const why = err instanceof BridgeError ? `${err.code}: ${err.message}` : String(err);
    log(`${what} refused: ${why}`, "error");
    return null;
  }
}

/** The join screen: paste a token (again, after `why` a token was refused). @param {string} [why] */
function joinScreen(why = "") {
  $("join").hidden = false;
  $("join-error").textContent = why;
  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    location.hash = `token=${encodeURIComponent(/** @type {HTMLInputElement} */ ($("join-token")).value.trim())}`;
    location.reload();
  });
  /** @type {HTMLInputElement} */ ($("join-token")).focus();
  drawBoard(svg, { lastEvent: -1, scene: null, tokens: {}, combat: null, prompts: {} }, board);
}

function start() {
  const token = new URLSearchParams(location.hash.slice(1)).get("token");
  if (!token) {
    joinScreen();
    return;
  }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  // With the history: after a reload the log shows the fight's past again, in words, from
  // the events the bridge still keeps.
  const client = new BridgeClient(`${scheme}://${location.host}/ws`, { token, binary: true, history: true });
  window.vttClient = client; // for the console, and for browser tests
  picker = new Picker($("setup"), act);
  actionBar = new ActionBar(client, $("action-bar"), {
    act,
    changed: () => render(client),
    done: (id) => select(client, id),
  });
  document.addEventListener("keydown", (event) => keyPressed(client, event));
  client.on("status", (status) => {
    $("status").textContent = status;
    $("status").className = `status ${status}`;
  });
  client.on("welcome", (w) => {
    board.participant = w.participant;
    $("who").textContent = `${w.participant} (${w.role}) at table ${w.table}`;
  });
  client.on("event", (event) => logEvent(client, event));
  client.on("ruleset", () => {
    rewordLog(client);
    render(client);
  });
  client.on("error", (err) => log(String(err.message ?? err), "error"));
  client.on("change", () => render(client));
  // Clicks are read from pointerdown/pointerup, not "click": the board is redrawn when a
  // query's answer arrives, and a press whose element is replaced before its release
  // gets no click event at all.
  svg.addEventListener("pointerdown", (event) => dragStart(client, event));
  svg.addEventListener("pointermove", (event) => pointerMoved(client, event));
  svg.addEventListener("pointerup", (event) => released(client, event));
  svg.addEventListener("pointerleave", () => hover(client, null));
  setInterval(() => tick(client), 250);
  client.connect().then(
    () => render(client),
    (err) => {
      log(`cannot join: ${err.message}`, "error");
      client.close();
      joinScreen(`That token was refused (${err.code ?? "error"}: ${err.message}). Paste another one.`);
    },
  );
}

/** Esc cancels what is being planned (an action, else a move); Enter commits it, unless
 * the key is a form control's own (a button, a select, a field in the action's form).
 * @param {BridgeClient} client @param {KeyboardEvent} event */
function keyPressed(client, event) {
  const target = /** @type {HTMLElement} */ (event.target);
  const inControl = !!target.closest?.("button, select, textarea, form, a");
  if (event.key === "Escape") {
    if (actionBar?.cancel()) return;
    if (board.plan) {
      board.plan = null;
      render(client);
    }
  } else if (event.key === "Enter" && !inControl) {
    if (actionBar?.plan) actionBar.commit();
    else if (board.plan?.path.length) commitMove(client);
  }
}

/** May this participant move or end the action of `token`? (The bridge decides; this only
 * spares the player buttons that would certainly be refused.) */
function controls(client, token) {
  const me = client.welcome;
  return !!me && !!token && (me.role === "gm" || token.owner === me.participant);
}

/** @param {BridgeClient} client @param {MouseEvent} event */
async function clicked(client, event) {
  const view = client.view;
  if (!view.scene) return;
  const id = tokenUnder(event);
  const cell = cellUnder(svg, event, view.scene.grid);
  // The action being composed picks first: a target token, its cells or area.
  if (id && actionBar?.pickToken(id)) return;
  if (cell && actionBar?.pickCell(cell)) return;
  if (id && controls(client, view.tokens[id])) {
    await select(client, id);
    return;
  }
  const to = positionUnder(svg, event, view.scene.grid); // gridless: a point, not a cell
  if (!to || !board.selected) return;
  await planTo(client, board.selected, to);
}

/** The token under a pointer event, if any: found by the pointer's position, not the
 * event's target, because the board may have been redrawn between a press and its
 * release (a query's answer arriving), which makes a click's target the whole board.
 * @param {MouseEvent} event */
function tokenUnder(event) {
  const found = document.elementFromPoint(event.clientX, event.clientY)?.closest("[data-token]");
  return found?.getAttribute("data-token") ?? null;
}

/** @param {BridgeClient} client @param {string | null} id */
function hover(client, id) {
  if (board.hovered === id) return;
  board.hovered = id;
  refreshThreat(client);
}

/** Show the hovered (else the selected) token's threat, asking the bridge again when the
 * token or the table changed since the answer shown.  @param {BridgeClient} client */
async function refreshThreat(client) {
  const token = board.hovered ?? board.selected;
  const key = token && client.view.tokens[token] ? `${token}@${client.view.lastEvent}` : "";
  if (key === asking.threat || asking.threat === "?") return;
  if (!key) {
    asking.threat = "";
    if (board.threat) {
      board.threat = null;
      drawBoard(svg, client.view, board);
      renderThreat(client);
    }
    return;
  }
  asking.threat = "?";
  let answer = null;
  try {
    answer = await client.askThreat(/** @type {string} */ (token));
  } catch (err) {
    const why = err instanceof BridgeError ? `${err.code}: ${err.message}` : String(err);
    log(`ask_threat refused: ${why}`, "error");
  }
  asking.threat = key;
  board.threat = answer;
  drawBoard(svg, client.view, board);
  renderThreat(client);
  refreshThreat(client); // the pointer may have moved on meanwhile
}

/** @param {BridgeClient} client */
function renderThreat(client) {
  const t = board.threat;
  const name = (id) => client.view.tokens[id]?.name || id;
  let text = "";
  if (t) {
    const reaches = t.region
      ? `${name(t.token)} threatens within ${short(t.region.radius)} ${client.view.scene?.grid.unit ?? ""} of its centre`
      : `${name(t.token)} threatens ${t.cells.length} cells`;
    text = t.cells.length || (t.region && !t.reason)
      ? reaches +
        (t.attacks.length ? `; attacks of opportunity left on ${t.attacks.map(name).join(", ")}.` : "; no attack of opportunity left.")
      : `${name(t.token)}'s reach is shown; it threatens nothing now (${t.reason}).`;
  }
  $("threat-info").textContent = text;
}

/** Start dragging a path from one of this participant's tokens.
 * @param {BridgeClient} client @param {PointerEvent} event */
function dragStart(client, event) {
  if (event.button !== 0) return;
  pressed = true;
  const id = tokenUnder(event);
  const token = id ? client.view.tokens[id] : null;
  if (!token || !controls(client, token) || actionBar?.pickingShape()) return;
  event.preventDefault(); // no text selection while dragging
  board.drag = { token: id, cell: null };
}

/** @param {BridgeClient} client @param {PointerEvent} event */
function pointerMoved(client, event) {
  const drag = board.drag;
  if (!drag) {
    hover(client, tokenUnder(event));
    return;
  }
  const view = client.view;
  const cell = view.scene ? positionUnder(svg, event, view.scene.grid) : null;
  const token = view.tokens[drag.token];
  if (!cell || !token || (drag.cell && cell[0] === drag.cell[0] && cell[1] === drag.cell[1])) return;
  if (!drag.cell && cell[0] === token.x && cell[1] === token.y) return; // not moved off yet
  if (!drag.cell) {
    // Off its cell: a drag, not a click.  Capture the pointer only now, so that a
    // press and release on the token stays a click on it.
    svg.setPointerCapture(event.pointerId);
    select(client, drag.token); // a drag selects its token too
  }
  drag.cell = cell;
  planTo(client, drag.token, cell);
  drawBoard(svg, view, board);
}

/** The end of a drag, or of a click. @param {BridgeClient} client @param {PointerEvent} event */
function released(client, event) {
  const drag = board.drag;
  const wasPressed = pressed;
  pressed = false;
  board.drag = null;
  if (svg.hasPointerCapture(event.pointerId)) svg.releasePointerCapture(event.pointerId);
  if (drag?.cell) {
    render(client); // the plan for where the drag ended stays, with its buttons
    if (board.plan && !asking.path) measure(client, board.plan);
  }
  else if (wasPressed) clicked(client, event);
}

/** Select `id` and ask what it may do. @param {BridgeClient} client @param {string} id */
async function select(client, id) {
  if (board.selected !== id) actionBar?.cancel();
  board.selected = id;
  board.plan = null;
  asking.options = "";
  refreshThreat(client);
  await refreshOptions(client);
}

/** Ask what the selected token may do, again whenever the table changed since the
 * answer shown (one question in flight).  @param {BridgeClient} client */
async function refreshOptions(client) {
  const id = board.selected;
  const key = id && client.view.tokens[id] ? `${id}@${client.view.lastEvent}` : "";
  if (key === asking.options || asking.options === "?") return;
  asking.options = "?";
  board.options = key ? await act("ask_options", () => client.askOptions(/** @type {string} */ (id))) : null;
  asking.options = key;
  render(client);
}

/** Is the selected token's turn elsewhere (the options answer says so)? */
function notMyTurn(client, token) {
  const o = board.options;
  return !!o && o.token === token && !o.can_act && !!client.view.combat && client.view.combat.actor !== token;
}

/** Plan a path to `cell`, one ask_path in flight: a newer target waits for the answer.
 * @param {BridgeClient} client @param {string} token @param {[number, number]} cell */
async function planTo(client, token, cell) {
  if (notMyTurn(client, token)) {
    // Said before any plan starts: the move would be refused on commit.
    $("hint").textContent = `Not your turn: ${board.options.reason}.`;
    return;
  }
  if (asking.path) {
    asking.nextPath = { token, cell };
    return;
  }
  asking.path = true;
  const plan = await act("ask_path", () => client.askPath(token, cell));
  // Where the planned move would be stopped, as the bridge would stop it.
  const exits = plan?.path.length ? await act("ask_exits", () => client.askExits(token, plan.path)) : null;
  asking.path = false;
  if (plan) board.plan = { ...plan, exits: exits?.exits ?? [], costs: [] };
  const next = asking.nextPath;
  asking.nextPath = null;
  if (next) planTo(client, next.token, next.cell);
  else {
    render(client);
    if (plan && !board.drag) measure(client, board.plan);
  }
}

/** The ruler: the cost to each waypoint of the plan, as the bridge answers ask_path to
 * it (a cheapest path's every prefix is a cheapest path to its end).  Asked once the plan
 * is settled, never while dragging.  @param {BridgeClient} client @param {any} plan */
async function measure(client, plan) {
  if (plan.measured) return;
  plan.measured = true;
  for (const cell of plan.path.slice(0, RULER_ASKED)) {
    const answer = await act("ask_path", () => client.askPath(plan.token, cell));
    if (board.plan !== plan || !answer) return;
    plan.costs.push(answer.cost);
    drawBoard(svg, client.view, board);
  }
}

/** @param {BridgeClient} client */
function render(client) {
  const view = client.view;
  board.triggers = client.ruleset?.triggers ?? []; // held actions' words, the ruleset's
  board.picked = actionBar?.pickedCells() ?? [];
  board.picking = !!actionBar?.pickingShape();
  drawBoard(svg, view, board);
  picker?.render(client);
  actionBar?.render(board.selected, board.options);
  refreshOptions(client);
  renderOrder(view, board.triggers);
  renderPrompts(client, act);
  renderControls(client);
  renderThreat(client);
  renderLastMove(view);
  refreshThreat(client);
}

/** @param {BridgeClient} client */
function renderControls(client) {
  const view = client.view;
  const gm = client.welcome?.role === "gm";
  const buttons = [];
  const button = (label, what, run) => {
    const b = h("button", { textContent: label });
    b.addEventListener("click", () => act(what, run));
    buttons.push(b);
  };
  if (gm && view.scene) {
    for (const wall of view.scene.walls.filter((w) => w.door !== "none")) {
      const open = wall.door === "closed";
      button(`${open ? "Open" : "Close"} door ${wall.id}`, "set_door", () => client.setDoor(wall.id, open));
    }
  }
  if (gm && view.combat) button("End combat", "end_combat", () => client.endCombat("ended from the table view"));
  const actor = view.combat?.actor;
  if (actor && controls(client, view.tokens[actor])) {
    button(endActionLabel(view.combat, view.tokens[actor]?.name || actor), "end_phase", async () => {
      board.plan = null;
      return client.endPhase(actor);
    });
  }
  const plan = board.plan;
  let hint = board.selected
    ? `${board.selected} selected: click a cell, or drag from the token, to plan a move.`
    : "Click one of your tokens to select it, or drag it to plan a move. Hover any token to see its reach.";
  if (board.options) {
    const o = board.options;
    if (o.token !== board.selected) {
      // an answer about another token, replaced on the next refresh
    } else if (view.combat?.moving?.token === o.token) {
      // The options' movement_left is the budget before this move: not what is left.
      hint += Object.keys(view.prompts).length ? " Its move is paused: a prompt waits for an answer." : " Its move is under way.";
    } else if (o.can_act) hint += ` Movement left: ${o.movement_left}.`;
    else hint += notMyTurn(client, o.token) ? ` Not your turn: ${o.reason}.` : ` Cannot act now: ${o.reason}.`;
  }
  if (plan) {
    if (plan.path.length) {
      hint = `Path to ${plan.to}: cost ${plan.cost}${plan.budget === null ? "" : ` of ${plan.budget}`}.`;
      for (const exit of plan.exits ?? []) {
        const who = view.tokens[exit.by]?.name || exit.by;
        hint += exit.kind === "attack_of_opportunity"
          ? ` Leaves ${who}'s reach at (${placeText(exit.point)}): ${who} may attack.`
          : ` Trips ${who}'s readied action at ${exit.at}.`;
      }
      const mover = view.tokens[plan.token];
      if (view.scene && mover) {
        // A flight: the height the token's base reaches at the end (any scene; the game
        // says who may fly). Kept across redraws until the plan goes.
        const unit = view.scene.grid.unit;
        const field = h("input", { type: "number", step: "any", value: String(board.flyTo ?? mover.elevation ?? 0) });
        field.setAttribute("aria-label", `Height at the end (${unit})`);
        field.addEventListener("change", () => {
          board.flyTo = Number(field.value);
        });
        const label = h("label", { textContent: `Height (${unit}) ` });
        label.append(field);
        buttons.push(label);
      }
      button("Move there", "move", () => commitMove(client));
      button("Cancel", "cancel", async () => {
        board.plan = null;
        render(client);
      });
    } else {
      hint = `No path to ${plan.to}: ${plan.reason}`;
    }
  }
  $("control-list").replaceChildren(...buttons);
  $("control-list").setAttribute("aria-label", "Turn controls");
  $("hint").textContent = hint;
}

/**
 * A flight's heights, one per waypoint (a grid's cells too): from `from` to `to` in
 * step with the distance flown on the ground, so the token climbs (or sinks) evenly
 * all the way.
 * @param {{x: number, y: number}} token @param {Array<[number, number]>} path
 * @param {number} from @param {number} to @returns {number[]}
 */
export function climb(token, path, from, to) {
  let [px, py] = [token.x, token.y];
  const along = path.map(([x, y]) => {
    const d = Math.hypot(x - px, y - py);
    [px, py] = [x, y];
    return d;
  });
  const total = along.reduce((a, b) => a + b, 0);
  let done = 0;
  return along.map((d, i) => {
    done += d;
    return i === along.length - 1 || !total ? to : from + ((to - from) * done) / total;
  });
}

/** Send the planned move.  @param {BridgeClient} client */
async function commitMove(client) {
  const plan = board.plan;
  if (!plan) return null;
  board.plan = null;
  const token = client.view.tokens[plan.token];
  const from = Number(token?.elevation ?? 0);
  const to = board.flyTo ?? from;
  board.flyTo = null;
  const options = token && to !== from ? { elevations: climb(token, plan.path, from, to) } : {};
  const ack = await act("move", () => client.move(plan.token, plan.path, options));
  asking.options = "";
  await refreshOptions(client);
  return ack;
}

start();
