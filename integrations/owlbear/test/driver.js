// Drive a fight through the Owlbear extension from a script: a FakeRoom (test/fake-obr.js)
// with one Owlbear player per bridge participant, each running the real OwlbearAdapter on a
// real BridgeClient. A script speaks in the bridge's units (cells, participants), so the
// same script can drive another VTT's adapter and the events can be compared.
//
//   const table = await OwlbearTable.open({url, tokens: {gm, alice, bob}});
//   await table.join("carol", issuedToken, "<OBR player id>"); // one more player
//   table.addMap(12, 12);
//   table.addToken({id: "hero", name: "Hero", owner: "alice", side: "heroes", x: 4, y: 5,
//                   size: 1, reach: 1, movement: 6, stats: {ocv: 6, dcv: 4, init: 14}});
//   table.addWall([8, 0], [8, 4]);
//   await table.sendScene();                       // the GM's "Send scene"
//   await table.startCombat("hero-supplement", {seed: 7});
//   await table.drag("alice", "hero", [2.62, 4.31]); // drop the hero's centre there (cells,
//                                                   // square grids; dragPixels for any grid)
//   await table.answer("gm", true);                 // the GM's prompt popover: Attack
//   await table.endPhase("alice", "hero");          // the popover's End Phase
//   table.events                                    // [{index, kind, data}] in log order
//   table.cell("hero")                              // where the Owlbear item stands, as a cell
//   await table.close();

import { BridgeClient } from "../../../clients/js/src/index.js";
import { OwlbearAdapter } from "../src/adapter.js";
import { COMMAND_CHANNEL } from "../src/messages.js";
import { bridgeGrid } from "../src/grid.js";
import { cellPosition, itemCell, itemSize, LINK_KEY } from "../src/items.js";
import { FakeRoom, gridScale, imageItem, wallItem } from "./fake-obr.js";

/** Token images as Owlbear tokens usually are: a high-resolution square image whose grid
 * offset is its centre (so `position` is the token's centre), at their own dpi. */
const TOKEN_DPI = 300;

export class OwlbearTable {
  /**
   * @param {{url: string, tokens: Record<string, string>, grid?: ConstructorParameters<typeof FakeRoom>[0]}} options
   *   tokens: participant -> join token (the one whose token joins as GM is the room's GM)
   */
  static async open({ url, tokens, grid = { dpi: 150, type: "SQUARE", measurement: "CHEBYSHEV", scale: "1m" } }) {
    const table = new OwlbearTable(new FakeRoom(grid), url);
    for (const [participant, token] of Object.entries(tokens)) await table.join(participant, token);
    if (!table.gmName) throw new Error("no GM among the join tokens");
    return table;
  }

  /**
   * One more Owlbear player joins the room (as OBR player `obrId`) and the bridge (with
   * `token`), running the extension's adapter. Resolves with the connected client.
   * @param {string} participant @param {string} token @param {string} [obrId]
   */
  async join(participant, token, obrId = `obr-${participant}`) {
    const client = new BridgeClient(this.url, { token, binary: participant !== "gm" });
    const welcome = await client.connect();
    const obr = this.room.join(obrId, welcome.role === "gm" ? "GM" : "PLAYER", participant);
    const adapter = new OwlbearAdapter(obr, client);
    await adapter.start();
    this.players.set(participant, { client, obr, adapter });
    if (welcome.role === "gm") {
      this.gmName = participant;
      client.on("event", (event) => this.events.push(event));
    }
    return client;
  }

  /** @param {FakeRoom} room @param {string} url the bridge's */
  constructor(room, url) {
    this.room = room;
    this.url = url;
    /** @type {Map<string, {client: BridgeClient, obr: ReturnType<FakeRoom["join"]>, adapter: OwlbearAdapter}>} */
    this.players = new Map();
    /** Every event, as the GM's client received them. @type {{index: number, kind: string, data: any}[]} */
    this.events = [];
    this.gmName = "";
  }

  /** @param {string} participant */
  player(participant) {
    const p = this.players.get(participant);
    if (!p) throw new Error(`no participant ${participant}`);
    return p;
  }

  /** @param {string} participant */
  client(participant) {
    return this.player(participant).client;
  }

  get dpi() {
    return this.room.grid.dpi;
  }

  /** A map image of `width` x `height` cells on the MAP layer, top-left at pixel (0, 0). */
  addMap(/** @type {number} */ width, /** @type {number} */ height) {
    this.room.items.push(imageItem({
      name: "Map", layer: "MAP", position: { x: 0, y: 0 }, width: width * 100, height: height * 100,
      gridDpi: 100, offset: { x: 0, y: 0 }, createdUserId: this.player(this.gmName).obr.player.id,
    }));
  }

  /** The extension's view of the room's grid. */
  get grid() {
    return bridgeGrid({ ...this.room.gridObject(), scale: gridScale(this.room.grid.scale) });
  }

  /**
   * A token from a bridge TokenSpec (cells): an Owlbear image item placed on that cell and
   * linked by the GM with the rest of the spec. Its image is a high-resolution square whose
   * grid offset is its centre, as Owlbear's own tokens are, or with `corner` its top-left
   * corner (what the SDK's `buildImage` leaves by default).
   * @param {{id: string, name: string, owner: string, side: string, x: number, y: number, size: number,
   *   reach: number, movement: number, stats: Record<string, any>}} spec
   * @param {{corner?: boolean}} [options]
   */
  addToken(spec, { corner = false } = {}) {
    const px = TOKEN_DPI * spec.size;
    const item = imageItem({
      id: spec.id,
      name: spec.name,
      position: { x: 0, y: 0 },
      width: px, height: px, gridDpi: TOKEN_DPI, offset: corner ? { x: 0, y: 0 } : { x: px / 2, y: px / 2 },
      metadata: { [LINK_KEY]: { owner: spec.owner, side: spec.side, reach: spec.reach, movement: spec.movement, stats: spec.stats } },
      createdUserId: this.player(this.gmName).obr.player.id,
    });
    item.position = cellPosition(this.grid, item, [spec.x, spec.y]);
    this.room.items.push(item);
    return item;
  }

  /** A blocking wall from `a` to `b`, in cells (scene units / cell size); returns the item. */
  addWall(/** @type {[number, number]} */ a, /** @type {[number, number]} */ b) {
    const item = wallItem({
      points: [{ x: a[0] * this.dpi, y: a[1] * this.dpi }, { x: b[0] * this.dpi, y: b[1] * this.dpi }],
      createdUserId: this.player(this.gmName).obr.player.id,
    });
    this.room.items.push(item);
    return item;
  }

  /** The GM's "Send scene". */
  async sendScene() {
    await this.player(this.gmName).adapter.sendScene();
    await this.settle();
  }

  /**
   * The GM starts the fight (`start_combat`); resolves once every client has the events.
   * @param {string} ruleset @param {Parameters<BridgeClient["startCombat"]>[1]} [options] e.g. `{seed: 7}`
   */
  async startCombat(ruleset, options) {
    await this.client(this.gmName).startCombat(ruleset, options);
    await this.settle();
  }

  /**
   * `participant` drags `token` and drops it with its centre at `centre` (cells, fractional:
   * [x + 0.5, y + 0.5] is the middle of cell [x, y] for a one-cell token). Resolves once the
   * bridge answered the move and every client placed what it had to.
   * @param {string} participant @param {string} token @param {[number, number]} centre
   */
  async drag(participant, token, centre) {
    const item = this.room.item(token);
    const size = itemSize(item);
    // Where the item's position lies for that centre: its image offset from the top-left.
    const k = this.dpi / item.grid.dpi;
    const left = (centre[0] - size / 2) * this.dpi;
    const top = (centre[1] - size / 2) * this.dpi;
    await this.dragPixels(participant, token, { x: left + item.grid.offset.x * k * item.scale.x, y: top + item.grid.offset.y * k * item.scale.y });
  }

  /**
   * `participant` drops `token` with its `position` at `to` (scene pixels), as Owlbear reports
   * a drop; resolves once the bridge answered and every client placed what it had to.
   * @param {string} participant @param {string} token @param {{x: number, y: number}} to
   */
  async dragPixels(participant, token, to) {
    const { obr, adapter } = this.player(participant);
    const before = adapter.movesSent;
    await this.room.drag(obr, token, to);
    await waitUntil(() => adapter.movesSent > before && !adapter.busy.has(token));
    await this.settle();
  }

  /**
   * `participant` answers its oldest open prompt (of `kind`, if given) through the popover's
   * command channel. With `optional`, resolves false at once when there is none.
   * @param {string} participant @param {boolean} accept
   * @param {{kind?: string, optional?: boolean}} [options]
   */
  async answer(participant, accept, { kind, optional = false } = {}) {
    const { client, obr } = this.player(participant);
    const open = () => client.myPrompts().filter((p) => kind === undefined || p.kind === kind);
    if (optional && open().length === 0) return false;
    await waitUntil(() => open().length > 0);
    const [prompt] = open();
    await obr.broadcast.sendMessage(COMMAND_CHANNEL, { op: "answer", prompt: prompt.prompt, accept }, { destination: "LOCAL" });
    await waitUntil(() => !(prompt.prompt in client.view.prompts));
    await this.settle();
    return true;
  }

  /** `participant` ends `token`'s Phase through the popover. */
  async endPhase(/** @type {string} */ participant, /** @type {string} */ token) {
    const { client, obr } = this.player(participant);
    const last = client.view.lastEvent;
    await obr.broadcast.sendMessage(COMMAND_CHANNEL, { op: "end_phase", token }, { destination: "LOCAL" });
    await waitUntil(() => client.view.lastEvent > last);
    await this.settle();
  }

  /** Wait until every client has every event and every adapter is done with its work. */
  async settle() {
    const gm = this.client(this.gmName);
    for (let round = 0; round < 3; round += 1) {
      await new Promise((r) => setTimeout(r, 30));
      await waitUntil(() => [...this.players.values()].every((p) => p.client.view.lastEvent === gm.view.lastEvent && p.adapter.busy.size === 0));
      await Promise.all([...this.players.values()].map((p) => p.adapter.idle()));
    }
  }

  /** The cell the Owlbear item `token` stands on now. */
  async cell(/** @type {string} */ token) {
    return itemCell(this.grid, this.room.item(token));
  }

  async close() {
    for (const { adapter, client } of this.players.values()) {
      adapter.stop();
      client.close();
    }
  }
}

/** Poll `check` every 10 ms; throw after `timeoutMs`. */
export async function waitUntil(/** @type {() => boolean} */ check, timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${check}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
