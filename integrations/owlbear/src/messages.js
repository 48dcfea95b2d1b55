// What the background page and the popover say to each other, over OBR.broadcast with
// destination "LOCAL" (SDK 3.1.0 api/BroadcastApi.d.ts: this player's own iframes only;
// nothing leaves the browser).

import { actionWord, clockLabel } from "../../../clients/js/src/table.js";
import { kindLabel } from "../../../clients/js/src/words.js";

export { kindLabel };

/** Background -> popover: the table as the popover shows it (tableSummary). */
export const STATE_CHANNEL = "com.vtt-bridge/state";
/** Popover -> background: `{op, ...}` (adapter.js `command`). */
export const COMMAND_CHANNEL = "com.vtt-bridge/command";
/** The popover the background opens for a prompt (OBR.popover ids are namespaced too). */
export const PROMPT_POPOVER_ID = "com.vtt-bridge/prompt";
/** How many of the latest events the popover's log shows. */
export const LOG_LINES = 12;

/**
 * What the popover needs of the table: connection, who I am, the order with names, the
 * current actor, the fight's moment and the word for ending an action in its game's
 * words (the bridge's: "Round 2" and "Turn", "Turn 1, Phase 3" and "Phase"), and the
 * prompts I answer with the time left to answer, in their game's words, and the
 * prompts someone else answers (`waiting`: whom the fight waits on, and for how long).
 * Names only, so nothing beyond what the bridge told this participant is shown.
 *
 * No game is named here: the rulesets the GM may start come from the bridge
 * (`client.rulesets`, name and title), a prompt's question and answer labels from the
 * fight's ruleset description (`client.promptWords`), the log's lines from its event
 * templates (`client.describeEvent`), so a ruleset added on the bridge shows with no
 * edit to the extension. An event whose words have not arrived yet is left out of the
 * log until they do (the adapter publishes again on the client's `ruleset` callback).
 *
 * The time left is `remainingMs` as of `nowMs`: the popover is another page, whose
 * monotonic clock has another origin, so it counts down from its own receipt of the
 * summary (never from the bridge's `deadlineMs` against a computer clock that may be off).
 * @param {import("../../../clients/js/src/client.js").BridgeClient} client
 * @param {{error?: string | null, bypass?: boolean, events?: Array<{kind: string, data: any}>}} [extra]
 *   `events`: the latest events, oldest first (the log)
 * @param {number} [nowMs] a `performance.now()` reading of this page (default: now)
 */
export function tableSummary(client, extra = {}, nowMs = performance.now()) {
  const view = client.view;
  const name = (/** @type {string} */ id) => view.tokens[id]?.name || id;
  const combat = view.combat;
  const me = client.welcome?.participant ?? null;
  return {
    status: client.status,
    participant: me,
    role: client.welcome?.role ?? null,
    scene: view.scene !== null,
    rulesets: client.rulesets.map((/** @type {{name: string, title: string}} */ r) => ({ name: r.name, title: r.title })),
    combat: combat && {
      ruleset: combat.ruleset,
      clock: clockLabel(combat),
      action: actionWord(combat),
      actor: combat.actor,
      order: combat.order.map((/** @type {string} */ id) => ({
        id,
        name: name(id),
        acting: id === combat.actor,
        mine: view.tokens[id]?.owner === me,
      })),
      paused: Object.keys(view.prompts).length > 0,
    },
    prompts: client.myPrompts().map((p) => ({
      prompt: p.prompt,
      kind: p.kind,
      attacker: name(p.attacker),
      target: name(p.target),
      words: client.promptWords(p, name),
      remainingMs: p.localDeadlineMs == null ? null : Math.max(0, p.localDeadlineMs - nowMs),
    })),
    waiting: client.waitingPrompts().map((p) => ({
      prompt: p.prompt,
      kind: p.kind,
      controller: p.controller,
      question: client.promptWords(p, name)?.question ?? null,
      remainingMs: p.localDeadlineMs == null ? null : Math.max(0, p.localDeadlineMs - nowMs),
    })),
    log: (extra.events ?? [])
      .map((event) => client.describeEvent(event, undefined, name))
      .filter((line) => line !== null)
      .slice(-LOG_LINES),
    error: extra.error ?? null,
    bypass: Boolean(extra.bypass),
  };
}

/**
 * Seconds left before the bridge takes the default answer: a summary's `remainingMs`,
 * `sinceMs` after the summary arrived (null: no deadline known).
 */
export function secondsLeft(/** @type {number | null} */ remainingMs, /** @type {number} */ sinceMs) {
  if (remainingMs === null || remainingMs === undefined) return null;
  return Math.max(0, Math.ceil((remainingMs - sinceMs) / 1000));
}
