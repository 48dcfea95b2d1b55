// The Foundry combat tracker as a mirror of the bridge's fight: order, whose action it
// is, and the fight's moment in its game's words. The bridge decides; the tracker shows. Only the active GM writes
// (one writer, so two GMs never fight over the documents); every client reads.
//
// Foundry sorts `combat.turns` by initiative, highest first (Combat#_sortCombatants),
// so the bridge's order becomes initiatives: each combatant's score, nudged down by
// 0.01 where a tie (broken by the bridge's dice) would let Foundry pick another order.
// Combatants the bridge does not know keep no initiative and sort last.

import { outerCount } from "../lib/client/src/index.js";
import { MODULE_ID } from "./scene.js";

/**
 * Initiatives that make Foundry's sort give the bridge's order.
 * @param {string[]} order @param {Record<string, number>} scores
 * @returns {Map<string, number>} token id -> initiative
 */
export function initiatives(order, scores) {
  const out = new Map();
  let previous = Infinity;
  for (const id of order) {
    let value = Number(scores[id] ?? 0);
    if (value >= previous) value = Math.round((previous - 0.01) * 100) / 100;
    out.set(id, value);
    previous = value;
  }
  return out;
}

/** The fight's moment as the bridge labels it in its game's words ("Round 2",
 * "Turn 1, Phase 3", "Surprise Round"), or "". */
export function phaseLabel(combat) {
  return combat?.clock?.label ?? "";
}

/**
 * What the tracker must change to show the bridge's fight.
 * @param {any} fight the client's `view.combat`
 * @param {any | null} combat the scene's Foundry Combat (its `combatants`: tokenId, initiative), or null
 * @param {{sceneId: string, tokens: Map<string, {actorId: string | null}>}} scene
 *   the scene's id and its tokens (to create combatants for)
 * @returns {null | {create: boolean, add: any[], initiative: any[], update: Record<string, any>}}
 *   null: nothing to show; `create` a Combat first; `add` combatants to create;
 *   `initiative` updates by combatant id; `update` for the Combat (round, turn, flags)
 */
export function trackerPlan(fight, combat, scene) {
  if (!fight || !fight.order?.length) return null;
  const wanted = initiatives(fight.order, fight.scores ?? {});
  const byToken = new Map();
  for (const c of combat ? Array.from(combat.combatants?.contents ?? combat.combatants ?? []) : []) {
    byToken.set(c.tokenId, c);
  }
  const add = [];
  const initiative = [];
  for (const [tokenId, value] of wanted) {
    const existing = byToken.get(tokenId);
    if (!existing) {
      add.push({ tokenId, sceneId: scene.sceneId, actorId: scene.tokens.get(tokenId)?.actorId ?? null, initiative: value });
    } else if (existing.initiative !== value) {
      initiative.push({ _id: existing.id ?? existing._id, initiative: value });
    }
  }
  for (const [tokenId, c] of byToken) {
    if (!wanted.has(tokenId) && c.initiative !== null) initiative.push({ _id: c.id ?? c._id, initiative: null });
  }
  const turn = Math.max(0, fight.order.indexOf(fight.actor));
  // Foundry's round is the game's largest unit: a Cyberpunk RED or M&M Round, a Hero Turn.
  const round = outerCount(fight) ?? 1;
  const flags = { round, actor: fight.actor, label: phaseLabel(fight) };
  const update = {};
  if (!combat || combat.round !== round) update.round = round;
  if (!combat || combat.turn !== turn) update.turn = turn;
  const old = combat?.flags?.[MODULE_ID] ?? {};
  if (Object.entries(flags).some(([k, v]) => old[k] !== v)) update[`flags.${MODULE_ID}`] = flags;
  return { create: !combat, add, initiative, update };
}

/** Is this plan a no-op (the tracker already shows the fight)? */
export function planIsEmpty(plan) {
  return !plan || (!plan.create && !plan.add.length && !plan.initiative.length && !Object.keys(plan.update).length);
}
