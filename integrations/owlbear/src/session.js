// The background page's life: read this player's settings for the room, connect, run an
// OwlbearAdapter, and start over when the popover saves new settings. Without settings
// (or while connecting) it still answers the popover, so the popover can say what is wrong.

import { OwlbearAdapter } from "./adapter.js";
import { COMMAND_CHANNEL, STATE_CHANNEL } from "./messages.js";
import { loadSettings, settingsProblem } from "./settings.js";

/**
 * @typedef {(settings: import("./settings.js").Settings) => import("../../../clients/js/src/client.js").BridgeClient} ClientFactory
 */

export class Session {
  /**
   * @param {import("./adapter.js").Obr & {room: {id: string}}} obr
   * @param {Pick<Storage, "getItem">} storage this player's localStorage
   * @param {ClientFactory} makeClient
   * @param {{promptUrl?: string, log?: (message: string) => void}} [options]
   */
  constructor(obr, storage, makeClient, options = {}) {
    this.obr = obr;
    this.storage = storage;
    this.makeClient = makeClient;
    this.options = options;
    /** @type {import("../../../clients/js/src/client.js").BridgeClient | null} */
    this.client = null;
    /** @type {OwlbearAdapter | null} */
    this.adapter = null;
    /** "unconfigured", "connecting", "failed", or the client's own status once joined. */
    this.status = "unconfigured";
    /** @type {string | null} */
    this.problem = null;
    this._generation = 0;
    this._off = obr.broadcast.onMessage(COMMAND_CHANNEL, ({ data }) => {
      const op = /** @type {any} */ (data)?.op;
      if (op === "reconnect") this.restart();
      else if (op === "state" && this.adapter === null) this.publish();
    });
  }

  /** Connect with the saved settings (if any) and start the adapter. */
  async start() {
    const generation = ++this._generation;
    const settings = loadSettings(this.storage, this.obr.room.id);
    if (settings === null || settingsProblem(settings) !== null) {
      this.status = "unconfigured";
      this.problem = settings === null ? null : settingsProblem(settings);
      this.publish();
      return;
    }
    this.status = "connecting";
    this.problem = null;
    this.publish();
    const client = this.makeClient(settings);
    this.client = client;
    try {
      await client.connect();
    } catch (err) {
      if (generation !== this._generation) return;
      this.status = "failed";
      this.problem = /** @type {any} */ (err)?.message ?? String(err);
      this.client = null;
      client.close();
      this.publish();
      return;
    }
    if (generation !== this._generation) return; // settings changed meanwhile
    await this._sceneReady();
    if (generation !== this._generation) return;
    this.adapter = new OwlbearAdapter(this.obr, client, this.options);
    await this.adapter.start();
  }

  /** Resolves once a scene is open (the items and grid APIs need one). */
  async _sceneReady() {
    if (await this.obr.scene.isReady()) return;
    await new Promise((resolve) => {
      const off = this.obr.scene.onReadyChange((ready) => {
        if (ready) {
          off();
          resolve(undefined);
        }
      });
    });
  }

  /** Drop the connection and start again from the saved settings. */
  async restart() {
    this.stop();
    await this.start();
  }

  /** Close the connection (the session still listens for new settings). */
  stop() {
    this._generation += 1;
    this.adapter?.stop();
    this.adapter = null;
    this.client?.close();
    this.client = null;
    this.status = "unconfigured";
  }

  /** Tell the popover there is no table yet, and why. */
  publish() {
    const summary = { status: this.status, participant: null, role: null, scene: false, combat: null, prompts: [],
      error: this.problem, bypass: false };
    this.obr.broadcast.sendMessage(STATE_CHANNEL, summary, { destination: "LOCAL" }).catch(() => {});
  }
}
