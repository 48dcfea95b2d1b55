// The popover (manifest `action.popover`, and the prompt popover the background opens):
// this player's settings, the initiative order, prompts, and the GM's controls. It talks
// to the background page over OBR.broadcast LOCAL (messages.js).

import OBR, { isCurve, isImage, isShape } from "@owlbear-rodeo/sdk";

import { COMMAND_CHANNEL, STATE_CHANNEL } from "./messages.js";
import { panelHtml } from "./panel.js";
import { applyLink, parseLink } from "./link.js";
import { loadSettings, saveSettings } from "./settings.js";
import { applyTerrain, parseTerrainKind } from "./terrain.js";

const view = new URLSearchParams(window.location.search).get("view") === "prompt" ? "prompt" : "panel";
const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

if (!OBR.isAvailable) {
  $("table").textContent = "This is the vtt-bridge extension for Owlbear Rodeo: add it to a room (see its README) to use it.";
  $("settings").hidden = true;
  $("link").hidden = true;
  $("terrain").hidden = true;
} else {
  OBR.onReady(() => start());
}

function start() {
  /** @type {any} */
  let summary = null;
  // When it arrived, on this page's monotonic clock: its prompts' `remainingMs` count
  // down from here.
  let receivedAt = 0;
  const send = (/** @type {Record<string, unknown>} */ command) =>
    OBR.broadcast.sendMessage(COMMAND_CHANNEL, command, { destination: "LOCAL" });
  const render = () => {
    if (summary) {
      // Redrawn every second: the GM's ruleset choice survives the redraw.
      const chosen = /** @type {HTMLSelectElement | null} */ (document.getElementById("ruleset"))?.value;
      $("table").innerHTML = panelHtml(summary, performance.now() - receivedAt, { view });
      const select = /** @type {HTMLSelectElement | null} */ (document.getElementById("ruleset"));
      if (select && chosen && [...select.options].some((o) => o.value === chosen)) select.value = chosen;
    }
    $("link").hidden = view === "prompt" || summary?.role !== "gm";
    $("terrain").hidden = $("link").hidden;
  };
  OBR.broadcast.onMessage(STATE_CHANNEL, ({ data }) => {
    summary = data;
    receivedAt = performance.now();
    render();
  });
  setInterval(render, 1000); // the prompts' countdowns

  $("table").addEventListener("click", (event) => {
    const button = /** @type {HTMLElement} */ (event.target).closest("[data-op]");
    if (!button || button.tagName === "INPUT") return;
    const { op, prompt, accept, token } = /** @type {HTMLElement} */ (button).dataset;
    if (op === "answer") send({ op, prompt, accept: accept === "true" });
    else if (op === "end_phase") send({ op, token });
    else if (op === "start_combat") send({ op, ruleset: /** @type {HTMLSelectElement} */ ($("ruleset")).value });
    else send({ op });
  });
  $("table").addEventListener("change", (event) => {
    const input = /** @type {HTMLInputElement} */ (event.target);
    if (input.dataset.op === "bypass") send({ op: "bypass", on: input.checked });
  });

  if (view === "prompt") {
    $("settings").hidden = true;
  } else {
    const form = /** @type {HTMLFormElement} */ ($("settings"));
    const saved = loadSettings(window.localStorage, OBR.room.id);
    if (saved) {
      form.url.value = saved.url;
      form.token.value = saved.token;
      form.binary.checked = saved.binary;
    }
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      try {
        saveSettings(window.localStorage, OBR.room.id, { url: form.url.value, token: form.token.value, binary: form.binary.checked });
        $("settings-note").textContent = "Saved in this browser only. Connecting...";
        send({ op: "reconnect" });
      } catch (err) {
        $("settings-note").textContent = /** @type {Error} */ (err).message;
      }
    });
    const link = /** @type {HTMLFormElement} */ ($("link"));
    link.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const spec = parseLink(Object.fromEntries(new FormData(link)));
        const selection = (await OBR.player.getSelection()) ?? [];
        const images = (await OBR.scene.items.getItems(selection)).filter(isImage).map((i) => i.id);
        if (images.length === 0) throw new TypeError("select the tokens to link first");
        await OBR.scene.items.updateItems(images, (drafts) => drafts.forEach((d) => applyLink(d, spec)));
        $("link-note").textContent = `Linked ${images.length} token(s). Send the scene to the bridge.`;
      } catch (err) {
        $("link-note").textContent = /** @type {Error} */ (err).message;
      }
    });
    const terrain = /** @type {HTMLFormElement} */ ($("terrain"));
    terrain.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const kind = parseTerrainKind(new FormData(terrain).get("kind"));
        const selection = (await OBR.player.getSelection()) ?? [];
        const items = await OBR.scene.items.getItems(selection);
        const shapes = items.filter((i) => isShape(i) || isCurve(i)).map((i) => i.id);
        if (shapes.length === 0) throw new TypeError("select the rectangles, circles or drawn shapes to mark first");
        await OBR.scene.items.updateItems(shapes, (drafts) => drafts.forEach((d) => applyTerrain(d, kind)));
        $("terrain-note").textContent = `Marked ${shapes.length} shape(s) ${kind}. Send the scene to the bridge.`;
      } catch (err) {
        $("terrain-note").textContent = /** @type {Error} */ (err).message;
      }
    });
  }
  send({ op: "state" });
}
