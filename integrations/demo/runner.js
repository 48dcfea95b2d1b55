// Drive a scripted fight (fight.json) through a VTT adapter against a real bridge, and
// give back what happened in the VTT's own terms turned back into the script's: the
// bridge's events as the GM's client received them, and where the VTT shows each token.
//
// An adapter is what a VTT integration plugs in here (foundry-adapter.js; an Owlbear
// one the same way). It is made by `makeAdapter({script, bridgeUrl, gmToken})` and has:
//
//   setup()             build the VTT's scene from the script, connect the GM and every
//                       player (each with its own join token), and send the scene
//   step(step)          do one script step the VTT's way: "start", "drag" (a token
//                       dragged through points, in cells, top-left corner), "answer"
//                       (click a prompt dialog), "end_turn"; returns false when an
//                       `optional` step found nothing to do
//   settle()            resolve once the VTT and the bridge are quiet (no move being
//                       placed, every client caught up)
//   events()            the GM client's events, [{kind, data}], with the VTT's ids for
//                       tokens and users replaced by the script's
//   positions()         script token id -> [column, row] as the VTT shows it
//   close()
//
// `runFight` returns `{events, positions, skipped}`; two adapters that agree return the
// same up to `comparable` (the one field that names the VTT), which is what
// integrations/demo/test compares.

/**
 * @param {any} script the parsed fight.json
 * @param {(args: {script: any, bridgeUrl: string, gmToken: string}) => Promise<any>} makeAdapter
 * @param {{bridgeUrl: string, gmToken: string}} bridge
 */
export async function runFight(script, makeAdapter, { bridgeUrl, gmToken }) {
  const adapter = await makeAdapter({ script, bridgeUrl, gmToken });
  const skipped = [];
  try {
    await adapter.setup();
    await adapter.settle();
    for (const [k, step] of script.steps.entries()) {
      const done = await adapter.step(step);
      if (done === false) {
        if (!step.optional) throw new Error(`step ${k} (${step.do}) found nothing to do`);
        skipped.push(k);
      }
      await adapter.settle();
    }
    return { events: adapter.events(), positions: adapter.positions(), skipped };
  } finally {
    await adapter.close();
  }
}

/**
 * The fields two VTTs send differently by design, left out of a comparison: the scene's
 * `grid.vtt`, the VTT's own pixel frame (which VTT, its pixels per cell, where the grid
 * starts: Foundry's padding puts cell 0 at scene_x/scene_y, Owlbear's at pixel 0). The
 * bridge keeps it only to turn pixels into points; every cell, path and event is the same.
 */
export const VTT_FIELDS = ["scene_loaded: scene.grid.vtt"];

/**
 * A fight's result with the VTT_FIELDS left out, for comparing two VTTs' runs.
 * @param {{events: {kind: string, data: any}[], positions: any, skipped: number[]}} result
 */
export function comparable({ events, positions, skipped }) {
  const out = events.map(({ kind, data }) => {
    if (kind !== "scene_loaded") return { kind, data };
    const { vtt: _vtt, ...grid } = data.scene.grid;
    return { kind, data: { ...data, scene: { ...data.scene, grid } } };
  });
  return { events: out, positions, skipped };
}

/**
 * Replace the VTT's ids in `value` by the script's names (`names`: VTT id -> name),
 * deeply: whole strings, map keys, and ids of 8 characters or more inside text.
 * @param {any} value @param {Map<string, string>} names
 */
export function renamed(value, names) {
  if (typeof value === "string") {
    if (names.has(value)) return names.get(value);
    // Ids inside text ("attack_of_opportunity: <attacker> on <target>").
    let out = value;
    for (const [id, name] of names) if (id.length >= 8 && out.includes(id)) out = out.split(id).join(name);
    return out;
  }
  if (Array.isArray(value)) return value.map((v) => renamed(v, names));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [names.get(k) ?? k, renamed(v, names)]));
  }
  return value;
}

/** Poll `check` until true, or throw after `timeoutMs`. */
export async function waitFor(check, timeoutMs = 20_000, what = "condition") {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 15));
  }
}
