// The GM's set-up outside a fight: which ruleset to play (the server's list, sent at
// join: the page names no game), its demo scene, and the start button.  A ruleset's demo
// scene is `demo-scene-<name>.json` next to this module, with the stats that game's
// tokens need; a ruleset without one gets the shared `demo-scene.json`.  "Without a grid"
// loads the same scene as a gridless one: every token on the centre of where it stood.

import { layoutFor } from "./layout.js";

/** The demo scene every ruleset without its own falls back to (`serve --demo` loads it). */
const SHARED_DEMO = "/view/demo-scene.json";

/**
 * A ruleset's demo scene, as the scene the `load_scene` command takes.
 * @param {string} ruleset @returns {Promise<Record<string, any>>}
 */
export async function demoScene(ruleset) {
  const own = await fetch(`/view/demo-scene-${encodeURIComponent(ruleset)}.json`);
  if (own.ok) return own.json();
  return (await fetch(SHARED_DEMO)).json();
}

/**
 * `scene` without its grid: the same size, walls and terrain, each token's position the
 * centre of the cells it covered (what a VTT sends for a scene that has no grid).
 * @param {Record<string, any>} scene @returns {Record<string, any>}
 */
export function withoutGrid(scene) {
  const { kind: _kind, diagonal: _diagonal, offset: _offset, ...grid } = scene.grid;
  const layout = layoutFor(scene.grid);
  const tokens = scene.tokens.map((token) => {
    const [x, y] = layout.footprint(token).center;
    return { ...token, x, y };
  });
  return { ...scene, grid: { ...grid, kind: "gridless" }, tokens };
}

/**
 * The set-up controls: a ruleset picker, "Load the demo scene" and "Start combat (title)".
 * Drawn into `section` once the rulesets are known, then only shown or hidden, so a
 * choice in progress survives the redraws of every change.
 */
export class Picker {
  /**
   * @param {HTMLElement} section where the controls go
   * @param {(what: string, run: () => Promise<any>) => Promise<any>} act runs a command,
   *   logging a refusal
   */
  constructor(section, act) {
    this.section = section;
    this.act = act;
    /** @type {string} the rulesets drawn, as a key */
    this.drawn = "";
    this.select = /** @type {HTMLSelectElement} */ (document.createElement("select"));
    this.select.id = "ruleset";
    this.select.setAttribute("aria-label", "Ruleset");
    this.load = document.createElement("button");
    this.gridless = /** @type {HTMLInputElement} */ (Object.assign(document.createElement("input"), { type: "checkbox", id: "without-grid" }));
    this.start = document.createElement("button");
    this.select.addEventListener("change", () => this.relabel());
  }

  /** The chosen ruleset's name. */
  get ruleset() {
    return this.select.value;
  }

  relabel() {
    const title = this.select.selectedOptions[0]?.textContent ?? this.ruleset;
    this.start.textContent = `Start combat (${title})`;
  }

  /**
   * Show the set-up to the GM outside a fight (else hide it).
   * @param {import("/client/src/index.js").BridgeClient} client
   */
  render(client) {
    const gm = client.welcome?.role === "gm";
    const view = client.view;
    this.section.hidden = !gm || !!view.combat || !client.rulesets.length;
    if (this.section.hidden) return;
    const key = client.rulesets.map((r) => r.name).join(",");
    if (key !== this.drawn) this.draw(client, key);
    this.load.textContent = view.scene ? "Load the demo scene again" : "Load the demo scene";
    this.start.hidden = !view.scene;
  }

  /** @param {import("/client/src/index.js").BridgeClient} client @param {string} key */
  draw(client, key) {
    const kept = this.select.value;
    this.select.replaceChildren(
      ...client.rulesets.map((r) => Object.assign(document.createElement("option"), { value: r.name, textContent: r.title })),
    );
    // The last fight's game stays chosen, so "start again" plays the same one.
    const last = client.ruleset?.name;
    for (const want of [kept, last]) if (want && client.rulesets.some((r) => r.name === want)) this.select.value = want;
    this.drawn = key;
    this.relabel();
    this.load.onclick = () => this.act("load_scene", async () => {
      const scene = await demoScene(this.ruleset);
      return client.loadScene(this.gridless.checked ? withoutGrid(scene) : scene);
    });
    this.start.onclick = () => this.act("start_combat", () => client.startCombat(this.ruleset));
    const label = Object.assign(document.createElement("label"), { textContent: "Game " });
    label.append(this.select);
    const map = Object.assign(document.createElement("label"), { textContent: " Without a grid" });
    map.prepend(this.gridless);
    this.section.replaceChildren(label, map, document.createElement("br"), this.load, this.start);
  }
}
