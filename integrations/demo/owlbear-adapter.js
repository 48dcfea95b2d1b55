// The Owlbear Rodeo adapter for the demo runner: the fight script as an Owlbear room
// (integrations/owlbear/test/fake-obr.js: items and grid shaped like SDK 3.1.0's), every
// user an Owlbear player running the extension's own adapter (integrations/owlbear/src/
// adapter.js) with its own bridge connection, driven through the extension's test driver
// (OwlbearTable), and every step done the way a user does it in Owlbear: a drag is one
// drop (Owlbear reports where an item was let go, never the way there: no waypoints), an
// answer a click in the prompt popover, "start" and "end turn" the popover's buttons.

import { itemCell } from "../owlbear/src/items.js";
import { COMMAND_CHANNEL } from "../owlbear/src/messages.js";
import { OwlbearTable, waitUntil } from "../owlbear/test/driver.js";
import { FakeRoom } from "../owlbear/test/fake-obr.js";
import { renamed } from "./runner.js";

/** Owlbear's default grid resolution (pixels per cell). */
const DPI = 150;

/** An id shaped like Owlbear's (a UUID), stable for the run: `group` tells kinds apart. */
function owlbearId(/** @type {string} */ group, /** @type {number} */ n) {
  return `6f3b2a10-0000-4000-${group}-${String(n).padStart(12, "0")}`;
}

/**
 * @param {{script: any, bridgeUrl: string, gmToken: string}} args
 */
export async function makeOwlbearAdapter({ script, bridgeUrl, gmToken }) {
  const names = new Map(); // Owlbear id -> script name
  const playerIds = new Map(); // script user -> OBR player id
  for (const [n, u] of script.users.entries()) {
    const id = owlbearId("a000", n + 1);
    playerIds.set(u.name, id);
    names.set(id, u.name);
  }
  const itemIds = new Map(); // script token id -> OBR item id
  for (const [n, t] of script.tokens.entries()) {
    itemIds.set(t.id, owlbearId("8000", n + 1));
    names.set(itemIds.get(t.id), t.id);
  }
  const tokenOf = (/** @type {string} */ id) => /** @type {any} */ (script.tokens.find((t) => t.id === id));
  const gmName = script.users.find((/** @type {any} */ u) => u.gm).name;
  /** @type {OwlbearTable | null} */
  let table = null;
  const on = () => /** @type {OwlbearTable} */ (table);

  /** What the user's popover sends to its background page (the extension's own channel). */
  const click = (/** @type {string} */ user, /** @type {any} */ command) =>
    on().player(user).obr.broadcast.sendMessage(COMMAND_CHANNEL, command, { destination: "LOCAL" });

  return {
    async setup() {
      // A square grid, Chebyshev measurement: the bridge's `diagonal: "one"`, as Foundry's
      // square grid with equidistant diagonals (the Foundry adapter's default) counts.
      const scale = `${script.grid.cell_size}${script.grid.unit}`;
      table = new OwlbearTable(new FakeRoom({ dpi: DPI, type: "SQUARE", measurement: "CHEBYSHEV", scale }), bridgeUrl);
      const gm = await table.join(gmName, gmToken, playerIds.get(gmName));
      for (const u of script.users) {
        if (u.gm) continue;
        // Each player joins as its OBR player id, with a token the GM issued (README).
        const issued = await gm.issueToken(playerIds.get(u.name), "player");
        await table.join(u.name, issued.token, playerIds.get(u.name));
      }
      table.addMap(script.grid.columns, script.grid.rows);
      // The GM links each token to its owner's bridge participant: a player's is its OBR
      // id (the token was issued for it), the GM's the participant of the GM's join token.
      const participant = (/** @type {string} */ user) => (user === gmName ? gm.welcome?.participant : playerIds.get(user));
      for (const t of script.tokens) {
        table.addToken({
          id: itemIds.get(t.id), name: t.name, owner: participant(t.owner), side: t.side,
          x: t.cell[0], y: t.cell[1], size: t.size, reach: t.reach, movement: t.movement, stats: t.stats,
        });
      }
      for (const w of script.walls) {
        if (w.door !== "none") throw new Error(`wall ${w.id}: Owlbear has no doors`);
        const k = 1 / script.grid.cell_size; // cells per scene unit
        const item = table.addWall([w.a[0] * k, w.a[1] * k], [w.b[0] * k, w.b[1] * k]);
        names.set(`${item.id}:1`, w.id); // the extension's wall ids: `<item id>:<segment>`
      }
      await click(gmName, { op: "send_scene" });
      await waitUntil(() => gm.view.scene !== null, 10_000);
    },

    async step(/** @type {any} */ step) {
      if (step.do === "start") {
        await click(step.user, { op: "start_combat", ruleset: script.ruleset, seed: script.seed });
        const gm = on().client(gmName);
        await waitUntil(() => gm.view.combat !== null, 10_000);
        return true;
      }
      if (step.do === "drag") {
        // One drop: Owlbear has no waypoints, so a script drag is one point (fight.json).
        if (step.through.length !== 1) throw new Error(`drag of ${step.token}: Owlbear drops a token once, not through ${step.through.length} points`);
        const [x, y] = step.through[0];
        const size = tokenOf(step.token).size;
        await on().drag(step.user, itemIds.get(step.token), [x + size / 2, y + size / 2]);
        return true;
      }
      if (step.do === "answer") {
        return on().answer(step.user, step.accept, { kind: step.kind, optional: Boolean(step.optional) });
      }
      if (step.do === "end_turn") {
        const client = on().client(step.user);
        const actor = client.view.combat?.actor;
        if (!actor) throw new Error(`end_turn by ${step.user}: nobody is acting`);
        const last = client.view.lastEvent;
        await click(step.user, { op: "end_phase", token: actor });
        await waitUntil(() => client.view.lastEvent > last, 10_000);
        return true;
      }
      throw new Error(`unknown step ${step.do}`);
    },

    async settle() {
      await on().settle();
    },

    events() {
      return renamed(on().events.map(({ kind, data }) => ({ kind, data })), names);
    },

    positions() {
      /** @type {Record<string, [number, number]>} */
      const out = {};
      for (const [scriptId, id] of itemIds) out[scriptId] = itemCell(on().grid, on().room.item(id));
      return out;
    },

    /** For tests: the Owlbear table (room, players, events). */
    get table() {
      return table;
    },

    async close() {
      await table?.close();
    },
  };
}
