// The side panels drawn from the client's view: the initiative order and the fight's
// moment, the open prompts with their countdowns, the last move in words.

import { BridgeClient, clockLabel } from "/client/src/index.js";
import { describeHold, placeText } from "./board.js";
import { $, h } from "./dom.js";

/** The last move in words: where it went and where it left threatened areas (the same
 * marks the board keeps until the next move).
 * @param {import("/client/src/table.js").TableView} view */
export function renderLastMove(view) {
  const last = view.lastMove;
  const name = (id) => view.tokens[id]?.name || id;
  let text = "";
  if (last) {
    const state = last.end === "moving" ? "moving" : last.end === "stopped" ? "stopped" : `cost ${last.cost}`;
    text = `Last move: ${name(last.token)} ${placeText(last.path[0])} to ${placeText(last.path.at(-1) ?? [])} (${state}).`;
    for (const exit of last.exits) text += ` Left ${name(exit.by)}'s reach at (${placeText(exit.point)}).`;
  }
  $("last-move").textContent = text;
}

/** The initiative order, the acting combatant marked, with holds, conditions and effects.
 * @param {import("/client/src/table.js").TableView} view
 * @param {Array<{name: string, doc: string}>} [triggers] the fight's trigger words */
export function renderOrder(view, triggers = []) {
  const combat = view.combat;
  $("time").textContent = clockLabel(combat); // the bridge's label, in the game's words
  $("order").replaceChildren(
    ...(combat?.order ?? []).map((id) => {
      const hold = combat.holds[id];
      const name = view.tokens[id]?.name || id;
      const extra = [];
      if (hold) extra.push(h("span", { className: "hold", textContent: ` (${describeHold(hold, view, triggers)})` }));
      for (const condition of combat.conditions[id] ?? []) extra.push(` [${condition}]`);
      for (const effect of Object.values(combat.effects ?? {})) if (effect.token === id) extra.push(` {${effect.name}}`);
      return h("li", { className: combat.actor === id ? "actor" : "" }, [`${name} (${combat.scores[id]})`, ...extra]);
    }),
  );
}

/** The open prompts, worded by the ruleset's description, with buttons for the one a
 * prompt asks.  @param {BridgeClient} client @param {(what: string, run: () => Promise<any>) => Promise<any>} act */
export function renderPrompts(client, act) {
  const me = client.welcome?.participant;
  const items = Object.values(client.view.prompts).map((prompt) => {
    const mine = prompt.controller === me;
    // The ruleset's description words the question and both answers.
    const words = client.promptWords(prompt) ?? {
      question: `${prompt.kind.replaceAll("_", " ")}: ${prompt.attacker} on ${prompt.target}`,
      accept: "Accept",
      decline: "Decline",
      expired: "it counts as declined",
    };
    const text = `${words.question} (${prompt.controller} decides; if nobody does, ${words.expired})`;
    const children = [text, " ", h("span", { className: "countdown", dataset: { prompt: prompt.prompt } })];
    if (mine) {
      children.push(h("br"));
      for (const [label, accept] of [[words.accept, true], [words.decline, false]]) {
        const button = h("button", { textContent: label });
        button.addEventListener("click", () => act("answer_prompt", () => client.answerPrompt(prompt.prompt, accept)));
        children.push(button);
      }
    }
    return h("li", { className: mine ? "mine" : "theirs" }, children);
  });
  $("prompt-list").replaceChildren(...items);
  tick(client);
}

/** Refresh the prompts' countdowns. @param {BridgeClient} client */
export function tick(client) {
  for (const span of document.querySelectorAll(".countdown")) {
    const prompt = client.view.prompts[/** @type {HTMLElement} */ (span).dataset.prompt ?? ""];
    const left = prompt ? BridgeClient.remainingMs(prompt) : null;
    span.textContent = left === null ? "" : `${Math.ceil(left / 1000)} s`;
  }
}
