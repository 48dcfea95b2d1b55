// Held, delayed and readied actions, whatever the ruleset: the fold shows each ruleset's
// holds as the same HoldView, from the events that declare, fire and drop them (named,
// with their fields, by the ruleset's description: no client file names a ruleset), and the
// bridge's own state agrees (recordings.test.js compares the two at every step).  Here
// each recorded hold is followed from its declaration to its end.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";

import { applyEvent, emptyView, viewFromState } from "../src/index.js";
import { ROOT, pythonJson } from "./helpers.js";

/** Each ruleset's held actions as the bridge describes them (its `rulesets` message). */
const holds = await pythonJson(["-m", "tests.clients.ruleset_holds"]);

/** The events one connection of a recording was sent, in index order, and the state
 * message that started it (if any). */
function eventsOf(file) {
  const lines = readFileSync(path.join(ROOT, "tests/recordings", file), "utf8").split("\n").filter((l) => l.trim());
  const records = lines.slice(1).map((l) => JSON.parse(l));
  const conn = records.find((r) => r.record === "out")?.conn;
  const messages = records.filter((r) => r.record === "out" && r.conn === conn).map((r) => r.message);
  const start = messages.find((m) => m.type === "state");
  const events = messages.filter((m) => m.type === "event").map((m) => m.body);
  return { start, events };
}

/**
 * Fold a recording event by event; `check(view, event)` after each.
 * @param {string} file @param {(view: any, event: any) => void} check
 */
function follow(file, check) {
  const { start, events } = eventsOf(file);
  const view = start ? viewFromState(start.body.state, start.body.last_event, holds) : emptyView();
  for (const event of events) {
    if (applyEvent(view, event.index, event.kind, event.data, holds)) check(view, event);
  }
  return view;
}

test("Cyberpunk RED's Hold Actions are drawn from its own events, trigger areas and all", () => {
  const seen = { held: 0, fired: 0, lost: 0 };
  follow("cpr_fight.jsonl", (view, { kind, data }) => {
    const holds = view.combat?.holds ?? {};
    if (kind === "cpr_action_held") {
      seen.held += 1;
      assert.deepEqual(holds[data.holder], {
        combatant: data.holder, kind: "hold", before: null, action: data.action,
        trigger: data.trigger, triggerBy: data.token, area: data.area,
      });
    } else if (kind === "cpr_held_fired") {
      seen.fired += 1;
      assert.equal(holds[data.holder], undefined, "a fired hold is spent");
      assert.equal(view.combat.actor, data.holder, "its holder acts now");
      assert.equal(view.combat.interjector, data.holder);
    } else if (kind === "cpr_held_lost") {
      seen.lost += 1;
      assert.equal(holds[data.holder], undefined, `${data.holder}'s hold is lost: ${data.reason}`);
    }
  });
  // The recording declares holds with trigger areas, fires one and loses one.
  assert.ok(seen.held >= 2 && seen.fired >= 1 && seen.lost >= 1, JSON.stringify(seen));
});

test("the Hero supplement's delays and readied actions fold to the same shape", () => {
  let declared = 0;
  follow("hero_full_fight.jsonl", (view, { kind, data }) => {
    if (kind === "hold_declared") {
      declared += 1;
      assert.deepEqual(view.combat.holds[data.combatant], {
        combatant: data.combatant, kind: data.hold, before: data.before, action: data.action,
        trigger: null, triggerBy: data.trigger_by, area: data.area,
      });
    } else if (["hold_lapsed", "delay_taken", "readied_action_taken"].includes(kind)) {
      assert.equal(view.combat.holds[data.combatant], undefined);
    }
  });
  assert.ok(declared > 0);
});

test("a ruleset without held actions shows none", () => {
  const view = follow("mm3e_fight.jsonl", () => {});
  assert.deepEqual(view.combat.holds, {});
});
