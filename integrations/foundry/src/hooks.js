// The wiring: Foundry hooks and the bridge client's callbacks to the pure modules.
//
// Everything Foundry-specific that is not a hook registration comes in through `env`
// (main.js builds it from the live globals; the tests from recordings), so this file
// runs in Node against a recording `Hooks` and documents shaped like Foundry's.

import { phaseLabel, planIsEmpty, trackerPlan } from "./combat.js";
import { SquareGrid, UnsupportedGrid, sceneGrid, tokenHexShape } from "./grid.js";
import { t } from "./i18n.js";
import { MoveTracker, cellsToWaypoints, changesLevel, judgeDrag, movementElevations, movementPoints, updateElevations, updatePoints } from "./movement.js";
import { FightLog } from "./log.js";
import { PromptDesk, waitingLines } from "./prompts.js";
import { chooseRuleset } from "./settings.js";
import { MODULE_ID, doorChange, idOf, isCombatToken, listOf, nameFor, sceneMessage, tokenSpec } from "./scene.js";

/**
 * @typedef {object} Env
 * @property {{on: (name: string, fn: Function) => number}} Hooks Foundry's Hooks
 * @property {any} game `game`: user, users (with activeGM), scenes (with active)
 * @property {any} client a connected BridgeClient
 * @property {number} generation Foundry's major version (game.release.generation)
 * @property {(level: "info" | "warn" | "error", text: string) => void} notify
 * @property {import("./prompts.js").DeskIO["show"]} showPrompt
 * @property {() => boolean} bypassHeld is the GM's bypass modifier held (README)?
 * @property {(sceneId: string) => any} findCombat the scene's Combat document, or null
 * @property {(sceneId: string) => Promise<any>} createCombat create one for the scene
 * @property {() => string} ruleset the world's ruleset setting
 * @property {() => number | null} [gridDiagonals] the world's Square Grid Diagonals
 *   (`game.settings.get("core", "gridDiagonals")`, CONST.GRID_DIAGONALS; grid.js DIAGONALS)
 * @property {() => number | null} [seed] the dice seed to start fights with (null: the bridge picks)
 * @property {number} [debounceMs] how long scene edits settle before the GM resends
 * @property {number} [reconcileMs] how long the GM waits for a mover to place its token
 */

/**
 * Install the module on `env`. Returns the parts, for tests and the module's API.
 * @param {Env} env
 */
export function install(env) {
  const { Hooks, game, client } = env;
  const debounceMs = env.debounceMs ?? 500;
  const isActiveGM = () => Boolean(game.user.isGM && (game.users.activeGM?.id ?? game.user.id) === game.user.id);
  const activeScene = () => game.scenes.active ?? null;
  const gridOf = (scene) => sceneGrid(scene, scene.dimensions, { generation: env.generation, diagonals: env.gridDiagonals?.() ?? null });
  const tokenDoc = (id) => activeScene()?.tokens?.get(id);
  const inCombat = () => Boolean(client.view.combat);
  /** Commands the wiring sent and the bridge has not answered yet (see `idle`). */
  const inflight = new Set();
  const track = (promise) => {
    inflight.add(promise);
    promise.finally(() => inflight.delete(promise)).catch(() => {});
    return promise;
  };

  const tracker = new MoveTracker({
    send: (token, points, elevations) => client.movePoints(token, points, elevations ? { elevations } : {}),
    place: (token, cells, heights) => placeToken(env, gridOf(activeScene()), tokenDoc(token), cells, heights),
    notify: env.notify,
  });
  const nameOf = (id) => nameFor(tokenDoc(id), game.user);
  const desk = new PromptDesk({
    answer: (id, accept) => client.answerPrompt(id, accept),
    show: env.showPrompt,
    notify: env.notify,
    nameOf,
    wordsOf: (prompt) => client.promptWords(prompt, nameOf),
  });
  const log = new FightLog((event) => client.describeEvent(event, undefined, nameOf));
  // A participant is a Foundry user id (the GM issues the players' join tokens under
  // them), or the bridge's GM.
  const userName = (id) => (id === "gm" ? t("VTTBRIDGE.Waiting.gm") : (game.users.get?.(id)?.name ?? id));
  /** The prompts someone else answers, as the tracker's lines (prompts.js waitingLines). */
  const waiting = (now) =>
    waitingLines(client.waitingPrompts(), { nameOf, wordsOf: (p) => client.promptWords(p, nameOf), userName }, now);

  // -- movement: only the client that asked for a move talks to the bridge -------------

  /** @returns {boolean | undefined} false rejects the move */
  function onDrag(doc, points, own, otherLevel = false, elevations = null) {
    if (!points || !points.length) return undefined;
    const id = idOf(doc);
    const verdict = judgeDrag({
      own: own || tracker.placing.has(id),
      inCombat: inCombat(),
      known: id in client.view.tokens,
      bypass: game.user.isGM && env.bypassHeld(),
      busy: tracker.busy(id),
      otherLevel,
    });
    if (verdict === "allow") return undefined;
    if (verdict === "level") {
      env.notify("warn", t("VTTBRIDGE.Notify.otherLevel", { name: doc.name }));
      return false;
    }
    if (verdict === "bypass") {
      env.notify("warn", t("VTTBRIDGE.Notify.bypassed", { name: doc.name }));
      return undefined;
    }
    if (verdict === "wait") {
      env.notify("info", t("VTTBRIDGE.Notify.stillMoving", { name: doc.name }));
      return false;
    }
    track(tracker.send(id, points, elevations));
    return false;
  }

  // v13 and v14: `preMoveToken(document, movement, operation)`, only on the client that
  // asked, rejecting the move whole on false; v14 adds levels to its waypoints.
  if (env.generation >= 13) {
    Hooks.on("preMoveToken", (doc, movement, operation) => {
      const from = Number(movement.origin?.elevation ?? doc.elevation ?? 0);
      const heights = movementElevations(movement, from);
      return onDrag(doc, movementPoints(movement), Boolean(operation?.[MODULE_ID]), changesLevel(movement), heights);
    });
  } else {
    Hooks.on("preUpdateToken", (doc, changes, options) =>
      onDrag(doc, updatePoints(doc, changes), Boolean(options?.[MODULE_ID]), false, updateElevations(doc, changes)));
  }

  // -- the bridge's word: placements, prompts, the tracker ---------------------------

  client.on("event", (event) => {
    const { kind, data } = event;
    log.add(event);
    tracker.event(kind, data);
    if (kind === "prompt_closed") desk.closed(data.prompt);
    if (kind === "move_completed" || kind === "move_stopped") reconcileLater(data.token);
  });

  // The mover's client places its token. If it cannot (it reloaded or dropped in the
  // middle of the move, or the move came from another tool), the active GM puts the
  // token where the bridge has it, once the mover has had time to.
  const reconcileMs = env.reconcileMs ?? 2000;
  function reconcileLater(id) {
    if (isActiveGM()) setTimeout(() => track(reconcile(id)), reconcileMs);
  }
  async function reconcile(id) {
    const doc = tokenDoc(id);
    const bridged = client.view.tokens[id];
    if (!doc || !bridged || tracker.busy(id) || tracker.placing.has(id)) return;
    if (client.view.combat?.moving?.token === id) return; // under way again
    const grid = gridOf(activeScene());
    const cell = grid.tokenCell(doc.x, doc.y, doc.width, tokenHexShape(doc, grid.defaultShape));
    const height = Number(bridged.elevation ?? 0);
    const level = Number(doc.elevation ?? 0) === height;
    if (grid.samePlace(cell, [bridged.x, bridged.y]) && level) return;
    tracker.placing.add(id);
    try {
      await placeToken(env, grid, doc, [[bridged.x, bridged.y]], level ? null : [height]);
    } finally {
      tracker.placing.delete(id);
    }
  }
  client.on("prompt", (prompt) => desk.prompt(prompt));

  let trackerRun = Promise.resolve();
  let trackerQueued = false;
  function syncTracker() {
    if (!isActiveGM() || trackerQueued) return trackerRun;
    trackerQueued = true;
    trackerRun = trackerRun.then(async () => {
      trackerQueued = false;
      try {
        await writeTracker(env, activeScene(), client.view.combat);
      } catch (err) {
        env.notify("error", t("VTTBRIDGE.Notify.trackerFailed", { error: err.message ?? err }));
      }
    });
    return trackerRun;
  }
  client.on("change", () => {
    if (inCombat()) syncTracker();
  });

  // Foundry's own turn buttons: the bridge's order rules, so a GM's "next turn" ends
  // the current action there, and "begin combat" starts the bridge's fight.
  Hooks.on("preUpdateCombat", (combat, changes, options) => {
    if (options?.[MODULE_ID]) return undefined;
    if (!("turn" in changes) && !("round" in changes)) return undefined;
    const fight = client.view.combat;
    if (!fight) {
      if (game.user.isGM && changes.round === 1 && !combat.started) startFight();
      return game.user.isGM ? false : undefined;
    }
    // The GM, or the player whose token acts, ends the action; nobody else may.
    const mine = client.view.tokens[fight.actor]?.owner === client.welcome?.participant;
    if (fight.actor && (game.user.isGM || mine)) {
      track(client.endPhase(fight.actor).catch((err) => env.notify("warn", t("VTTBRIDGE.Notify.refused", { error: err.message }))));
    }
    return false;
  });

  // Foundry's "End Combat" (the tracker's end deletes the scene's Combat) ends the
  // bridge's fight; a fight the bridge ended elsewhere (the table view, another tool)
  // takes the scene's Combat with it, marked as the module's own so it is not sent back.
  Hooks.on("preDeleteCombat", (combat, options) => {
    if (options?.[MODULE_ID] || !isActiveGM() || !client.view.combat) return undefined;
    const scene = activeScene();
    if (!scene || env.findCombat(idOf(scene))?.id !== combat.id) return undefined;
    track(client.endCombat("ended in Foundry").catch((err) => env.notify("warn", t("VTTBRIDGE.Notify.endFailed", { error: err.message }))));
    return undefined;
  });
  client.on("event", ({ kind }) => {
    if (kind !== "combat_ended" || !isActiveGM()) return;
    const scene = activeScene();
    const combat = scene ? env.findCombat(idOf(scene)) : null;
    if (combat) track(Promise.resolve(combat.delete({ [MODULE_ID]: true })).catch((e) => env.notify("warn", e.message)));
  });

  // -- the scene: the GM sends it, and again after edits while no fight runs -----------

  let timer = null;
  let warned = false;
  async function sendScene() {
    timer = null;
    const scene = activeScene();
    if (!scene || !isActiveGM()) return null;
    if (inCombat()) {
      if (!warned) env.notify("warn", t("VTTBRIDGE.Notify.editsWait"));
      warned = true;
      return null;
    }
    try {
      const { scene: message, skipped } = sceneMessage(scene, { users: game.users, grid: gridOf(scene) });
      for (const s of skipped) env.notify("warn", t("VTTBRIDGE.Notify.skipped", { id: s.id, reason: s.reason }));
      return await client.loadScene(message);
    } catch (err) {
      env.notify("error", err instanceof UnsupportedGrid ? err.message : t("VTTBRIDGE.Notify.sceneRefused", { error: err.message }));
      return null;
    }
  }
  function sceneEdited(parentScene) {
    if (!isActiveGM() || (parentScene && parentScene !== activeScene())) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(sendScene, debounceMs);
  }
  for (const kind of ["Token", "Wall", "Region", "Drawing"]) {
    for (const op of ["create", "update", "delete"]) {
      Hooks.on(`${op}${kind}`, (doc, changes) => {
        if (kind === "Wall" && op === "update" && inCombat()) {
          const door = doorChange(doc, changes);
          if (door && isActiveGM()) track(client.setDoor(door.wall, door.open).catch((e) => env.notify("warn", e.message)));
          return;
        }
        if (kind === "Token" && op === "create" && inCombat()) return joinFight(doc);
        // In a fight tokens move as the bridge says: their updates are not edits.
        if (kind === "Token" && op === "update" && inCombat()) return undefined;
        sceneEdited(doc.parent);
      });
    }
  }
  Hooks.on("updateScene", (scene, changes) => {
    if ("grid" in changes || "padding" in changes || changes.active) sceneEdited(changes.active ? undefined : scene);
  });
  Hooks.on("canvasReady", () => sceneEdited(undefined));
  // Square Grid Diagonals is a world setting (a Setting document), not a scene field.
  Hooks.on("updateSetting", (setting) => {
    if (setting.key === "core.gridDiagonals") sceneEdited(undefined);
  });

  /** A token dropped on the scene during a fight joins it (GM). */
  function joinFight(doc) {
    if (!isActiveGM() || !isCombatToken(doc, activeScene())) return;
    const spec = tokenSpec(doc, { users: game.users, grid: gridOf(activeScene()) });
    if (typeof spec === "string") env.notify("warn", t("VTTBRIDGE.Notify.cannotJoin", { name: doc.name, reason: spec }));
    else track(client.joinCombat(spec).catch((err) => env.notify("warn", t("VTTBRIDGE.Notify.joinRefused", { name: doc.name, error: err.message }))));
  }

  /** The GM starts the bridge's fight with the world's ruleset, if the bridge plays it. */
  function startFight() {
    const chosen = chooseRuleset(env.ruleset() ?? "", client.rulesets);
    if ("error" in chosen) {
      env.notify("warn", chosen.error);
      return Promise.resolve();
    }
    return track(client.startCombat(chosen.name, { seed: env.seed?.() ?? null }).catch((err) => {
      env.notify("warn", t("VTTBRIDGE.Notify.startFailed", { error: err.message }));
    }));
  }

  /** Resolves once every command the wiring sent so far is answered and its tokens placed. */
  async function idle() {
    while (inflight.size) await Promise.allSettled([...inflight]);
    await tracker.settled();
  }

  return { tracker, desk, log, waiting, sendScene, syncTracker, startFight, idle, phaseLabel: () => phaseLabel(client.view.combat) };
}

/**
 * Move a Foundry token through `cells` as a move of the module's own (the hooks let it
 * through): v13 `TokenDocument#move` with waypoints, v12 one update per waypoint.
 */
export async function placeToken(env, grid, doc, cells, heights = null) {
  if (!doc || !cells.length) return;
  const shape = tokenHexShape(doc, grid.defaultShape);
  const from = grid.tokenCell(doc.x, doc.y, doc.width, shape);
  const toXY = (c) => grid.tokenXY(c, doc.width, shape);
  // A flight goes through every cell at its own height (a corner-only path would lose
  // the heights between); a move on the level through the corners, as Foundry draws it.
  const waypoints = heights
    ? cells.map((c, k) => ({ ...toXY(c), elevation: heights[k] }))
    : cellsToWaypoints(cells, from, toXY, { square: grid instanceof SquareGrid });
  const options = { [MODULE_ID]: true };
  const at = ({ x, y, elevation }) => (elevation === undefined ? { x, y } : { x, y, elevation });
  if (env.generation >= 13) {
    await doc.move(waypoints.map(at), { ...options, method: "api" });
  } else {
    for (const w of waypoints) await doc.update(at(w), options);
  }
}

/** Write the tracker plan for the scene's Combat (creating it on first sight). */
export async function writeTracker(env, scene, fight) {
  if (!scene || !fight) return;
  let combat = env.findCombat(idOf(scene));
  const tokens = new Map(listOf(scene.tokens).map((t) => [idOf(t), { actorId: t.actorId ?? null }]));
  let plan = trackerPlan(fight, combat, { sceneId: idOf(scene), tokens });
  if (planIsEmpty(plan)) return;
  const options = { [MODULE_ID]: true };
  if (plan.create) {
    combat = await env.createCombat(idOf(scene));
    plan = trackerPlan(fight, combat, { sceneId: idOf(scene), tokens });
  }
  if (plan.add.length) await combat.createEmbeddedDocuments("Combatant", plan.add, options);
  if (plan.initiative.length) await combat.updateEmbeddedDocuments("Combatant", plan.initiative, options);
  if (Object.keys(plan.update).length) await combat.update(plan.update, options);
}
