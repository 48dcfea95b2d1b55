// Settings: the join token and URL stay in the browser (client scope), the ruleset is the world's.

import assert from "node:assert/strict";
import { test } from "node:test";

import { MODULE_ID } from "../src/scene.js";
import { RULESETS, registerBypassKey, registerSettings } from "../src/settings.js";

test("registered as Foundry's game.settings.register expects, with the right scopes", () => {
  const registered = [];
  registerSettings({ register: (ns, key, config) => registered.push([ns, key, config]) });
  const byKey = Object.fromEntries(registered.map(([ns, key, config]) => [key, { ns, ...config }]));
  assert.deepEqual(Object.keys(byKey).sort(), ["ruleset", "token", "url"]);
  assert.ok(Object.values(byKey).every((c) => c.ns === MODULE_ID && c.config === true));
  assert.equal(byKey.token.scope, "client");
  assert.equal(byKey.url.scope, "client");
  assert.equal(byKey.ruleset.scope, "world");
  assert.deepEqual(Object.keys(byKey.ruleset.choices), Object.keys(RULESETS));
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
