// Test helpers: a real bridge started per test file, and a TCP proxy that can drop the
// connection in the middle of a command.

import assert from "node:assert/strict";
import { spawn, execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";

import { BridgeClient } from "../src/index.js";

/** The repository root (clients/js/test -> ../../..). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** The Python that runs the bridge: $VTT_BRIDGE_PYTHON, else the repository's venv. */
export const PYTHON = process.env.VTT_BRIDGE_PYTHON || path.join(ROOT, ".venv/bin/python");

/** @returns {Promise<number>} a free loopback port */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/** Join tokens by participant in what `create-table` or `serve --demo` printed. */
function readTokens(text) {
  /** @type {Record<string, string>} */
  const tokens = {};
  for (const m of text.matchAll(/^\s+(gm|player|spectator)\s+(\S+)\s+join token (\S+)$/gm)) tokens[m[2]] = m[3];
  return tokens;
}

/**
 * Start `vtt-bridge serve --demo` on a free loopback port with a fresh database.
 * Resolves once it listens, with its URL, the demo table's join tokens by participant
 * (`tokens`), those of the other `tables` made first with `vtt-bridge create-table`
 * (players alice and bob; `tables[name][participant]`), and a stop() that ends it
 * (SIGTERM, then SIGKILL) and removes the database.
 * @param {{tables?: string[], extra?: string[], module?: string}} [options] `extra`: more
 *   `serve` flags; `module`: the Python module run (`tests.toy_bridge`: with the toy ruleset)
 */
export async function startBridge({ tables = [], extra = [], module = "vtt_bridge" } = {}) {
  const dir = await mkdtemp(path.join(tmpdir(), "vtt-bridge-js-"));
  const db = path.join(dir, "bridge.sqlite3");
  /** @type {Record<string, Record<string, string>>} */
  const made = {};
  for (const name of tables) {
    const printed = await run(["-m", "vtt_bridge", "create-table", name, "--player", "alice", "--player", "bob", "--db", db]);
    made[name] = readTokens(printed);
  }
  const port = await freePort();
  const args = ["-m", module, "serve", "--demo", "--host", "127.0.0.1", "--port", String(port),
    "--db", db, ...extra];
  const child = spawn(PYTHON, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  let tokens = {};
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bridge did not start:\n${out}\n${err}`)), 20_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`bridge exited (${code}):\n${out}\n${err}`));
    });
    child.stdout.on("data", (d) => {
      out += d;
      tokens = readTokens(out);
      if (out.includes("listening") && tokens.gm && tokens.alice && tokens.bob) {
        clearTimeout(timer);
        child.removeAllListeners("exit");
        resolve(undefined);
      }
    });
  });
  // The listening line is printed on start-up, before the socket is bound: wait for it.
  await waitFor(async () => {
    try {
      return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok;
    } catch {
      return false;
    }
  }, 20_000);
  return {
    port,
    url: `ws://127.0.0.1:${port}/ws`,
    tokens,
    tables: made,
    /** @returns {Promise<Record<string, any>>} the bridge's counters */
    async metrics() {
      return (await fetch(`http://127.0.0.1:${port}/metrics.json`)).json();
    },
    stderr: () => err,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        await exited;
        clearTimeout(timer);
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Poll `check` until it returns true (or throw after `timeoutMs`).
 * @param {() => boolean | Promise<boolean>} check
 * @param {number} [timeoutMs]
 */
export async function waitFor(check, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * A TCP proxy in front of the bridge whose connections the test can cut.
 * `cutAfterNextSend()` lets the client's next chunk through to the bridge, then drops
 * the client's side at once and the bridge's once it answers: the bridge gets the
 * command, the client never gets the answer.
 * @param {number} target the bridge's port
 */
export async function startProxy(target) {
  /** @type {Set<{client: net.Socket, upstream: net.Socket, cut: boolean}>} */
  const pairs = new Set();
  let cutNext = false;
  let cuts = 0;
  const server = net.createServer((client) => {
    const upstream = net.connect(target, "127.0.0.1");
    const pair = { client, upstream, cut: false };
    pairs.add(pair);
    let upgraded = false;
    client.on("data", (chunk) => {
      upstream.write(chunk);
      // The first chunk is the HTTP upgrade request, not a frame.
      if (upgraded && cutNext) {
        cutNext = false;
        cuts += 1;
        // The client is gone at once; the bridge's side stays open until it answers (or
        // 2 s), so the command surely reached it however busy the machine is.
        pair.cut = true;
        client.destroy();
        const end = () => upstream.destroy();
        upstream.once("data", end);
        setTimeout(end, 2000);
      }
      upgraded = true;
    });
    upstream.on("data", (chunk) => client.write(chunk));
    const close = () => {
      pairs.delete(pair);
      client.destroy();
      if (!pair.cut) upstream.destroy();
    };
    client.on("close", close);
    upstream.on("close", close);
    client.on("error", () => {});
    upstream.on("error", () => {});
  });
  const port = await new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => resolve(/** @type {net.AddressInfo} */ (server.address()).port));
  });
  return {
    url: `ws://127.0.0.1:${port}/ws`,
    cutAfterNextSend() {
      cutNext = true;
    },
    /** Drop every connection now. */
    cutAll() {
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
    },
    get cuts() {
      return cuts;
    },
    close() {
      this.cutAll();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Run the repository's Python with `args`; resolves with its stdout.
 * @param {string[]} args
 * @returns {Promise<string>}
 */
function run(args) {
  return new Promise((resolve, reject) => {
    execFile(PYTHON, args, { cwd: ROOT, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${args.join(" ")} failed: ${error.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/**
 * Run a Python module of the repository; resolves with its stdout parsed as JSON.
 * @param {string[]} args
 */
export async function pythonJson(args) {
  return JSON.parse(await run(args));
}

/** A view without what only some participants are told (deadlines) or that the
 * bridge's state does not hold (the last movement figure reported, the last move: see
 * sameLastMove). */
/** @param {import("../src/table.js").TableView} view */
export function comparable(view) {
  const copy = structuredClone(view);
  for (const prompt of Object.values(copy.prompts)) {
    delete prompt.deadlineMs;
    delete prompt.localDeadlineMs;
  }
  if (copy.combat) delete copy.combat.movementLeft;
  delete copy.lastMove;
  return copy;
}

/**
 * The last move as folded from events against the one a `state` message gives: the state
 * knows only a move under way and the exits its open prompts name, so when it has one,
 * the fold has the same move, and every exit the state names among the fold's.
 * @param {import("../src/table.js").TableView} folded
 * @param {import("../src/table.js").TableView} fromState
 * @param {string} where
 */
export function sameLastMove(folded, fromState, where) {
  const known = fromState.lastMove;
  if (!known) return;
  const last = folded.lastMove;
  assert.ok(last, `${where}: a move is under way`);
  const { exits, ...move } = known;
  assert.deepEqual({ token: last.token, path: last.path, end: last.end, at: last.at, cost: last.cost }, move, `${where}: the move under way`);
  for (const exit of exits) assert.ok(last.exits.some((e) => isDeepStrictEqual(e, exit)), `${where}: exit ${JSON.stringify(exit)} folded`);
}


/**
 * A throwaway PostgreSQL for the tests of several bridges (`python -m bench.pgserver`:
 * Debian's binaries, started as a non-root user in a temporary folder). Resolves with a
 * fresh database's URL and a stop() that ends the server; without PostgreSQL off CI,
 * with `skip` saying why instead (on CI it rejects).
 */
export async function startPostgres() {
  const child = spawn(PYTHON, ["-m", "bench.pgserver"], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  const dsn = await new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`PostgreSQL did not start (${code}):\n${err}`)));
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve(out.split("\n")[0].trim());
    });
  });
  child.removeAllListeners("exit");
  const skip = dsn.startsWith("SKIP: ") ? dsn.slice(6) : null;
  return {
    dsn,
    skip,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.stdin.end();
      await exited;
    },
  };
}

/**
 * `vtt-bridge create-table NAME --player alice --player bob --db DB` (any database);
 * resolves with its join tokens by participant.
 * @param {string} db @param {string} name
 */
export async function createTable(db, name) {
  return readTokens(await run(["-m", "vtt_bridge", "create-table", name, "--player", "alice", "--player", "bob", "--db", db]));
}

/**
 * `vtt-bridge serve` on `db` (a postgresql:// URL several processes share) on a free
 * port, its own URL as its --public-url. Resolves once it answers /healthz, with its
 * `url` and a stop(signal) that sends `signal` (default SIGTERM) and waits for the exit.
 * @param {string} db @param {{lease?: number}} [options]
 */
export async function startServe(db, { lease = 2 } = {}) {
  const port = await freePort();
  const url = `ws://127.0.0.1:${port}/ws`;
  const child = spawn(PYTHON, ["-m", "vtt_bridge", "serve", "--host", "127.0.0.1", "--port", String(port),
    "--db", db, "--public-url", url, "--lease", String(lease)], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  await waitFor(async () => {
    if (child.exitCode !== null) throw new Error(`bridge exited (${child.exitCode}):\n${err}`);
    try {
      return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok;
    } catch {
      return false;
    }
  }, 20_000);
  return {
    url,
    stderr: () => err,
    /** @param {NodeJS.Signals} [signal] */
    async stop(signal = "SIGTERM") {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill(signal);
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * A table `name` on `db` (PostgreSQL) with two `vtt-bridge serve` processes: `owner`
 * serves it (someone joined through it first) and `home`, where a client is pointed,
 * sends joins on to it (`redirect`). Resolves with the table's join tokens and both
 * processes, for the caller to stop.
 * @param {string} db @param {string} name
 */
export async function tableServedElsewhere(db, name) {
  const tokens = await createTable(db, name);
  const home = await startServe(db);
  const owner = await startServe(db);
  const first = new BridgeClient(owner.url, { token: tokens.gm, reconnect: false });
  await first.connect();
  first.close();
  return { tokens, home, owner };
}

/** A Hero hero and an ogre far apart on a 12 x 12 square grid: a fight with nothing in reach. */
export const APART_SCENE = {
  grid: { kind: "square", cell_size: 1, unit: "m", width: 12, height: 12 },
  tokens: [
    { id: "hero", name: "Hero", owner: "alice", side: "heroes", x: 1, y: 1, size: 1, reach: 1, movement: 6,
      stats: { ocv: 6, dcv: 4, init: 14 } },
    { id: "ogre", name: "Ogre", owner: "gm", side: "monsters", x: 9, y: 9, size: 1, reach: 1, movement: 6,
      stats: { ocv: 5, dcv: 3, init: 12 } },
  ],
  walls: [],
  terrain: [],
};
