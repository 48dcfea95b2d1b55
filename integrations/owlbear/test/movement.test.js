// The movement decision (src/movement.js), case by case.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Change, classifyChange, writesFor } from "../src/movement.js";

const mine = { lastModifiedUserId: "me" };
const theirs = { lastModifiedUserId: "someone-else" };

test("each kind of item change, one row per case", () => {
  /** @type {[string, any, [number, number], [number, number] | undefined, boolean, [number, number] | undefined, string][]} */
  const rows = [
    ["a token the bridge does not know", mine, [1, 1], undefined, false, undefined, Change.UNKNOWN],
    ["dropped back on its own cell (off-centre is fine)", mine, [2, 3], [2, 3], false, undefined, Change.NONE],
    ["my drag to another cell", mine, [4, 3], [2, 3], false, undefined, Change.DRAG],
    ["another player's drag: their client sends it", theirs, [4, 3], [2, 3], false, undefined, Change.OTHER],
    ["my drag while my last move of it is unanswered", mine, [4, 3], [2, 3], true, undefined, Change.BUSY],
    ["the echo of my own write, the bridge has moved on since", mine, [3, 3], [5, 3], false, [3, 3], Change.NONE],
    ["my drag elsewhere after a write", mine, [6, 6], [5, 3], false, [3, 3], Change.DRAG],
    ["another player's write echoing", theirs, [3, 3], [5, 3], false, [3, 3], Change.OTHER],
  ];
  for (const [label, item, cell, known, busy, written, expected] of rows) {
    assert.equal(classifyChange(item, cell, known, "me", busy, written), expected, label);
  }
});

test("who writes the bridge's positions into Owlbear: the GM and the token's owner", () => {
  assert.equal(writesFor({ role: "gm", participant: "gm" }, { owner: "alice" }), true);
  assert.equal(writesFor({ role: "player", participant: "alice" }, { owner: "alice" }), true);
  assert.equal(writesFor({ role: "player", participant: "bob" }, { owner: "alice" }), false);
  assert.equal(writesFor({ role: "spectator", participant: "eve" }, undefined), false);
});
