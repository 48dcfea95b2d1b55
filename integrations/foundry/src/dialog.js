// The prompt dialog in Foundry (DialogV2, in v12 and v13): the question, a countdown to
// the bridge's deadline (on this browser's monotonic clock: prompts.js `countdown`), and
// the two answers. Foundry-only; the content is prompts.js's.
//
// The dialog is built with `new DialogV2(...)`, not `DialogV2.wait()`, because the desk
// must close it when the bridge closes the prompt. `rejectClose` is an option of
// `wait()`/`prompt()`/`confirm()` (DialogV2.WaitOptions), not of the constructor's
// configuration, so it is not passed: a dialog closed without an answer emits `close`,
// and the desk keeps the prompt for the bell (prompts.js).

import { t } from "./i18n.js";
import { countdown } from "./prompts.js";

/** Escape text for HTML (token names are the GM's and players' own text). */
export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/**
 * Open a dialog for a prompt (prompts.js DeskIO.show).
 * @param {ReturnType<typeof import("./prompts.js").promptModel>} model
 * @param {(accept: boolean) => void} answer
 * @param {() => void} dismissed
 */
export function showPrompt(model, answer, dismissed) {
  const { DialogV2 } = foundry.applications.api;
  let answered = false;
  let ticker = null;
  const reply = (accept) => {
    answered = true;
    answer(accept);
  };
  // What happens if nobody answers, in the game's words (none while they are unknown).
  const expiredHtml = model.expired ? `<p class="vtt-bridge-expired">${escapeHtml(model.expired)}</p>` : "";
  const dialog = new DialogV2({
    window: { title: t("VTTBRIDGE.Prompt.window", { title: model.title }) },
    classes: ["vtt-bridge-prompt"],
    content: `<p>${escapeHtml(model.text)}</p>${expiredHtml}<p class="vtt-bridge-countdown">${countdown(model.localDeadlineMs)}</p>`,
    buttons: [
      { action: "accept", label: escapeHtml(model.accept), default: true, callback: () => reply(true) },
      { action: "decline", label: escapeHtml(model.decline), callback: () => reply(false) },
    ],
  });
  dialog.addEventListener("close", () => {
    if (ticker) clearInterval(ticker);
    if (!answered) dismissed();
  });
  dialog.render({ force: true });
  ticker = setInterval(() => {
    const el = dialog.element?.querySelector(".vtt-bridge-countdown");
    if (el) el.textContent = countdown(model.localDeadlineMs);
  }, 250);
  return { close: () => dialog.close() };
}
