// The module serves its own copy of the client library: it must be the current one.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { staleFiles } from "../scripts/copy-client.mjs";
import { RecordingHooks } from "./foundry-sim.js";

/** The module's folder. */
const MODULE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

test("lib/client is clients/js's src and vendor, byte for byte", () => {
  assert.deepEqual(staleFiles(), [], "run node integrations/foundry/scripts/copy-client.mjs");
});

test("module.json: id, v12 minimum, v13 verified and maximum, its entry point and language exist", () => {
  const manifest = JSON.parse(readFileSync(path.join(MODULE, "module.json"), "utf8"));
  assert.equal(manifest.id, "vtt-bridge");
  // Maximum 13: v14's movement API grew (levels), so v14 must not enable an unchecked module.
  assert.deepEqual(manifest.compatibility, { minimum: "12", verified: "13", maximum: "13" });
  for (const file of [...manifest.esmodules, ...manifest.languages.map((l) => l.path)]) {
    assert.ok(existsSync(path.join(MODULE, file)), file);
  }
  // Every i18n key the settings name is in the language file.
  const lang = JSON.parse(readFileSync(path.join(MODULE, manifest.languages[0].path), "utf8"));
  const source = readFileSync(path.join(MODULE, "src", "settings.js"), "utf8");
  for (const [key] of source.matchAll(/VTTBRIDGE\.[A-Za-z.]+/g)) assert.ok(key in lang, key);
});

test("the entry point loads (its imports resolve) and waits for init, ready and Quench", async () => {
  const hooks = new RecordingHooks();
  globalThis.Hooks = hooks;
  try {
    await import("../src/main.js");
  } finally {
    delete globalThis.Hooks;
  }
  assert.deepEqual(["init", "i18nInit", "ready", "quenchReady"].map((n) => hooks.count(n)), [1, 1, 1, 1]);
  // The token controls' tools are registered before init, so the first build has them.
  assert.equal(hooks.count("getSceneControlButtons"), 1);
});
