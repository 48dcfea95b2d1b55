// The combat tracker plan: the bridge's order as Foundry initiatives, turn, round, Phase.

import assert from "node:assert/strict";
import { test } from "node:test";

import { initiatives, phaseLabel, planIsEmpty, trackerPlan } from "../src/combat.js";
import { MODULE_ID } from "../src/scene.js";

const HERO_TIME = { units: [{ key: "turn", name: "Turn", seconds: 12, also: [] }, { key: "phase", name: "Phase", seconds: 3, also: ["Segment"] }], surprise: "Surprise Phase", action: "Phase" };
const fight = {
  order: ["hero", "ogre", "wolf"], scores: { hero: 14, ogre: 12, wolf: 12 }, actor: "ogre",
  clock: { at: { turn: 1, phase: 3 }, label: "Turn 1, Phase 3" }, time: HERO_TIME,
};
const scene = { sceneId: "scene1", tokens: new Map([["hero", { actorId: "a1" }], ["ogre", { actorId: "a2" }], ["wolf", { actorId: null }]]) };

test("ties the bridge broke stay broken in Foundry's sort", () => {
  assert.deepEqual([...initiatives(["a", "b", "c", "d"], { a: 10, b: 10, c: 10, d: 12 })],
    [["a", 10], ["b", 9.99], ["c", 9.98], ["d", 9.97]]);
});

test("a new tracker: create, add every combatant, then turn and round", () => {
  const plan = trackerPlan(fight, null, scene);
  assert.equal(plan.create, true);
  assert.deepEqual(plan.add.map((c) => [c.tokenId, c.initiative, c.actorId]), [["hero", 14, "a1"], ["ogre", 12, "a2"], ["wolf", 11.99, null]]);
  assert.deepEqual(plan.update, { round: 1, turn: 1, [`flags.${MODULE_ID}`]: { round: 1, actor: "ogre", label: "Turn 1, Phase 3" } });
});

test("an existing tracker: only what differs; strangers lose their initiative", () => {
  const combat = {
    round: 1, turn: 1, flags: { [MODULE_ID]: { round: 1, actor: "ogre", label: "Turn 1, Phase 3" } },
    combatants: [
      { id: "c1", tokenId: "hero", initiative: 14 },
      { id: "c2", tokenId: "ogre", initiative: 12 },
      { id: "c3", tokenId: "wolf", initiative: 11.99 },
      { id: "c4", tokenId: "bystander", initiative: 20 },
    ],
  };
  const plan = trackerPlan(fight, combat, scene);
  assert.deepEqual(plan, { create: false, add: [], initiative: [{ _id: "c4", initiative: null }], update: {} });
  combat.combatants[3].initiative = null;
  assert.equal(planIsEmpty(trackerPlan(fight, combat, scene)), true);
  const next = trackerPlan({ ...fight, actor: "wolf" }, combat, scene);
  assert.equal(next.update.turn, 2);
  assert.equal(next.update[`flags.${MODULE_ID}`].actor, "wolf");
  assert.equal(trackerPlan(null, combat, scene), null);
});

test("labels: the bridge's, in each game's words", () => {
  assert.equal(phaseLabel(fight), "Turn 1, Phase 3");
  assert.equal(phaseLabel({ clock: { at: { round: 4 }, label: "Round 4" } }), "Round 4");
  assert.equal(phaseLabel(null), "");
});

test("Foundry's round is the game's Round, or its Hero Turn", () => {
  const rounds = { units: [{ key: "round", name: "Round", seconds: 3, also: [] }], surprise: "Surprise Round", action: "Turn" };
  const cpr = { ...fight, clock: { at: { round: 3 }, label: "Round 3" }, time: rounds };
  assert.equal(trackerPlan(cpr, null, scene).update.round, 3);
  const hero = { ...fight, clock: { at: { turn: 2, phase: 1 }, label: "Turn 2, Phase 1" } };
  assert.equal(trackerPlan(hero, null, scene).update.round, 2);
});
