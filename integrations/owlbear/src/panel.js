// The popover's content as HTML text, from the background's table summary (messages.js
// tableSummary). Pure, so node --test checks it; popover.js puts it on the page and turns
// clicks on `data-op` buttons into commands.

import { kindLabel, secondsLeft } from "./messages.js";

/** Text safe to put in HTML. */
export function escapeHtml(/** @type {unknown} */ value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STATUS = {
  unconfigured: "Not connected: enter the bridge URL and your join token below.",
  connecting: "Connecting to the bridge...",
  failed: "The bridge refused the connection.",
  joined: "Connected.",
  disconnected: "Connection lost; reconnecting...",
  closed: "Connection closed.",
};

/**
 * @param {ReturnType<typeof import("./messages.js").tableSummary>} s the summary
 * @param {number} sinceMs milliseconds since the summary arrived (the prompts count down
 *   from their `remainingMs` then)
 * @param {{view?: "panel" | "prompt"}} [options] "prompt": only the prompts (the popover
 *   the background opens when one arrives)
 */
export function panelHtml(s, sinceMs, { view = "panel" } = {}) {
  const parts = [];
  const prompts = s.prompts.map((p) => {
    const left = secondsLeft(p.remainingMs, sinceMs);
    // The game's words (the ruleset description); plain ones until they arrive.
    const w = p.words ?? { question: `${p.attacker} may act against ${p.target}.`, accept: "Accept", decline: "Decline",
      expired: "no answer counts as declining" };
    return `<section class="prompt" data-prompt="${escapeHtml(p.prompt)}">
<h2>${escapeHtml(kindLabel(p.kind))}</h2>
<p class="question">${escapeHtml(w.question)}</p>
${left === null ? "" : `<p class="deadline">${left} s left; if nobody answers, ${escapeHtml(w.expired)}.</p>`}
<button data-op="answer" data-prompt="${escapeHtml(p.prompt)}" data-accept="true">${escapeHtml(w.accept)}</button>
<button data-op="answer" data-prompt="${escapeHtml(p.prompt)}" data-accept="false">${escapeHtml(w.decline)}</button>
</section>`;
  });
  if (view === "prompt") return prompts.length ? prompts.join("\n") : "<p>No prompt is waiting for you.</p>";
  parts.push(`<p class="status">${escapeHtml(STATUS[/** @type {keyof typeof STATUS} */ (s.status)] ?? s.status)}${
    s.participant ? ` You are <b>${escapeHtml(s.participant)}</b> (${escapeHtml(s.role)}).` : ""}</p>`);
  if (s.error) parts.push(`<p class="error">${escapeHtml(s.error)}</p>`);
  parts.push(...prompts);
  // Someone else's prompts: the fight waits on them, and everyone sees for how long.
  for (const p of s.waiting ?? []) {
    const left = secondsLeft(p.remainingMs, sinceMs);
    parts.push(`<p class="waiting" data-prompt="${escapeHtml(p.prompt)}">Waiting on <b>${escapeHtml(p.controller)}</b>: ${
      escapeHtml(p.question ?? kindLabel(p.kind))}${left === null ? "" : ` (${left} s left)`}</p>`);
  }
  if (s.combat) {
    const c = s.combat;
    const rows = c.order.map((o) => `<li class="${o.acting ? "acting" : ""}">${escapeHtml(o.name)}${o.acting ? " (acting)" : ""}${
      o.acting && o.mine ? ` <button data-op="end_phase" data-token="${escapeHtml(o.id)}">End ${escapeHtml(c.action)}</button>` : ""}</li>`);
    parts.push(`<section class="order"><h2>${escapeHtml(c.clock)}${c.paused ? " (paused)" : ""}</h2>
<ol>${rows.join("")}</ol></section>`);
  } else if (s.status === "joined") {
    parts.push(`<p>No fight under way${s.scene ? "" : "; the GM has not sent a scene yet"}.</p>`);
  }
  if (s.log?.length) {
    parts.push(`<section class="log"><h2>Log</h2>
<ol>${s.log.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ol></section>`);
  }
  if (s.role === "gm") {
    // The rulesets the bridge plays, as it names them (`rulesets`, sent after the welcome).
    const options = (s.rulesets ?? [])
      .map((r) => `<option value="${escapeHtml(r.name)}">${escapeHtml(r.title)}</option>`).join("");
    parts.push(`<section class="gm"><h2>GM</h2>
<button data-op="send_scene">Send scene</button>
<button data-op="place_all">Put tokens where the bridge has them</button>
<label>Ruleset <select id="ruleset">${options}</select></label>
${s.combat ? `<button data-op="end_combat">End combat</button>` : `<button data-op="start_combat">Start combat</button>`}
<label><input type="checkbox" data-op="bypass" ${s.bypass ? "checked" : ""}> Bypass: my drags are not sent (clean-up)</label>
</section>`);
  }
  return parts.join("\n");
}
