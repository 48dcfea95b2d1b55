// A prompt's countdown on a machine whose wall clock is minutes off the bridge's: it
// follows the `prompt` message's `remaining_ms` from its receipt (on the monotonic
// clock), not `deadline_ms` against this machine's `Date.now()`; a reconnect's catch-up
// and a `state` resync send the prompt again without moving the countdown later; a
// bridge older than `remaining_ms` still gets a countdown, from the wall clock.  The
// mover and the rest of the table count down the same prompt (`prompt_waiting`).

import assert from "node:assert/strict";
import { after, afterEach, before, test } from "node:test";

import { BridgeClient, applyEvent, applyPrompt, emptyView } from "../src/index.js";
import { startBridge, startProxy, waitFor } from "./helpers.js";

/** The hero next to the ogre (bob's): walking west leaves the ogre's reach. */
const SCENE = {
  grid: { kind: "square", cell_size: 1, unit: "m", width: 12, height: 12 },
  tokens: [
    { id: "ogre", name: "Ogre", owner: "bob", side: "monsters", x: 5, y: 5, size: 1, reach: 1, movement: 6,
      stats: { ocv: 5, dcv: 3, init: 12 } },
    { id: "hero", name: "Hero", owner: "alice", side: "heroes", x: 4, y: 5, size: 1, reach: 1, movement: 6,
      stats: { ocv: 6, dcv: 4, init: 14 } },
  ],
  walls: [{ id: "d1", a: [8, 0], b: [8, 4], blocks_move: true, blocks_sight: true, door: "closed" }],
  terrain: [],
};
/** The table's prompt timeout in these tests. */
const TIMEOUT_MS = 90_000;
/** How far this machine's wall clock is set from the bridge's in these tests. */
const SKEWS = [10 * 60_000, -10 * 60_000];

let bridge;
let proxy;
const clients = [];
const realNow = Date.now;

before(async () => {
  // The smallest window of events kept in memory: a rejoin behind any new event, or a
  // resync from the start, is answered with the whole state.
  bridge = await startBridge({ tables: ["ahead", "behind", "rejoin", "state", "watch"], extra: ["--events-kept-bytes", "1"] });
  proxy = await startProxy(bridge.port);
});

afterEach(() => {
  Date.now = realNow;
});

after(async () => {
  Date.now = realNow;
  for (const client of clients) client.close();
  await proxy?.close();
  await bridge?.stop();
});

/** @param {string} table @param {string} who @param {Record<string, any>} [options] */
async function join(table, who, { url = bridge.url, ...options } = {}) {
  const client = new BridgeClient(url, { token: bridge.tables[table][who], ...options });
  clients.push(client);
  await client.connect();
  return client;
}

/** Set this process's wall clock `skewMs` off (the bridge, another process, keeps its own). */
function skewClock(skewMs) {
  Date.now = () => realNow() + skewMs;
}

/**
 * A fight on `table` where alice's hero leaves the reach of bob's ogre: bob is prompted.
 * @returns {Promise<{bob: BridgeClient, prompt: import("../src/table.js").PromptView}>}
 */
async function prompted(table, bobOptions = {}) {
  const gm = await join(table, "gm");
  const alice = await join(table, "alice");
  const bob = await join(table, "bob", bobOptions);
  await gm.configureTable({ prompt_timeout_ms: TIMEOUT_MS });
  await gm.loadScene(SCENE);
  await gm.startCombat("hero-supplement", { seed: 7 });
  const received = new Promise((resolve) => bob.on("prompt", resolve));
  await alice.move("hero", [[3, 5], [2, 5]]);
  const prompt = await received;
  assert.equal(prompt.controller, "bob");
  return { bob, prompt };
}

for (const skew of SKEWS) {
  test(`a wall clock ${skew / 60_000} minutes off: the countdown follows remaining_ms`, async () => {
    skewClock(skew);
    const { bob, prompt } = await prompted(skew > 0 ? "ahead" : "behind");
    // deadline_ms is the bridge's clock: read against this machine's, it is minutes off
    // (already past when this clock is ahead, many minutes away when behind).
    const byWallClock = prompt.deadlineMs - Date.now();
    assert.ok(Math.abs(byWallClock - TIMEOUT_MS) > 5 * 60_000, `wall clock reading ${byWallClock} ms`);
    // The countdown: what the bridge said was left, less the time since it said so.
    const left = BridgeClient.remainingMs(prompt);
    assert.ok(left > TIMEOUT_MS - 20_000 && left <= TIMEOUT_MS, `${left} ms left`);
    // It counts down on the monotonic clock, to zero.
    const at = performance.now();
    const then = BridgeClient.remainingMs(prompt, at);
    assert.ok(Math.abs(BridgeClient.remainingMs(prompt, at + 250) - (then - 250)) < 1e-6);
    assert.equal(BridgeClient.remainingMs(prompt, prompt.localDeadlineMs + 1), 0);
    assert.equal(bob.view.prompts[prompt.prompt].localDeadlineMs, prompt.localDeadlineMs);
  });
}

test("a reconnect's catch-up sends the prompt again: the countdown never moves later", async () => {
  skewClock(SKEWS[0]);
  const { bob, prompt } = await prompted("rejoin", { url: proxy.url, retryMinMs: 100 });
  const sent = [];
  bob.on("prompt", (p) => sent.push(p));
  const first = prompt.localDeadlineMs;
  proxy.cutAll();
  await waitFor(() => bob.status === "disconnected");
  await waitFor(() => bob.status === "joined" && sent.length > 0);
  // The catch-up sent it again, same deadline on the bridge's clock; its remaining_ms was
  // measured at the rejoin and can only be later here: the first reading stands.
  const again = sent.at(-1);
  assert.equal(again.prompt, prompt.prompt);
  assert.equal(again.deadlineMs, prompt.deadlineMs);
  assert.ok(again.localDeadlineMs <= first, `${again.localDeadlineMs} after ${first}`);
  assert.ok(BridgeClient.remainingMs(again) > TIMEOUT_MS - 20_000);
});

test("a state resync replaces the view: the prompt sent after it keeps its countdown", async () => {
  skewClock(SKEWS[1]);
  const { bob, prompt } = await prompted("state");
  // The bridge keeps no event in memory (a one-byte window): a resync from the start is
  // answered with the whole state, then the open prompts.
  const states = [];
  bob.on("state", (view) => states.push(structuredClone(view.prompts[prompt.prompt])));
  const sent = [];
  bob.on("prompt", (p) => sent.push(p));
  bob.resync(-1);
  await waitFor(() => sent.length > 0);
  assert.equal(states.length, 1, "answered with the state");
  assert.equal(states[0].localDeadlineMs, null, "a state carries no deadlines");
  const again = bob.view.prompts[prompt.prompt];
  assert.equal(again.deadlineMs, prompt.deadlineMs);
  assert.ok(again.localDeadlineMs <= prompt.localDeadlineMs);
  assert.ok(BridgeClient.remainingMs(again) > TIMEOUT_MS - 20_000);
});

test("the mover and the GM count down bob's prompt with him; only bob may answer", async () => {
  skewClock(SKEWS[0]);
  const gm = await join("watch", "gm");
  const alice = await join("watch", "alice");
  const bob = await join("watch", "bob");
  await gm.configureTable({ prompt_timeout_ms: TIMEOUT_MS });
  await gm.loadScene(SCENE);
  await gm.startCombat("hero-supplement", { seed: 7 });
  const asked = new Promise((resolve) => bob.on("prompt", resolve));
  const waited = [alice, gm].map((c) => new Promise((resolve) => c.on("prompt_waiting", resolve)));
  await alice.move("hero", [[3, 5], [2, 5]]);
  const prompt = await asked;
  for (const [client, waiting] of [[alice, await waited[0]], [gm, await waited[1]]]) {
    assert.equal(waiting.prompt, prompt.prompt);
    assert.equal(waiting.controller, "bob");
    assert.equal(waiting.kind, "attack_of_opportunity");
    assert.equal(waiting.attacker, "ogre", "what it asks, from its prompt_opened event");
    assert.equal(waiting.deadlineMs, prompt.deadlineMs, "the same deadline on the bridge's clock");
    const left = BridgeClient.remainingMs(waiting);
    assert.ok(left > TIMEOUT_MS - 20_000 && left <= TIMEOUT_MS, `${left} ms left`);
    assert.deepEqual(client.waitingPrompts().map((p) => p.prompt), [prompt.prompt]);
    assert.deepEqual(client.myPrompts(), []);
  }
  assert.deepEqual(bob.waitingPrompts(), []);
  // Joining while it is open (a second page of alice's): the same countdown.
  const late = await join("watch", "alice");
  await waitFor(() => late.view.prompts[prompt.prompt]?.deadlineMs != null);
  assert.equal(late.view.prompts[prompt.prompt].deadlineMs, prompt.deadlineMs);
  // Alice may not answer it; bob does, and the countdown goes from every view.
  await assert.rejects(alice.answerPrompt(prompt.prompt, true), (err) => err.code === "not_your_prompt");
  await bob.answerPrompt(prompt.prompt, false);
  for (const client of [alice, gm, late]) await client.until((v) => !v.prompts[prompt.prompt], 10_000);
});

test("the fold: a prompt_waiting keeps what its prompt_opened asks and names its controller", () => {
  const view = emptyView();
  applyEvent(view, 0, "prompt_opened", {
    prompt: "p1", prompt_kind: "attack_of_opportunity", controller: "bob", attacker: "ogre", target: "hero",
    at: [4, 5], exit_point: [3.5, 5.5],
  });
  assert.equal(view.prompts.p1.localDeadlineMs, null);
  const waiting = { prompt: "p1", kind: "attack_of_opportunity", controller: "bob", deadline_ms: 1_000_000, remaining_ms: 30_000 };
  applyPrompt(view, "alice", waiting, 5_000);
  assert.deepEqual(view.prompts.p1, {
    prompt: "p1", kind: "attack_of_opportunity", controller: "bob", attacker: "ogre", target: "hero",
    at: [4, 5], exitPoint: [3.5, 5.5], deadlineMs: 1_000_000, localDeadlineMs: 35_000,
  });
  // One the view no longer holds (closed before its countdown arrived) is not brought back.
  applyEvent(view, 1, "prompt_closed", { prompt: "p1", outcome: "declined", by: "bob" });
  applyPrompt(view, "alice", waiting, 6_000);
  assert.deepEqual(view.prompts, {});
});

/** A `prompt` message's body as the bridge sends it (protocol README), at `deadline`. */
const body = (deadline, remaining) => ({
  prompt: "p1", kind: "attack_of_opportunity", attacker: "ogre", target: "hero", at: [4, 5], exit_point: [3.5, 5.5],
  deadline_ms: deadline, ...(remaining === undefined ? {} : { remaining_ms: remaining }),
});

test("the fold: remaining_ms from receipt, the earlier of two readings, a new deadline replaces", () => {
  skewClock(7 * 60_000);
  const view = emptyView();
  applyPrompt(view, "bob", body(1_000_000, 30_000), 5_000);
  assert.equal(view.prompts.p1.localDeadlineMs, 35_000);
  assert.equal(view.prompts.p1.deadlineMs, 1_000_000);
  // Sent again 4 s later (a catch-up) with 27 s left, measured before it left: later than
  // the first reading allows, so the first stands; with 25 s left, earlier, it wins.
  applyPrompt(view, "bob", body(1_000_000, 27_000), 9_000);
  assert.equal(view.prompts.p1.localDeadlineMs, 35_000);
  applyPrompt(view, "bob", body(1_000_000, 25_000), 9_000);
  assert.equal(view.prompts.p1.localDeadlineMs, 34_000);
  // Another deadline on the bridge's clock is a new one (a prompt id used again).
  applyPrompt(view, "bob", body(2_000_000, 30_000), 9_000);
  assert.equal(view.prompts.p1.localDeadlineMs, 39_000);
  // After a state replaced the view, the entry it had is passed along.
  const replaced = view.prompts.p1;
  const fresh = emptyView();
  applyPrompt(fresh, "bob", body(2_000_000, 29_000), 12_000, replaced);
  assert.equal(fresh.prompts.p1.localDeadlineMs, 39_000);
  assert.equal(BridgeClient.remainingMs(fresh.prompts.p1, 30_000), 9_000);
});

test("an older bridge without remaining_ms: deadline_ms against this machine's wall clock", () => {
  skewClock(0);
  const view = emptyView();
  const received = performance.now();
  const deadline = Date.now() + 20_000;
  applyPrompt(view, "bob", body(deadline, undefined), received);
  const local = view.prompts.p1.localDeadlineMs;
  // Date.now() was read after `deadline` was set: at most 20 s, and only just less.
  assert.ok(local <= received + 20_000 && local > received + 19_000, `${local - received}`);
  // With this clock a minute ahead, the same message has a minute less.
  skewClock(60_000);
  const ahead = emptyView();
  applyPrompt(ahead, "bob", body(deadline, undefined), received);
  assert.ok(Math.abs(ahead.prompts.p1.localDeadlineMs - (local - 60_000)) < 1_000);
  assert.equal(BridgeClient.remainingMs(ahead.prompts.p1, received), 0);
});
