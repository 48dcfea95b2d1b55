// Each game's own clock: folding a recorded fight, the view's labels are the ones the
// bridge sent, in that game's words (Cyberpunk RED and M&M: Rounds and turns; Hero:
// Turns of Phases), and no client spells a ruleset's words itself.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";

import { applyEvent, clockLabel, emptyView, endActionLabel, outerCount } from "../src/index.js";
import { ROOT } from "./helpers.js";

/** Every label the first connection's view showed through a recorded fight, in order. */
function labelsOf(file) {
  const lines = readFileSync(path.join(ROOT, "tests/recordings", file), "utf8").split("\n").filter((l) => l.trim());
  const records = lines.map((l) => JSON.parse(l));
  const first = records.find((r) => r.record === "out").conn;
  const view = emptyView();
  const labels = [];
  let ending = null;
  let outer = 0;
  for (const r of records) {
    if (r.record !== "out" || r.conn !== first || r.message.type !== "event") continue;
    const { index, kind, data } = r.message.body;
    applyEvent(view, index, kind, data);
    if (kind === "pass_started") labels.push(clockLabel(view.combat));
    if (kind === "combatant_acts" && ending === null) ending = endActionLabel(view.combat, view.tokens[view.combat.actor].name);
    if (view.combat) outer = Math.max(outer, outerCount(view.combat) ?? 0);
  }
  return { labels, ending, outer };
}

test("a Cyberpunk RED fight reads in Rounds, and a turn is ended", () => {
  const { labels, ending, outer } = labelsOf("cpr_fight.jsonl");
  assert.deepEqual(labels.slice(0, 2), ["Round 1", "Round 2"]);
  assert.ok(labels.every((l) => /^Round \d+$/.test(l)), labels.join());
  assert.match(ending, /^End .+'s Turn$/);
  assert.equal(outer, labels.length);
});

test("an M&M fight opens with its Surprise Round, then rounds", () => {
  const { labels, ending } = labelsOf("mm3e_fight.jsonl");
  assert.deepEqual(labels.slice(0, 3), ["Surprise Round", "Round 1", "Round 2"]);
  assert.match(ending, /^End .+'s Turn$/);
});

test("a Hero fight reads in Turns of Phases, and a Phase is ended", () => {
  const { labels, ending, outer } = labelsOf("hero_full_fight.jsonl");
  assert.deepEqual(labels.slice(0, 3), ["Surprise Phase", "Turn 1, Phase 1", "Turn 1, Phase 2"]);
  assert.ok(labels.includes("Turn 2, Phase 1"), labels.join());
  assert.match(ending, /^End .+'s Phase$/);
  assert.equal(outer, 2);
});

test("without a fight there is no clock to read", () => {
  assert.equal(clockLabel(null), "no combat");
  assert.equal(outerCount(null), null);
  assert.equal(endActionLabel(null, "Rex"), "End Rex's action");
});
