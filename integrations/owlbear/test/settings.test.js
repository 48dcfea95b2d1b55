// Join tokens stay in the player's own storage: per room, checked, never in metadata.

import assert from "node:assert/strict";
import { test } from "node:test";

import { clearSettings, loadSettings, saveSettings, settingsKey, settingsProblem } from "../src/settings.js";

/** A Storage (the Web Storage API's localStorage) over a Map. */
class MemoryStorage {
  constructor() {
    /** @type {Map<string, string>} */
    this.map = new Map();
  }
  getItem(/** @type {string} */ k) {
    return this.map.has(k) ? /** @type {string} */ (this.map.get(k)) : null;
  }
  setItem(/** @type {string} */ k, /** @type {string} */ v) {
    this.map.set(k, String(v));
  }
  removeItem(/** @type {string} */ k) {
    this.map.delete(k);
  }
}

test("saved per room, read back, forgotten", () => {
  const storage = new MemoryStorage();
  assert.equal(loadSettings(storage, "room-a"), null);
  saveSettings(storage, "room-a", { url: " wss://bridge.example.org/ws ", token: " tok-a ", binary: true });
  saveSettings(storage, "room-b", { url: "ws://127.0.0.1:8080/ws", token: "tok-b", binary: false });
  assert.deepEqual(loadSettings(storage, "room-a"), { url: "wss://bridge.example.org/ws", token: "tok-a", binary: true });
  assert.deepEqual(loadSettings(storage, "room-b"), { url: "ws://127.0.0.1:8080/ws", token: "tok-b", binary: false });
  assert.deepEqual([...storage.map.keys()], [settingsKey("room-a"), settingsKey("room-b")]);
  clearSettings(storage, "room-a");
  assert.equal(loadSettings(storage, "room-a"), null);
});

test("bad settings are refused before anything is stored; unreadable ones are ignored", () => {
  const storage = new MemoryStorage();
  assert.throws(() => saveSettings(storage, "r", { url: "https://bridge.example.org", token: "t", binary: false }), /ws:\/\/ or wss:\/\//);
  assert.throws(() => saveSettings(storage, "r", { url: "not a url", token: "t", binary: false }), /not a URL/);
  assert.throws(() => saveSettings(storage, "r", { url: "ws://h/ws", token: "  ", binary: false }), /token is empty/);
  assert.equal(storage.map.size, 0);
  assert.equal(settingsProblem({ url: "wss://h/ws", token: "t", binary: false }), null);
  storage.setItem(settingsKey("r"), "{not json");
  assert.equal(loadSettings(storage, "r"), null);
});
