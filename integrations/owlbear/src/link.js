// The GM links Owlbear tokens to the bridge: what the popover's "Link selected tokens"
// form means, checked before anything is written to the items' metadata (read by everyone
// in the room, so only what the table may know: owner, side, reach, movement, stats).

import { LINK_KEY } from "./items.js";

/**
 * The link from the form's fields (strings).
 * @param {Record<string, unknown>} form owner, side, reach, movement, size (optional), stats (JSON object, optional)
 * @returns {import("./items.js").TokenLink}
 */
export function parseLink(form) {
  const text = (/** @type {string} */ name) => String(form[name] ?? "").trim();
  const owner = text("owner");
  const side = text("side");
  if (!/^.{1,64}$/.test(owner)) throw new TypeError("owner: the participant who controls it (1 to 64 characters), e.g. alice or gm");
  if (!/^.{1,64}$/.test(side)) throw new TypeError("side: who it fights for (1 to 64 characters)");
  const number = (/** @type {string} */ name) => {
    const value = Number(text(name));
    if (text(name) === "" || !Number.isFinite(value) || value < 0) throw new TypeError(`${name}: a number of at least 0`);
    return value;
  };
  /** @type {import("./items.js").TokenLink} */
  const link = { owner, side, reach: number("reach"), movement: number("movement") };
  if (text("size") !== "") {
    const size = Number(text("size"));
    if (!Number.isInteger(size) || size < 1 || size > 16) throw new TypeError("size: whole cells, 1 to 16");
    link.size = size;
  }
  if (text("stats") !== "") {
    let stats;
    try {
      stats = JSON.parse(text("stats"));
    } catch {
      throw new TypeError('stats: a JSON object, e.g. {"ocv": 5, "dcv": 3, "init": 12}');
    }
    if (!stats || typeof stats !== "object" || Array.isArray(stats)) throw new TypeError("stats: a JSON object");
    link.stats = stats;
  }
  return link;
}

/** Write `link` into an item draft's metadata (the updater of OBR.scene.items.updateItems). */
export function applyLink(/** @type {{metadata: Record<string, unknown>}} */ draft, /** @type {import("./items.js").TokenLink} */ link) {
  draft.metadata[LINK_KEY] = structuredClone(link);
}
