// Several bridge processes on one PostgreSQL database: the client follows a `redirect`
// to the process that serves its table, and when that process stops it goes back to the
// address it started from, which claims the table; it resumes from the last event it
// saw, with nothing lost or applied twice, and no action of the user's.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { BridgeClient } from "../src/index.js";
import { APART_SCENE as SCENE, createTable, startPostgres, startServe, waitFor } from "./helpers.js";

let pg;
const bridges = [];
const clients = [];

before(async () => {
  pg = await startPostgres();
});

after(async () => {
  for (const client of clients) client.close();
  for (const bridge of bridges) await bridge.stop("SIGKILL");
  await pg?.stop();
});

/** @param {string} url @param {string} token @param {Record<string, any>} [options] */
function client(url, token, options = {}) {
  const made = new BridgeClient(url, { token, retryMinMs: 100, retryMaxMs: 400, ...options });
  clients.push(made);
  return made;
}

test("a client follows a redirect to the owner and, when it stops, to the next one", async (t) => {
  if (pg.skip) return t.skip(pg.skip);
  const tokens = await createTable(pg.dsn, "fight");
  const home = await startServe(pg.dsn);
  const owner = await startServe(pg.dsn);
  bridges.push(home, owner);
  // The GM's first join reaches `owner`, which claims the table.
  const gm = client(owner.url, tokens.gm);
  await gm.connect();
  await gm.send("load_scene", { scene: SCENE });
  // Alice starts from `home`, which does not serve the table: she is sent on.
  const alice = client(home.url, tokens.alice, { clientId: "alice-1" });
  const statuses = [];
  alice.on("status", (status, detail) => statuses.push([status, detail?.redirect ?? null]));
  await alice.connect();
  assert.equal(alice.target, owner.url);
  assert.deepEqual(statuses.slice(0, 3), [["connecting", null], ["disconnected", owner.url], ["connecting", null]]);
  const first = await alice.send("move", { token: "hero", path: [[2, 1]] });
  assert.equal(alice.view.tokens.hero.x, 2);

  // The owner stops: it hands the table over; Alice's reconnect to it fails and she goes
  // back home, which claims the table and catches her up from her last event.
  gm.close();
  await owner.stop("SIGTERM");
  await waitFor(() => alice.status === "joined" && alice.target === home.url, 20_000);
  const second = await alice.send("move", { token: "hero", path: [[3, 1]] });
  assert.equal(second.first_event, first.last_event + 1); // nothing lost, nothing twice
  assert.equal(alice.view.tokens.hero.x, 3);
  assert.equal(alice.view.lastEvent, second.last_event);
});
