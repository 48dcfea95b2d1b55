// The module's settings and keybinding, registered at `init`.
//
// The bridge URL and the join token are client settings: Foundry keeps them in this
// browser only, while world settings are sent to every connected user, and a join
// token is one person's key to the table. The ruleset is the world's (the GM's) choice.

import { MODULE_ID } from "./scene.js";

/** The rulesets the bridge ships (engine/rulesets/). */
export const RULESETS = Object.freeze({
  "hero-supplement": "Hero System (rules supplement)",
  "cyberpunk-red": "Cyberpunk RED",
  mm3e: "Mutants & Masterminds 3e",
});

/** Every setting: key -> Foundry's SettingConfig (name and hint are i18n keys). */
export const SETTINGS = Object.freeze({
  url: {
    name: "VTTBRIDGE.Settings.url.name",
    hint: "VTTBRIDGE.Settings.url.hint",
    scope: "client",
    config: true,
    type: String,
    default: "ws://localhost:8080/ws",
    requiresReload: true,
  },
  token: {
    name: "VTTBRIDGE.Settings.token.name",
    hint: "VTTBRIDGE.Settings.token.hint",
    scope: "client",
    config: true,
    type: String,
    default: "",
    requiresReload: true,
  },
  ruleset: {
    name: "VTTBRIDGE.Settings.ruleset.name",
    hint: "VTTBRIDGE.Settings.ruleset.hint",
    scope: "world",
    config: true,
    type: String,
    choices: RULESETS,
    default: "hero-supplement",
  },
});

/** Register every setting on `game.settings`. */
export function registerSettings(settings) {
  for (const [key, config] of Object.entries(SETTINGS)) settings.register(MODULE_ID, key, { ...config });
}

/**
 * Register the GM's bypass key: held while dropping, a move skips the bridge, as the token
 * controls' toggle does (controls.js). Unbound by default: Alt, the obvious modifier, is
 * Foundry's own "highlight objects" key (core keybinding `highlight`, AltLeft), held
 * while dragging to see tokens, and so must not mean "skip the bridge". A GM who wants a
 * key binds one under Configure Controls. Returns `held()`, true while it is down.
 */
export function registerBypassKey(keybindings) {
  let down = false;
  keybindings.register(MODULE_ID, "bypass", {
    name: "VTTBRIDGE.Keys.bypass.name",
    hint: "VTTBRIDGE.Keys.bypass.hint",
    editable: [],
    restricted: true, // GM only
    onDown: () => {
      down = true;
      return false; // a held key: let Foundry's handling of the key go on
    },
    onUp: () => {
      down = false;
      return false;
    },
  });
  return () => down;
}

/** The settings' current values. */
export function readSettings(settings) {
  return Object.fromEntries(Object.keys(SETTINGS).map((key) => [key, settings.get(MODULE_ID, key)]));
}
