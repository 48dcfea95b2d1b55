// The module's tools in Foundry's token controls: the prompts bell (everyone: it brings
// back prompts whose dialog was closed) and the GM's "Move outside the bridge" toggle.
//
// main.js registers `addTools` on `getSceneControlButtons` before `init`, so the tools
// are in the controls Foundry builds first and in every rebuild. Registering later (at
// `ready`) misses the first build, and `ui.controls.render()` alone does not rebuild:
// v13 needs `render({reset: true})` (SceneControls.RenderOptions.reset: "Re-prepare the
// possible list of controls"), v12 `initialize()`. The tools' callbacks look the
// module's parts up when clicked, so they work once the bridge is joined.
//
// The hook's argument differs by generation (foundry-vtt-types, hooks.d.mts):
// * v12: `SceneControl[]`; the token control is `name: "token"`, its `tools` an Array;
//   a button calls `onClick()`, a toggle `onClick(toggled)`.
// * v13+: `Record<string, SceneControl>`; the token control is `controls.tokens`, its
//   `tools` a Record by name, each with an `order`; every tool calls
//   `onChange(event, active)` (v13 warns about `onClick`, so each generation gets only its own).

/** The tools' names (unique among the token control's tools). */
export const PROMPTS_TOOL = "vtt-bridge-prompts";
export const BYPASS_TOOL = "vtt-bridge-bypass";

/**
 * @typedef {object} ToolIO
 * @property {() => boolean} isGM is this user a GM (the bypass toggle is theirs only)?
 * @property {() => void} reopen show the waiting prompts again
 * @property {{active: boolean}} bypass the toggle's state, read by the drag hook
 * @property {(active: boolean) => void} [toggled] told when the GM switches the toggle
 */

/**
 * Add the module's tools to the token control of `controls` (the hook's argument, v12
 * Array or v13 Record). Returns whether the token control was found.
 * @param {any} controls @param {ToolIO} io
 */
export function addTools(controls, io) {
  const v12 = Array.isArray(controls);
  const tokens = v12 ? controls.find((c) => c.name === "token") : controls?.tokens;
  if (!tokens) return false;
  const setBypass = (active) => {
    io.bypass.active = Boolean(active);
    io.toggled?.(io.bypass.active);
  };
  const tools = [
    {
      name: PROMPTS_TOOL,
      title: "VTTBRIDGE.Controls.prompts",
      icon: "fa-solid fa-bell",
      button: true,
      visible: true,
      ...(v12 ? { onClick: () => io.reopen() } : { onChange: () => io.reopen() }),
    },
    {
      name: BYPASS_TOOL,
      title: "VTTBRIDGE.Controls.bypass",
      icon: "fa-solid fa-person-walking-arrow-right",
      toggle: true,
      active: io.bypass.active,
      visible: io.isGM(),
      ...(v12 ? { onClick: (toggled) => setBypass(toggled) } : { onChange: (_event, active) => setBypass(active) }),
    },
  ];
  if (Array.isArray(tokens.tools)) {
    tokens.tools.push(...tools);
  } else {
    let order = Math.max(-1, ...Object.values(tokens.tools).map((t) => t.order ?? 0));
    for (const tool of tools) tokens.tools[tool.name] = { ...tool, order: ++order };
  }
  return true;
}
