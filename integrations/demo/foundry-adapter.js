// The Foundry VTT adapter for the demo runner: the fight script as Foundry documents,
// every user a Foundry client running the module (integrations/foundry/src/hooks.js)
// with its own bridge connection, and every step done the way a user does it in
// Foundry: a drag is a v13 `TokenDocument#move` with the drop's waypoints (v12: an
// update), an answer a click in the module's dialog, "end turn" the tracker's button.

import { BridgeClient } from "../foundry/lib/client/src/index.js";
import { install } from "../foundry/src/hooks.js";
import { idOf, MODULE_ID } from "../foundry/src/scene.js";
import * as fx from "../foundry/test/fixtures.js";
import { FoundryWorld } from "../foundry/test/foundry-sim.js";
import { renamed, waitFor } from "./runner.js";

const GRID_PX = 100;

/**
 * @param {{script: any, bridgeUrl: string, gmToken: string, generation?: number, clientOptions?: Record<string, any>}} args
 *   clientOptions: more BridgeClient options for every seat (default: no reconnecting;
 *   `{reconnect: true, binary: true}` is what the module's main.js makes)
 */
export async function makeFoundryAdapter({ script, bridgeUrl, gmToken, generation = 13, clientOptions = {} }) {
  const names = new Map(); // Foundry id -> script name
  const users = script.users.map((u) => {
    const data = fx.user({ name: u.name, role: u.gm ? 4 : 1 });
    names.set(data._id, u.name);
    return data;
  });
  const userId = (name) => users.find((u) => u.name === name)._id;
  const k = GRID_PX / script.grid.cell_size; // px per scene unit
  const sceneData = fx.scene({
    width: script.grid.columns * GRID_PX,
    height: script.grid.rows * GRID_PX,
    grid: { type: 1, size: GRID_PX, distance: script.grid.cell_size, units: script.grid.unit },
  });
  const dims = fx.squareDimensions(sceneData);
  const px = ([u, v]) => ({ x: dims.sceneX + u * GRID_PX, y: dims.sceneY + v * GRID_PX });
  const actors = [];
  const tokenIds = new Map(); // script id -> Foundry id
  for (const t of script.tokens) {
    const ownership = { default: 0 };
    if (t.owner !== "gm") ownership[userId(t.owner)] = fx.CONST.DOCUMENT_OWNERSHIP_LEVELS.OWNER;
    const a = fx.actor({ name: t.name, ownership, flags: { [MODULE_ID]: { reach: t.reach, movement: t.movement, stats: t.stats } } });
    actors.push(a);
    const doc = fx.token({
      name: t.name, actorId: a._id, width: t.size, height: t.size, ...px(t.cell), generation, elevation: t.elevation ?? 0,
      displayName: fx.CONST.TOKEN_DISPLAY_MODES.ALWAYS, hidden: Boolean(t.hidden),
      flags: { [MODULE_ID]: { side: t.side } },
    });
    sceneData.tokens.push(doc);
    tokenIds.set(t.id, doc._id);
    names.set(doc._id, t.id);
  }
  for (const w of script.walls) {
    const [a, b] = [w.a, w.b].map(([u, v]) => [dims.sceneX + u * k, dims.sceneY + v * k]);
    const door = w.door === "none" ? 0 : 1;
    const data = fx.wall({ c: [...a, ...b], door, ds: w.door === "open" ? 1 : 0 });
    sceneData.walls.push(data);
    names.set(data._id, w.id);
  }

  const world = new FoundryWorld({ scene: sceneData, dimensions: dims, users, actors, generation });
  const seats = new Map(); // script user name -> {foundry, bridge, parts, dialogs}
  const log = [];
  let gmBridge = null;

  async function seat(name, joinToken) {
    const foundry = world.connect(userId(name));
    const bridge = new BridgeClient(bridgeUrl, { token: joinToken, reconnect: false, ...clientOptions });
    await bridge.connect();
    const dialogs = [];
    const notes = [];
    const keys = { bypass: false }; // the GM's bypass key, held or not
    const parts = install({
      Hooks: foundry.Hooks,
      game: foundry.game,
      client: bridge,
      generation,
      notify: (level, text) => notes.push({ level, text }),
      showPrompt: (model, answer, dismissed) => {
        const dialog = { model, answer, dismissed, open: true, close: () => { dialog.open = false; } };
        dialogs.push(dialog);
        return dialog;
      },
      bypassHeld: () => keys.bypass,
      findCombat: (sceneId) => foundry.findCombat(sceneId),
      createCombat: async (sceneId) => world.createCombat(foundry, sceneId),
      ruleset: () => script.ruleset,
      gridDiagonals: () => foundry.game.settings.get("core", "gridDiagonals"),
      seed: () => script.seed,
      debounceMs: 5,
      reconcileMs: 300,
    });
    seats.set(name, { foundry, bridge, parts, dialogs, notes, keys });
    return bridge;
  }

  return {
    async setup() {
      gmBridge = await seat("gm", gmToken);
      gmBridge.on("event", ({ kind, data }) => log.push({ kind, data }));
      for (const u of script.users) {
        if (u.gm) continue;
        // Each player joins as its Foundry user id, with a token the GM issued (README).
        const issued = await gmBridge.issueToken(userId(u.name), "player");
        await seat(u.name, issued.token);
      }
      seats.get("gm").foundry.Hooks.callAll("canvasReady", {});
      await waitFor(() => gmBridge.view.scene !== null, 10_000, "the scene");
    },

    async step(step) {
      const s = seats.get(step.user);
      if (step.do === "start") {
        const combat = await world.createCombat(s.foundry, sceneData._id);
        await combat.update({ round: 1, turn: 0 }); // "Begin Combat"
        await waitFor(() => gmBridge.view.combat !== null, 10_000, "the fight");
        return true;
      }
      if (step.do === "drag") {
        const doc = s.foundry.token(tokenIds.get(step.token));
        // `heights`: the elevation of each waypoint (a flight), as Foundry's ruler sets it.
        const waypoints = step.through.map((c, k) => ({ ...px(c), ...(step.heights ? { elevation: step.heights[k] } : {}) }));
        if (generation >= 13) await doc.move(waypoints, { method: "dragging" });
        else await doc.update(waypoints.at(-1));
        return true;
      }
      if (step.do === "answer") {
        const dialog = s.dialogs.find((d) => d.open && d.model.kind === step.kind);
        if (!dialog) return false;
        dialog.open = false;
        await dialog.answer(step.accept);
        return true;
      }
      if (step.do === "end_turn") {
        const combat = s.foundry.findCombat(sceneData._id);
        await combat.update({ turn: (combat.turn ?? 0) + 1 }); // the tracker's "next turn"
        return true;
      }
      throw new Error(`unknown step ${step.do}`);
    },

    async settle() {
      let last = -2;
      for (;;) {
        for (const { parts } of seats.values()) {
          await parts.idle();
          await parts.syncTracker();
        }
        await new Promise((r) => setTimeout(r, 40));
        const now = gmBridge.view.lastEvent;
        const caughtUp = [...seats.values()].every(({ bridge }) => bridge.view.lastEvent === now);
        const placing = [...seats.values()].some(({ parts }) => parts.tracker.moves.size && [...parts.tracker.moves.values()].some((m) => m.phase !== "paused"));
        if (caughtUp && !placing && now === last) return;
        last = now;
      }
    },

    events() {
      return renamed(log, names);
    },

    positions() {
      const gm = seats.get("gm").foundry;
      const out = {};
      const grid = { x: dims.sceneX, y: dims.sceneY };
      for (const [scriptId, id] of tokenIds) {
        const doc = gm.token(id);
        out[scriptId] = [Math.round((doc.x - grid.x) / GRID_PX), Math.round((doc.y - grid.y) / GRID_PX)];
      }
      return out;
    },

    /** For tests: the seats (Foundry client, bridge client, module parts, dialogs, notes, keys). */
    seats,
    world,
    tokenIds,
    idOf,

    async close() {
      for (const { bridge } of seats.values()) bridge.close();
    },
  };
}
