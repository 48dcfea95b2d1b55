// The prompt dialog (dialog.js) against a stand-in of Foundry's DialogV2 with the v12/v13
// surface it uses: `new DialogV2(configuration)`, `render({force})`, `close()`, the
// `close` event (ApplicationV2 emits "render", "close", "position") and `element`.
// DialogV2's configuration has `window`, `content`, `buttons`, `modal`...; `rejectClose`
// belongs to `wait()`/`prompt()`/`confirm()` only (foundry-vtt-types dialog.d.mts
// WaitOptions), so a configuration carrying it would be relying on an ignored key.

import assert from "node:assert/strict";
import { after, test } from "node:test";

import { showPrompt } from "../src/dialog.js";
import { promptModel } from "../src/prompts.js";
import "./i18n.js"; // the module in English (lang/en.json)

/** DialogV2.Configuration's keys the constructor reads (ApplicationV2's and DialogV2's own). */
const CONFIGURATION = new Set(["id", "classes", "tag", "window", "actions", "form", "position", "buttons", "content", "modal"]);

class DialogV2 extends EventTarget {
  static made = [];
  constructor(options) {
    super();
    this.options = options;
    this.rendered = false;
    this.element = { querySelector: (sel) => (sel === ".vtt-bridge-countdown" ? this.countdown : null) };
    this.countdown = { textContent: "" };
    DialogV2.made.push(this);
  }
  async render({ force }) {
    this.rendered = force;
    return this;
  }
  async close() {
    this.dispatchEvent(new Event("close"));
  }
  /** A click on a button: Foundry calls its callback, then closes the dialog. */
  async click(action) {
    await this.options.buttons.find((b) => b.action === action).callback(new Event("click"), {}, this);
    await this.close();
  }
}
globalThis.foundry = { applications: { api: { DialogV2 } } };
after(() => delete globalThis.foundry);

const model = () => promptModel(
  { prompt: "p1", kind: "attack_of_opportunity", attacker: "ogre", target: "hero", at: [4, 5], localDeadlineMs: performance.now() + 9_000 },
  (id) => ({ ogre: "Ogre", hero: "Hero <b>" })[id],
  // The game's words (the bridge's description), names filled in as this user sees them.
  { question: "Ogre may attack Hero <b>, who is leaving its reach", accept: "Attack", decline: "Let it go", expired: "they pass unattacked" },
);

test("the dialog: only configuration keys, escaped words, a countdown, two answers", async () => {
  const calls = [];
  const handle = showPrompt(model(), (accept) => calls.push(["answer", accept]), () => calls.push(["dismissed"]));
  const dialog = DialogV2.made.at(-1);
  assert.deepEqual(Object.keys(dialog.options).filter((k) => !CONFIGURATION.has(k)), []);
  assert.equal(dialog.rendered, true);
  assert.equal(dialog.options.window.title, "vtt-bridge: Attack of opportunity");
  assert.match(dialog.options.content, /<p>Ogre may attack Hero &lt;b&gt;, who is leaving its reach<\/p>/);
  assert.match(dialog.options.content, /<p class="vtt-bridge-expired">If nobody answers in time: they pass unattacked\.<\/p>/);
  assert.match(dialog.options.content, /<p class="vtt-bridge-countdown">9 s<\/p>/);
  assert.deepEqual(dialog.options.buttons.map((b) => [b.action, b.label]), [["accept", "Attack"], ["decline", "Let it go"]]);
  await dialog.click("decline");
  assert.deepEqual(calls, [["answer", false]]); // answered: not also "dismissed"
  handle.close();
});

test("closed without an answer: the desk is told, so the bell can bring it back", async () => {
  const calls = [];
  showPrompt(model(), (accept) => calls.push(["answer", accept]), () => calls.push(["dismissed"]));
  await DialogV2.made.at(-1).close();
  assert.deepEqual(calls, [["dismissed"]]);
});
