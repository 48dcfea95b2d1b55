// Prompts for this user (an attack of opportunity its token may take, a readied action
// firing, ...) as dialogs with their deadline.
//
// The countdown runs on this browser's monotonic clock (`performance.now()`), from the
// client library's `localDeadlineMs`: the prompt message's arrival plus the time the
// bridge said was left. Never from the bridge's `deadlineMs` against `Date.now()`: a
// player's computer clock a minute fast would see every prompt expired.
//
// A prompt is never only a chat message that scrolls away: it stays in `pending` until
// the bridge closes it (answered, or its deadline passed); a dialog closed without an
// answer can be opened again (the token controls' button, or `reopen()`), and a reconnect
// brings the bridge's open prompts back. Who may answer is the bridge's to say: the
// client library hands over only the prompts this participant controls, so a player
// never sees the GM's (a GM's `continue_after_hit`, say).

/** What each prompt kind asks, and its two answers. */
export const PROMPT_KINDS = Object.freeze({
  attack_of_opportunity: { title: "Attack of opportunity", accept: "Attack", decline: "Let it go" },
  readied_action: { title: "Readied action", accept: "Act now", decline: "Keep it for later" },
  delayed_action: { title: "Delayed action", accept: "Act now", decline: "Keep waiting" },
  continue_after_hit: { title: "After the hit", accept: "The move goes on", decline: "The move stops" },
});

/**
 * The dialog's content for a prompt.
 * @param {{prompt: string, kind: string, attacker: string, target: string, at: [number, number], localDeadlineMs: number | null}} prompt
 * @param {(tokenId: string) => string} nameOf a token's name as this user may see it
 */
export function promptModel(prompt, nameOf) {
  const words = PROMPT_KINDS[prompt.kind] ?? { title: prompt.kind, accept: "Yes", decline: "No" };
  const attacker = nameOf(prompt.attacker);
  const target = nameOf(prompt.target);
  const texts = {
    attack_of_opportunity: `${target} leaves ${attacker}'s reach. Does ${attacker} strike?`,
    readied_action: `${target} sets off ${attacker}'s readied action. Take it now?`,
    delayed_action: `Everyone else has acted. Does ${attacker} act now?`,
    continue_after_hit: `${target} was hit while moving. Can ${target} go on?`,
  };
  return {
    id: prompt.prompt,
    title: words.title,
    text: texts[prompt.kind] ?? `${attacker} / ${target}`,
    accept: words.accept,
    decline: words.decline,
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
  return `${Math.max(0, Math.ceil((localDeadlineMs - now) / 1000))} s`;
}

/**
 * @typedef {object} DeskIO
 * @property {(id: string, accept: boolean) => Promise<any>} answer
 * @property {(model: ReturnType<typeof promptModel>, answer: (accept: boolean) => void, dismissed: () => void) => {close: () => void}} show
 *   open a dialog; it calls `answer` on a button, `dismissed` when closed without one
 * @property {(level: "info" | "warn" | "error", text: string) => void} notify
 * @property {(tokenId: string) => string} nameOf
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
    this.open.set(prompt.prompt, { model: promptModel(prompt, this.io.nameOf), dialog: null, answered: false });
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
        this.io.notify("warn", `The answer was refused: ${err.message ?? err}`);
      }
    };
    const dismissed = () => {
      if (entry.answered || !this.open.has(id)) return;
      entry.dialog = null;
      this.io.notify("warn", `${entry.model.title}: still waiting for your answer (open it again from the token controls).`);
    };
    entry.dialog = this.io.show(entry.model, answer, dismissed);
  }
}
