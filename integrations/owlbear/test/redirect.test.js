// Several bridge processes on one PostgreSQL database, through the extension: every
// player's client is sent on (`redirect`) to the process serving the table, and when that
// process stops (SIGTERM, it hands the table over) each goes back to the address it
// started from, which claims the table and catches it up from the last event it saw.
// Nobody clicks anything; the next drag plays on, with no event lost or seen twice.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { startPostgres, tableServedElsewhere } from "../../../clients/js/test/helpers.js";
import { OwlbearTable, waitUntil } from "./driver.js";

let pg;
const bridges = [];
/** @type {OwlbearTable | undefined} */
let table;

before(async () => {
  pg = await startPostgres();
});

after(async () => {
  await table?.close();
  for (const bridge of bridges) await bridge.stop("SIGKILL");
  await pg?.stop();
});

test("the extension follows a redirect, then a failover, and resumes where it was", async (t) => {
  if (pg.skip) return t.skip(pg.skip);
  // Someone joined through `owner` first: it serves the table; `home` sends joins on.
  const { tokens, home, owner } = await tableServedElsewhere(pg.dsn, "owl");
  bridges.push(home, owner);

  // Every player's extension is set up with `home`'s address, and is sent on.
  table = await OwlbearTable.open({ url: home.url, tokens });
  for (const participant of ["gm", "alice", "bob"]) assert.equal(table.client(participant).target, owner.url);
  table.addMap(12, 12);
  table.addToken({ id: "hero", name: "Hero", owner: "alice", side: "heroes", x: 1, y: 5, size: 1, reach: 1, movement: 6,
    stats: { ocv: 6, dcv: 4, init: 14 } });
  table.addToken({ id: "ogre", name: "Ogre", owner: "gm", side: "monsters", x: 9, y: 9, size: 1, reach: 1, movement: 6,
    stats: { ocv: 5, dcv: 3, init: 12 } });
  await table.sendScene();
  await table.startCombat("hero-supplement", { seed: 7 });
  await table.drag("alice", "hero", [2.5, 5.5]);
  assert.deepEqual(await table.cell("hero"), [2, 5]);
  const seen = table.client("alice").view.lastEvent;

  // The owner stops: each client reconnects there, fails, and goes back home by itself.
  await owner.stop("SIGTERM");
  await waitUntil(() => ["gm", "alice", "bob"].every((p) => {
    const client = table?.client(p);
    return client?.status === "joined" && client.target === home.url;
  }), 20_000);
  assert.equal(table.client("alice").view.lastEvent, seen); // caught up: nothing missed

  await table.drag("alice", "hero", [4.5, 5.5]);
  assert.deepEqual(await table.cell("hero"), [4, 5]);
  const hero = table.client("bob").view.tokens.hero;
  assert.deepEqual([hero.x, hero.y], [4, 5]);
  // The GM's log runs on without a gap or a repeat across the move.
  const indices = table.events.map((e) => e.index);
  assert.deepEqual(indices, indices.map((_, i) => indices[0] + i));
  assert.equal(table.events.filter((e) => e.kind === "move_started").length, 2);
});
