// Theory of operation: Owlbear has no hook before a move. A player drops a token, the
// item's new position reaches every client through OBR.scene.items.onChange (SDK 3.1.0
// api/scene/SceneItemsApi.d.ts), stamped with `lastModifiedUserId` (types/items/Item.d.ts),
// the Owlbear player who made the change. So:
//
// * every client keeps, per linked token, the cell the bridge last put it on (`known`),
//   updated from the bridge's events only;
// * an item whose position maps to its known cell needs nothing, and neither does the
//   echo of a position this client wrote itself (`written`: the bridge may have moved the
//   token on again by the time Owlbear reports the write);
// * an item on another cell is a drag: only the client of the player who made it
//   (lastModifiedUserId === OBR.player.id) sends it, as `move_points`, once at a time per
//   token; every other client leaves it alone;
// * the bridge's answer is events; on `move_interrupted` (paused where the token leaves
//   reach), `move_completed`, `move_stopped` and `token_placed` the writers put the item on
//   the cell the event names. Writers are the token's owner and the GM, so a token moved by
//   the bridge is placed even when its owner is away; two writers write the same value;
// * a refused move puts the token back on its known cell (the mover's client does that,
//   as only it knows of the refusal).
//
// This file holds the decision; adapter.js does the I/O.

/** What an item change means for this client. */
export const Change = Object.freeze({
  /** not linked, or still on the cell the bridge has for it */
  NONE: "none",
  /** this player dragged it to another cell: send `move_points` */
  DRAG: "drag",
  /** another player's drag: their client sends it */
  OTHER: "other",
  /** this player's drag while the token's last move is still unanswered: put it back */
  BUSY: "busy",
  /** the bridge does not know the token (not in its scene yet) */
  UNKNOWN: "unknown",
});

/**
 * Classify one item of an `items.onChange` batch.
 * @param {{lastModifiedUserId: string}} item an SDK Item
 * @param {[number, number]} cell the cell the item's position maps to now
 * @param {[number, number] | undefined} known the cell the bridge has it on
 * @param {string} me `OBR.player.id`
 * @param {boolean} busy a move of this token sent by this client is still unanswered
 * @param {[number, number] | undefined} [written] the cell this client last wrote it on
 */
export function classifyChange(item, cell, known, me, busy, written) {
  if (known === undefined) return Change.UNKNOWN;
  if (sameCell(cell, known)) return Change.NONE;
  if (item.lastModifiedUserId !== me) return Change.OTHER;
  if (written !== undefined && sameCell(cell, written)) return Change.NONE;
  return busy ? Change.BUSY : Change.DRAG;
}

function sameCell(/** @type {[number, number]} */ a, /** @type {[number, number]} */ b) {
  return a[0] === b[0] && a[1] === b[1];
}

/** The events that put a token on a cell (`data.token`, `data.at`). */
export const PLACING_EVENTS = new Set(["move_interrupted", "move_completed", "move_stopped", "token_placed"]);

/**
 * Whether this client writes the bridge's position of `token` into Owlbear.
 * @param {{role: string, participant: string}} me the bridge's welcome
 * @param {{owner: string} | undefined} token the bridge's view of it
 */
export function writesFor(me, token) {
  return me.role === "gm" || token?.owner === me.participant;
}
