// Every recorded session in tests/recordings/, folded by the library from what each
// connection was sent, agrees with the Python side's table state at every step.
//
// tests/clients/recording_states.py replays the recording through the bridge and prints
// the table's state after each record; here each connection's messages are decoded from
// their recorded frames and fed to the same code the client runs (decodeFrame, then the
// fold), and the view is compared with viewFromState() of the Python state wherever the
// connection stands at a checkpoint's event index with nothing of the next command yet.
// Held actions fold as each ruleset's description says (the bridge's `holds`).

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";

import { applyEvent, applyPrompt, decodeFrame, emptyView, encodeJson, encodeMsgpack, viewFromState } from "../src/index.js";
import { ROOT, comparable, pythonJson, sameLastMove } from "./helpers.js";

const DIR = path.join(ROOT, "tests/recordings");
const RECORDINGS = readdirSync(DIR).filter((f) => f.endsWith(".jsonl")).sort();

/** @param {string} file */
function readRecording(file) {
  const lines = readFileSync(path.join(DIR, file), "utf8").split("\n").filter((l) => l.trim());
  const records = lines.map((l) => JSON.parse(l));
  /** @type {Map<string, {participant: string | null, binary: boolean, messages: any[]}>} */
  const conns = new Map();
  for (const record of records.slice(1)) {
    if (record.record === "in" && !conns.has(record.conn)) {
      conns.set(record.conn, { participant: null, binary: "binary" in record, messages: [] });
    }
    if (record.record === "out") conns.get(record.conn).messages.push(record.message);
  }
  return { header: records[0], conns };
}

/** A recorded message as the frame the bridge sent, decoded as the client decodes it. */
function throughCodec(message, binary) {
  const frame = binary ? encodeMsgpack(message) : encodeJson(message);
  const [decoded] = decodeFrame(frame);
  return decoded;
}

/** Python's vitals start from the ruleset (no event says them); the fold knows only those
 * an event or a state reported: each one it knows must be right. */
function compareVitals(folded, python, where) {
  if (!folded.combat) return;
  for (const [id, vitals] of Object.entries(folded.combat.vitals)) {
    assert.deepEqual(vitals, python.combat.vitals[id], `${where}: vitals of ${id}`);
  }
  folded.combat.vitals = {};
  python.combat.vitals = {};
}

/** Each ruleset's held actions as the bridge describes them (its `rulesets` message). */
const holds = await pythonJson(["-m", "tests.clients.ruleset_holds"]);

for (const file of RECORDINGS) {
  test(`recording ${file} folds to the Python side's state`, async () => {
    const exported = await pythonJson(["-m", "tests.clients.recording_states", path.join(DIR, file)]);
    assert.equal(exported.ok, true, "the recording replays identically");
    const byIndex = new Map(exported.checkpoints.map((c) => [c.last_event, c]));
    const { conns } = readRecording(file);
    assert.ok(conns.size > 0);
    const reached = new Set();
    for (const [conn, { binary, messages }] of conns) {
      let view = emptyView();
      let participant = "";
      let compared = 0;
      const check = (where) => {
        const point = byIndex.get(view.lastEvent);
        if (!point) return;
        const python = viewFromState(point.state, point.last_event, holds);
        const folded = structuredClone(view);
        compareVitals(folded, python, where);
        sameLastMove(folded, python, `${file} ${conn} ${where}`);
        assert.deepEqual(comparable(folded), comparable(python), `${file} ${conn} ${where}`);
        // Every member knows every open prompt's deadline: its controller from the
        // `prompt`, everyone else from `prompt_waiting`.
        for (const prompt of Object.values(view.prompts)) {
          assert.equal(prompt.deadlineMs, point.deadlines[prompt.prompt], `${where}: ${participant}'s deadline of ${prompt.prompt}`);
        }
        reached.add(view.lastEvent);
        compared += 1;
      };
      for (let i = 0; i < messages.length; i++) {
        const { type, body } = throughCodec(messages[i], binary);
        if (type === "welcome") participant = body.participant;
        else if (type === "state") view = viewFromState(body.state, body.last_event, holds);
        else if (type === "event") assert.equal(applyEvent(view, body.index, body.kind, body.data, holds), true);
        else if (type === "prompt" || type === "prompt_waiting") applyPrompt(view, participant, body);
        const next = messages[i + 1];
        const settled = !next || (next.type === "event" && next.body.index > view.lastEvent) || next.type === "ack";
        if (settled && type !== "welcome") check(`after message ${i} (${type})`);
      }
      assert.ok(compared > 0, `${conn} was compared at least once`);
    }
    // Every step of the fight was checked by some connection.
    const steps = exported.checkpoints.map((c) => c.last_event).filter((i) => i >= 0);
    assert.deepEqual(steps.filter((i) => !reached.has(i)), []);
  });
}
