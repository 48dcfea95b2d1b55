// Waypoints to move_points and back, for every Foundry grid type, against a real bridge:
// the module's pixels are read by the bridge as the cells the module means, and the
// cells the bridge answers become the pixels the token is put on.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { startBridge } from "../../../clients/js/test/helpers.js";
import { BridgeClient } from "../lib/client/src/index.js";
import { sceneGrid } from "../src/grid.js";
import { MODULE_ID, sceneMessage } from "../src/scene.js";
import * as fx from "./fixtures.js";

let bridge;
let gm;
before(async () => {
  bridge = await startBridge({ tables: ["points"] });
  gm = new BridgeClient(bridge.url, { token: bridge.tables.points.gm, reconnect: false });
  await gm.connect();
});
after(async () => {
  gm?.close();
  await bridge?.stop();
});

const GRIDS = [
  ["square", { type: 1, size: 100, distance: 5 }, 1],
  ["square, 2x2 token, odd pixels", { type: 1, size: 72, distance: 1.5 }, 2],
  ["hex rows odd", { type: 2, size: 100, distance: 5 }, 1],
  ["hex rows even", { type: 3, size: 100, distance: 5 }, 1],
  ["hex columns odd", { type: 4, size: 100, distance: 5 }, 1],
  ["hex columns even", { type: 5, size: 100, distance: 5 }, 1],
  ["hex rows odd, size 2", { type: 2, size: 100, distance: 5 }, 2],
  ["hex columns even, size 3", { type: 5, size: 80, distance: 2 }, 3],
];

for (const [label, gridData, size] of GRIDS) {
  test(`move_points on ${label}: the bridge reads the module's pixels as its cells`, async () => {
    const data = fx.scene({ width: 1600, height: 1200, grid: gridData });
    const dims = fx.squareDimensions(data); // hex cells ignore sceneX/sceneY; walls do not matter here
    const grid = sceneGrid(data, dims);
    const start = [3, 3];
    const doc = fx.token({ name: "Runner", width: size, height: size, flags: { [MODULE_ID]: { side: "a" } } });
    Object.assign(doc, grid.tokenXY(start, size, "rectangle_1"));
    data.tokens = [doc];
    const { scene } = sceneMessage(data, { users: [], grid });
    await gm.loadScene(scene);
    assert.deepEqual([gm.view.tokens[doc._id].x, gm.view.tokens[doc._id].y], start);
    // Unsnapped drops a quarter cell off the target (as a drag with snapping off leaves them).
    const targets = [[6, 4], [8, 7], [5, 9]];
    const points = targets.map((c, k) => {
      const { x, y } = grid.tokenXY(c, size, "rectangle_1");
      const off = (grid.size / 4) * (k % 2 ? -1 : 1);
      return [Math.round(x + off), Math.round(y - off / 2)];
    });
    for (const [x, y] of points.slice(0, 2)) {
      const ack = await gm.movePoints(doc._id, [[x, y]]);
      assert.ok(ack.last_event >= ack.first_event);
      const at = [gm.view.tokens[doc._id].x, gm.view.tokens[doc._id].y];
      assert.deepEqual(at, grid.tokenCell(x, y, size, "rectangle_1"));
      // And back: the token document's x/y for that cell reads as the same cell.
      const back = grid.tokenXY(at, size, "rectangle_1");
      assert.deepEqual(grid.tokenCell(back.x, back.y, size, "rectangle_1"), at);
    }
    assert.deepEqual([gm.view.tokens[doc._id].x, gm.view.tokens[doc._id].y], targets[1]);
    // Several waypoints at once: the token ends on the last one's cell.
    await gm.movePoints(doc._id, points);
    assert.deepEqual([gm.view.tokens[doc._id].x, gm.view.tokens[doc._id].y], targets[2]);
  });
}

test("move_points on a gridless scene: the bridge reads each drop as the token's centre, unsnapped", async () => {
  const data = fx.scene({ width: 1600, height: 1200, grid: { type: 0, size: 100, distance: 5 } });
  const grid = sceneGrid(data, fx.squareDimensions(data));
  const doc = fx.token({ name: "Drifter", width: 2, height: 2, flags: { [MODULE_ID]: { side: "a" } } });
  Object.assign(doc, grid.tokenXY([17.5, 12.5], 2));
  data.tokens = [doc];
  const { scene } = sceneMessage(data, { users: [], grid });
  assert.equal(scene.grid.kind, "gridless");
  await gm.loadScene(scene);
  const at = () => [gm.view.tokens[doc._id].x, gm.view.tokens[doc._id].y];
  assert.deepEqual(at(), [17.5, 12.5]);
  // Drops off any cell's corner (as Foundry leaves them on a gridless scene).
  const drops = [[1437, 913], [1211, 1374]];
  for (const [x, y] of drops) {
    await gm.movePoints(doc._id, [[x, y]]);
    assert.ok(grid.samePlace(at(), grid.tokenCell(x, y, 2)), `${at()} vs ${grid.tokenCell(x, y, 2)}`);
    // And back: the whole pixels the module puts the token on are those it dropped.
    assert.deepEqual(grid.tokenXY(at(), 2), { x, y });
  }
});
