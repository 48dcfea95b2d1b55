// Prompts as dialogs: shown once, closed when the bridge closes them, never lost.

import assert from "node:assert/strict";
import { test } from "node:test";

import { PromptDesk, countdown, promptModel } from "../src/prompts.js";
import "./i18n.js"; // the module in English (lang/en.json)

const names = { ogre: "Ogre", hero: "Hero" };
const prompt = (id, kind = "attack_of_opportunity") => ({
  prompt: id, kind, controller: "gm", attacker: "ogre", target: "hero", at: [4, 5], exitPoint: [3.5, 5.5], deadlineMs: 1_796_037_047_466, localDeadlineMs: 10_000,
});

function desk({ refuse = false } = {}) {
  const log = [];
  const dialogs = [];
  const d = new PromptDesk({
    answer: async (id, accept) => {
      log.push(["answer", id, accept]);
      if (refuse) throw new Error("prompt_closed");
    },
    show: (model, answer, dismissed) => {
      const dialog = { model, answer, dismissed, open: true, close() { this.open = false; } };
      dialogs.push(dialog);
      return dialog;
    },
    notify: (level, text) => log.push(["notify", level, text]),
    nameOf: (id) => names[id] ?? "someone",
  });
  return { d, log, dialogs };
}

test("the dialog: the game's question and answers, the time left", () => {
  const words = { question: "Ogre may attack Hero", accept: "Attack", decline: "Let them pass", expired: "they pass unattacked" };
  const m = promptModel(prompt("p1"), (id) => names[id], words);
  assert.deepEqual(m, { id: "p1", kind: "attack_of_opportunity", title: "Attack of opportunity", text: "Ogre may attack Hero",
    accept: "Attack", decline: "Let them pass", expired: "If nobody answers in time: they pass unattacked.", localDeadlineMs: 10_000 });
  // No words from the bridge yet: the module's plain ones, with the names it may show.
  assert.deepEqual(promptModel(prompt("p2", "some_new_kind"), (id) => names[id]),
    { id: "p2", kind: "some_new_kind", title: "Some new kind", text: "Ogre may act against Hero.", accept: "Yes", decline: "No", expired: "", localDeadlineMs: 10_000 });
  assert.equal(countdown(10_000, 7_500), "3 s");
  assert.equal(countdown(10_000, 12_000), "0 s");
  assert.equal(countdown(null, 0), "");
  assert.equal(countdown(performance.now() + 4_500), "5 s"); // from now on the monotonic clock
});

test("answered: the bridge is told, the dialog goes when the prompt closes", async () => {
  const { d, log, dialogs } = desk();
  d.prompt(prompt("p1"));
  d.prompt(prompt("p1")); // sent again after a reconnect: still one dialog
  assert.equal(dialogs.length, 1);
  await dialogs[0].answer(true);
  assert.deepEqual(log, [["answer", "p1", true]]);
  d.closed("p1");
  assert.deepEqual(d.pending(), []);
});

test("dismissed without an answer: kept, said so, shown again on demand or on resend", () => {
  const { d, log, dialogs } = desk();
  d.prompt(prompt("p1"));
  dialogs[0].open = false;
  dialogs[0].dismissed();
  assert.equal(d.pending().length, 1);
  assert.equal(log[0][1], "warn");
  d.reopen();
  assert.equal(dialogs.length, 2);
  dialogs[1].dismissed();
  d.prompt(prompt("p1")); // the bridge sent it again (reconnect)
  assert.equal(dialogs.length, 3);
  // Expired: the bridge closes it, the dialog shuts.
  d.closed("p1");
  assert.equal(dialogs[2].open, false);
  dialogs[2].dismissed(); // its close event: not a dismissal any more
  assert.equal(log.filter((l) => l[0] === "notify").length, 2);
});

test("a refused answer keeps the prompt open to answer again", async () => {
  const { d, log, dialogs } = desk({ refuse: true });
  d.prompt(prompt("p1"));
  await dialogs[0].answer(false);
  assert.deepEqual(log.map((l) => l[0]), ["answer", "notify"]);
  d.reopen();
  assert.equal(dialogs.length, 2);
});
