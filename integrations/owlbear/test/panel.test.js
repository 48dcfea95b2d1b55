// The popover's content from a table summary, and the GM's link form.

import assert from "node:assert/strict";
import { test } from "node:test";

import { applyLink, parseLink } from "../src/link.js";
import { LINK_KEY } from "../src/items.js";
import { panelHtml } from "../src/panel.js";

const summary = {
  status: "joined", participant: "gm", role: "gm", scene: true,
  rulesets: [{ name: "hero-supplement", title: "Hero System Rules Supplement" }, { name: "x<y", title: "<X>" }],
  log: ["Ogre attacks <Hero>"],
  combat: { ruleset: "hero-supplement", clock: "Turn 1, Phase 3", action: "Phase", actor: "ogre", paused: true,
    order: [{ id: "hero", name: "Hero", acting: false, mine: false }, { id: "ogre", name: "<Ogre>", acting: true, mine: true }] },
  prompts: [{ prompt: "p-1", kind: "attack_of_opportunity", attacker: "<Ogre>", target: "Hero", remainingMs: 20_500 }],
  error: null, bypass: false,
};

test("the panel: prompt with countdown, order with the actor, End Phase for my actor, GM controls, names escaped", () => {
  const html = panelHtml(summary, 9_500); // 9.5 s after the summary arrived
  assert.match(html, /<h2>Attack of opportunity<\/h2>/);
  assert.match(html, /11 s left/);
  assert.match(html, /data-op="answer" data-prompt="p-1" data-accept="true"/);
  assert.match(html, /Turn 1, Phase 3 \(paused\)/);
  assert.match(html, /<li class="acting">&#60;Ogre&#62; \(acting\) <button data-op="end_phase" data-token="ogre">End Phase<\/button>/);
  assert.match(html, /data-op="send_scene"/);
  // The ruleset choice is the bridge's list, by title; the log its lines, escaped.
  assert.match(html, /<option value="hero-supplement">Hero System Rules Supplement<\/option><option value="x&#60;y">&#60;X&#62;<\/option>/);
  assert.match(html, /<li>Ogre attacks &#60;Hero&#62;<\/li>/);
  // No words from the description yet: plain ones.
  assert.match(html, /<p class="question">&#60;Ogre&#62; may act against Hero\.<\/p>/);
  assert.match(html, /<button data-op="end_combat">End combat<\/button>/);
  assert.ok(!html.includes('data-op="start_combat"'), "a fight is on: it can end, not start");
  assert.ok(!html.includes("<Ogre>"));
  const between = panelHtml({ ...summary, combat: null, prompts: [] }, 0);
  assert.match(between, /data-op="start_combat"/);
  assert.ok(!between.includes("end_combat"));
});

test("a Round game's panel says its Round and ends a Turn (the bridge's words)", () => {
  const cpr = { ...summary, combat: { ...summary.combat, ruleset: "cyberpunk-red", clock: "Round 2", action: "Turn", paused: false } };
  const html = panelHtml(cpr, 0);
  assert.match(html, /<h2>Round 2<\/h2>/);
  assert.match(html, /data-token="ogre">End Turn<\/button>/);
  assert.ok(!html.includes("Phase"));
});

test("a player's panel has no GM controls; the prompt view shows only prompts", () => {
  const order = summary.combat.order.map((o) => ({ ...o, mine: false })); // tableSummary's view for alice
  const player = { ...summary, role: "player", participant: "alice", prompts: [], combat: { ...summary.combat, order } };
  const html = panelHtml(player, 0);
  assert.ok(!html.includes("send_scene"));
  assert.ok(!html.includes("end_phase"), "the acting token is not alice's");
  assert.ok(!html.includes("end_combat"), "only the GM ends a fight");
  assert.equal(panelHtml(player, 0, { view: "prompt" }), "<p>No prompt is waiting for you.</p>");
  assert.match(panelHtml(summary, 0, { view: "prompt" }), /^<section class="prompt"/);
});

test("the link form: checked, then written under the extension's metadata key", () => {
  const link = parseLink({ owner: "alice", side: "heroes", reach: "1", movement: "6", size: "", stats: '{"ocv": 6, "init": 14}' });
  assert.deepEqual(link, { owner: "alice", side: "heroes", reach: 1, movement: 6, stats: { ocv: 6, init: 14 } });
  const draft = { metadata: { "other.extension/x": 1 } };
  applyLink(draft, link);
  assert.deepEqual(draft.metadata, { "other.extension/x": 1, [LINK_KEY]: link });
  assert.throws(() => parseLink({ owner: "", side: "s", reach: "1", movement: "1" }), /owner/);
  assert.throws(() => parseLink({ owner: "a", side: "s", reach: "-1", movement: "1" }), /reach/);
  assert.throws(() => parseLink({ owner: "a", side: "s", reach: "1", movement: "1", size: "1.5" }), /size/);
  assert.throws(() => parseLink({ owner: "a", side: "s", reach: "1", movement: "1", stats: "[1]" }), /stats/);
});
