// The README's example runs as written against a real bridge: only its URL, join token
// and import path are swapped for this bridge's, and the GM's side is played here.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { pathToFileURL } from "node:url";

import { BridgeClient } from "../src/index.js";
import { ROOT, startBridge } from "./helpers.js";

let bridge;
let gm;
before(async () => {
  bridge = await startBridge();
});
after(async () => {
  gm?.close();
  await bridge?.stop();
});

/** The fenced ```js blocks of the README, in order. */
async function examples() {
  const text = await readFile(path.join(ROOT, "clients/js/README.md"), "utf8");
  return [...text.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
}

test("the README's player example plays a Phase against a real bridge", async () => {
  const [player, gmExample] = await examples();
  gm = new BridgeClient(bridge.url, { token: bridge.tokens.gm });
  await gm.connect();
  gm.on("prompt", (prompt) => gm.answerPrompt(prompt.prompt, true).catch(() => {}));
  // The GM's example, as written, sets the table up.
  const setUp = new Function("gm", `return (async () => {\n${gmExample}\n})();`);
  await setUp(gm);
  assert.equal(gm.view.combat.actor, "hero");

  const source = player
    .replace("./clients/js/src/index.js", pathToFileURL(path.join(ROOT, "clients/js/src/index.js")).href)
    .replace("ws://127.0.0.1:8080/ws", bridge.url)
    .replace(/token: "[^"]+"/, `token: "${bridge.tokens.alice}"`);
  assert.notEqual(source, player);
  const dir = await mkdtemp(path.join(tmpdir(), "vtt-readme-"));
  try {
    const file = path.join(dir, "example.mjs");
    await writeFile(file, source);
    const flags = process.execArgv.filter((arg) => arg === "--experimental-websocket");
    const output = await new Promise((resolve, reject) => {
      execFile(process.execPath, [...flags, file], { timeout: 30_000 }, (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stdout}\n${stderr}`));
        else resolve(stdout);
      });
    });
    assert.match(output, /joined table \w+ as alice \(player\)/);
    assert.match(output, /move: events \d+\.\.\d+/);
    assert.match(output, /now at 1,5/);
    assert.doesNotMatch(output, /refused/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  await gm.until((view) => view.combat.actor === "ogre", 10_000);
});
