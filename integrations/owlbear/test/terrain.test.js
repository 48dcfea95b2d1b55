// Terrain from the shapes the GM marks (src/terrain.js), with shapes and curves shaped as
// SDK 3.1.0 declares them (test/fake-obr.js shapeItem/curveItem), into load_scene's terrain.

import assert from "node:assert/strict";
import { test } from "node:test";

import { bridgeGrid } from "../src/grid.js";
import { LINK_KEY, sceneFromItems } from "../src/items.js";
import { TERRAIN_KEY, applyTerrain, isTerrain, parseTerrainKind, terrainSpec } from "../src/terrain.js";
import { curveItem, gridScale, imageItem, shapeItem } from "./fake-obr.js";

// 150 px squares of 5 ft: a pixel is 1/30 ft.
const square = bridgeGrid({ dpi: 150, type: "SQUARE", measurement: "CHEBYSHEV", scale: gridScale("5ft") });
const mark = (kind) => ({ [TERRAIN_KEY]: kind });

test("a marked rectangle is its four corners in scene units, from its top-left position", () => {
  const mud = shapeItem({ name: "Mud", shapeType: "RECTANGLE", position: { x: 300, y: 150 }, width: 450, height: 300,
    metadata: mark("difficult"), createdUserId: "gm" });
  assert.deepEqual(terrainSpec(square, mud), { kind: "difficult", polygon: [[10, 5], [25, 5], [25, 15], [10, 15]] });
});

test("a marked circle is a 24-sided polygon around its centre; a curve its own points", () => {
  const pond = shapeItem({ name: "Pond", shapeType: "CIRCLE", position: { x: 600, y: 600 }, width: 300, height: 300,
    metadata: mark("water"), createdUserId: "gm" });
  const { kind, polygon } = terrainSpec(square, pond);
  assert.equal(kind, "water");
  assert.equal(polygon.length, 24);
  for (const [x, y] of polygon) assert.ok(Math.abs(Math.hypot(x - 20, y - 20) - 5) < 1e-9); // 150 px = 5 ft radius
  const cliff = curveItem({ name: "Cliff", position: { x: 150, y: 150 }, points: [{ x: 0, y: 0 }, { x: 300, y: 0 }, { x: 150, y: 300 }],
    metadata: mark("climbable"), createdUserId: "gm" });
  assert.deepEqual(terrainSpec(square, cliff).polygon, [[5, 5], [15, 5], [10, 15]]);
});

test("only marked shapes and curves are terrain; triangles are refused by name", () => {
  assert.equal(isTerrain(shapeItem({ shapeType: "RECTANGLE", width: 1, height: 1, createdUserId: "gm" })), false);
  assert.equal(isTerrain(shapeItem({ shapeType: "RECTANGLE", width: 1, height: 1, metadata: mark("lava"), createdUserId: "gm" })), false);
  const tri = shapeItem({ name: "Spike", shapeType: "TRIANGLE", width: 150, height: 150, position: { x: 300, y: 300 },
    metadata: mark("gap"), createdUserId: "gm" });
  assert.throws(() => terrainSpec(square, tri), /Spike: a triangle cannot be terrain yet/);
});

test("the GM marks and unmarks; a bad kind is refused before anything is written", () => {
  const draft = { metadata: {} };
  applyTerrain(draft, parseTerrainKind(" water "));
  assert.deepEqual(draft.metadata, { [TERRAIN_KEY]: "water" });
  applyTerrain(draft, parseTerrainKind("none"));
  assert.deepEqual(draft.metadata, {});
  assert.throws(() => parseTerrainKind("lava"), /terrain: one of difficult, water/);
});

test("the scene carries the terrain and grows to hold it", () => {
  const link = { owner: "alice", side: "heroes", reach: 5, movement: 30 };
  const items = [
    imageItem({ id: "hero", name: "Hero", position: { x: 75, y: 75 }, width: 150, height: 150, gridDpi: 150,
      offset: { x: 75, y: 75 }, createdUserId: "gm", metadata: { [LINK_KEY]: link } }),
    shapeItem({ name: "Mud", shapeType: "RECTANGLE", position: { x: 300, y: 0 }, width: 1200, height: 450,
      metadata: mark("difficult"), createdUserId: "gm" }),
    shapeItem({ name: "Unmarked", shapeType: "RECTANGLE", position: { x: 0, y: 0 }, width: 9000, height: 9000, createdUserId: "gm" }),
  ];
  const scene = sceneFromItems(square, items);
  assert.deepEqual([scene.grid.width, scene.grid.height], [10, 3]); // 1500 x 450 px of 150 px cells
  assert.deepEqual(scene.terrain, [{ kind: "difficult", polygon: [[10, 0], [50, 0], [50, 15], [10, 15]] }]);
});
