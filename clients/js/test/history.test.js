// A client made with `history` replays the table's recent past at its first join: the
// events the bridge keeps come as "event" callbacks (a page's log after a reload), and the
// view they fold to is the one a client joining for the state gets.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { BridgeClient } from "../src/index.js";
import { APART_SCENE as SCENE, comparable, startBridge, waitFor } from "./helpers.js";

let bridge;
const clients = [];

before(async () => {
  bridge = await startBridge({ tables: ["history"] });
});

after(async () => {
  for (const client of clients) client.close();
  await bridge?.stop();
});

/** @param {string} who @param {Record<string, any>} [options] */
async function join(who, options = {}) {
  const client = new BridgeClient(bridge.url, { token: bridge.tables.history[who], ...options });
  clients.push(client);
  await client.connect();
  return client;
}

test("a client asking for the history gets the table's past events, a plain one its state", async () => {
  const gm = await join("gm");
  const played = [];
  gm.on("event", (event) => played.push([event.index, event.kind]));
  await gm.send("load_scene", { scene: SCENE });
  await gm.startCombat("hero-supplement", { seed: 3 });
  await gm.move("hero", [[2, 1], [3, 1]]);
  assert.ok(played.length >= 4, `events played: ${JSON.stringify(played)}`);

  const replayed = [];
  const late = new BridgeClient(bridge.url, { token: bridge.tables.history.alice, history: true });
  clients.push(late);
  late.on("event", (event) => replayed.push([event.index, event.kind]));
  let states = 0;
  late.on("state", () => (states += 1));
  await late.connect();
  await waitFor(() => late.view.lastEvent === gm.view.lastEvent);
  assert.deepEqual(replayed, played);
  assert.equal(states, 0);

  const plain = await join("alice");
  await waitFor(() => plain.view.lastEvent === gm.view.lastEvent);
  assert.deepEqual(comparable(late.view), comparable(plain.view));
});
