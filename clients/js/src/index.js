// @vtt-bridge/client: a client for the vtt-bridge combat backend, as plain ES modules.
export { BridgeClient } from "./client.js";
export { BridgeError, ClientClosedError } from "./errors.js";
export { FrameError, PROTOCOL_VERSION, decodeFrame, encodeJson, encodeMsgpack, toWire } from "./codec.js";
export { FOLDED_KINDS, actionWord, applyEvent, applyPrompt, clockLabel, emptyView, endActionLabel, outerCount, viewFromState } from "./table.js";
export { RulesetWords, render as renderTemplate } from "./words.js";
export {
  FOUNDRY_DEFAULT_SHAPE,
  FOUNDRY_TOKEN_SHAPES,
  FoundryHexScene,
  FoundryScene,
  HEX_SHAPES,
  OwlbearHexScene,
  OwlbearImageGrid,
  OwlbearScene,
  PixelError,
  footprintCells,
  foundryTokenSize,
  pixelsFor,
} from "./pixels.js";
