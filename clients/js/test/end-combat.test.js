// `endCombat()` against a real bridge: a player is refused, the GM ends a fight with a
// delay held and an effect lasting, every view drops the fight, a fresh join agrees,
// and a second fight starts.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { BridgeClient, BridgeError } from "../src/index.js";
import { comparable, startBridge, waitFor } from "./helpers.js";

const SCENE = {
  grid: { kind: "square", cell_size: 1, unit: "m", width: 12, height: 12 },
  tokens: [
    { id: "ogre", name: "Ogre", owner: "gm", side: "monsters", x: 5, y: 5, size: 1, reach: 1, movement: 6,
      stats: { ocv: 5, dcv: 3, init: 12 } },
    { id: "hero", name: "Hero", owner: "alice", side: "heroes", x: 1, y: 5, size: 1, reach: 1, movement: 6,
      stats: { ocv: 6, dcv: 4, init: 14 } },
  ],
  walls: [],
  terrain: [],
};

let bridge;
const clients = [];

/** @param {string} who */
async function join(who) {
  const client = new BridgeClient(bridge.url, { token: bridge.tables.night[who] });
  clients.push(client);
  await client.connect();
  return client;
}

before(async () => {
  bridge = await startBridge({ tables: ["night"] });
});

after(async () => {
  for (const client of clients) client.close();
  await bridge?.stop();
});

test("the GM ends a fight and every view drops it", async () => {
  const gm = await join("gm");
  const alice = await join("alice");
  await gm.loadScene(SCENE);
  await gm.startCombat("hero-supplement", { seed: 7 });
  await alice.act("hero", "delay", {});
  await gm.setEffect("smoke", null, 3);
  await waitFor(() => alice.view.lastEvent === gm.view.lastEvent);
  assert.equal(alice.view.combat.holds.hero?.kind, "delay");
  assert.equal(Object.keys(alice.view.combat.effects).length, 1);

  const before = gm.view.lastEvent;
  await assert.rejects(alice.endCombat("bored"), (err) => err instanceof BridgeError && err.code === "gm_only");
  assert.equal(gm.view.lastEvent, before);

  const ended = [];
  alice.on("event:combat_ended", (data) => ended.push(data));
  const ack = await gm.endCombat("the ogre fled");
  await waitFor(() => alice.view.lastEvent === ack.last_event);
  assert.deepEqual(ended, [{ reason: "the ogre fled" }]);
  for (const client of [gm, alice]) {
    assert.equal(client.view.combat, null);
    assert.deepEqual(client.view.prompts, {});
  }
  const late = await join("gm");
  assert.deepEqual(comparable(late.view), comparable(alice.view));

  // The table moves freely again; a second fight starts; the reason may be left out.
  await gm.loadScene(SCENE);
  await gm.startCombat("hero-supplement", { seed: 8 });
  assert.deepEqual(gm.view.combat.order, ["hero", "ogre"]);
  await gm.endCombat();
  assert.equal(gm.view.combat, null);
});
