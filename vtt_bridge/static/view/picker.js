// The GM's set-up outside a fight: which ruleset to play (the server's list, sent at
// join: the page names no game), its demo scene, and the start button.  A ruleset's demo
// scene is `demo-scene-<name>.json` next to this module, with the stats that game's
// tokens need; a ruleset without one gets the shared `demo-scene.json`.

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
    this.load.onclick = () => this.act("load_scene", async () => client.loadScene(await demoScene(this.ruleset)));
    this.start.onclick = () => this.act("start_combat", () => client.startCombat(this.ruleset));
    const label = Object.assign(document.createElement("label"), { textContent: "Game " });
    label.append(this.select);
    this.section.replaceChildren(label, document.createElement("br"), this.load, this.start);
  }
}
