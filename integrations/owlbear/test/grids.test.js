// The adapter on the grids and images Owlbear has besides the fight test's: tokens whose
// image grid offset is the image's top-left corner (the SDK's buildImage default) and
// scaled, a pointy-top hex grid; and the background page's session (settings, reconnect).

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { BridgeClient } from "../../../clients/js/src/index.js";
import { startBridge } from "../../../clients/js/test/helpers.js";
import { OwlbearHexScene } from "../../../clients/js/src/pixels.js";
import { COMMAND_CHANNEL, STATE_CHANNEL } from "../src/messages.js";
import { Session } from "../src/session.js";
import { saveSettings } from "../src/settings.js";
import { OwlbearTable, waitUntil } from "./driver.js";
import { FakeRoom, shapeItem } from "./fake-obr.js";
import { TERRAIN_KEY } from "../src/terrain.js";

let bridge;
/** @type {OwlbearTable[]} */
const tables = [];
/** @type {Session[]} */
const sessions = [];

before(async () => {
  bridge = await startBridge({ tables: ["corner", "hex", "iso", "session", "bighex"] });
});

after(async () => {
  for (const table of tables) await table.close();
  for (const session of sessions) session.stop();
  await bridge?.stop();
});

const spec = (/** @type {string} */ id, /** @type {string} */ owner, /** @type {number} */ x, /** @type {number} */ y, /** @type {number} */ init) => ({
  id, name: id, owner, side: owner === "gm" ? "monsters" : "heroes", x, y, size: 1, reach: 1, movement: 6,
  stats: { ocv: 5, dcv: 3, init },
});

test("images placed by their top-left corner: the item's image grid goes with move_points", async () => {
  const table = await OwlbearTable.open({ url: bridge.url, tokens: bridge.tables.corner });
  tables.push(table);
  table.addMap(10, 10);
  table.addToken(spec("ogre", "gm", 8, 5, 12), { corner: true });
  table.addToken(spec("hero", "alice", 4, 5, 14), { corner: true });
  await table.sendScene();
  assert.deepEqual([table.client("gm").view.tokens.hero.x, table.client("gm").view.tokens.hero.y], [4, 5]);
  await table.client("gm").startCombat("hero-supplement", { seed: 3 });
  await table.settle();

  // Up a column, far from the ogre: no provocation, the move completes at once.
  await table.drag("alice", "hero", [4.38, 2.71]);
  const alice = table.player("alice").adapter;
  assert.deepEqual(alice.lastSent?.image, { offset: [0, 0], dpi: 300, scale: [1, 1] });
  assert.deepEqual(table.events.slice(-2).map((e) => e.kind), ["move_started", "move_completed"]);
  assert.deepEqual(await table.cell("hero"), [4, 2]);
  // The top-left corner of cell [4, 2] is where the item's position sits.
  assert.deepEqual(table.room.item("hero").position, { x: 600, y: 300 });
});

test("a pointy-top hex grid: a drag out of reach, declined, the hero ends on the hex it was dropped in", async () => {
  const table = await OwlbearTable.open({
    url: bridge.url, tokens: bridge.tables.hex, grid: { dpi: 100, type: "HEX_VERTICAL", measurement: "CHEBYSHEV", scale: "1m" },
  });
  tables.push(table);
  table.addMap(12, 12);
  table.addToken(spec("ogre", "gm", 5, 5, 12));
  table.addToken(spec("hero", "alice", 4, 5, 14));
  await table.sendScene();
  const gm = table.client("gm");
  assert.equal(gm.view.scene.grid.kind, "hex_pointy");
  assert.deepEqual([gm.view.tokens.hero.x, gm.view.tokens.hero.y], [4, 5]);
  await gm.startCombat("hero-supplement", { seed: 5 });
  await table.settle();

  const hexes = new OwlbearHexScene(100, 1, false);
  const centreOf = (/** @type {[number, number]} */ cell) => {
    const [x, y] = hexes.itemPosition(cell);
    return { x, y };
  };
  const centre = centreOf([2, 5]);
  const first = table.events.length;
  await table.dragPixels("alice", "hero", { x: centre.x - 7.3, y: centre.y + 11.9 });
  assert.deepEqual(table.events.slice(first).map((e) => e.kind), ["move_started", "move_interrupted", "prompt_opened"]);
  const at = table.events[first + 1].data.at;
  const paused = centreOf(at);
  assert.deepEqual(table.room.item("hero").position, paused);
  await table.answer("gm", false);
  await waitUntil(() => table.events.at(-1).kind === "move_completed");
  await table.settle();
  assert.deepEqual(table.events.at(-1).data.at, [2, 5]);
  assert.deepEqual(table.room.item("hero").position, centre);
});

test("a 2-hex ogre moves through mud the GM marked: its anchor hex, and the terrain charged", async () => {
  const table = await OwlbearTable.open({
    url: bridge.url, tokens: bridge.tables.bighex, grid: { dpi: 100, type: "HEX_VERTICAL", measurement: "CHEBYSHEV", scale: "1m" },
  });
  tables.push(table);
  table.addMap(14, 12);
  const ogre = table.addToken({ ...spec("ogre", "gm", 3, 3, 14), size: 2, movement: 10 });
  table.addToken(spec("hero", "alice", 10, 9, 12));
  // Mud over rows 0-5 of the map (a rectangle from its top-left corner), marked by the GM.
  table.room.items.push(shapeItem({ name: "Mud", shapeType: "RECTANGLE", position: { x: 0, y: 0 }, width: 1400, height: 500,
    metadata: { [TERRAIN_KEY]: "difficult" }, createdUserId: table.player("gm").obr.player.id }));
  await table.sendScene();
  const gm = table.client("gm");
  assert.deepEqual([gm.view.tokens.ogre.x, gm.view.tokens.ogre.y, gm.view.tokens.ogre.size], [3, 3, 2]);
  assert.equal(gm.view.scene.terrain[0].kind, "difficult");
  // Owlbear draws the 2-hex ogre centred on the corner where [3, 3], [4, 3] and [4, 4] meet.
  const hexes = new OwlbearHexScene(100, 1, false);
  const [cx, cy] = hexes.itemPosition([3, 3], 2);
  assert.ok(Math.abs(ogre.position.x - cx) < 1e-9 && Math.abs(ogre.position.y - cy) < 1e-9);
  await gm.startCombat("hero-supplement", { seed: 5 });
  await table.settle();
  const [tx, ty] = hexes.itemPosition([6, 3], 2);
  const first = table.events.length;
  await table.dragPixels("gm", "ogre", { x: tx + 4, y: ty - 3 });
  await waitUntil(() => table.events.slice(first).some((e) => e.kind === "move_completed"));
  const done = table.events.slice(first).find((e) => e.kind === "move_completed");
  // Three hexes east along row 3, every step in the mud: 3 x 1 m, doubled.
  assert.deepEqual([done.data.at, done.data.cost], [[6, 3], 6]);
  await table.settle();
  assert.ok(Math.abs(table.room.item("ogre").position.x - tx) < 1e-9);
});

test("an isometric grid: the table still shows the order, and Send scene says why it cannot", async () => {
  const table = await OwlbearTable.open({
    url: bridge.url, tokens: bridge.tables.iso, grid: { dpi: 150, type: "ISOMETRIC", measurement: "CHEBYSHEV", scale: "5ft" },
  });
  tables.push(table);
  const gm = table.player("gm");
  assert.equal(gm.adapter.grid, null);
  assert.match(gm.adapter.error ?? "", /ISOMETRIC grid cannot be played/);
  await gm.obr.broadcast.sendMessage(COMMAND_CHANNEL, { op: "send_scene" }, { destination: "LOCAL" });
  await waitUntil(() => gm.obr.calls.notifications.length > 0 || gm.adapter.error?.includes("square and hex") === true);
  await gm.adapter.idle();
  assert.match(gm.adapter.error ?? "", /square and hex grids only/);
  assert.equal(table.client("gm").view.scene, null);
});

test("the background session: nothing saved, a refused token, then settings that join", async () => {
  const room = new FakeRoom({ scale: "1m" });
  const obr = room.join("obr-alice", "PLAYER");
  /** @type {Map<string, string>} */
  const map = new Map();
  const storage = { getItem: (/** @type {string} */ k) => map.get(k) ?? null, setItem: (/** @type {string} */ k, /** @type {string} */ v) => void map.set(k, v) };
  const states = [];
  obr.broadcast.onMessage(STATE_CHANNEL, ({ data }) => states.push(data));
  const session = new Session(obr, storage, (s) => new BridgeClient(s.url, { token: s.token, binary: s.binary, reconnect: false }));
  sessions.push(session);

  await session.start();
  await waitUntil(() => states.at(-1)?.status === "unconfigured");

  saveSettings(storage, obr.room.id, { url: bridge.url, token: "not-a-join-token", binary: false });
  await obr.broadcast.sendMessage(COMMAND_CHANNEL, { op: "reconnect" }, { destination: "LOCAL" });
  await waitUntil(() => states.at(-1)?.status === "failed");
  assert.ok(states.at(-1).error, "the popover is told why");

  saveSettings(storage, obr.room.id, { url: bridge.url, token: bridge.tables.session.alice, binary: true });
  await obr.broadcast.sendMessage(COMMAND_CHANNEL, { op: "reconnect" }, { destination: "LOCAL" });
  await waitUntil(() => states.at(-1)?.status === "joined");
  assert.deepEqual([states.at(-1).participant, states.at(-1).role], ["alice", "player"]);
  assert.deepEqual(room.metadataWrites, []);
});
