// OBR.scene.grid -> the bridge's grid, for every grid type and measurement the SDK
// declares (SDK 3.1.0 types/Grid.d.ts: GridType, GridMeasurement, GridScale).

import assert from "node:assert/strict";
import { test } from "node:test";

import { bridgeGrid, GridNotSupported, gridSpec, readGrid } from "../src/grid.js";
import { FakeRoom, gridScale } from "./fake-obr.js";

const grid = (/** @type {Partial<{dpi: number, type: string, measurement: string, scale: string}>} */ g) => ({
  dpi: 150, type: "SQUARE", measurement: "CHEBYSHEV", ...g, scale: gridScale(g.scale ?? "5ft"),
});

test("square grids keep Owlbear's measurement as the bridge's diagonal rule", () => {
  const cases = [
    ["CHEBYSHEV", "one"], // every step one cell, as Owlbear's default ruler counts
    ["ALTERNATING", "alternating"], // 1-2-1
    ["EUCLIDEAN", "euclidean"], // exact length
    ["MANHATTAN", "none"], // no diagonal steps at all
  ];
  for (const [measurement, diagonal] of cases) {
    assert.deepEqual(gridSpec(bridgeGrid(grid({ measurement })), 10, 8), {
      kind: "square", cell_size: 5, unit: "ft", width: 10, height: 8, diagonal, vtt: { kind: "owlbear", grid_size: 150 },
    });
  }
});

test("hex grids: vertical is pointy-top, horizontal flat-top, and they take no diagonal rule", () => {
  for (const [type, kind] of [["HEX_VERTICAL", "hex_pointy"], ["HEX_HORIZONTAL", "hex_flat"]]) {
    for (const measurement of ["CHEBYSHEV", "ALTERNATING", "EUCLIDEAN", "MANHATTAN"]) {
      const spec = gridSpec(bridgeGrid(grid({ type, measurement, dpi: 100, scale: "2m" })), 6, 6);
      assert.deepEqual(spec, { kind, cell_size: 2, unit: "m", width: 6, height: 6, vtt: { kind: "owlbear", grid_size: 100 } });
    }
  }
});

test("scales: decimals, and a bare number gets a unit the protocol accepts", () => {
  assert.equal(bridgeGrid(grid({ scale: "2.5m" })).cellSize, 2.5);
  assert.deepEqual([bridgeGrid(grid({ scale: "1" })).unit, bridgeGrid(grid({ scale: "1" })).cellSize], ["cell", 1]);
});

test("what cannot be mapped is refused with a reason for the GM", () => {
  for (const type of ["ISOMETRIC", "DIMETRIC"]) {
    assert.throws(() => bridgeGrid(grid({ type })), (e) => e instanceof GridNotSupported && e.message.includes(type));
  }
  assert.throws(() => bridgeGrid(grid({ scale: "0ft" })), GridNotSupported);
  assert.throws(() => bridgeGrid({ ...grid({}), scale: { raw: "far", parsed: { multiplier: NaN, unit: "", digits: 0 } } }), GridNotSupported);
  assert.throws(() => bridgeGrid(grid({ dpi: 0 })), GridNotSupported);
});

test("readGrid reads the SDK's getters", async () => {
  const obr = new FakeRoom({ dpi: 140, type: "HEX_HORIZONTAL", measurement: "EUCLIDEAN", scale: "10ft" }).join("p1", "GM");
  assert.deepEqual(await readGrid(obr.scene.grid), {
    dpi: 140, type: "HEX_HORIZONTAL", measurement: "EUCLIDEAN",
    scale: { raw: "10ft", parsed: { multiplier: 10, unit: "ft", digits: 0 } },
  });
});
