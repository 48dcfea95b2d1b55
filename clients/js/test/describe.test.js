// The server's description of a ruleset, through the client, against a real bridge that
// plays the toy ruleset (tests/toy_ruleset.py) no client file names: its actions' params,
// its log lines, its prompts' words and its held actions all come from the description.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { BridgeClient, BridgeError } from "../src/index.js";
import { render } from "../src/words.js";
import { startBridge, waitFor } from "./helpers.js";

const SCENE = {
  grid: { kind: "square", cell_size: 1, unit: "m", width: 12, height: 12 },
  tokens: [
    // Ann is fast (speed 9 + 1d6 beats 0 + 1d6): she acts first, whatever the dice.
    { id: "ann", name: "Ann", owner: "alice", side: "a", x: 2, y: 2, size: 1, reach: 1, movement: 4,
      stats: { speed: 9 } },
    { id: "bo", name: "Bo", owner: "gm", side: "b", x: 3, y: 2, size: 1, reach: 1, movement: 4,
      stats: { speed: 0 } },
  ],
  walls: [],
  terrain: [],
};

let bridge;
const clients = [];

/** @param {string} who @param {string} [table] one of the bridge's other tables */
async function join(who, table) {
  const client = new BridgeClient(bridge.url, { token: table ? bridge.tables[table][who] : bridge.tokens[who] });
  clients.push(client);
  await client.connect();
  return client;
}

before(async () => {
  bridge = await startBridge({ module: "tests.toy_bridge", tables: ["ambush"] });
});

after(async () => {
  for (const client of clients) client.close();
  await bridge?.stop();
});

test("a game no client names plays in its own words", async () => {
  const gm = await join("gm");
  const alice = await join("alice");
  // The rulesets came with the welcome: the toy among the shipped ones.
  const names = alice.rulesets.map((r) => r.name);
  assert.ok(names.includes("toy-duel") && names.includes("hero-supplement"), names.join());
  assert.deepEqual(await alice.listRulesets(), alice.rulesets);

  // The log keeps events and words them when shown: a fight's first events may come
  // before its description does (the client asks on `combat_started`).
  const events = [];
  alice.on("event", (event) => events.push(event));
  const log = () => events.map((event) => alice.describeEvent(event));
  await gm.loadScene(SCENE);
  await gm.startCombat("toy-duel", { seed: 5 });
  await waitFor(() => alice.ruleset?.name === "toy-duel" && gm.ruleset?.name === "toy-duel");
  assert.equal(alice.ruleset.title, "Toy duel");
  assert.deepEqual(alice.ruleset.move_modes, ["stride", "sneak"]);

  // Its actions' params, as the toy's dataclasses declare them.
  const zap = alice.actionParams("zap:bo");
  assert.equal(zap.name, "zap");
  assert.deepEqual([zap.when, zap.target, zap.area, zap.dice, zap.choices], ["turn", true, false, ["rolls"], true]);
  const power = zap.params.find((p) => p.name === "power");
  assert.deepEqual([power.type, power.min, power.max, power.default, power.required], ["integer", 1, 3, 1, false]);
  const ambush = alice.actionParams("ambush");
  assert.equal(ambush.area, true);
  assert.deepEqual(ambush.params.find((p) => p.name === "on").choices, ["action", "enter", "sight"]);
  assert.equal(alice.actionParams("daze").when, "gm");
  assert.equal(alice.actionParams("fireball"), null);

  // Its log lines: the toy's template, names for ids, the die as rolled.
  const zaps = [];
  alice.on("event:toy_zapped", (data) => zaps.push(data));
  await alice.act("ann", "zap", { target: "bo" });
  await waitFor(() => zaps.length === 1);
  const [zapped] = zaps;
  const zapLine = `Ann zaps Bo: 1d6 ${zapped.roll}, ${zapped.hit ? "a hit" : "a miss"}`;
  let lines = log();
  assert.ok(lines.includes(zapLine), lines.join("\n"));
  assert.ok(lines.includes("The fight begins (Toy duel); aware: Ann, Bo"), lines.join("\n"));
  assert.ok(lines.includes("Round 1 begins"), lines.join("\n"));

  // Its prompts: striding out of Bo's reach provokes; the GM's question and answers.
  await alice.move("ann", [[1, 2], [0, 2]], { mode: "stride" });
  await waitFor(() => gm.myPrompts().length === 1);
  const [prompt] = gm.myPrompts();
  assert.deepEqual(gm.promptWords(prompt), {
    question: "Bo may attack Ann, who is leaving its reach",
    accept: "Attack",
    decline: "Let them pass",
    expired: "they pass unattacked",
  });
  await gm.answerPrompt(prompt.prompt, false);
  await waitFor(() => alice.view.tokens.ann.x === 0);
  lines = log();
  assert.ok(lines.includes("Ann arrives on (0, 2) (cost 2, 2 left)"), lines.join("\n"));
  assert.ok(lines.includes("The question was declined by gm"), lines.join("\n"));
  assert.ok(lines.every((line) => typeof line === "string" && !/[{}[\]]/.test(line)), lines.join("\n"));

  // A member joining mid-fight has the description before its connect() resolves.
  const late = await join("bob");
  assert.equal(late.ruleset?.name, "toy-duel");
  assert.equal(late.describeEvent({ kind: "toy_ambush", data: { combatant: "bo", on: "sight", by: null } }),
    "Bo lies in ambush until sight");
});

test("any shipped ruleset is described on request; an unknown one is refused", async () => {
  const alice = await join("alice");
  const hero = await alice.describeRuleset("hero-supplement");
  assert.deepEqual(hero.time.units.map((u) => [u.key, u.name, u.seconds]), [["turn", "Turn", 12], ["phase", "Phase", 3]]);
  assert.equal(hero.time.action, "Phase");
  assert.equal(hero.actions.find((a) => a.name === "abort").when, "any");
  const template = hero.events.find((e) => e.kind === "attack_rolled").template;
  const data = { attacker: "ogre", target: "hero", attack: "strike", dice: [2, 1, 5], ocv: 5, dcv: 4,
    total: 13, target_number: 14, hit: false };
  assert.equal(render(template, data, (id) => id.toUpperCase()),
    "OGRE attacks HERO (strike): 3d6 8 (2, 1, 5) + OCV 5 = 13 vs 10 + DCV 4 = 14: miss");
  assert.equal(alice.describeEvent({ kind: "attack_rolled", data }, "hero-supplement"),
    "ogre attacks hero (strike): 3d6 8 (2, 1, 5) + OCV 5 = 13 vs 10 + DCV 4 = 14: miss");
  await assert.rejects(alice.describeRuleset("dnd5e"),
    (err) => err instanceof BridgeError && err.code === "unknown_ruleset" && err.path === "body.ruleset");
});

test("a game no client names shows its held actions, from the events and from a state", async () => {
  const gm = await join("gm", "ambush");
  const alice = await join("alice", "ambush");
  assert.equal(alice.holds["toy-duel"].declared, "toy_ambush", "with the rulesets, before any fight");
  await gm.loadScene(SCENE);
  await gm.startCombat("toy-duel", { seed: 5 });
  await alice.until((v) => v.combat?.actor === "ann", 10_000);
  const hold = (area) => ({ combatant: "ann", kind: "ambush", before: null, action: null, trigger: "enter", triggerBy: null, area });

  // Round 1: an ambush far away, drawn; it lapses at the end of the Round.
  await alice.act("ann", "ambush", { on: "enter", area: [[10, 10]] });
  await alice.until((v) => "ann" in v.combat.holds, 10_000);
  assert.deepEqual(alice.view.combat.holds.ann, hold([[10, 10]]));
  await alice.endPhase("ann");
  await gm.until((v) => v.combat?.actor === "bo", 10_000);
  await gm.endPhase("bo");
  await alice.until((v) => v.combat?.actor === "ann" && !("ann" in v.combat.holds), 10_000);

  // Round 2: an ambush on Bo's way; a member joining now has it from the state.
  await alice.act("ann", "ambush", { on: "enter", area: [[3, 4]] });
  await alice.until((v) => "ann" in v.combat.holds, 10_000);
  const late = await join("bob", "ambush");
  assert.deepEqual(late.view.combat.holds.ann, hold([[3, 4]]));
  await alice.endPhase("ann");
  await gm.until((v) => v.combat?.actor === "bo", 10_000);
  // Bo sneaks (no attack of opportunity) into the area: Ann's player is asked, takes
  // it, and Ann acts at once, out of turn; her hold is spent.
  await gm.move("bo", [[3, 3], [3, 4]], { mode: "sneak" });
  await alice.until((v) => alice.myPrompts().some((p) => p.kind === "readied_action"), 10_000);
  const [asked] = alice.myPrompts();
  await alice.answerPrompt(asked.prompt, true);
  for (const client of [alice, late]) {
    await client.until((v) => v.combat.interjector === "ann", 10_000);
    assert.deepEqual(client.view.combat.holds, {});
    assert.equal(client.view.combat.actor, "ann");
  }
});
