// Owlbear items -> the bridge's scene, with items shaped as SDK 3.1.0 declares them
// (test/fake-obr.js imageItem/wallItem cite the declarations).

import assert from "node:assert/strict";
import { test } from "node:test";

import { bridgeGrid } from "../src/grid.js";
import { cellPosition, itemCell, itemSize, LINK_KEY, sceneFromItems, wallSpecs } from "../src/items.js";
import { gridScale, imageItem, wallItem } from "./fake-obr.js";

const square = bridgeGrid({ dpi: 150, type: "SQUARE", measurement: "CHEBYSHEV", scale: gridScale("5ft") });
const link = { owner: "alice", side: "heroes", reach: 5, movement: 30 };

test("a token's size comes from its image and scale, or the link", () => {
  const base = { name: "T", position: { x: 0, y: 0 }, gridDpi: 300, offset: { x: 0, y: 0 }, createdUserId: "gm", metadata: { [LINK_KEY]: link } };
  assert.equal(itemSize(imageItem({ ...base, width: 300, height: 300 })), 1);
  assert.equal(itemSize(imageItem({ ...base, width: 600, height: 600 })), 2);
  assert.equal(itemSize(imageItem({ ...base, width: 300, height: 300, scale: { x: 3, y: 3 } })), 3);
  assert.equal(itemSize(imageItem({ ...base, width: 300, height: 300, scale: { x: 0.5, y: 0.5 } })), 1); // never below one cell
  assert.equal(itemSize(imageItem({ ...base, width: 300, height: 300, metadata: { [LINK_KEY]: { ...link, size: 2 } } })), 2);
});

test("an image whose grid offset is its top-left corner (buildImage's default) is placed by that corner", () => {
  const item = imageItem({ name: "Map token", position: { x: 450, y: 300 }, width: 150, height: 150, gridDpi: 150,
    offset: { x: 0, y: 0 }, createdUserId: "gm", metadata: { [LINK_KEY]: link } });
  assert.deepEqual(itemCell(square, item), [3, 2]);
  assert.deepEqual(cellPosition(square, item, [5, 1]), { x: 750, y: 150 });
});

test("blocking walls become segments in scene units; others are left out", () => {
  const walls = [
    wallItem({ id: "w", points: [{ x: 0, y: 0 }, { x: 300, y: 0 }, { x: 300, y: 150 }], position: { x: 150, y: 150 }, createdUserId: "gm" }),
    wallItem({ id: "glass", points: [{ x: 0, y: 0 }, { x: 150, y: 0 }], blocking: false, createdUserId: "gm" }),
  ];
  assert.deepEqual(wallSpecs(square, walls), [
    { id: "w:1", a: [5, 5], b: [15, 5], blocks_move: true, blocks_sight: true, door: "none" },
    { id: "w:2", a: [15, 5], b: [15, 10], blocks_move: true, blocks_sight: true, door: "none" },
  ]);
});

test("the scene is as large as the map image and holds every linked token, nothing else", () => {
  const items = [
    imageItem({ name: "Map", layer: "MAP", position: { x: 0, y: 0 }, width: 2000, height: 1000, gridDpi: 100, offset: { x: 0, y: 0 }, createdUserId: "gm" }),
    imageItem({ id: "hero", name: "Hero", position: { x: 225, y: 375 }, width: 256, height: 256, gridDpi: 256,
      offset: { x: 128, y: 128 }, createdUserId: "gm", metadata: { [LINK_KEY]: { ...link, stats: { hp: 10 } } } }),
    imageItem({ name: "Unlinked prop", layer: "PROP", position: { x: 5000, y: 5000 }, width: 100, height: 100, gridDpi: 100,
      offset: { x: 50, y: 50 }, createdUserId: "gm" }),
  ];
  const scene = sceneFromItems(square, items);
  // 2000 x 1000 image pixels at 100 dpi are 20 x 10 cells, drawn 150 px each.
  assert.deepEqual([scene.grid.width, scene.grid.height], [20, 10]);
  assert.deepEqual(scene.tokens, [{ id: "hero", name: "Hero", owner: "alice", side: "heroes", x: 1, y: 2, size: 1, reach: 5,
    movement: 30, stats: { hp: 10 } }]);
});

test("a token above or left of scene pixel (0, 0) cannot be on the bridge's grid", () => {
  const item = imageItem({ name: "Lost", position: { x: -200, y: 75 }, width: 150, height: 150, gridDpi: 150,
    offset: { x: 75, y: 75 }, createdUserId: "gm", metadata: { [LINK_KEY]: link } });
  assert.throws(() => sceneFromItems(square, [item]), /Lost is left of or above/);
});

test("hex grids: tokens by their centre; larger ones as the bridge's hexagon shape, centred", () => {
  const hex = bridgeGrid({ dpi: 100, type: "HEX_VERTICAL", measurement: "CHEBYSHEV", scale: gridScale("5ft") });
  const item = imageItem({ name: "Elf", position: { x: 213, y: 2 * 100 * Math.sqrt(3) / 2 }, width: 300, height: 300,
    gridDpi: 300, offset: { x: 150, y: 150 }, createdUserId: "gm", metadata: { [LINK_KEY]: link } });
  assert.deepEqual(itemCell(hex, item), [2, 2]);
  const p = cellPosition(hex, item, [3, 1]);
  assert.deepEqual([p.x, Math.round(p.y * 1e6) / 1e6], [350, Math.round(100 * Math.sqrt(3) / 2 * 1e6) / 1e6]);
  // Two hexes across (a 600 px image at 300 dpi): Owlbear draws it centred on the corner
  // where hexes [3, 3], [4, 3] and [4, 4] meet, (400, 3 x 86.6 + 28.9); its anchor is [3, 3].
  const corner = { x: 400, y: 3 * 100 * Math.sqrt(3) / 2 + 100 / (2 * Math.sqrt(3)) };
  const ogre = imageItem({ name: "Ogre", position: corner, width: 600, height: 600, gridDpi: 300,
    offset: { x: 300, y: 300 }, createdUserId: "gm", metadata: { [LINK_KEY]: link } });
  assert.equal(itemSize(ogre), 2);
  assert.deepEqual(itemCell(hex, ogre), [3, 3]);
  assert.deepEqual(itemCell(hex, ogre, { x: corner.x + 12, y: corner.y - 9 }), [3, 3]); // dropped near it
  const back = cellPosition(hex, ogre, [3, 3]);
  assert.ok(Math.abs(back.x - corner.x) < 1e-9 && Math.abs(back.y - corner.y) < 1e-9);
  // Three across (scale 3): the seven hexes around its centre hex.
  const giant = imageItem({ name: "Giant", position: { x: 400, y: 4 * 100 * Math.sqrt(3) / 2 }, width: 300, height: 300,
    gridDpi: 300, scale: { x: 3, y: 3 }, offset: { x: 150, y: 150 }, createdUserId: "gm", metadata: { [LINK_KEY]: link } });
  assert.deepEqual([itemSize(giant), ...itemCell(hex, giant)], [3, 4, 4]);
  const four = imageItem({ name: "Colossus", position: { x: 0, y: 0 }, width: 1200, height: 1200, gridDpi: 300,
    offset: { x: 600, y: 600 }, createdUserId: "gm", metadata: { [LINK_KEY]: link } });
  assert.throws(() => itemCell(hex, four), /4 hexes across has no agreed shape/);
});
