// Several bridge processes on one PostgreSQL database, through the module: every Foundry
// client's connection (made as main.js makes it) is sent on (`redirect`) to the process
// serving the table, and when that process stops (SIGTERM, it hands the table over) each
// goes back to the address it started from, which claims the table and catches it up
// from the last event it saw. Nobody does anything; the next drag plays on, with no
// event lost or seen twice.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { startPostgres, tableServedElsewhere, waitFor } from "../../../clients/js/test/helpers.js";
import { makeFoundryAdapter } from "../../demo/foundry-adapter.js";

const script = {
  ruleset: "hero-supplement",
  seed: 3,
  grid: { columns: 12, rows: 10, cell_size: 1, unit: "m" },
  users: [{ name: "gm", gm: true }, { name: "alice" }],
  tokens: [
    { id: "hero", name: "Hero", owner: "alice", side: "heroes", cell: [1, 5], size: 1, reach: 1, movement: 6, stats: { ocv: 6, dcv: 4, init: 14 } },
    { id: "ogre", name: "Ogre", owner: "gm", side: "monsters", cell: [10, 8], size: 1, reach: 1, movement: 6, stats: { ocv: 5, dcv: 3, init: 12 } },
  ],
  walls: [],
  steps: [],
};

let pg;
const bridges = [];
let adapter;

before(async () => {
  pg = await startPostgres();
});

after(async () => {
  await adapter?.close();
  for (const bridge of bridges) await bridge.stop("SIGKILL");
  await pg?.stop();
});

test("the module follows a redirect, then a failover, and resumes where it was", async (t) => {
  if (pg.skip) return t.skip(pg.skip);
  // Someone joined through `owner` first: it serves the table; `home` sends joins on.
  const { tokens, home, owner } = await tableServedElsewhere(pg.dsn, "foundry");
  bridges.push(home, owner);

  // The module's bridge URL setting is `home`; its clients are sent on.
  adapter = await makeFoundryAdapter({ script, bridgeUrl: home.url, gmToken: tokens.gm, clientOptions: { reconnect: true, binary: true } });
  await adapter.setup();
  await adapter.settle();
  const seats = [...adapter.seats.values()];
  for (const { bridge } of seats) assert.equal(bridge.target, owner.url);
  await adapter.step({ do: "start", user: "gm" });
  await adapter.settle();
  await adapter.step({ do: "drag", user: "alice", token: "hero", through: [[2.3, 5.2]] });
  await adapter.settle();
  assert.deepEqual(adapter.positions().hero, [2, 5]);
  const seen = adapter.seats.get("alice").bridge.view.lastEvent;

  // The owner stops: each client reconnects there, fails, and goes back home by itself.
  await owner.stop("SIGTERM");
  await waitFor(() => seats.every(({ bridge }) => bridge.status === "joined" && bridge.target === home.url), 20_000);
  assert.equal(adapter.seats.get("alice").bridge.view.lastEvent, seen); // caught up: nothing missed

  await adapter.step({ do: "drag", user: "alice", token: "hero", through: [[3.4, 4.8], [4.2, 5.1]] });
  await adapter.settle();
  assert.deepEqual(adapter.positions().hero, [4, 5]); // Foundry's token, placed from the bridge's events
  const hero = adapter.seats.get("gm").bridge.view.tokens[adapter.tokenIds.get("hero")];
  assert.deepEqual([hero.x, hero.y], [4, 5]);
  // The GM's log: both moves once each, none repeated by the rejoin.
  assert.equal(adapter.events().filter((e) => e.kind === "move_started").length, 2);
});
