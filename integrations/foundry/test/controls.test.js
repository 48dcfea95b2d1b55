// The token controls' tools (controls.js) in the controls Foundry hands to
// `getSceneControlButtons`: v12's Array of controls, v13's Record of controls, each
// shaped as Foundry builds them (foundry-vtt-types: v12 branch apps/hud/controls.d.mts,
// main applications/ui/scene-controls.d.mts).

import assert from "node:assert/strict";
import { test } from "node:test";

import { BYPASS_TOOL, PROMPTS_TOOL, addTools } from "../src/controls.js";
import { EN } from "./i18n.js";

/** v12 SceneControls#_getControlButtons: an Array; the token control is "token". */
const v12Controls = () => [
  { name: "token", title: "CONTROLS.GroupToken", layer: "tokens", icon: "fas fa-user-alt", visible: true, activeTool: "select",
    tools: [{ name: "select", title: "CONTROLS.BasicSelect", icon: "fas fa-expand" }, { name: "target", title: "CONTROLS.TargetSelect", icon: "fas fa-bullseye" }] },
  { name: "measure", title: "CONTROLS.GroupMeasure", layer: "templates", icon: "fas fa-ruler-combined", visible: true, activeTool: "circle", tools: [] },
];

/** v13 SceneControls#_prepareControls: a Record; the token control is "tokens", tools by name with `order`. */
const v13Controls = () => ({
  tokens: { name: "tokens", order: 1, title: "CONTROLS.GroupToken", layer: "tokens", icon: "fa-solid fa-user-large", activeTool: "select",
    tools: { select: { name: "select", order: 1, title: "CONTROLS.BasicSelect", icon: "fa-solid fa-expand" }, ruler: { name: "ruler", order: 3, title: "CONTROLS.BasicMeasure", icon: "fa-solid fa-ruler" } } },
  templates: { name: "templates", order: 2, title: "CONTROLS.GroupMeasure", icon: "fa-solid fa-ruler-combined", tools: {} },
});

function io({ gm = true } = {}) {
  const calls = [];
  return { calls, isGM: () => gm, reopen: () => calls.push("reopen"), bypass: { active: false }, toggled: (on) => calls.push(["toggled", on]) };
}

test("v12: the bell and the GM's toggle join the token tools, with v12's onClick", () => {
  const controls = v12Controls();
  const seat = io();
  assert.equal(addTools(controls, seat), true);
  const tools = controls[0].tools;
  assert.deepEqual(tools.map((t) => t.name), ["select", "target", PROMPTS_TOOL, BYPASS_TOOL]);
  const [bell, bypass] = tools.slice(2);
  assert.equal(bell.button, true);
  assert.equal(bypass.toggle, true);
  assert.ok(!("onChange" in bell) && !("onChange" in bypass));
  bell.onClick();
  bypass.onClick(true); // v12 passes the toggle's new state
  assert.equal(seat.bypass.active, true);
  bypass.onClick(false);
  assert.deepEqual(seat.calls, ["reopen", ["toggled", true], ["toggled", false]]);
  assert.equal(seat.bypass.active, false);
  assert.deepEqual(controls[1].tools, []); // the other controls untouched
});

test("v13: tools by name after the existing ones, with onChange(event, active) only", () => {
  const controls = v13Controls();
  const seat = io();
  addTools(controls, seat);
  const tools = controls.tokens.tools;
  assert.deepEqual(Object.keys(tools), ["select", "ruler", PROMPTS_TOOL, BYPASS_TOOL]);
  assert.deepEqual([tools[PROMPTS_TOOL].order, tools[BYPASS_TOOL].order], [4, 5]);
  assert.ok(!("onClick" in tools[PROMPTS_TOOL]) && !("onClick" in tools[BYPASS_TOOL]));
  tools[PROMPTS_TOOL].onChange(new Event("click"), true);
  tools[BYPASS_TOOL].onChange(new Event("click"), true);
  assert.deepEqual(seat.calls, ["reopen", ["toggled", true]]);
  // A rebuild (render({reset: true}), a scene change) shows the toggle as it is.
  const again = v13Controls();
  addTools(again, seat);
  assert.equal(again.tokens.tools[BYPASS_TOOL].active, true);
});

test("the bypass toggle is the GM's only; the titles are lang/en.json keys", () => {
  const controls = v13Controls();
  addTools(controls, io({ gm: false }));
  const tools = controls.tokens.tools;
  assert.equal(tools[BYPASS_TOOL].visible, false);
  assert.equal(tools[PROMPTS_TOOL].visible, true);
  for (const tool of [tools[PROMPTS_TOOL], tools[BYPASS_TOOL]]) assert.ok(tool.title in EN, tool.title);
  assert.equal(addTools({ templates: {} }, io()), false); // no token control: nothing added
});
