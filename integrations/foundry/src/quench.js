// The module's test batch for a real Foundry, run with the Quench module
// (https://github.com/Ethaks/FVTT-Quench): README "Testing in Foundry" says how.
// It checks what Node cannot: that Foundry's own grid agrees with src/grid.js on the
// open scene, that the settings keep join tokens in the browser, that the hooks are in
// place for this Foundry generation, and that a drag in a running fight is refused.

import { DIAGONALS, defaultHexShape, HEX_SHAPES, sceneGrid, tokenHexShape } from "./grid.js";
import { MODULE_ID, listOf, sceneMessage } from "./scene.js";
import { SETTINGS } from "./settings.js";

/** Register the batch "vtt-bridge.module" with Quench. */
/** The open scene's grid as the module reads it (main.js passes the same options). */
function liveGrid(scene) {
  return sceneGrid(scene, scene.dimensions, {
    generation: game.release.generation,
    diagonals: game.settings.get("core", "gridDiagonals"),
  });
}

export function registerQuenchBatch(quench) {
  quench.registerBatch(
    `${MODULE_ID}.module`,
    (context) => {
      const { describe, it, assert } = context;

      describe("settings", () => {
        it("keeps the URL and the join token in this browser, the ruleset in the world", () => {
          for (const key of Object.keys(SETTINGS)) {
            const setting = game.settings.settings.get(`${MODULE_ID}.${key}`);
            assert.ok(setting, key);
            assert.equal(setting.scope, SETTINGS[key].scope, key);
          }
          assert.equal(game.settings.settings.get(`${MODULE_ID}.token`).scope, "client");
        });
      });

      describe("the open scene's grid", () => {
        it("puts every hex or square centre where Foundry's grid does", () => {
          const scene = canvas.scene;
          const grid = liveGrid(scene);
          for (let i = 0; i < 6; i++) {
            for (let j = 0; j < 6; j++) {
              if (grid.centerPx) {
                const ours = grid.centerPx([j, i]);
                const theirs = canvas.grid.getCenterPoint({ i, j });
                assert.closeTo(ours.x, theirs.x, 0.01, `hex ${i},${j}`);
                assert.closeTo(ours.y, theirs.y, 0.01, `hex ${i},${j}`);
              } else {
                const { x, y } = grid.tokenXY([j, i]);
                const theirs = canvas.grid.getTopLeftPoint({ x: x + 1, y: y + 1 });
                assert.deepEqual([theirs.x, theirs.y], [x, y], `square ${i},${j}`);
              }
            }
          }
        });

        it("turns every token's position into a cell and back", () => {
          const scene = canvas.scene;
          const grid = liveGrid(scene);
          for (const doc of listOf(scene.tokens)) {
            const shape = tokenHexShape(doc, grid.defaultShape);
            const cell = grid.tokenCell(doc.x, doc.y, doc.width, shape);
            const back = grid.tokenXY(cell, doc.width, shape);
            assert.closeTo(back.x, doc.x, 1, doc.name);
            assert.closeTo(back.y, doc.y, 1, doc.name);
          }
        });

        it("sends the world's Square Grid Diagonals, as the live grid has them", () => {
          const grid = liveGrid(canvas.scene);
          if (!grid.spec().kind.startsWith("square")) return;
          assert.equal(grid.spec().diagonal, DIAGONALS[canvas.grid.diagonals]);
        });

        it("gives a token without a shape this generation's default shape", () => {
          const fields = getDocumentClass("Token").schema.fields;
          const initial = (fields.shape ?? fields.hexagonalShape).initial;
          assert.equal(defaultHexShape(game.release.generation), HEX_SHAPES[typeof initial === "function" ? initial() : initial]);
        });

        it("makes a scene message the bridge's limits allow", () => {
          const scene = canvas.scene;
          const { scene: message } = sceneMessage(scene, { users: game.users, grid: liveGrid(scene) });
          assert.ok(message.grid.width * message.grid.height <= 1_000_000);
          assert.ok(message.walls.length <= 4000 && message.terrain.length <= 512);
          for (const t of message.tokens) assert.ok(t.x >= 0 && t.y >= 0 && t.x < message.grid.width && t.y < message.grid.height);
        });
      });

      describe("the hooks", () => {
        it("has the prompts bell (and the GM's bypass toggle) in the token controls", () => {
          const controls = ui.controls.controls;
          const tokens = Array.isArray(controls) ? controls.find((c) => c.name === "token") : controls.tokens;
          const names = Array.isArray(tokens.tools) ? tokens.tools.map((t) => t.name) : Object.keys(tokens.tools);
          assert.include(names, "vtt-bridge-prompts");
          if (game.user.isGM) assert.include(names, "vtt-bridge-bypass");
        });


        it("listens to this generation's move hook", () => {
          const name = game.release.generation >= 13 ? "preMoveToken" : "preUpdateToken";
          assert.ok((Hooks.events[name] ?? []).length > 0, name);
        });

        it("refuses a drag of a fighting token and leaves it where it was", async function () {
          const api = game.modules.get(MODULE_ID).api;
          const fight = api?.client.view.combat;
          const doc = fight && listOf(canvas.scene.tokens).find((t) => t.isOwner && t.id in api.client.view.tokens);
          if (!doc) return this.skip(); // needs a running fight and a token of ours
          const before = [doc.x, doc.y];
          const step = canvas.scene.grid.size;
          const moved = game.release.generation >= 13
            ? await doc.move([{ x: doc.x + step, y: doc.y }], { method: "dragging" })
            : await doc.update({ x: doc.x + step });
          assert.notOk(game.release.generation >= 13 ? moved : moved?.x === before[0] + step);
          assert.deepEqual([doc.x, doc.y], before);
        });
      });
    },
    { displayName: "vtt-bridge: the Foundry module" },
  );
}
