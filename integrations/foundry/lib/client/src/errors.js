// Errors a client sees, each saying whose fault it is.

/**
 * The bridge refused a message: the `error` reply to one of ours.  `code` is the
 * protocol's or the engine's reason (`bad_type`, `illegal_move`, `forbidden`, ...),
 * `path` the bad field if one is known (`body.path[3][1]`), `ref` the seq refused.
 */
export class BridgeError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {{path?: string | null, ref?: number | null, type?: string | null}} [where]
   */
  constructor(code, message, { path = null, ref = null, type = null } = {}) {
    super(message || code);
    this.name = "BridgeError";
    /** @type {string} */
    this.code = code;
    /** @type {string | null} */
    this.path = path;
    /** @type {number | null} */
    this.ref = ref;
    /** @type {string | null} the type of the message refused */
    this.type = type;
  }
}

/** The client was closed (by its owner, or for good by the bridge) before a command was
 * answered.  `code` is "closed" or the refusal that ended the session (`bad_token`). */
export class ClientClosedError extends Error {
  /** @param {string} code @param {string} message */
  constructor(code, message) {
    super(message);
    this.name = "ClientClosedError";
    /** @type {string} */
    this.code = code;
  }
}
