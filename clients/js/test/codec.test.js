// The codec's pitfalls: integers beyond 2^53, undefined, Date, NaN, batch frames, and
// the same message meaning the same in JSON and msgpack, checked by the bridge itself.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { BridgeClient, FrameError, applyEvent, decodeFrame, emptyView, encodeJson, encodeMsgpack, toWire, viewFromState } from "../src/index.js";
import { startBridge, waitFor } from "./helpers.js";

const BIG = 2n ** 62n + 1n; // beyond 2^53: a double would round it

test("undefined fields are left out, in JSON and msgpack alike", () => {
  const envelope = { v: 1, type: "move", seq: 3, body: { token: "hero", path: [[1, 2]], attack: undefined } };
  const expected = { v: 1, type: "move", seq: 3, body: { token: "hero", path: [[1, 2]] } };
  assert.deepEqual(JSON.parse(encodeJson(envelope)), expected);
  assert.deepEqual(decodeFrame(encodeMsgpack(envelope))[0], expected);
  assert.deepEqual(toWire([1, undefined]), [1, null]);
});

test("Date, Map, typed arrays, NaN and infinities have no wire form", () => {
  for (const bad of [new Date(0), new Map(), new Uint8Array(2), NaN, Infinity, () => 1, Symbol("s")]) {
    assert.throws(() => encodeJson({ v: 1, type: "x", seq: 1, body: { bad } }), TypeError);
    assert.throws(() => encodeMsgpack({ v: 1, type: "x", seq: 1, body: { bad } }), TypeError);
  }
  assert.throws(() => toWire(2n ** 63n), /outside the protocol's integers/);
});

test("integers beyond 2^53 stay exact in msgpack and are refused from JSON", () => {
  const envelope = { v: 1, type: "event", seq: 1, body: { index: 0, kind: "x", data: { big: BIG, small: 2n ** 40n } } };
  const [decoded] = decodeFrame(encodeMsgpack(envelope));
  assert.equal(decoded.body.data.big, BIG);
  assert.equal(decoded.body.data.small, 2 ** 40, "an exact value comes back as a number");
  const text = encodeJson(envelope);
  assert.match(text, /"big":4611686018427387905\b/);
  assert.throws(() => decodeFrame(text), (err) => err instanceof FrameError && err.code === "unsafe_integer");
});

test("a batch frame is its envelopes in order; a bad one names its index", () => {
  const one = (seq) => ({ v: 1, type: "pong", seq, body: {} });
  const frame = JSON.stringify([one(1), one(2), one(3)]);
  assert.deepEqual(decodeFrame(frame).map((e) => e.seq), [1, 2, 3]);
  assert.deepEqual(decodeFrame(encodeMsgpack(one(4))).map((e) => e.seq), [4]);
  assert.throws(() => decodeFrame(JSON.stringify([one(1), { v: 2, type: "pong", seq: 2, body: {} }])), /\[1\]: protocol version 2/);
  assert.throws(() => decodeFrame("{"), (err) => err.code === "invalid_json");
  assert.throws(() => decodeFrame(new Uint8Array([0xc1])), (err) => err.code === "invalid_msgpack");
});

test("events fold once, in order; a gap is an error the client resyncs on", () => {
  const view = emptyView();
  assert.equal(applyEvent(view, 0, "dice_rolled", {}), true);
  assert.equal(applyEvent(view, 0, "dice_rolled", {}), false, "a repeat is dropped");
  assert.throws(() => applyEvent(view, 2, "dice_rolled", {}), RangeError);
  assert.equal(view.lastEvent, 0);
});

test("a ruleset's own events and state (no holds, no vitals) fold without breaking", () => {
  const state = {
    scene: null,
    combat: { ruleset: "other-game", order: ["a"], scores: [["a", 12]], aware: ["a"], turn: 1, phase: 1, acting: 0,
      prompts: [], pending_move: null, interjection: null, conditions: [], rules: { whatever: [1] },
      per_combatant: [["a", { luck: 3 }]], groups: [], effects: [{ id: "e1", name: "smoke", token: null, source: "gm" }] },
  };
  const view = viewFromState(state, 4);
  assert.deepEqual([view.combat.holds, view.combat.vitals], [{}, {}]);
  assert.deepEqual(view.combat.effects, { e1: { effect: "e1", name: "smoke", token: null, source: "gm" } });
  assert.equal(applyEvent(view, 5, "luck_spent", { combatant: "a", luck: 1 }), true, "an unknown kind passes through");
  assert.equal(applyEvent(view, 6, "effect_ended", { effect: "e1", name: "smoke", token: null, reason: "expired" }), true);
  assert.deepEqual(view.combat.effects, {});
});

let bridge;
after(async () => bridge?.stop());
before(async () => {
  bridge = await startBridge({ tables: ["big"] });
});

test("the bridge reads our msgpack and JSON the same, big integers included", async () => {
  const tokens = bridge.tables.big;
  const gm = new BridgeClient(bridge.url, { token: tokens.gm, binary: true });
  const alice = new BridgeClient(bridge.url, { token: tokens.alice });
  const aliceErrors = [];
  alice.on("error", (err) => aliceErrors.push(err));
  try {
    await gm.connect();
    await alice.connect();
    const scene = {
      grid: { kind: "square", cell_size: 1, unit: "m", width: 4, height: 4 },
      tokens: [{ id: "t", name: "T", owner: "gm", side: "a", x: 0, y: 0, size: 1, reach: 1, movement: 6,
        stats: { big: BIG, note: undefined } }],
    };
    await gm.loadScene(scene);
    assert.equal(gm.view.tokens.t.stats.big, BIG, "exact through the bridge and back in msgpack");
    assert.deepEqual(Object.keys(gm.view.tokens.t.stats), ["big"]);
    // Alice reads JSON: the frame holding the big stat is refused, not read wrong...
    await waitFor(() => aliceErrors.length > 0);
    assert.equal(aliceErrors[0].code, "unsafe_integer");
    assert.equal(alice.view.scene, null);
    // ...and a JSON sender's big integer reaches the bridge exactly too.
    const refused = await alice.send("resync", { after: BIG }).catch((err) => err);
    assert.equal(refused.code, "bad_value", "beyond the seq range, so the bridge read it as the big number");
  } finally {
    gm.close();
    alice.close();
  }
});
