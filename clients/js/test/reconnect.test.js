// A dropped connection resumed without loss or duplicates: the connection is cut right
// after a command reaches the bridge and before its answer comes back; the client
// rejoins from its last event, sends the command again under the same seq, and the
// bridge answers it from memory instead of applying it twice.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { BridgeClient } from "../src/index.js";
import { comparable, startBridge, startProxy, waitFor } from "./helpers.js";

const SCENE = {
  grid: { kind: "square", cell_size: 1, unit: "m", width: 12, height: 12 },
  tokens: [
    { id: "hero", name: "Hero", owner: "alice", side: "heroes", x: 1, y: 1, size: 1, reach: 1, movement: 6,
      stats: { ocv: 6, dcv: 4, init: 14 } },
    { id: "ogre", name: "Ogre", owner: "gm", side: "monsters", x: 9, y: 9, size: 1, reach: 1, movement: 6,
      stats: { ocv: 5, dcv: 3, init: 12 } },
  ],
  walls: [{ id: "d1", a: [6, 0], b: [6, 1], blocks_move: true, blocks_sight: true, door: "closed" }],
  terrain: [],
};

let bridge;
let proxy;
const clients = [];

before(async () => {
  bridge = await startBridge({ tables: ["text", "binary"] });
  proxy = await startProxy(bridge.port);
});

after(async () => {
  for (const client of clients) client.close();
  await proxy?.close();
  await bridge?.stop();
});

/** @param {string} url @param {string} who @param {Record<string, any>} options */
async function join(url, who, { table, ...options }) {
  const client = new BridgeClient(url, { token: bridge.tables[table][who], ...options });
  clients.push(client);
  await client.connect();
  return client;
}

for (const binary of [false, true]) {
  test(`a dropped connection loses nothing and repeats nothing (${binary ? "msgpack" : "JSON"})`, async () => {
    const table = binary ? "binary" : "text";
    const gm = await join(bridge.url, "gm", { table });
    const alice = await join(proxy.url, "alice", { table, binary, clientId: "alice-1", retryMinMs: 300 });
    const starts = [];
    gm.on("event:move_started", (data) => starts.push(data.token));
    await gm.send("load_scene", { scene: SCENE });
    await gm.startCombat("hero-supplement", { seed: 3 });
    await waitFor(() => alice.view.lastEvent === gm.view.lastEvent);
    assert.equal(alice.view.combat.actor, "hero");

    const seen = [];
    alice.on("event", (event) => seen.push(event.index));
    const statuses = [];
    alice.on("status", (status) => statuses.push(status));
    const firstSeen = alice.view.lastEvent + 1;
    const retransmitsBefore = (await bridge.metrics()).retransmits ?? 0;

    // The move reaches the bridge; its answer never reaches alice.
    proxy.cutAfterNextSend();
    const moved = alice.move("hero", [[2, 1], [3, 1]]);
    await waitFor(() => alice.status === "disconnected");
    // While alice is away the table moves on: she must catch up on this too.
    await gm.setDoor("d1", true);
    const ack = await moved;
    assert.equal(alice.status, "joined");
    assert.deepEqual(statuses.slice(0, 3), ["disconnected", "connecting", "joined"]);
    assert.ok(ack.first_event !== null && ack.last_event >= ack.first_event);
    assert.ok((await bridge.metrics()).retransmits > retransmitsBefore, "answered from memory");

    // A command sent while offline waits for the rejoin, then goes once.
    proxy.cutAll();
    await waitFor(() => alice.status === "disconnected");
    const ended = alice.endPhase("hero");
    await ended;
    await waitFor(() => gm.view.lastEvent === alice.view.lastEvent);
    assert.equal(alice.view.combat.actor, "ogre");

    // Every event exactly once, in order; the hero moved once, two cells.
    assert.deepEqual(seen, Array.from({ length: alice.view.lastEvent - firstSeen + 1 }, (_, i) => firstSeen + i));
    assert.deepEqual([alice.view.tokens.hero.x, alice.view.tokens.hero.y], [3, 1]);
    const fresh = await join(bridge.url, "gm", { table });
    assert.equal(alice.view.scene.walls[0].door, "open");
    assert.deepEqual(comparable(alice.view), comparable(fresh.view));
    assert.deepEqual(comparable(gm.view), comparable(fresh.view));
    // The GM, connected throughout, saw one move, not two.
    assert.deepEqual(starts, ["hero"]);
    assert.ok(proxy.cuts >= 1);
    gm.close();
    alice.close();
  });
}
