// The module's entry point in Foundry (module.json `esmodules`): settings at `init`, the
// bridge connection and the hooks at `ready`. Everything testable lives in the modules
// it imports; this file only reads Foundry's globals (game, ui, Hooks, foundry).

import { BridgeClient } from "../lib/client/src/index.js";
import { escapeHtml, showPrompt } from "./dialog.js";
import { install } from "./hooks.js";
import { registerQuenchBatch } from "./quench.js";
import { MODULE_ID, listOf } from "./scene.js";
import { readSettings, registerBypassKey, registerSettings } from "./settings.js";

let bypassHeld = () => false;

Hooks.once("init", () => {
  registerSettings(game.settings);
  bypassHeld = registerBypassKey(game.keybindings);
});

Hooks.once("quenchReady", (quench) => registerQuenchBatch(quench));

Hooks.once("ready", async () => {
  const { url, token, ruleset } = readSettings(game.settings);
  const module = game.modules.get(MODULE_ID);
  if (!token) {
    ui.notifications.info("vtt-bridge: enter your join token under Configure Settings to join the bridge.");
    return;
  }
  // A stable client id and seq across reloads, so a command sent just before a reload
  // is answered, not applied twice (clients/js README). Kept in this browser only.
  const key = `${MODULE_ID}.client.${game.world.id}.${game.user.id}`;
  const saved = JSON.parse(localStorage.getItem(key) ?? "{}");
  const client = new BridgeClient(url, { token, binary: true, clientId: saved.clientId, seq: saved.seq });
  const save = () => localStorage.setItem(key, JSON.stringify({ clientId: client.clientId, seq: client.seq }));
  window.addEventListener("beforeunload", save);
  client.on("status", (status) => {
    save();
    if (status === "disconnected") ui.notifications.warn("vtt-bridge: connection lost, reconnecting...");
  });
  const notify = (level, text) => ui.notifications[level](`vtt-bridge: ${text}`);
  try {
    await client.connect();
  } catch (err) {
    notify("error", `could not join the bridge at ${url}: ${err.message}`);
    return;
  }
  const parts = install({
    Hooks,
    game,
    client,
    generation: game.release.generation,
    notify,
    showPrompt,
    bypassHeld: () => bypassHeld(),
    findCombat: (sceneId) => game.combats.find((c) => (c.scene?.id ?? c._source?.scene) === sceneId) ?? null,
    createCombat: (sceneId) => getDocumentClass("Combat").create({ scene: sceneId, active: true }),
    ruleset: () => game.settings.get(MODULE_ID, "ruleset") ?? ruleset,
  });
  module.api = { client, ...parts, issueJoinTokens: () => issueJoinTokens(client) };

  // The fight's moment in its game's words (the bridge's label) beside Foundry's round,
  // on every client (v12 passes jQuery, v13 an element).
  Hooks.on("renderCombatTracker", (_app, html) => {
    const root = html instanceof HTMLElement ? html : html?.[0];
    const label = parts.phaseLabel();
    if (!root || !label) return;
    root.querySelector(".vtt-bridge-phase")?.remove();
    const div = document.createElement("div");
    div.className = "vtt-bridge-phase";
    div.textContent = `vtt-bridge: ${label}`;
    (root.querySelector(".combat-tracker-header, header") ?? root).prepend(div);
  });
  client.on("change", () => ui.combat?.render());

  // A button on the token controls brings back prompts whose dialog was closed.
  Hooks.on("getSceneControlButtons", (controls) => {
    const tool = {
      name: "vtt-bridge-prompts",
      title: "VTTBRIDGE.Controls.prompts",
      icon: "fa-solid fa-bell",
      button: true,
      visible: true,
      onClick: () => parts.desk.reopen(), // v12
      onChange: () => parts.desk.reopen(), // v13
    };
    const tokens = Array.isArray(controls) ? controls.find((c) => c.name === "token") : controls.tokens;
    if (!tokens) return;
    if (Array.isArray(tokens.tools)) tokens.tools.push(tool);
    else tokens.tools[tool.name] = { ...tool, order: Object.keys(tokens.tools).length };
  });
  ui.controls?.render();
  if (game.user.isGM) parts.sendScene();
});

/** GM: issue a join token for every player, as its Foundry user id, and show them. */
async function issueJoinTokens(client) {
  const rows = [];
  for (const user of listOf(game.users)) {
    if (user.isGM) continue;
    const issued = await client.issueToken(user.id, "player");
    rows.push(`<tr><td>${escapeHtml(user.name)}</td><td><code>${escapeHtml(issued.token)}</code></td></tr>`);
  }
  const { DialogV2 } = foundry.applications.api;
  await DialogV2.prompt({
    window: { title: "vtt-bridge: join tokens" },
    content: `<p>Give each player their own token (it goes in their Configure Settings, never in chat):</p><table>${rows.join("")}</table>`,
    rejectClose: false,
  });
}
