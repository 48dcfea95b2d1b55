// The action bar of the selected token: a button per action `ask_options` lists (the
// unavailable ones disabled, their reason as the tooltip, when the bridge lists them),
// and for the chosen action a form built from the ruleset description's params: a token
// picked by clicking it on the board (or from its list), cells and areas picked on the
// board, choices as selects, numbers as inputs with the declared range, a map's fields
// as a group.  The table's own dice params are left to the bridge (it rolls).  The page
// knows no game: every word comes from the options answer and the description.

import { h } from "./dom.js";

/** @typedef {import("/client/src/words.js").ParamShape} ParamShape */

/** What the bar leaves to other controls: the moves and the end of the action. */
const NOT_ACTIONS = new Set(["end_phase"]);

/** "use_power:Blast" -> "Use power: Blast". @param {string} entry */
export function actionLabel(entry) {
  const [name, choice] = entry.split(/:(.*)/s);
  const words = name.replaceAll("_", " ");
  const label = words.charAt(0).toUpperCase() + words.slice(1);
  return choice ? `${label}: ${choice}` : label;
}

export class ActionBar {
  /**
   * @param {import("/client/src/index.js").BridgeClient} client
   * @param {HTMLElement} root where the bar is drawn
   * @param {{act: (what: string, run: () => Promise<any>) => Promise<any>, changed: () => void, done: (token: string) => void}} hooks
   *   `act` runs a command (a refusal goes to the log), `changed` redraws the board (a
   *   pick changed), `done` follows a committed action
   */
  constructor(client, root, hooks) {
    this.client = client;
    this.root = root;
    this.hooks = hooks;
    /** @type {{token: string, entry: string, values: Record<string, any>, picking: string | null} | null} the action being composed */
    this.plan = null;
    /** @type {HTMLFormElement | null} the form drawn for the plan, kept across redraws
     * of the bar so that typing in it is not interrupted */
    this.drawnForm = null;
  }

  /** The param being picked on the board and its shape, if any. @returns {ParamShape | null} */
  pickingShape() {
    if (!this.plan?.picking) return null;
    return this.shapes().find(([path]) => path === this.plan?.picking)?.[1] ?? null;
  }

  /** Every param of the planned action, maps flattened ("params.target"), dice left out.
   * @returns {Array<[string, ParamShape]>} */
  shapes() {
    const description = this.plan ? this.client.actionParams(this.plan.entry) : null;
    const flat = [];
    // A field of an optional map is optional in the form: the map is sent only when one
    // of its fields is filled, and then the bridge checks the rest.
    const walk = (shapes, prefix, required) => {
      for (const shape of shapes) {
        if (shape.dice) continue;
        const own = { ...shape, required: required && shape.required };
        if (shape.type === "map" && shape.fields.length) walk(shape.fields, `${prefix}${shape.name}.`, own.required);
        else flat.push([`${prefix}${shape.name}`, own]);
      }
    };
    walk(description?.params ?? [], "", true);
    return flat;
  }

  /** Cells picked for the planned action (drawn on the board). @returns {Array<[number, number]>} */
  pickedCells() {
    const cells = [];
    for (const [path, shape] of this.shapes()) {
      const value = this.plan?.values[path];
      if (shape.type === "cell" && value) cells.push(value);
      if (shape.type === "list" && shape.items?.type === "cell") cells.push(...(value ?? []));
    }
    return cells;
  }

  /** A token clicked on the board while a token param is being picked: taken.
   * @param {string} id @returns {boolean} whether the click was the bar's */
  pickToken(id) {
    if (this.pickingShape()?.type !== "token" || !this.plan?.picking) return false;
    this.plan.values[this.plan.picking] = id;
    this.plan.picking = this.nextToPick();
    this.redraw();
    return true;
  }

  /** A cell clicked while a cell or area param is being picked: set, or toggled in the area.
   * @param {[number, number]} cell @returns {boolean} */
  pickCell(cell) {
    const shape = this.pickingShape();
    const path = this.plan?.picking;
    if (!shape || !path || !this.plan) return false;
    if (shape.type === "cell") {
      this.plan.values[path] = cell;
      this.plan.picking = this.nextToPick();
    } else if (shape.type === "list" && shape.items?.type === "cell") {
      const area = this.plan.values[path] ?? [];
      const at = area.findIndex((c) => c[0] === cell[0] && c[1] === cell[1]);
      this.plan.values[path] = at >= 0 ? area.filter((_, i) => i !== at) : [...area, cell];
    } else return false;
    this.redraw();
    return true;
  }

  /** The first required token param still empty: picked next. */
  nextToPick() {
    for (const [path, shape] of this.shapes()) {
      if (shape.type === "token" && shape.required && !this.plan?.values[path]) return path;
    }
    return null;
  }

  /** Choose an action of `token`. @param {string} token @param {string} entry */
  choose(token, entry) {
    this.plan = { token, entry, values: {}, picking: null };
    const [, choice] = entry.split(/:(.*)/s);
    const first = this.shapes()[0];
    if (choice && first) this.plan.values[first[0]] = choice; // the thing the entry names
    this.plan.picking = this.nextToPick();
    this.redraw();
  }

  /** Drop the action being composed. @returns {boolean} whether there was one */
  cancel() {
    if (!this.plan) return false;
    this.plan = null;
    this.redraw();
    return true;
  }

  /** Send the action being composed. */
  async commit() {
    const plan = this.plan;
    if (!plan) return;
    const params = {};
    for (const [path, shape] of this.shapes()) {
      let value = plan.values[path];
      if (value === undefined || value === "") continue;
      if (shape.type === "integer" || shape.type === "number") value = Number(value);
      const keys = path.split(".");
      let into = params;
      for (const key of keys.slice(0, -1)) into = into[key] ??= {};
      into[keys.at(-1) ?? path] = value;
    }
    const action = plan.entry.split(":")[0];
    const done = await this.hooks.act(action, () => this.client.act(plan.token, action, params));
    if (done !== null) {
      this.plan = null;
      this.hooks.done(plan.token);
    }
    this.redraw();
  }

  redraw() {
    this.drawnForm = null;
    this.hooks.changed();
  }

  /**
   * Draw the bar for `token` from its `options` answer.
   * @param {string | null} token @param {Record<string, any> | null} options
   */
  render(token, options) {
    if (!token || !options || options.token !== token) {
      this.root.replaceChildren();
      return;
    }
    if (this.plan && this.plan.token !== token) {
      this.plan = null;
      this.drawnForm = null;
    }
    const name = this.client.view.tokens[token]?.name || token;
    const moves = new Set(this.client.ruleset?.move_modes ?? []);
    const shown = (/** @type {string} */ a) => !NOT_ACTIONS.has(a) && !moves.has(a);
    const buttons = options.available.filter(shown).map((entry) => {
      const b = h("button", { type: "button", textContent: actionLabel(entry), dataset: { action: entry },
        title: this.client.actionParams(entry)?.doc ?? "", attrs: { "aria-pressed": this.plan?.entry === entry } });
      b.addEventListener("click", () => this.choose(token, entry));
      return b;
    });
    // The refusals with their reasons, when the bridge lists them this way.
    for (const { action, reason } of options.unavailable ?? []) {
      if (!shown(action)) continue;
      buttons.push(h("button", { type: "button", textContent: actionLabel(action), disabled: true, title: reason,
        dataset: { action }, attrs: { "aria-description": reason } }));
    }
    const bar = h("div", { className: "action-buttons", attrs: { role: "toolbar", "aria-label": `${name}'s actions` } }, buttons);
    this.root.replaceChildren(bar);
    if (this.plan) {
      this.drawnForm ??= this.form(name);
      this.root.append(this.drawnForm);
    }
  }

  /** The planned action's form. @param {string} name the acting token's name */
  form(name) {
    const plan = /** @type {NonNullable<ActionBar["plan"]>} */ (this.plan);
    const label = actionLabel(plan.entry);
    const form = h("form", { id: "action-form", attrs: { "aria-label": `${label} for ${name}` } });
    form.append(h("strong", { textContent: `${name}: ${label}` }));
    const [, choice] = plan.entry.split(/:(.*)/s);
    this.shapes().forEach(([path, shape], i) => {
      if (choice && i === 0) return; // named by the entry itself
      form.append(this.field(path, shape));
    });
    const go = h("button", { type: "submit", textContent: `Do it: ${label}` });
    const cancel = h("button", { type: "button", textContent: "Cancel action" });
    cancel.addEventListener("click", () => this.cancel());
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.commit();
    });
    form.append(h("div", {}, [go, cancel]));
    return form;
  }

  /** One param's control, labelled with its name. @param {string} path @param {ParamShape} shape */
  field(path, shape) {
    const plan = /** @type {NonNullable<ActionBar["plan"]>} */ (this.plan);
    const words = `${path.replaceAll("_", " ").replaceAll(".", ": ")}${shape.required ? "" : " (optional)"}`;
    const set = (value) => {
      plan.values[path] = value;
    };
    const value = plan.values[path];
    let control;
    if (shape.type === "token") {
      const tokens = Object.values(this.client.view.tokens);
      control = h("select", {}, [h("option", { value: "", textContent: "(click a token)" }),
        ...tokens.map((t) => h("option", { value: t.id, textContent: t.name || t.id }))]);
      control.value = value ?? "";
      control.addEventListener("change", () => { set(control.value); this.redraw(); });
      return this.withPick(path, words, control, `Pick ${words} on the board`);
    }
    if (shape.type === "cell" || (shape.type === "list" && shape.items?.type === "cell")) {
      const cells = shape.type === "cell" ? (value ? [value] : []) : (value ?? []);
      const text = cells.length ? cells.map((c) => `(${c.join(", ")})`).join(" ") : "none";
      control = h("output", { textContent: text, dataset: { pickedCells: path } });
      return this.withPick(path, words, control, `Pick ${words} cells on the board`);
    }
    if (shape.type === "choice") {
      control = h("select", {}, [...(shape.required ? [] : [h("option", { value: "", textContent: "(default)" })]),
        ...shape.choices.map((c) => h("option", { value: c, textContent: c.replaceAll("_", " ") }))]);
      control.value = value ?? (shape.required ? shape.choices[0] : "");
      set(control.value || undefined);
    } else if (shape.type === "boolean") {
      // Sent only once ticked or unticked: an optional flag left alone is the default.
      control = h("input", { type: "checkbox", checked: value ?? !!shape.default });
      control.addEventListener("change", () => set(control.checked));
      control.setAttribute("aria-label", words);
      return h("label", { className: "param", title: shape.doc }, [control, ` ${words}`]);
    } else if (shape.type === "integer" || shape.type === "number") {
      control = h("input", { type: "number", step: shape.type === "integer" ? "1" : "any", value: value ?? "",
        placeholder: shape.default === null || shape.default === undefined ? "" : String(shape.default) });
      if (shape.min !== null) control.min = String(shape.min);
      if (shape.max !== null) control.max = String(shape.max);
      control.required = shape.required;
    } else {
      control = h("input", { type: "text", value: value ?? "", required: shape.required,
        placeholder: shape.default === null || shape.default === undefined ? "" : String(shape.default) });
    }
    control.setAttribute("aria-label", words); // the label's text alone, not a select's value too
    control.addEventListener("input", () => set(control.value));
    control.addEventListener("change", () => set(control.value));
    return h("label", { className: "param", title: shape.doc }, [`${words} `, control]);
  }

  /** A param picked on the board: its control and a toggle saying the board picks it. */
  withPick(path, words, control, pickLabel) {
    const plan = /** @type {NonNullable<ActionBar["plan"]>} */ (this.plan);
    const picking = plan.picking === path;
    const pick = h("button", { type: "button", textContent: picking ? "picking on the board..." : "pick on the board",
      attrs: { "aria-label": pickLabel, "aria-pressed": picking }, dataset: { pick: path } });
    pick.addEventListener("click", () => {
      plan.picking = picking ? null : path;
      this.redraw();
    });
    control.setAttribute("aria-label", words);
    return h("div", { className: `param${picking ? " picking" : ""}` }, [`${words} `, control, " ", pick]);
  }
}
