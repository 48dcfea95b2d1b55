// The module's entry point in Foundry (module.json `esmodules`): the token controls'
// tools as soon as the module loads, settings at `init`, the language at `i18nInit`,
// the bridge connection and the hooks at `ready`. Everything testable lives in the
// modules it imports; this file only reads Foundry's globals (game, ui, Hooks, foundry).

import { BridgeClient } from "../lib/client/src/index.js";
import { addTools } from "./controls.js";
import { escapeHtml, showPrompt } from "./dialog.js";
import { install } from "./hooks.js";
import { t, useI18n } from "./i18n.js";
import { registerQuenchBatch } from "./quench.js";
import { MODULE_ID, listOf } from "./scene.js";
import { chooseRuleset, offerRulesets, readSettings, registerBypassKey, registerSettings } from "./settings.js";

/** The module's parts once the bridge is joined (hooks.js `install`), else null. */
let parts = null;
/** The GM's "Move outside the bridge" toggle in the token controls (controls.js). */
const bypass = { active: false };
let bypassKeyHeld = () => false;

const notify = (level, text) => ui.notifications[level](t("VTTBRIDGE.Prefixed", { text }));

// Before `init`: Foundry builds the scene controls once the canvas is ready and calls
// this hook on every rebuild, so the tools are there from the first build (controls.js).
Hooks.on("getSceneControlButtons", (controls) =>
  addTools(controls, {
    isGM: () => Boolean(game.user?.isGM),
    reopen: () => (parts ? parts.desk.reopen() : notify("info", t("VTTBRIDGE.Notify.notConnected"))),
    bypass,
    toggled: (active) => active && notify("warn", t("VTTBRIDGE.Notify.bypassOn")),
  }));

/** How many of the fight's latest log lines the combat tracker shows. */
const LOG_LINES = 5;

Hooks.once("init", () => {
  registerSettings(game.settings);
  bypassKeyHeld = registerBypassKey(game.keybindings);
});

// Foundry loads the language files after `init`; every string goes through game.i18n.
Hooks.once("i18nInit", () => useI18n(game.i18n));

Hooks.once("quenchReady", (quench) => registerQuenchBatch(quench));

Hooks.once("ready", async () => {
  const { url, token, ruleset } = readSettings(game.settings);
  const module = game.modules.get(MODULE_ID);
  if (!token) {
    notify("info", t("VTTBRIDGE.Notify.noToken"));
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
    if (status === "disconnected") notify("warn", t("VTTBRIDGE.Notify.connectionLost"));
  });
  try {
    await client.connect();
  } catch (err) {
    notify("error", t("VTTBRIDGE.Notify.joinFailed", { url, error: err.message }));
    return;
  }
  // The bridge says which games it plays: they become the ruleset setting's choices, and
  // a GM whose setting names none of them is told which there are (settings.js).
  offerRulesets(game.settings.settings, client.rulesets, ruleset);
  const chosen = chooseRuleset(ruleset, client.rulesets);
  if (game.user.isGM && "error" in chosen) notify("info", chosen.error);
  parts = install({
    Hooks,
    game,
    client,
    generation: game.release.generation,
    notify,
    showPrompt,
    bypassHeld: () => bypass.active || bypassKeyHeld(),
    findCombat: (sceneId) => game.combats.find((c) => (c.scene?.id ?? c._source?.scene) === sceneId) ?? null,
    createCombat: (sceneId) => getDocumentClass("Combat").create({ scene: sceneId, active: true }),
    ruleset: () => game.settings.get(MODULE_ID, "ruleset") ?? ruleset,
    // Square Grid Diagonals is a world setting, not a field of the scene (grid.js DIAGONALS).
    gridDiagonals: () => game.settings.get("core", "gridDiagonals"),
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
    div.textContent = t("VTTBRIDGE.Prefixed", { text: label });
    // The fight's last events in its game's words (the bridge's description: log.js).
    const lines = parts.log.lines(LOG_LINES);
    if (lines.length) {
      const list = document.createElement("ol");
      list.className = "vtt-bridge-log";
      for (const line of lines) list.append(Object.assign(document.createElement("li"), { textContent: line }));
      div.append(list);
    }
    // The prompts someone else answers, with their countdowns (ticked below).
    const waiting = parts.waiting();
    if (waiting.length) {
      const list = document.createElement("ul");
      list.className = "vtt-bridge-waiting";
      for (const { prompt, text } of waiting) {
        const item = Object.assign(document.createElement("li"), { textContent: text });
        item.dataset.prompt = prompt;
        list.append(item);
      }
      div.append(list);
    }
    (root.querySelector(".combat-tracker-header, header") ?? root).prepend(div);
  });
  // Tick the waited-on prompts' countdowns in place, without rendering the tracker again.
  setInterval(() => {
    for (const { prompt, text } of parts.waiting()) {
      const item = document.querySelector(`.vtt-bridge-waiting li[data-prompt="${CSS.escape(prompt)}"]`);
      if (item) item.textContent = text;
    }
  }, 1000);
  client.on("change", () => ui.combat?.render());
  // The fight's description arrived: its log lines can be worded now.
  client.on("ruleset", () => ui.combat?.render());
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
  // rejectClose is an option of DialogV2.wait/prompt/confirm (WaitOptions): closing resolves null.
  await DialogV2.prompt({
    window: { title: t("VTTBRIDGE.JoinTokens.title") },
    content: `<p>${escapeHtml(t("VTTBRIDGE.JoinTokens.intro"))}</p><table>${rows.join("")}</table>`,
    rejectClose: false,
  });
}
