// Every string the module shows is a lang/en.json key, used as Foundry formats it.

import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";

import { dictionary, t, useI18n } from "../src/i18n.js";
import { EN } from "./i18n.js";

const SRC = new URL("../src/", import.meta.url);
const sources = readdirSync(SRC).filter((f) => f.endsWith(".js")).map((f) => [f, readFileSync(new URL(f, SRC), "utf8")]);
/** Every "VTTBRIDGE.x.y" literal in src/ and module.json, with the file it is in. */
const used = sources.flatMap(([f, text]) => [...text.matchAll(/"(VTTBRIDGE\.[A-Za-z0-9_.]+)"/g)].map((m) => [f, m[1]]));
test("every key the code names is in lang/en.json, and every key there is used", () => {
  for (const [file, key] of used) assert.ok(key in EN, `${file}: ${key}`);
  const all = new Set(used.map(([, key]) => key));
  assert.deepEqual(Object.keys(EN).filter((key) => !all.has(key)), []);
});

test("no game's words are the module's: prompts and log lines come from the bridge", () => {
  // The module's strings are its own UI; a prompt kind's or an event kind's words are the
  // bridge's description of the ruleset (prompts.js, log.js), so none is keyed by kind.
  for (const kind of ["attack_of_opportunity", "readied_action", "delayed_action", "continue_after_hit"]) {
    assert.deepEqual(Object.keys(EN).filter((key) => key.includes(kind)), [], kind);
  }
});

test("no key is also another's prefix, so Foundry's nested or flat reading finds each", () => {
  const keys = Object.keys(EN);
  for (const a of keys) for (const b of keys) assert.ok(a === b || !b.startsWith(`${a}.`), `${a} / ${b}`);
});

test("no string is left in the code for the user to read", () => {
  // Texts reach the user through notify(...), ui.notifications, titles, labels and content:
  // each of those takes t(...) or a value, never a quoted or template text.
  for (const [file, text] of sources) {
    if (file === "quench.js") continue; // the test batch's own assertion messages, for developers
    for (const m of text.matchAll(/notify\(\s*"(?:info|warn|error)",\s*([`"'])/g)) assert.fail(`${file}: notify with a literal text at ${m.index}`);
    for (const m of text.matchAll(/(?:title|label|content|textContent):\s*(`[^`]*`|"[^"]*"|'[^']*')/g)) {
      // Keys are fine; so is markup around values (`<p>${...}</p>`): no words of its own.
      const words = m[1].slice(1, -1).replace(/^VTTBRIDGE\.[\w.]+$/, "").replace(/\$\{[^}]*\}/g, "").replace(/<[^>]*>/g, "");
      assert.ok(!/[A-Za-z]/.test(words), `${file}: literal text ${m[0]}`);
    }
  }
});

test("t: localize without data, format with it, the key itself without a language", () => {
  useI18n(dictionary({ "A.b": "Hello {name}, {n} left", "A.c": "plain" }));
  assert.equal(t("A.c"), "plain");
  assert.equal(t("A.b", { name: "Ogre", n: 3 }), "Hello Ogre, 3 left");
  assert.equal(t("A.missing"), "A.missing");
  useI18n(null);
  assert.equal(t("A.c"), "A.c");
  useI18n(dictionary(EN));
  assert.equal(t("VTTBRIDGE.Prompt.seconds", { seconds: 4 }), "4 s");
  assert.equal(t("VTTBRIDGE.Prompt.other.text", { attacker: "Ogre", target: "Hero" }), "Ogre may act against Hero.");
});
