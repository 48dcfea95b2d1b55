// The player's own settings: the bridge's address and this player's join token, kept in
// the browser's localStorage under the extension's origin, one entry per Owlbear room.
//
// Never in Owlbear's room, scene, item or player metadata: all of those are synced to
// every player in the room (OBR.player.getMetadata is readable by the others through
// OBR.party), and a join token lets whoever holds it act as that participant.
// Browsers that partition third-party storage keep it per top-level site as well, which
// still makes it this player's, on this browser.

/** @typedef {{url: string, token: string, binary: boolean}} Settings */

const PREFIX = "com.vtt-bridge/settings/";

/** The storage key for `roomId`'s settings. */
export function settingsKey(/** @type {string} */ roomId) {
  return `${PREFIX}${roomId}`;
}

/**
 * This player's settings for `roomId`, or null when none are saved (or they are unreadable).
 * @param {Pick<Storage, "getItem">} storage @param {string} roomId
 * @returns {Settings | null}
 */
export function loadSettings(storage, roomId) {
  const text = storage.getItem(settingsKey(roomId));
  if (!text) return null;
  try {
    const value = JSON.parse(text);
    if (typeof value?.url !== "string" || typeof value?.token !== "string") return null;
    return { url: value.url, token: value.token, binary: Boolean(value.binary) };
  } catch {
    return null;
  }
}

/** Why `settings` cannot be used, or null: a ws:// or wss:// URL and a token. */
export function settingsProblem(/** @type {Settings} */ settings) {
  let url;
  try {
    url = new URL(settings.url);
  } catch {
    return `"${settings.url}" is not a URL`;
  }
  if (url.protocol !== "ws:" && url.protocol !== "wss:") return "the bridge URL starts with ws:// or wss://";
  if (!settings.token.trim()) return "the join token is empty";
  return null;
}

/**
 * Save `settings` for `roomId`; throws on a problem (settingsProblem).
 * @param {Pick<Storage, "setItem">} storage @param {string} roomId @param {Settings} settings
 */
export function saveSettings(storage, roomId, settings) {
  const problem = settingsProblem(settings);
  if (problem) throw new TypeError(problem);
  const value = { url: settings.url.trim(), token: settings.token.trim(), binary: Boolean(settings.binary) };
  storage.setItem(settingsKey(roomId), JSON.stringify(value));
}

/** Forget `roomId`'s settings. */
export function clearSettings(/** @type {Pick<Storage, "removeItem">} */ storage, /** @type {string} */ roomId) {
  storage.removeItem(settingsKey(roomId));
}
