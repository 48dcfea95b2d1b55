// The pixel helpers against the Python side's own answers: every vector in
// fixtures/vtt-coords.json was computed by geometry/vtt_coords.py
// (`python -m tests.clients.pixel_vectors`); here pixels.js must give the same cells
// exactly, the same pixels and points to within float noise, and the same refusals.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import {
  FOUNDRY_TOKEN_SHAPES,
  FoundryHexScene,
  FoundryScene,
  OwlbearHexScene,
  OwlbearImageGrid,
  OwlbearScene,
  PixelError,
  foundryTokenSize,
  pixelsFor,
} from "../src/index.js";

const FIXTURE = JSON.parse(readFileSync(new URL("./fixtures/vtt-coords.json", import.meta.url), "utf8"));
const SCENES = { FoundryScene, OwlbearScene, FoundryHexScene, OwlbearHexScene };
/** Python method names as JavaScript spells them. */
const METHOD = (name) => (name === "token_xy" ? "tokenXY" : name.replace(/_([a-z])/g, (_, c) => c.toUpperCase()));
const arg = (value) => (value && typeof value === "object" && "image" in value ? new OwlbearImageGrid(...value.image) : value);

/** Cells (integers) exactly; other numbers to within a few ulps of float noise (Math.cos
 * and Python's math.cos may differ in the last bit). */
function assertSame(actual, expected, where) {
  assert.equal(actual.length, expected.length, where);
  expected.forEach((e, i) => {
    if (Number.isInteger(e) && Number.isInteger(actual[i])) assert.equal(actual[i], e, where);
    else assert.ok(Math.abs(actual[i] - e) <= 1e-9 * Math.max(1, Math.abs(e)), `${where}: ${actual[i]} != ${e}`);
  });
}

test("every conversion gives what geometry/vtt_coords.py gives", () => {
  let calls = 0;
  for (const { scene, args, calls: vectors } of FIXTURE.scenes) {
    const helper = new SCENES[scene](...args);
    for (const { method, args: callArgs, result, error } of vectors) {
      const where = `${scene}(${args}).${method}(${JSON.stringify(callArgs)})`;
      const run = () => helper[METHOD(method)](...callArgs.map(arg));
      if (error !== undefined) assert.throws(run, (err) => err instanceof PixelError && err.message === error, where);
      else assertSame(run(), result, where);
      calls++;
    }
  }
  assert.ok(calls > 1000, `only ${calls} vectors`);
  const kinds = new Set(FIXTURE.scenes.map((s) => s.scene));
  assert.deepEqual([...kinds].sort(), Object.keys(SCENES).sort(), "every scene kind has vectors");
});

test("bad arguments are refused with the Python side's message", () => {
  for (const { scene, function: fn, args, result, error } of FIXTURE.refusals) {
    const run = fn ? () => foundryTokenSize(...args) : () => new SCENES[scene](...args);
    if (error !== undefined) assert.throws(run, (err) => err instanceof PixelError && err.message === error, `${scene ?? fn}(${args})`);
    else assert.equal(run(), result);
  }
});

test("a cell goes to pixels and back to itself", () => {
  const foundry = new FoundryScene(100, 5, 250, 150);
  const hexes = new FoundryHexScene(2, 100, 5);
  const owlbear = new OwlbearHexScene(150, 5, true);
  for (let c = -2; c < 12; c++) {
    for (let r = -2; r < 12; r++) {
      assert.deepEqual(foundry.tokenOrigin(...foundry.tokenXY([c, r])), [c, r]);
      assert.deepEqual(owlbear.itemCell(...owlbear.itemPosition([c, r])), [c, r]);
      for (const shape of Object.values(FOUNDRY_TOKEN_SHAPES)) {
        assert.deepEqual(hexes.tokenCell(...hexes.tokenXY([c, r], 3, shape), 3, shape), [c, r]);
      }
    }
  }
});

test("pixelsFor picks the helper a scene's grid.vtt describes", () => {
  const square = { kind: "square", cell_size: 1.5, vtt: { kind: "foundry", grid_size: 100, scene_x: 200, scene_y: 100 } };
  assert.deepEqual(pixelsFor(square).fromPoint([3, 1.5]), [400, 200]);
  const hex = { kind: "hex_flat", offset: "even", cell_size: 5, vtt: { kind: "foundry", grid_size: 100 } };
  assert.equal(pixelsFor(hex).gridType, 5);
  const owl = { kind: "hex_pointy", offset: "odd", cell_size: 5, vtt: { kind: "owlbear", grid_size: 150 } };
  assert.ok(pixelsFor(owl) instanceof OwlbearHexScene);
  assert.equal(pixelsFor({ kind: "square", cell_size: 1 }), null);
});
