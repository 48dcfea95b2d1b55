// What the background page and the popover say to each other, over OBR.broadcast with
// destination "LOCAL" (SDK 3.1.0 api/BroadcastApi.d.ts: this player's own iframes only;
// nothing leaves the browser).

import { actionWord, clockLabel } from "../../../clients/js/src/table.js";

/** Background -> popover: the table as the popover shows it (tableSummary). */
export const STATE_CHANNEL = "com.vtt-bridge/state";
/** Popover -> background: `{op, ...}` (adapter.js `command`). */
export const COMMAND_CHANNEL = "com.vtt-bridge/command";
/** The popover the background opens for a prompt (OBR.popover ids are namespaced too). */
export const PROMPT_POPOVER_ID = "com.vtt-bridge/prompt";
/** The rulesets the GM may start a fight with (engine/rulesets). */
export const RULESETS = ["hero-supplement", "cyberpunk-red", "mm3e"];

/**
 * What the popover needs of the table: connection, who I am, the order with names, the
 * current actor, the fight's moment and the word for ending an action in its game's
 * words (the bridge's: "Round 2" and "Turn", "Turn 1, Phase 3" and "Phase"), and the
 * prompts I answer with the time left to answer.
 * Names only, so nothing beyond what the bridge told this participant is shown.
 *
 * The time left is `remainingMs` as of `nowMs`: the popover is another page, whose
 * monotonic clock has another origin, so it counts down from its own receipt of the
 * summary (never from the bridge's `deadlineMs` against a computer clock that may be off).
 * @param {{status: string, welcome: any, view: any, myPrompts(): any[]}} client
 * @param {{error?: string | null, bypass?: boolean}} [extra]
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
      remainingMs: p.localDeadlineMs == null ? null : Math.max(0, p.localDeadlineMs - nowMs),
    })),
    error: extra.error ?? null,
    bypass: Boolean(extra.bypass),
  };
}

/** "attack_of_opportunity" -> "Attack of opportunity". */
export function kindLabel(/** @type {string} */ kind) {
  const text = kind.replaceAll("_", " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Seconds left before the bridge takes the default answer: a summary's `remainingMs`,
 * `sinceMs` after the summary arrived (null: no deadline known).
 */
export function secondsLeft(/** @type {number | null} */ remainingMs, /** @type {number} */ sinceMs) {
  if (remainingMs === null || remainingMs === undefined) return null;
  return Math.max(0, Math.ceil((remainingMs - sinceMs) / 1000));
}
