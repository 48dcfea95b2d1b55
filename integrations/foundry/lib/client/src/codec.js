// Frames to messages and back: JSON text frames and msgpack binary frames, one envelope
// or a batch (an array of envelopes) per frame.  No socket here: the client feeds it.
//
// Both codecs see the same plain values, so a message means the same whichever kind of
// frame carries it.  What JavaScript would otherwise get wrong is settled in toWire()
// and fromWire():
//   * `undefined` map values are left out (as JSON.stringify does; msgpack would write
//     nil, which the server reads as an explicit null); `undefined` in a list is null.
//   * Date, Map, Set, typed arrays, functions and symbols are refused with a TypeError:
//     the protocol has none of them (msgpack would write a timestamp extension or binary
//     data, which the server refuses, and JSON would quietly write an ISO string or {}).
//   * NaN and infinities are refused (JSON.stringify would write null).
//   * Integers beyond 2^53: the server allows -(2^63-1)..2^63-1.  msgpack frames keep
//     them exact as BigInt (smaller ones are ordinary numbers); a JSON text frame cannot
//     (JSON.parse rounds), so a text frame holding an integer beyond 2^53 is refused with
//     a FrameError `unsafe_integer` rather than read wrong.  Sending, a BigInt is written
//     exactly in either kind of frame.

import { Decoder, Encoder } from "../vendor/msgpack/index.mjs";

/** Protocol version spoken. */
export const PROTOCOL_VERSION = 1;

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const INT64_MAX = 2n ** 63n - 1n;

/** A frame from the server that cannot be read (not JSON or msgpack, not envelopes,
 * or holding an integer JSON cannot carry exactly). */
export class FrameError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   */
  constructor(code, message) {
    super(message);
    this.name = "FrameError";
    /** @type {string} */
    this.code = code;
  }
}

/**
 * @typedef {object} Envelope
 * @property {number} v protocol version
 * @property {string} type message type, e.g. "move" or "event"
 * @property {number} seq the sender's sequence number
 * @property {Record<string, any>} body the message's fields
 */

/**
 * A plain copy of `value` fit for either codec (see the module comment).
 * @param {unknown} value
 * @param {string} [path]
 * @returns {unknown}
 */
export function toWire(value, path = "") {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`${path || "value"}: ${value} is not a wire number`);
      return value;
    case "bigint":
      if (value > INT64_MAX || value < -INT64_MAX) {
        throw new TypeError(`${path || "value"}: ${value} is outside the protocol's integers`);
      }
      return value >= -SAFE && value <= SAFE ? Number(value) : value;
    case "undefined":
      return null;
    case "object": {
      if (value === null) return null;
      if (Array.isArray(value)) return value.map((v, i) => toWire(v, `${path}[${i}]`));
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) {
        const kind = value.constructor?.name ?? "object";
        throw new TypeError(`${path || "value"}: a ${kind} is not a wire value (send plain objects, arrays, numbers, strings)`);
      }
      /** @type {Record<string, unknown>} */
      const out = {};
      for (const [key, v] of Object.entries(value)) {
        if (v === undefined) continue;
        out[key] = toWire(v, path ? `${path}.${key}` : key);
      }
      return out;
    }
    default:
      throw new TypeError(`${path || "value"}: a ${typeof value} is not a wire value`);
  }
}

// A BigInt has no JSON form; it is written as a marked string, then the marks removed.
const BIG_MARK = "\u0000bigint:";
const BIG_QUOTED = /"\\u0000bigint:(-?\d+)"/g;

/**
 * One envelope as a JSON text frame.
 * @param {Envelope} envelope
 * @returns {string}
 */
export function encodeJson(envelope) {
  let big = false;
  const text = JSON.stringify(toWire(envelope), (_key, v) => {
    if (typeof v !== "bigint") return v;
    big = true;
    return BIG_MARK + v.toString();
  });
  return big ? text.replace(BIG_QUOTED, "$1") : text;
}

const encoder = new Encoder({ useBigInt64: true, ignoreUndefined: true });

/**
 * One envelope as a msgpack binary frame.
 * @param {Envelope} envelope
 * @returns {Uint8Array}
 */
export function encodeMsgpack(envelope) {
  return encoder.encode(toWire(envelope));
}

// The server never sends extension types; a timestamp would be decoded by the library's
// default codec, which is harmless.  int64/uint64 come out as BigInt and are turned back
// into numbers when exact.
const decoder = new Decoder({ useBigInt64: true });

/**
 * @param {unknown} value
 * @returns {unknown}
 */
function narrowBigInts(value) {
  if (typeof value === "bigint") return value >= -SAFE && value <= SAFE ? Number(value) : value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = narrowBigInts(value[i]);
    return value;
  }
  if (value !== null && typeof value === "object") {
    const record = /** @type {Record<string, unknown>} */ (value);
    for (const key of Object.keys(record)) record[key] = narrowBigInts(record[key]);
  }
  return value;
}

/**
 * @param {unknown} value
 * @param {string} path
 */
function refuseUnsafe(value, path) {
  if (typeof value === "number") {
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
      throw new FrameError("unsafe_integer", `${path}: an integer beyond 2^53 cannot be read exactly from JSON; join with binary frames (msgpack)`);
    }
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => refuseUnsafe(v, `${path}[${i}]`));
  } else if (value !== null && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) refuseUnsafe(v, `${path}.${key}`);
  }
}

/**
 * The envelopes in one server frame (a batch frame holds several, in order).
 * @param {string | ArrayBuffer | Uint8Array} frame
 * @returns {Envelope[]}
 */
export function decodeFrame(frame) {
  /** @type {unknown} */
  let value;
  if (typeof frame === "string") {
    try {
      value = JSON.parse(frame);
    } catch (err) {
      throw new FrameError("invalid_json", `not JSON: ${/** @type {Error} */ (err).message}`);
    }
    refuseUnsafe(value, "frame");
  } else {
    const bytes = frame instanceof Uint8Array ? frame : new Uint8Array(frame);
    try {
      value = narrowBigInts(decoder.decode(bytes));
    } catch (err) {
      throw new FrameError("invalid_msgpack", `not msgpack: ${/** @type {Error} */ (err).message}`);
    }
  }
  const envelopes = Array.isArray(value) ? value : [value];
  envelopes.forEach((envelope, i) => checkEnvelope(envelope, Array.isArray(value) ? `[${i}]` : ""));
  return /** @type {Envelope[]} */ (envelopes);
}

/**
 * @param {any} envelope
 * @param {string} where
 */
function checkEnvelope(envelope, where) {
  const at = where ? `${where}: ` : "";
  if (envelope === null || typeof envelope !== "object" || Array.isArray(envelope)) {
    throw new FrameError("not_a_map", `${at}an envelope must be a map`);
  }
  if (envelope.v !== PROTOCOL_VERSION) {
    throw new FrameError("unsupported_version", `${at}protocol version ${envelope.v}, expected ${PROTOCOL_VERSION}`);
  }
  if (typeof envelope.type !== "string" || typeof envelope.seq !== "number") {
    throw new FrameError("bad_type", `${at}an envelope needs a string type and an integer seq`);
  }
  if (envelope.body === null || typeof envelope.body !== "object" || Array.isArray(envelope.body)) {
    throw new FrameError("bad_type", `${at}body must be a map`);
  }
}
