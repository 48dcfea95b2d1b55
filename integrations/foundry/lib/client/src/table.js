// The table as a client sees it, folded from what the bridge sends: the `state` message
// a fresh join gets, then every `event` in index order, and the `prompt` messages that
// carry deadlines (kept on this machine's monotonic clock: see applyPrompt).  Nothing
// here decides a rule: positions, turns and prompts are what the events say; the view
// only keeps the latest word on each.
//
// Two entry points, kept in step by a test that folds every recorded session both ways:
//   viewFromState(state, lastEvent, holds)  the bridge's full table state (`state` message)
//   applyEvent(view, index, kind, data, holds)  one event onto a view
// (`holds`: each ruleset's held actions as the bridge describes them, the one part of a
// game the view folds from its description).
// The view is a plain object (camelCase); a consumer may read it but should not change it.

/**
 * @typedef {[number, number]} Cell
 *
 * @typedef {object} TokenView
 * @property {string} id
 * @property {string} name
 * @property {string} owner participant controlling it
 * @property {string} side
 * @property {number} x cell column
 * @property {number} y cell row
 * @property {number} size cells a side (hex: 1, 3 or 7 hexes)
 * @property {number} reach in grid units
 * @property {number} movement in grid units
 * @property {Record<string, boolean | number | string>} stats
 *
 * @typedef {object} SceneView
 * @property {Record<string, any>} grid the scene's grid, as on the wire
 * @property {Array<Record<string, any>>} walls walls and doors, as on the wire (door states current)
 * @property {Array<Record<string, any>>} terrain terrain regions, as on the wire
 *
 * @typedef {object} HoldView a delayed, readied or held action, whatever the ruleset
 * @property {string} combatant who holds it
 * @property {string} kind the ruleset's word ("delay" or "ready" in Hero, "hold" for
 *   Cyberpunk RED's Hold Action), from its description
 * @property {string | null} before delay: act just before this combatant
 * @property {string | null} action the action readied or held
 * @property {string | null} trigger the ruleset's word for the moment it fires, when it has
 *   one (Cyberpunk RED: "after_turn", "enters", "in_sight"); null for Hero's
 * @property {string | null} triggerBy whose action (Hero), or which token (Cyberpunk RED:
 *   whose turn ending, who entering `area`, who coming into sight), sets it off; null: anyone
 * @property {Cell[]} area cells whose entering sets it off (empty: none)
 *
 * @typedef {object} EffectView a lasting effect (set_effect, or a ruleset's)
 * @property {string} effect its id (`e1`, ...), ended with endEffect()
 * @property {string} name
 * @property {string | null} token the combatant it is on (null: the whole scene)
 * @property {string} source who started it (`gm` or a combatant)
 *
 * @typedef {object} MoveView
 * @property {string} token
 * @property {Cell[]} path the whole path, start first
 *
 * @typedef {object} MoveExitView where a move left a threatened area (a `move_interrupted`)
 * @property {string} by the threatener
 * @property {Cell} at the cell the mover stood on
 * @property {[number, number]} point the exact point (scene units) where it crossed out
 *
 * @typedef {object} LastMoveView the latest move, kept until the next one starts
 * @property {string} token
 * @property {Cell[]} path the whole path, start first
 * @property {MoveExitView[]} exits every point where it left a threatened area, in order,
 *   whatever the prompt's answer (an attack declined or never answered leaves its mark)
 * @property {string} end "moving" (under way or paused), "completed" or "stopped"
 * @property {Cell} at where the token stands (its last reported cell)
 * @property {number | null} cost the whole move's cost, once completed
 *
 * @typedef {object} CombatView
 * @property {string} ruleset
 * @property {string[]} aware
 * @property {string[]} order initiative order, first to act first
 * @property {Record<string, number>} scores initiative scores
 * @property {ClockView | null} clock the fight's moment in its game's words, as the
 *   bridge sent it (`{at: {round: 2}, label: "Round 2"}`, `{at: {turn: 1, phase: 3},
 *   label: "Turn 1, Phase 3"}`); null until the first pass opens
 * @property {TimeWordsView | null} time the ruleset's units of time and its word for
 *   one combatant's action (null from a bridge that did not send them)
 * @property {boolean} surprise
 * @property {string | null} actor whose action it is now (an interjector, else the one up)
 * @property {string | null} regularActor whose INIT is up
 * @property {string | null} interjector a readied action firing out of turn, if any
 * @property {MoveView | null} moving the move under way (paused while a prompt is open)
 * @property {MoveView | null} suspendedMove a move an interjection interrupted
 * @property {Record<string, HoldView>} holds
 * @property {Record<string, string[]>} conditions
 * @property {Record<string, {end: number, stun: number}>} vitals known END and STUN
 * @property {Record<string, EffectView>} effects lasting effects under way, by id
 * @property {number | null} movementLeft the last figure the bridge reported for the actor
 *
 * @typedef {object} ClockView
 * @property {Record<string, number>} at each unit's count (keys: the ruleset's units)
 * @property {string} label the moment as the game's table says it
 *
 * @typedef {object} TimeWordsView
 * @property {{key: string, name: string, seconds: number, also: string[]}[]} units
 *   largest first (a Round; or a Turn, then its Phase)
 * @property {string} surprise what the game calls its surprise pass
 * @property {string} action one combatant's share of a pass ("Turn", "Phase")
 *
 * @typedef {object} PromptView
 * @property {string} prompt id, answered with answerPrompt()
 * @property {string} kind e.g. "attack_of_opportunity", "readied_action", "continue_after_hit"
 * @property {string} controller the participant who answers it
 * @property {string} attacker
 * @property {string} target
 * @property {Cell} at
 * @property {[number, number]} exitPoint
 * @property {number | null} deadlineMs server clock (ms since the epoch) when it expires;
 *   null until the bridge sent its `prompt` (to its controller) or `prompt_waiting` (to
 *   everyone else; a bridge before wire version 10 sends no one else a deadline)
 * @property {number | null} localDeadlineMs the same moment on this machine's monotonic
 *   clock (a `performance.now()` reading): the `prompt` message's receipt plus its
 *   `remaining_ms`, so a wrong wall clock here does not matter; null with `deadlineMs`
 *
 * @typedef {object} TableView
 * @property {number} lastEvent index of the last event folded (-1: none)
 * @property {SceneView | null} scene
 * @property {Record<string, TokenView>} tokens
 * @property {CombatView | null} combat
 * @property {Record<string, PromptView>} prompts
 * @property {LastMoveView | null} lastMove the latest move, from the events this view
 *   folded (a `state` message holds no history: a view built from one starts with the
 *   move under way, if any, and no exits)
 */

/** @returns {TableView} an empty table, before any state or event */
export function emptyView() {
  return { lastEvent: -1, scene: null, tokens: {}, combat: null, prompts: {}, lastMove: null };
}

/** @param {Array<[string, any]> | Record<string, any>} stats */
function statsMap(stats) {
  return Array.isArray(stats) ? Object.fromEntries(stats) : { ...stats };
}

/** @param {any} token @returns {TokenView} */
function tokenView(token) {
  const { id, name, owner, side, x, y, size, reach, movement } = token;
  // A flier's height (0, on the ground, is left out as the bridge leaves it out).
  const up = token.elevation ? { elevation: token.elevation } : {};
  return { id, name, owner, side, x, y, size, reach, movement, ...up, stats: statsMap(token.stats) };
}

/** @param {TableView} view @param {any} scene */
function loadScene(view, scene) {
  view.scene = {
    grid: structuredClone(scene.grid),
    walls: structuredClone(scene.walls ?? []),
    terrain: structuredClone(scene.terrain ?? []),
  };
  view.tokens = Object.fromEntries(scene.tokens.map((/** @type {any} */ t) => [t.id, tokenView(t)]));
}

/** @param {any} move @returns {MoveView | null} */
function moveView(move) {
  return move ? { token: move.token, path: move.path.map((/** @type {Cell} */ c) => [c[0], c[1]]) } : null;
}

/** @param {Cell[] | undefined} cells @returns {Cell[]} */
const cellList = (cells) => (cells ?? []).map((c) => [c[0], c[1]]);

/**
 * @typedef {object} HoldFields where each part of a held action is in one record of it
 *   (an event's data, or an entry of the state's list): a field, a dotted path
 *   (`trigger.area`), or null where the record has none
 * @property {string} holder
 * @property {string | null} kind
 * @property {string | null} before
 * @property {string | null} action
 * @property {string | null} trigger
 * @property {string | null} trigger_by
 * @property {string | null} area
 *
 * @typedef {object} HoldsDescription how a ruleset's held actions are followed, as the
 *   bridge describes them (`holds` of each `rulesets` entry, and of `ruleset`)
 * @property {string} declared the event kind that declares one (its parts: `event`)
 * @property {string | null} fired the event kind whose holder acts now, out of turn
 * @property {string[]} dropped the event kinds that end one otherwise
 * @property {HoldFields} event
 * @property {string} listed the path in a state's `combat` of the holds under way
 * @property {HoldFields} entry the parts of each listed entry
 * @property {string | null} kind the word for a hold whose records name no kind
 *
 * @typedef {Record<string, HoldsDescription | null | undefined>} HoldsByRuleset each
 *   ruleset's `holds`, by ruleset name (the client keeps it from the bridge's `rulesets`)
 */

/** The value at dotted `path` in `record` (undefined: not there). @param {any} record @param {string | null} path */
function at(record, path) {
  if (path == null) return undefined;
  let value = record;
  for (const key of path.split(".")) value = value !== null && typeof value === "object" ? value[key] : undefined;
  return value;
}

/**
 * A ruleset's hold record (an event's data, or an entry of the state's list) as the
 * HoldView every ruleset shares, read where its description says each part is: held
 * actions are the one thing each ruleset names in its own words, and the bridge's
 * description says which (no client names a ruleset).
 * @param {HoldsDescription} holds @param {HoldFields} fields @param {any} record
 * @returns {HoldView}
 */
function holdView(holds, fields, record) {
  return {
    combatant: at(record, fields.holder),
    kind: at(record, fields.kind) ?? holds.kind ?? null,
    before: at(record, fields.before) ?? null,
    action: at(record, fields.action) ?? null,
    trigger: at(record, fields.trigger) ?? null,
    triggerBy: at(record, fields.trigger_by) ?? null,
    area: cellList(at(record, fields.area)),
  };
}

/** The holds a state's `combat` lists, by holder. @param {HoldsDescription | null | undefined} holds @param {any} combat
 * @returns {Record<string, HoldView>} */
function holdsOf(holds, combat) {
  if (!holds) return {}; // a ruleset without held actions (M&M 3e), or not described yet
  const listed = at(combat, holds.listed) ?? [];
  return Object.fromEntries(listed.map((h) => holdView(holds, holds.entry, h)).map((h) => [h.combatant, h]));
}

/**
 * How a ruleset's hold event changes the view, if `kind` is one: declared adds the
 * hold, fired makes its holder act now (the move under way waits), dropped removes it.
 * Shapes only: when a hold fires is the bridge's to say, and these events say it.
 * @param {HoldsDescription | null | undefined} holds @param {string} kind
 * @returns {((view: TableView, data: any) => void) | undefined}
 */
function holdFold(holds, kind) {
  if (!holds) return undefined;
  const holder = (/** @type {any} */ d) => at(d, holds.event.holder);
  if (kind === holds.declared) {
    return (view, d) => {
      const hold = holdView(holds, holds.event, d);
      combatOf(view, kind).holds[hold.combatant] = hold;
    };
  }
  if (kind === holds.fired) return (view, d) => interject(combatOf(view, kind), holder(d));
  if (holds.dropped.includes(kind)) {
    return (view, d) => {
      delete combatOf(view, kind).holds[holder(d)];
    };
  }
  return undefined;
}

/** @param {string} id @param {any} effect @returns {EffectView} */
function effectView(id, effect) {
  return { effect: id, name: effect.name, token: effect.token ?? null, source: effect.source };
}

/**
 * The view of the bridge's full table state (the body of a `state` message).
 * @param {Record<string, any>} state
 * @param {number} lastEvent the index the state stands at
 * @param {HoldsByRuleset} [holds] each ruleset's held actions, as the bridge describes
 *   them (without: no holds are shown)
 * @returns {TableView}
 */
export function viewFromState(state, lastEvent, holds = {}) {
  const view = emptyView();
  view.lastEvent = lastEvent;
  if (state.scene) loadScene(view, state.scene);
  const combat = state.combat;
  if (!combat) return view;
  const interjection = combat.interjection;
  const rules = combat.rules ?? {};
  const regularActor = combat.order[combat.acting] ?? null;
  view.combat = {
    ruleset: combat.ruleset,
    aware: [...combat.aware],
    order: [...combat.order],
    scores: Object.fromEntries(combat.scores),
    clock: combat.clock ?? null,
    time: combat.time ?? null,
    surprise: combat.phase === 0,
    actor: interjection ? interjection.combatant : regularActor,
    regularActor,
    interjector: interjection ? interjection.combatant : null,
    moving: moveView(combat.pending_move),
    suspendedMove: moveView(interjection?.suspended),
    // Per-ruleset state sits under `combat.rules` since the ruleset seam; a ruleset
    // without vitals (or an older state with them at the top) folds too.  Its holds are
    // where its description says it lists them.
    holds: holdsOf(holds[combat.ruleset], combat),
    conditions: Object.fromEntries((combat.conditions ?? []).map((/** @type {[string, string[]]} */ [id, c]) => [id, [...c]])),
    vitals: Object.fromEntries((rules.vitals ?? combat.vitals ?? []).map((/** @type {any} */ v) => [v.combatant, { end: v.end, stun: v.stun }])),
    effects: Object.fromEntries((combat.effects ?? []).map((/** @type {any} */ e) => [e.id, effectView(e.id, e)])),
    movementLeft: null,
  };
  for (const p of combat.prompts) view.prompts[p.id] = promptView(p.id, p.kind, p.controller, p, null, null);
  // The move under way (an interjector's own, else the one it suspended), with the exits
  // its open prompts name: all the state says of moves.
  const moving = view.combat.moving ?? view.combat.suspendedMove;
  if (moving) {
    const token = view.tokens[moving.token];
    const exits = Object.values(view.prompts)
      .filter((p) => p.kind === "attack_of_opportunity" && p.target === moving.token)
      .map((p) => ({ by: p.attacker, at: p.at, point: p.exitPoint }));
    view.lastMove = {
      ...structuredClone(moving), exits, end: "moving", at: token ? [token.x, token.y] : moving.path[0], cost: null,
    };
  }
  return view;
}

/**
 * @param {string} id @param {string} kind @param {string} controller
 * @param {{attacker: string, target: string, at: Cell, exit_point: [number, number]}} p
 * @param {number | null} deadlineMs @param {number | null} localDeadlineMs
 * @returns {PromptView}
 */
function promptView(id, kind, controller, p, deadlineMs, localDeadlineMs) {
  return {
    prompt: id,
    kind,
    controller,
    attacker: p.attacker,
    target: p.target,
    at: [p.at[0], p.at[1]],
    exitPoint: [p.exit_point[0], p.exit_point[1]],
    deadlineMs,
    localDeadlineMs,
  };
}

/** Put token `id` on `at`, and at `elevation` when the event carries one (a flight's).
 * @param {TableView} view @param {string} id @param {Cell} at @param {number} [elevation] */
function place(view, id, at, elevation) {
  const token = view.tokens[id];
  if (token) {
    token.x = at[0];
    token.y = at[1];
    if (elevation) token.elevation = elevation;
    else if (elevation !== undefined) delete token.elevation; // landed
  }
}

/** The latest move, if it is `token`'s. @param {TableView} view @param {string} token */
function lastMoveOf(view, token) {
  return view.lastMove?.token === token ? view.lastMove : null;
}

/** A held or readied action fires: ``who`` acts now and the move under way waits.
 * @param {CombatView} combat @param {string} who */
function interject(combat, who) {
  delete combat.holds[who];
  combat.interjector = who;
  combat.actor = who;
  combat.suspendedMove = combat.moving;
  combat.moving = null;
}

/** @param {TableView} view @param {string} kind @returns {CombatView} */
function combatOf(view, kind) {
  if (!view.combat) throw new Error(`event ${kind} outside combat`);
  return view.combat;
}

/**
 * How each event kind changes the view.  Kinds not listed (dice_rolled, attack_rolled,
 * action_taken, combatant_done, combatant_skipped, aborted, ...) change nothing the view
 * holds: they reach the client's event callbacks all the same.
 * @type {Record<string, (view: TableView, data: any) => void>}
 */
const FOLD = {
  scene_loaded(view, d) {
    loadScene(view, d.scene);
    view.lastMove = null;
  },
  door_changed(view, d) {
    const wall = view.scene?.walls.find((w) => w.id === d.wall);
    if (wall) wall.door = d.open ? "open" : "closed";
  },
  token_placed(view, d) {
    // A token new to the scene (join_combat) is drawn from the `combatant_joined` that
    // follows, which carries its spec; until then the view knows its id and cell.
    view.tokens[d.token] ??= { id: d.token, name: d.token, owner: "", side: "", x: d.at[0], y: d.at[1], size: 1, reach: 0, movement: 0, stats: {} };
    place(view, d.token, d.at, d.elevation);
  },
  combatant_joined(view, d) {
    if (d.token) view.tokens[d.combatant] = tokenView(d.token);
  },
  stats_changed(view, d) {
    // The GM changed a sheet mid-fight (set_stats): the token's new values.
    const token = view.tokens[d.combatant];
    if (token) token.stats = { ...token.stats, ...Object.fromEntries(d.stats) };
  },
  scene_edited(view, d) {
    // The GM's new walls and/or terrain (edit_scene); null: kept.
    if (!view.scene) return;
    if (d.walls) view.scene.walls = structuredClone(d.walls);
    if (d.terrain) view.scene.terrain = structuredClone(d.terrain);
  },
  power_used(view, d) {
    // Hero Powers spend END: the event says what is left (STUN is unchanged).
    const vitals = combatOf(view, "power_used").vitals;
    if (vitals[d.combatant]) vitals[d.combatant].end = d.end_left;
  },
  power_upkeep(view, d) {
    const vitals = combatOf(view, "power_upkeep").vitals;
    if (vitals[d.combatant]) vitals[d.combatant].end = d.end_left;
  },
  combat_started(view, d) {
    view.combat = {
      ruleset: d.ruleset,
      aware: [...d.aware],
      order: [],
      scores: {},
      clock: null,
      time: d.time ?? null,
      surprise: d.surprise,
      actor: null,
      regularActor: null,
      interjector: null,
      moving: null,
      suspendedMove: null,
      holds: {},
      conditions: {},
      vitals: {},
      effects: {},
      movementLeft: null,
    };
  },
  initiative_order(view, d) {
    const combat = combatOf(view, "initiative_order");
    combat.order = [...d.order];
    combat.scores = Object.fromEntries(d.scores);
  },
  pass_started(view, d) {
    const combat = combatOf(view, "pass_started");
    combat.clock = d.clock;
    combat.surprise = d.surprise;
  },
  combatant_acts(view, d) {
    const combat = combatOf(view, "combatant_acts");
    if (combat.interjector !== d.combatant) {
      // A new INIT comes up: any interjection is over.
      combat.interjector = null;
      combat.suspendedMove = null;
      combat.regularActor = d.combatant;
    }
    combat.actor = d.combatant;
    combat.clock = d.clock;
    combat.movementLeft = d.movement;
  },
  move_started(view, d) {
    const combat = view.combat;
    const path = cellList([d.start, ...d.path]);
    if (combat) combat.moving = { token: d.token, path: cellList(path) };
    place(view, d.token, d.start);
    view.lastMove = { token: d.token, path, exits: [], end: "moving", at: [d.start[0], d.start[1]], cost: null };
  },
  move_interrupted(view, d) {
    place(view, d.token, d.at, d.elevation);
    const last = lastMoveOf(view, d.token);
    if (last) {
      last.at = [d.at[0], d.at[1]];
      last.exits.push({ by: d.by, at: [d.at[0], d.at[1]], point: [d.exit_point[0], d.exit_point[1]] });
    }
  },
  move_completed(view, d) {
    place(view, d.token, d.at, d.elevation);
    const last = lastMoveOf(view, d.token);
    if (last) Object.assign(last, { end: "completed", at: [d.at[0], d.at[1]], cost: d.cost });
    const combat = view.combat;
    if (combat) {
      combat.moving = null;
      combat.movementLeft = d.movement_left;
    }
  },
  move_stopped(view, d) {
    place(view, d.token, d.at, d.elevation);
    const last = lastMoveOf(view, d.token);
    if (last) Object.assign(last, { end: "stopped", at: [d.at[0], d.at[1]] });
    if (view.combat) view.combat.moving = null;
  },
  prompt_opened(view, d) {
    const known = view.prompts[d.prompt];
    view.prompts[d.prompt] = promptView(d.prompt, d.prompt_kind, d.controller, d, known?.deadlineMs ?? null, known?.localDeadlineMs ?? null);
  },
  prompt_closed(view, d) {
    delete view.prompts[d.prompt];
  },
  interjection_ended(view) {
    const combat = combatOf(view, "interjection_ended");
    combat.interjector = null;
    combat.actor = combat.regularActor;
    combat.moving = combat.suspendedMove;
    combat.suspendedMove = null;
  },
  condition_changed(view, d) {
    const conditions = combatOf(view, "condition_changed").conditions;
    const now = new Set(conditions[d.combatant] ?? []);
    if (d.on) now.add(d.condition);
    else now.delete(d.condition);
    if (now.size) conditions[d.combatant] = [...now].sort();
    else delete conditions[d.combatant];
  },
  vitals_changed(view, d) {
    combatOf(view, "vitals_changed").vitals[d.combatant] = { end: d.end, stun: d.stun };
  },
  effect_started(view, d) {
    combatOf(view, "effect_started").effects[d.effect] = effectView(d.effect, d);
  },
  effect_ended(view, d) {
    delete combatOf(view, "effect_ended").effects[d.effect];
  },
  combatant_left(view, d) {
    // The new order follows in an `initiative_order` event; its effects end in
    // `effect_ended` events.  What the engine keeps (conditions, a ruleset's state) stays.
    const combat = combatOf(view, "combatant_left");
    combat.aware = combat.aware.filter((id) => id !== d.combatant);
    if (d.removed) delete view.tokens[d.combatant];
  },
  recovered(view, d) {
    combatOf(view, "recovered").vitals[d.combatant] = { end: d.end[1], stun: d.stun[1] };
  },
  combat_ended(view) {
    // Its prompts, holds and effects ended in their own events just before; the fight
    // itself goes, and the table moves freely again.
    view.combat = null;
    view.prompts = {};
  },
};

/**
 * Fold event `index` onto `view` (in place).  An event at or below `view.lastEvent` is
 * one the view already holds and is ignored (a catch-up may overlap); returns whether it
 * was applied.  A gap (index > lastEvent + 1) throws: the caller must resync.
 * @param {TableView} view
 * @param {number} index
 * @param {string} kind
 * @param {Record<string, any>} data
 * @param {HoldsByRuleset} [holds] each ruleset's held actions, as the bridge describes
 *   them: the fight's ruleset's hold events fold through them (without: they pass through)
 * @returns {boolean}
 */
export function applyEvent(view, index, kind, data, holds = {}) {
  if (index <= view.lastEvent) return false;
  if (index !== view.lastEvent + 1) {
    throw new RangeError(`event ${index} follows ${view.lastEvent}: events ${view.lastEvent + 1}..${index - 1} are missing`);
  }
  (FOLD[kind] ?? holdFold(view.combat && holds[view.combat.ruleset], kind))?.(view, data);
  view.lastEvent = index;
  return true;
}

/**
 * Record a `prompt` message: the deadline of a prompt addressed to this participant.
 *
 * `deadline_ms` is a reading of the bridge's wall clock, which this machine's need not
 * match; `remaining_ms` is how long was left when the bridge sent the message.  So the
 * local deadline is the receipt time on this machine's monotonic clock plus
 * `remaining_ms`: no clock sync needed, and a wall clock changed meanwhile does not
 * matter.  A bridge older than `remaining_ms` sends `deadline_ms` alone: then it is
 * compared with this machine's wall clock, right only as far as the two clocks agree.
 *
 * The same deadline sent again (a reconnect's catch-up sends every open prompt again)
 * keeps the earlier local deadline.  Each estimate can only be late, never early: the
 * bridge measures `remaining_ms` when it builds the message, which it sends then or
 * later (a catch-up measures at the join's arrival and may send its prompts after a
 * long replay of events), and the message takes time to arrive.  A different
 * `deadline_ms` is a new deadline and replaces the old.
 *
 * @param {TableView} view
 * @param {string} controller the participant this connection joined as (a `prompt`
 *   is for it; a `prompt_waiting` names its own `controller`)
 * @param {any} body the `prompt` or `prompt_waiting` message's body
 * @param {number} [receivedAt] when the message arrived, a `performance.now()` reading
 * @param {PromptView} [before] what was known of the prompt before this message, if the
 *   view does not have its deadline (a `state` message just replaced the view): the
 *   client passes the replaced view's entry, so a rejoin never moves a countdown later
 */
export function applyPrompt(view, controller, body, receivedAt = performance.now(), before = undefined) {
  const known = view.prompts[body.prompt];
  // A `prompt_waiting` names whom the prompt waits on, not what it asks: that came in
  // its `prompt_opened` event (or the state) before it.
  const asks = "attacker" in body ? body : known ? { ...known, exit_point: known.exitPoint } : null;
  if (asks === null) return; // closed before its countdown arrived: nothing to count down
  const left = typeof body.remaining_ms === "number" ? body.remaining_ms : body.deadline_ms - Date.now();
  let local = receivedAt + left;
  const earlier = known?.localDeadlineMs != null ? known : before;
  if (earlier?.localDeadlineMs != null && earlier.deadlineMs === body.deadline_ms) {
    local = Math.min(local, earlier.localDeadlineMs);
  }
  const answers = body.controller ?? known?.controller ?? controller;
  view.prompts[body.prompt] = promptView(body.prompt, body.kind, answers, asks, body.deadline_ms, local);
}

/** The event kinds every fight's view folds (and each ruleset's hold events, from its
 * description); others pass through to callbacks only. */
export const FOLDED_KINDS = Object.freeze(Object.keys(FOLD));

/**
 * The fight's moment as its game's table says it ("Round 2", "Turn 1, Phase 3",
 * "Surprise Round"): the label the bridge sent, so no client spells a ruleset's words.
 * @param {CombatView | null} combat
 * @returns {string}
 */
export function clockLabel(combat) {
  if (!combat) return "no combat";
  return combat.clock?.label ?? (combat.surprise ? "surprise" : "");
}

/**
 * The count of the fight's largest unit of time (its Round, or its Turn), or null.
 * @param {CombatView | null} combat
 * @returns {number | null}
 */
export function outerCount(combat) {
  const at = combat?.clock?.at;
  if (!at) return null;
  const key = combat?.time?.units[0]?.key ?? Object.keys(at)[0];
  return at[key] ?? null;
}

/**
 * The fight's game's word for one combatant's action ("Turn" in Cyberpunk RED and M&M,
 * "Phase" in Hero: the ruleset's `time.action`; "action" when the bridge sent none).
 * @param {CombatView | null} combat
 * @returns {string}
 */
export function actionWord(combat) {
  return combat?.time?.action ?? "action";
}

/**
 * "End X's Turn" / "End X's Phase": the words for ending `name`'s action.
 * @param {CombatView | null} combat
 * @param {string} name
 * @returns {string}
 */
export function endActionLabel(combat, name) {
  return `End ${name}'s ${actionWord(combat)}`;
}
