// The extension's working part: an OBR object (the SDK's default export, or anything of
// the same shape) on one side, a connected BridgeClient (clients/js) on the other.
// movement.js explains the movement rules; this file does the calls.

import { bridgeGrid, GridNotSupported, readGrid } from "./grid.js";
import { cellPosition, isLinkedToken, itemCell, sceneFromItems } from "./items.js";
import { itemImage, wireImage } from "./coords.js";
import { PixelError } from "../../../clients/js/src/pixels.js";
import { Change, classifyChange, PLACING_EVENTS, writesFor } from "./movement.js";
import { COMMAND_CHANNEL, PROMPT_POPOVER_ID, STATE_CHANNEL, tableSummary } from "./messages.js";

/**
 * @typedef {{
 *   player: {id: string},
 *   scene: {isReady(): Promise<boolean>, onReadyChange(cb: (ready: boolean) => void): () => void,
 *     items: {getItems(filter?: any): Promise<any[]>, updateItems(filter: any, update: (drafts: any[]) => void): Promise<void>,
 *     onChange(cb: (items: any[]) => void): () => void}, grid: any},
 *   broadcast: {sendMessage(channel: string, data: unknown, options?: {destination: "REMOTE" | "LOCAL" | "ALL"}): Promise<void>,
 *     onMessage(channel: string, cb: (event: {data: unknown, connectionId: string}) => void): () => void},
 *   popover: {open(popover: any): Promise<void>, close(id: string): Promise<void>},
 *   notification: {show(message: string, variant?: string): Promise<string>},
 *   action: {setBadgeText(text?: string): Promise<void>},
 * }} Obr the part of SDK 3.1.0's OBR object the adapter uses
 */

/** How many of the latest events the adapter keeps for the popover's log. */
const KEPT_EVENTS = 50;

/** Joins one Owlbear client to the bridge. */
export class OwlbearAdapter {
  /**
   * @param {Obr} obr
   * @param {import("../../../clients/js/src/client.js").BridgeClient} client connected (`connect()` resolved)
   * @param {{promptUrl?: string, log?: (message: string) => void}} [options]
   *   promptUrl: the page opened as a popover for a prompt
   */
  constructor(obr, client, { promptUrl = "/popover.html?view=prompt", log = () => {} } = {}) {
    this.obr = obr;
    this.client = client;
    this.promptUrl = promptUrl;
    this.log = log;
    /** @type {ReturnType<typeof bridgeGrid> | null} */
    this.grid = null;
    /** Token id -> the cell the bridge last put it on. @type {Map<string, [number, number]>} */
    this.known = new Map();
    /** Token id -> the cell this client last wrote it on. @type {Map<string, [number, number]>} */
    this.written = new Map();
    /** Tokens whose move this client sent and the bridge has not answered. */
    this.busy = new Set();
    /** GM only: drags are left alone (clean-up out of turn), not sent. */
    this.bypass = false;
    /** The last problem worth showing in the popover. @type {string | null} */
    this.error = null;
    /** How many moves this client sent, and the last one (`{token, points, image}`). */
    this.movesSent = 0;
    /** @type {{token: string, points: number[][], image?: unknown} | null} */
    this.lastSent = null;
    /** The latest events, oldest first: the popover's log. @type {Array<{kind: string, data: any}>} */
    this.events = [];
    /** @type {Array<() => void>} */
    this._off = [];
    /** @type {Promise<void>} item work runs one batch at a time, in order */
    this._queue = Promise.resolve();
  }

  /** Read the grid, learn where the bridge has every token, subscribe. */
  async start() {
    try {
      await this.refreshGrid();
    } catch (err) {
      // An isometric grid: no moves go through the bridge, the order and prompts still do.
      if (!(err instanceof GridNotSupported)) throw err;
    }
    this._learnAll();
    const { obr, client } = this;
    this._off.push(
      obr.scene.items.onChange((items) => this._enqueue(() => this.onItems(items))),
      obr.scene.grid.onChange(() => this._enqueue(() => this.refreshGrid())),
      client.on("event", (event) => {
        this.events.push(event);
        this.events.splice(0, this.events.length - KEPT_EVENTS);
        this._enqueue(() => this.onEvent(event));
      }),
      // The fight's description arrived: its prompts and log lines can be worded now.
      client.on("ruleset", () => this.publish()),
      client.on("prompt", () => this._enqueue(() => this.showPrompts())),
      // A rejoin past the bridge's event window brings the whole state instead of events.
      client.on("state", () => this._enqueue(() => this._learnAll())),
      client.on("change", () => this.publish()),
      client.on("status", () => this.publish()),
      obr.broadcast.onMessage(COMMAND_CHANNEL, ({ data }) => {
        this._enqueue(() => this.command(/** @type {any} */ (data)));
      }),
    );
    if (this.client.welcome?.role === "gm") await this._enqueue(() => this.placeAll());
    this.publish();
  }

  /** Unsubscribe everything (the client is the caller's to close). */
  stop() {
    for (const off of this._off.splice(0)) off();
  }

  /** Resolves once every queued piece of work is done. */
  idle() {
    return this._queue;
  }

  /** @param {() => Promise<void> | void} work */
  _enqueue(work) {
    this._queue = this._queue.then(work).catch((err) => this._fail(err));
    return this._queue;
  }

  /** @param {unknown} err */
  _fail(err) {
    const message = err instanceof Error ? err.message : String(err);
    this.error = message;
    this.log(`vtt-bridge: ${message}`);
    this.obr.notification.show(`vtt-bridge: ${message}`, "ERROR").catch(() => {});
    this.publish();
  }

  async refreshGrid() {
    try {
      this.grid = bridgeGrid(await readGrid(this.obr.scene.grid));
      if (this.error?.startsWith("grid:")) this.error = null;
    } catch (err) {
      this.grid = null;
      if (err instanceof GridNotSupported) this.error = `grid: ${err.message}`;
      throw err;
    }
  }

  _learnAll() {
    this.known.clear();
    for (const token of Object.values(this.client.view.tokens)) this.known.set(token.id, [token.x, token.y]);
  }

  get me() {
    return { role: this.client.welcome?.role ?? "", participant: this.client.welcome?.participant ?? "" };
  }

  // -- Owlbear -> bridge -----------------------------------------------------------------

  /** One `items.onChange` batch (every item of the scene, SDK semantics). */
  async onItems(/** @type {any[]} */ items) {
    if (this.grid === null) return;
    const back = [];
    for (const item of items) {
      if (!isLinkedToken(item)) continue;
      let cell;
      try {
        cell = itemCell(this.grid, item);
      } catch (err) {
        // A token the bridge cannot place here (a large token on hexes): Send scene says so.
        // An image grid no cell can come from (a zero dpi or scale): not a token to move.
        if (err instanceof GridNotSupported || err instanceof PixelError) continue;
        throw err;
      }
      const kind = classifyChange(item, cell, this.known.get(item.id), this.obr.player.id, this.busy.has(item.id),
        this.written.get(item.id));
      if (kind === Change.DRAG) {
        if (this.bypass && this.me.role === "gm") continue;
        this.busy.add(item.id);
        // Not awaited: the answer comes back as events, while other batches go on.
        this.sendMove(item).finally(() => this.busy.delete(item.id));
      } else if (kind === Change.BUSY) {
        back.push(item.id);
      }
    }
    for (const id of back) await this.place(id, /** @type {[number, number]} */ (this.known.get(id)));
  }

  /** Send a dropped item's position as `move_points`; on a refusal put it back. */
  async sendMove(/** @type {any} */ item) {
    const grid = /** @type {ReturnType<typeof bridgeGrid>} */ (this.grid);
    const points = [[item.position.x, item.position.y]];
    const image = itemImage(item);
    /** @type {Record<string, unknown>} */
    const options = {};
    // The bridge reads an image grid on square grids only; on hexes the position is the centre.
    if (grid.kind === "square" && image) options.image = wireImage(image);
    this.movesSent += 1;
    this.lastSent = { token: item.id, points, ...options };
    try {
      await this.client.movePoints(item.id, /** @type {any} */ (points), options);
    } catch (err) {
      const known = this.known.get(item.id);
      if (known) await this._enqueue(() => this.place(item.id, known));
      const message = /** @type {any} */ (err)?.message ?? String(err);
      this.error = `${item.name}: ${message}`;
      await this.obr.notification.show(`${item.name}: ${message}`, "WARNING").catch(() => {});
      this.publish();
    }
  }

  // -- bridge -> Owlbear -----------------------------------------------------------------

  /** @param {{index: number, kind: string, data: any}} event */
  async onEvent(event) {
    const { kind, data } = event;
    if (PLACING_EVENTS.has(kind)) {
      this.known.set(data.token, [data.at[0], data.at[1]]);
      if (writesFor(this.me, this.client.view.tokens[data.token])) await this.place(data.token, data.at);
    } else if (kind === "scene_loaded" || kind === "combatant_joined" || kind === "combatant_left") {
      this._learnAll();
    } else if (kind === "prompt_closed") {
      await this.showPrompts();
    }
  }

  /** Put item `id` on `cell` (only if it is elsewhere, so an echo costs nothing). */
  async place(/** @type {string} */ id, /** @type {[number, number]} */ cell) {
    const grid = this.grid;
    if (grid === null) return;
    const [item] = await this.obr.scene.items.getItems([id]);
    if (!item) return;
    const now = itemCell(grid, item);
    const target = cellPosition(grid, item, cell);
    if (now[0] === cell[0] && now[1] === cell[1] && item.position.x === target.x && item.position.y === target.y) return;
    this.written.set(id, [cell[0], cell[1]]);
    await this.obr.scene.items.updateItems([id], (drafts) => {
      for (const draft of drafts) draft.position = { x: target.x, y: target.y };
    });
  }

  /** GM: put every linked item on the cell the bridge has it on. */
  async placeAll() {
    for (const [id, cell] of this.known) await this.place(id, cell);
  }

  /** Open the prompt popover while this participant has prompts to answer; close it after. */
  async showPrompts() {
    const mine = this.client.myPrompts();
    if (mine.length > 0) {
      await this.obr.action.setBadgeText(String(mine.length));
      await this.obr.popover.open({
        id: PROMPT_POPOVER_ID,
        url: this.promptUrl,
        width: 340,
        height: 240,
        anchorOrigin: { horizontal: "CENTER", vertical: "CENTER" },
        transformOrigin: { horizontal: "CENTER", vertical: "CENTER" },
        disableClickAway: true,
      });
    } else {
      await this.obr.action.setBadgeText(undefined);
      await this.obr.popover.close(PROMPT_POPOVER_ID);
    }
    this.publish();
  }

  // -- GM ----------------------------------------------------------------------------------

  /** The `load_scene` scene built from the current Owlbear scene. */
  async buildScene() {
    await this.refreshGrid();
    const items = await this.obr.scene.items.getItems();
    return sceneFromItems(/** @type {ReturnType<typeof bridgeGrid>} */ (this.grid), items);
  }

  /** GM: send the Owlbear scene to the bridge. */
  async sendScene() {
    const ack = await this.client.loadScene(await this.buildScene());
    this._learnAll();
    return ack;
  }

  // -- the popover's commands --------------------------------------------------------------

  /**
   * @param {{op: string, prompt?: string, accept?: boolean, token?: string, ruleset?: string, seed?: number, on?: boolean}} data
   */
  async command(data) {
    const client = this.client;
    try {
      switch (data?.op) {
        case "state":
        case "reconnect": // the session's (session.js)
          break;
        case "answer":
          await client.answerPrompt(String(data.prompt), Boolean(data.accept));
          break;
        case "end_phase":
          await client.endPhase(String(data.token));
          break;
        case "send_scene":
          await this.sendScene();
          break;
        case "start_combat":
          // `seed`: a table that wants a fight it can replay (the demo's scripted fight).
          await client.startCombat(String(data.ruleset), data.seed === undefined ? undefined : { seed: Number(data.seed) });
          break;
        case "end_combat":
          await client.endCombat("ended in Owlbear");
          break;
        case "place_all":
          await this.placeAll();
          break;
        case "bypass":
          this.bypass = Boolean(data.on) && this.me.role === "gm";
          break;
        default:
          throw new TypeError(`unknown popover command ${JSON.stringify(data?.op)}`);
      }
      this.error = null;
    } catch (err) {
      this.error = /** @type {any} */ (err)?.message ?? String(err);
    }
    this.publish();
  }

  /** Tell this player's popover how the table stands. */
  publish() {
    const summary = tableSummary(this.client, { error: this.error, bypass: this.bypass, events: this.events });
    this.obr.broadcast.sendMessage(STATE_CHANNEL, summary, { destination: "LOCAL" }).catch(() => {});
  }
}
