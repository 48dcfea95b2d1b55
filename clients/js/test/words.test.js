// src/words.js against the Python side's own lines: every distinct event line of the
// golden recordings, rendered by engine/templates.py (`python -m tests.clients.word_vectors`),
// must come out the same here, so a log reads alike in every client.

import assert from "node:assert/strict";
import { test } from "node:test";

import { render } from "../src/words.js";
import { pythonJson } from "./helpers.js";

test("every recorded event reads as engine/templates.py reads it", async () => {
  const vectors = await pythonJson(["-m", "tests.clients.word_vectors"]);
  assert.ok(vectors.length > 50, `only ${vectors.length} lines`);
  for (const { template, data, line } of vectors) {
    assert.equal(render(template, data, (id) => id.toUpperCase()), line, template);
  }
});

test("formats, choices and optional parts", () => {
  const template = "{a:token} holds[ until {b:token}][ over {area:count} cells]: {hit?hit|miss}";
  assert.equal(render(template, { a: "x", b: null, area: [], hit: true }), "x holds: hit");
  assert.equal(render("{n:signed} {m:signed} {c:cell} {p:change} {w:word} {t:tokens}",
    { n: 3, m: -1, c: [4, 5], p: [2, 7], w: "flat_footed", t: [["a", "b"], ["c"]] }),
  "+3 -1 (4, 5) 2 -> 7 flat footed a, b, c");
  assert.equal(render("{x} {y} {z} {f}", { x: null, y: true, z: [1, 2], f: 1.5 }), "none yes 1, 2 1.5");
});
