// A ruleset's words, from the server's description of it (the `ruleset` message): an
// event's log line from its kind's template, a prompt's question and answer labels, an
// action's params.  No game is named here: a ruleset added on the server reads in its
// own words with no edit to this file.
//
// The template language is engine/templates.py's (its docstring is the reference, and
// tests/engine/test_describe.py and test/describe.test.js render the same lines):
//   {field}              the value: a number as written, true/false as yes/no, a list
//                        joined with ", ", null as "none", a clock as its label
//   {field:format}       token, tokens, sum, signed, word, cell, count, change
//   {field?yes|no}       one of two texts, by whether the field is true (non-empty)
//   [ ... ]              shown only when no field inside is null or an empty list

const PLACEHOLDER = /\{([a-z_][a-z0-9_]*)(?::([a-z]+)|\?([^{}[\]|]*)\|([^{}[\]|]*))?\}/g;
const SEGMENT = /\[([^[\]]*)\]/g;

/**
 * @typedef {object} ParamShape one param of an action (or a list's item, a map's field)
 * @property {string} name
 * @property {"boolean"|"integer"|"number"|"string"|"token"|"cell"|"choice"|"list"|"map"} type
 * @property {boolean} required
 * @property {any} default as the wire spells it
 * @property {boolean} nullable
 * @property {string[]} choices a choice's words
 * @property {number | null} min a number's bound, a string's length
 * @property {number | null} max
 * @property {boolean} dice it holds the table's own dice
 * @property {ParamShape | null} items a list's item
 * @property {ParamShape[]} fields a map's fields
 * @property {string} doc
 *
 * @typedef {object} ActionDescription
 * @property {string} name
 * @property {"turn" | "any" | "gm"} when any: also out of turn (a reaction); gm: the GM's tool
 * @property {string} doc
 * @property {ParamShape[]} params
 * @property {boolean} target it names a token
 * @property {boolean} area it names a list of cells
 * @property {string[]} dice the params that may hold the table's dice
 * @property {boolean} choices it names one of several things (`action:choice` in options)
 *
 * @typedef {object} PromptWords
 * @property {string} kind
 * @property {string} question a template over the prompt's attacker, target, at
 * @property {string} accept the label of answering true
 * @property {string} decline the label of answering false
 * @property {string} expired what happens when nobody answers in time
 *
 * @typedef {object} RulesetDescription the `ruleset` message's body
 * @property {string} name
 * @property {string} title
 * @property {{units: {key: string, name: string, seconds: number, also: string[]}[], surprise: string, action: string}} time
 * @property {ActionDescription[]} actions
 * @property {string[]} move_modes
 * @property {string[]} conditions
 * @property {Array<{name: string, type: string, required: boolean, doc: string}>} stats
 * @property {Array<{name: string, doc: string}>} triggers
 * @property {import("./table.js").HoldsDescription | null} holds how its held actions are
 *   followed (null: it has none)
 * @property {PromptWords[]} prompts
 * @property {Array<{kind: string, template: string}>} events
 */

/** @param {any} value */
function absent(value) {
  return value === null || value === undefined || (Array.isArray(value) && value.length === 0);
}

/** @param {number} n as Python's engine/templates.py writes it */
function number(n) {
  return String(n);
}

/** @param {any[]} values @returns {any[]} */
function flat(values) {
  return values.flatMap((v) => (Array.isArray(v) ? flat(v) : [v]));
}

/**
 * One value in words, by `format` (see the header).
 * @param {any} value @param {string} format @param {(id: string) => string} name
 * @returns {string}
 */
export function show(value, format, name = String) {
  switch (format) {
    case "token":
      return value === null || value === undefined ? "none" : name(String(value));
    case "tokens":
      return flat(value ?? []).map((v) => name(String(v))).join(", ");
    case "sum":
      return number((value ?? []).reduce((/** @type {number} */ a, /** @type {number} */ b) => a + b, 0));
    case "signed":
      return value >= 0 ? `+${number(value)}` : number(value);
    case "word":
      return value === null || value === undefined ? "none" : String(value).replaceAll("_", " ");
    case "cell":
      return `(${number(value[0])}, ${number(value[1])})`;
    case "count":
      return String((value ?? []).length);
    case "change":
      return `${number(value[0])} -> ${number(value[1])}`;
  }
  if (value === null || value === undefined) return "none";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number") return number(value);
  if (Array.isArray(value)) return value.map((v) => show(v, "", name)).join(", ");
  if (typeof value === "object" && "label" in value) return String(value.label); // a clock
  return String(value);
}

/**
 * `template` filled from an event's (or a prompt's) `data`; `name` gives a token id's
 * name (default: the id).
 * @param {string} template @param {Record<string, any>} data @param {(id: string) => string} [name]
 * @returns {string}
 */
export function render(template, data, name = String) {
  const shown = template.replace(SEGMENT, (_, inner) => {
    for (const m of inner.matchAll(PLACEHOLDER)) if (absent(data[m[1]])) return "";
    return inner;
  });
  return shown.replace(PLACEHOLDER, (_, field, format, yes, no) => {
    const value = data[field];
    if (yes !== undefined) return value && !absent(value) ? yes : no;
    return show(value, format ?? "", name);
  });
}

/**
 * A wire name as a heading, for a kind no description words yet:
 * "attack_of_opportunity" -> "Attack of opportunity".
 * @param {string} kind
 */
export function kindLabel(kind) {
  const text = kind.replaceAll("_", " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The words of a described ruleset, ready to use: each event kind's template, each
 * prompt kind's words, each action by name.
 */
export class RulesetWords {
  /** @param {RulesetDescription} description */
  constructor(description) {
    this.description = description;
    /** @type {Map<string, string>} */
    this.templates = new Map(description.events.map((e) => [e.kind, e.template]));
    /** @type {Map<string, PromptWords>} */
    this.prompts = new Map(description.prompts.map((p) => [p.kind, p]));
    /** @type {Map<string, ActionDescription>} */
    this.actions = new Map(description.actions.map((a) => [a.name, a]));
  }

  /**
   * An event's line in this game's words, or null for a kind it has no template for.
   * @param {{kind: string, data: Record<string, any>}} event @param {(id: string) => string} [name]
   */
  event(event, name = String) {
    const template = this.templates.get(event.kind);
    return template === undefined ? null : render(template, event.data, name);
  }

  /**
   * A prompt's question and answer labels, or null for a kind it does not word.
   * @param {{kind: string, attacker: string, target: string, at: [number, number]}} prompt
   * @param {(id: string) => string} [name]
   * @returns {{question: string, accept: string, decline: string, expired: string} | null}
   */
  prompt(prompt, name = String) {
    const words = this.prompts.get(prompt.kind);
    if (!words) return null;
    const question = render(words.question, prompt, name);
    return { question, accept: words.accept, decline: words.decline, expired: words.expired };
  }

  /**
   * An action's description (params, when, target, area, dice); `use_power:Blast` (an
   * `options` entry naming a choice) finds `use_power`.  Null for an unknown action.
   * @param {string} action @returns {ActionDescription | null}
   */
  action(action) {
    return this.actions.get(action.split(":")[0]) ?? null;
  }
}
