// The module's settings and keybinding, registered at `init`.
//
// The bridge URL and the join token are client settings: Foundry keeps them in this
// browser only, while world settings are sent to every connected user, and a join
// token is one person's key to the table. The ruleset is the world's (the GM's) choice.
//
// The module names no ruleset: which games there are is the bridge's to say (its
// `rulesets` message, `client.rulesets`), and settings are registered at `init`, before
// any connection. So the ruleset is a text setting (a ruleset's name on the bridge), and
// once connected the module gives it the bridge's list as its choices (`offerRulesets`):
// Configure Settings then shows a drop-down of the games by title. Starting a fight
// checks the setting against the bridge's list (`chooseRuleset`) and, when it names none
// of them, tells the GM which there are instead of sending it.

import { t } from "./i18n.js";
import { MODULE_ID } from "./scene.js";

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
    default: "",
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

/**
 * Give the ruleset setting the bridge's rulesets as its choices (name -> title), so
 * Configure Settings shows them as a drop-down; a value the list lacks is kept as a
 * choice too (shown as its name), so opening the form never changes it silently.
 * @param {Map<string, any>} registered `game.settings.settings` (key "module.setting")
 * @param {Array<{name: string, title: string}>} rulesets `client.rulesets`
 * @param {string} current the setting's value
 */
export function offerRulesets(registered, rulesets, current) {
  const config = registered.get(`${MODULE_ID}.ruleset`);
  if (!config || !rulesets.length) return;
  const choices = Object.fromEntries(rulesets.map((r) => [r.name, r.title]));
  if (current && !(current in choices)) choices[current] = current;
  config.choices = choices;
}

/**
 * The ruleset a fight starts with: the setting when the bridge plays it, the bridge's
 * only one when the setting is empty; else `{error}`, a text for the GM naming the
 * games the bridge plays.
 * @param {string} setting the world's ruleset setting
 * @param {Array<{name: string, title: string}>} rulesets `client.rulesets`
 * @returns {{name: string} | {error: string}}
 */
export function chooseRuleset(setting, rulesets) {
  if (rulesets.some((r) => r.name === setting)) return { name: setting };
  if (!setting && rulesets.length === 1) return { name: rulesets[0].name };
  const list = rulesets.map((r) => `${r.title} (${r.name})`).join(", ");
  return setting
    ? { error: t("VTTBRIDGE.Notify.unknownRuleset", { ruleset: setting, rulesets: list }) }
    : { error: t("VTTBRIDGE.Notify.chooseRuleset", { rulesets: list }) };
}

/** The settings' current values. */
export function readSettings(settings) {
  return Object.fromEntries(Object.keys(SETTINGS).map((key) => [key, settings.get(MODULE_ID, key)]));
}
