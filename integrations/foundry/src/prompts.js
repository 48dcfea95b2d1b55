// Prompts for this user (an attack of opportunity its token may take, a readied action
// firing, ...) as dialogs with their deadline.
//
// The countdown runs on this browser's monotonic clock (`performance.now()`), from the
// client library's `localDeadlineMs`: the prompt message's arrival plus the time the
// bridge said was left. Never from the bridge's `deadlineMs` against `Date.now()`: a
// player's computer clock a minute fast would see every prompt expired.
//
// Everyone else sees the prompt waited on, with its countdown, in the combat tracker
// (`waitingLines`).
//
// A prompt is never only a chat message that scrolls away: it stays in `pending` until
// the bridge closes it (answered, or its deadline passed); a dialog closed without an
// answer can be opened again (the token controls' button, or `reopen()`), and a reconnect
// brings the bridge's open prompts back. Who may answer is the bridge's to say: the
// client library hands over only the prompts this participant controls, so a player
// never sees the GM's (a GM's `continue_after_hit`, say).

import { kindLabel } from "../lib/client/src/words.js";
import { t } from "./i18n.js";

/**
 * The dialog's content for a prompt. The question and its two answers are the game's
 * words, from the bridge's description of the fight's ruleset (`client.promptWords`), so
 * a ruleset added on the bridge asks its own questions with no edit here; the module's
 * own strings (the window, the countdown, the fallback while no description has
 * arrived) are lang/en.json's.
 * @param {{prompt: string, kind: string, attacker: string, target: string, at: [number, number], localDeadlineMs: number | null}} prompt
 * @param {(tokenId: string) => string} nameOf a token's name as this user may see it
 * @param {{question: string, accept: string, decline: string, expired: string} | null} [words]
 *   the description's words for it (null: not arrived, or a kind it does not word)
 */
export function promptModel(prompt, nameOf, words = null) {
  const names = { attacker: nameOf(prompt.attacker), target: nameOf(prompt.target) };
  return {
    id: prompt.prompt,
    kind: prompt.kind,
    title: kindLabel(prompt.kind),
    text: words ? words.question : t("VTTBRIDGE.Prompt.other.text", names),
    accept: words ? words.accept : t("VTTBRIDGE.Prompt.other.accept"),
    decline: words ? words.decline : t("VTTBRIDGE.Prompt.other.decline"),
    expired: words ? t("VTTBRIDGE.Prompt.expired", { expired: words.expired }) : "",
    localDeadlineMs: prompt.localDeadlineMs ?? null,
  };
}

/**
 * Seconds left before the bridge takes the default answer ("" when unknown).
 * @param {number | null | undefined} localDeadlineMs the prompt's deadline on this
 *   browser's monotonic clock (the client library's `PromptView.localDeadlineMs`)
 * @param {number} [now] a `performance.now()` reading (default: now)
 */
export function countdown(localDeadlineMs, now = performance.now()) {
  if (localDeadlineMs === null || localDeadlineMs === undefined) return "";
  return t("VTTBRIDGE.Prompt.seconds", { seconds: Math.max(0, Math.ceil((localDeadlineMs - now) / 1000)) });
}

/**
 * The open prompts someone else answers, one line each for the combat tracker ("Waiting
 * on the GM: Ogre may attack Hero, who is leaving its reach (12 s)"), so the mover and
 * everyone watching see whom the fight waits on and the countdown (the bridge's
 * `prompt_waiting`, kept by the client library as every prompt's `localDeadlineMs`).
 * @param {any[]} prompts the client's `waitingPrompts()`
 * @param {{nameOf: (tokenId: string) => string, wordsOf?: DeskIO["wordsOf"], userName: (participant: string) => string}} io
 * @param {number} [now] a `performance.now()` reading (default: now)
 * @returns {{prompt: string, text: string}[]}
 */
export function waitingLines(prompts, io, now = performance.now()) {
  return prompts.map((prompt) => {
    const question = promptModel(prompt, io.nameOf, io.wordsOf?.(prompt) ?? null).text;
    const seconds = countdown(prompt.localDeadlineMs, now);
    const data = { who: io.userName(prompt.controller), question, seconds };
    return { prompt: prompt.prompt, text: t(seconds ? "VTTBRIDGE.Waiting.timed" : "VTTBRIDGE.Waiting.untimed", data) };
  });
}

/**
 * @typedef {object} DeskIO
 * @property {(id: string, accept: boolean) => Promise<any>} answer
 * @property {(model: ReturnType<typeof promptModel>, answer: (accept: boolean) => void, dismissed: () => void) => {close: () => void}} show
 *   open a dialog; it calls `answer` on a button, `dismissed` when closed without one
 * @property {(level: "info" | "warn" | "error", text: string) => void} notify
 * @property {(tokenId: string) => string} nameOf
 * @property {(prompt: any) => {question: string, accept: string, decline: string, expired: string} | null} [wordsOf]
 *   the game's words for a prompt (`client.promptWords(prompt, nameOf)`)
 */

/** The prompts waiting for this user, each shown in a dialog until the bridge closes it. */
export class PromptDesk {
  /** @param {DeskIO} io */
  constructor(io) {
    this.io = io;
    /** @type {Map<string, {model: any, dialog: {close: () => void} | null, answered: boolean}>} */
    this.open = new Map();
  }

  /** The prompts still waiting, oldest first. */
  pending() {
    return [...this.open.values()].map((e) => e.model);
  }

  /** A prompt for this user (the client's `prompt` callback, also after a reconnect). */
  prompt(prompt) {
    const known = this.open.get(prompt.prompt);
    if (known) {
      // Sent again (a reconnect): the client library keeps the earlier of the two readings.
      known.model.localDeadlineMs = prompt.localDeadlineMs ?? known.model.localDeadlineMs;
      if (!known.dialog && !known.answered) this._show(prompt.prompt);
      return;
    }
    const model = promptModel(prompt, this.io.nameOf, this.io.wordsOf?.(prompt) ?? null);
    this.open.set(prompt.prompt, { model, dialog: null, answered: false });
    this._show(prompt.prompt);
  }

  /** `prompt_closed`: answered (here or elsewhere) or expired; its dialog goes. */
  closed(id) {
    const entry = this.open.get(id);
    if (!entry) return;
    this.open.delete(id);
    entry.dialog?.close();
  }

  /** Show every waiting prompt whose dialog was closed without an answer. */
  reopen() {
    for (const [id, entry] of this.open) if (!entry.dialog && !entry.answered) this._show(id);
  }

  _show(id) {
    const entry = this.open.get(id);
    const answer = async (accept) => {
      entry.answered = true;
      entry.dialog = null;
      try {
        await this.io.answer(id, accept);
      } catch (err) {
        entry.answered = false;
        this.io.notify("warn", t("VTTBRIDGE.Notify.answerRefused", { error: err.message ?? err }));
      }
    };
    const dismissed = () => {
      if (entry.answered || !this.open.has(id)) return;
      entry.dialog = null;
      this.io.notify("warn", t("VTTBRIDGE.Notify.stillWaiting", { title: entry.model.title }));
    };
    entry.dialog = this.io.show(entry.model, answer, dismissed);
  }
}
