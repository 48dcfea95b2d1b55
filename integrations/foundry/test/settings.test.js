// Settings: the join token and URL stay in the browser (client scope), the ruleset is the world's.

import assert from "node:assert/strict";
import { test } from "node:test";

import { MODULE_ID } from "../src/scene.js";
import { chooseRuleset, offerRulesets, registerBypassKey, registerSettings } from "../src/settings.js";
import "./i18n.js"; // the module in English (lang/en.json)

test("registered as Foundry's game.settings.register expects, with the right scopes", () => {
  const registered = [];
  registerSettings({ register: (ns, key, config) => registered.push([ns, key, config]) });
  const byKey = Object.fromEntries(registered.map(([ns, key, config]) => [key, { ns, ...config }]));
  assert.deepEqual(Object.keys(byKey).sort(), ["ruleset", "token", "url"]);
  assert.ok(Object.values(byKey).every((c) => c.ns === MODULE_ID && c.config === true));
  assert.equal(byKey.token.scope, "client");
  assert.equal(byKey.url.scope, "client");
  assert.equal(byKey.ruleset.scope, "world");
  // No ruleset is the module's: the setting is a name, its choices the bridge's list.
  assert.equal(byKey.ruleset.type, String);
  assert.equal(byKey.ruleset.default, "");
  assert.equal(byKey.ruleset.choices, undefined);
});

const PLAYED = [{ name: "toy-duel", title: "Toy duel" }, { name: "other-game", title: "Other game" }];

test("once connected, the ruleset setting offers the bridge's games by title", () => {
  const registered = new Map();
  registerSettings({ register: (ns, key, config) => registered.set(`${ns}.${key}`, config) });
  offerRulesets(registered, PLAYED, "");
  assert.deepEqual(registered.get(`${MODULE_ID}.ruleset`).choices, { "toy-duel": "Toy duel", "other-game": "Other game" });
  // A value the bridge does not play stays a choice: opening the form changes nothing.
  offerRulesets(registered, PLAYED, "gone");
  assert.deepEqual(Object.keys(registered.get(`${MODULE_ID}.ruleset`).choices), ["toy-duel", "other-game", "gone"]);
});

test("a fight starts with a ruleset the bridge plays, else the GM is told which there are", () => {
  assert.deepEqual(chooseRuleset("other-game", PLAYED), { name: "other-game" });
  assert.deepEqual(chooseRuleset("", [PLAYED[0]]), { name: "toy-duel" });
  assert.deepEqual(chooseRuleset("", PLAYED), {
    error: "Choose the game in the module's settings (Ruleset) before combat begins. The bridge plays: Toy duel (toy-duel), Other game (other-game).",
  });
  assert.deepEqual(chooseRuleset("gone", PLAYED), {
    error: "The bridge does not play \"gone\" (the module's Ruleset setting). It plays: Toy duel (toy-duel), Other game (other-game).",
  });
});

test("the bypass key is the GM's, and held only while down", () => {
  let binding;
  const held = registerBypassKey({ register: (ns, name, config) => (binding = { ns, name, ...config }) });
  assert.equal(binding.restricted, true);
  // Unbound: Alt is Foundry's own "highlight" (core keybinding, AltLeft/AltRight).
  assert.deepEqual(binding.editable, []);
  assert.equal(held(), false);
  binding.onDown();
  assert.equal(held(), true);
  binding.onUp();
  assert.equal(held(), false);
});
