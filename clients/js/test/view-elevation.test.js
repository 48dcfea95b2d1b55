// The table view labels a flying token with its height (vtt_bridge/static/view/board.js),
// from the elevation the bridge's scene_loaded carries; a token on the ground has none.

import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

import { ROOT } from "./helpers.js";

const { elevationLabel } = await import(pathToFileURL(path.join(ROOT, "vtt_bridge/static/view/board.js")).href);

test("a flier is labelled with its height, a diver with its depth, the ground with nothing", () => {
  assert.equal(elevationLabel({ elevation: 10 }, "m"), "\u2191 10 m");
  assert.equal(elevationLabel({ elevation: -2.5 }, "ft"), "\u2193 2.5 ft");
  assert.equal(elevationLabel({ elevation: 0 }, "m"), "");
  assert.equal(elevationLabel({}, "m"), "");
});
