// Every word the module shows goes through Foundry's localisation (`game.i18n`, the
// strings of lang/en.json): `t(key)` is `game.i18n.localize`, `t(key, data)` is
// `game.i18n.format`, whose `{name}` placeholders take `data.name`.
//
// main.js hands over `game.i18n` at `i18nInit` (Foundry loads the language files
// after `init`); the Node tests hand over `dictionary(lang/en.json)`, which formats as
// Foundry's `Localization#format` does. Without either a key stands for itself, as it
// does in Foundry for a key no language file has.

/** @typedef {{localize: (key: string) => string, format: (key: string, data: Record<string, unknown>) => string}} I18n */

/** @type {I18n | null} */
let current = null;

/** Use `i18n` (Foundry's `game.i18n`, or `dictionary(...)`) for every string from now on. */
export function useI18n(/** @type {I18n | null} */ i18n) {
  current = i18n;
}

/**
 * The text of `key` in the user's language, its `{placeholders}` filled from `data`.
 * @param {string} key a key of lang/en.json
 * @param {Record<string, unknown>} [data]
 */
export function t(key, data) {
  if (!current) return key;
  return data === undefined ? current.localize(key) : current.format(key, data);
}

/**
 * An `I18n` over one language file's strings (flat keys, as lang/en.json has them).
 * `format` fills every `{name}` from `data`, as Foundry's `Localization#format`.
 * @param {Record<string, string>} strings
 * @returns {I18n}
 */
export function dictionary(strings) {
  const localize = (key) => (Object.hasOwn(strings, key) ? strings[key] : key);
  return {
    localize,
    format: (key, data) => localize(key).replace(/{[^}]+}/g, (k) => String(data[k.slice(1, -1)])),
  };
}
