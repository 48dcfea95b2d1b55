// One readable line per event for the log.  Wording only: every figure is the event's.

/** @param {Record<string, (d: any) => string>} */
const LINES = {
  scene_loaded: (d) => `Scene loaded: ${d.scene.grid.width}x${d.scene.grid.height} ${d.scene.grid.kind}, ${d.scene.tokens.length} tokens`,
  combat_started: (d) => `Combat starts (${d.ruleset})${d.surprise ? `, with a ${d.time?.surprise ?? "surprise pass"}` : ""}`,
  dice_rolled: (d) => `${d.purpose}: ${d.sides > 0 ? `${d.results.length}d${d.sides}` : "dice"} [${d.results.join(", ")}] (${d.source})`,
  initiative_order: (d) => `Order: ${d.order.join(", ")}`,
  pass_started: (d) => d.clock.label,
  combatant_acts: (d) => `${d.combatant} acts${d.limited ? " (one action only)" : ""}, ${d.movement} movement`,
  combatant_done: (d) => `${d.combatant} is done`,
  combatant_skipped: (d) => `${d.combatant} is skipped (${d.reason})`,
  move_started: (d) => `${d.token} moves from ${d.start} along ${d.path.length} cells`,
  move_interrupted: (d) => `${d.token} stops at ${d.at}: leaving ${d.by}'s reach at (${d.exit_point.join(", ")})`,
  move_completed: (d) => `${d.token} arrives at ${d.at} (cost ${d.cost}, ${d.movement_left} left)`,
  move_stopped: (d) => `${d.token} stops at ${d.at}: ${d.reason}`,
  token_placed: (d) => `${d.token} placed at ${d.at}`,
  prompt_opened: (d) => `${d.controller} is asked: ${d.prompt_kind.replaceAll("_", " ")} (${d.attacker} on ${d.target})`,
  prompt_closed: (d) => `Prompt ${d.prompt} ${d.outcome}${d.by ? ` by ${d.by}` : ""}`,
  attack_rolled: (d) => `${d.attacker} attacks ${d.target}: ${d.total} vs ${d.target_number}, ${d.hit ? "HIT" : "miss"}`,
  door_changed: (d) => `Door ${d.wall} ${d.open ? "opened" : "closed"}`,
  hold_declared: (d) => `${d.combatant} ${d.hold === "delay" ? `delays${d.before ? ` (before ${d.before})` : ""}` : `readies ${d.action}`}`,
  hold_lapsed: (d) => `${d.combatant}'s ${d.hold} lapses`,
  delay_taken: (d) => `${d.combatant} takes its delayed action${d.before ? ` before ${d.before}` : ""}`,
  readied_action_taken: (d) => `${d.combatant}'s readied ${d.action} interrupts ${d.trigger_by}`,
  cpr_action_held: (d) => `${d.holder} holds ${d.action} until ${d.trigger.replaceAll("_", " ")}${d.token ? ` (${d.token})` : ""}${d.area.length ? ` in ${d.area.length} cells` : ""}`,
  cpr_held_fired: (d) => `${d.holder}'s held ${d.action} fires on ${d.by}${d.at ? ` at ${d.at}` : ""}`,
  cpr_held_lost: (d) => `${d.holder}'s held ${d.action} is lost (${d.reason})`,
  interjection_ended: (d) => `${d.combatant} finishes acting out of turn`,
  action_taken: (d) => `${d.combatant}: ${d.action.replaceAll("_", " ")}${d.detail ? ` (${d.detail})` : ""}`,
  aborted: (d) => `${d.combatant} aborts to ${d.maneuver} (DCV ${d.dcv})`,
  condition_changed: (d) => `${d.combatant} ${d.on ? "is now" : "is no longer"} ${d.condition}`,
  vitals_changed: (d) => `${d.combatant}: END ${d.end}, STUN ${d.stun}`,
  effect_started: (d) => `${d.name} begins${d.token ? ` on ${d.token}` : ""} (${d.source}${d.ends ? `, until ${d.ends.label}` : ""})`,
  effect_ended: (d) => `${d.name}${d.token ? ` on ${d.token}` : ""} ends (${d.reason})`,
  combatant_joined: (d) => `${d.combatant} joins the fight at ${d.score}`,
  combatant_left: (d) => `${d.combatant} leaves the fight${d.removed ? " and the scene" : ""}`,
  combat_ended: (d) => `Combat ends${d.reason ? `: ${d.reason}` : ""}`,
  recovered: (d) => `${d.combatant} recovers: END ${d.end[0]}→${d.end[1]}, STUN ${d.stun[0]}→${d.stun[1]}`,
};

/** @param {string} kind @param {Record<string, any>} data @returns {string} */
export function describe(kind, data) {
  const line = LINES[kind];
  if (line) {
    try {
      return line(data);
    } catch {
      /* an event shaped otherwise than expected: show it raw */
    }
  }
  return `${kind} ${JSON.stringify(data)}`;
}
