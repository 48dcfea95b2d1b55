// The connection to a bridge: join, commands as promises, events as callbacks, the
// folded table view, and reconnection that loses nothing and applies nothing twice.
//
// Theory of operation.  Every message we send has a seq from one counter that survives
// reconnects; the join carries a stable `client` id.  A command stays in `pending` until
// the bridge answers it (a message whose body has `ref` == its seq, or an `error`).  When
// the socket drops, the client reconnects, joins with `last_event` = the last event it
// folded (the bridge sends only the events after it, then the prompts waiting for this
// participant), and sends every unanswered command again with its original seq: the
// bridge answers a command it already applied from memory instead of applying it again.
// Events are folded in index order; one at or below the last folded index is a repeat and
// is dropped, a gap asks for a `resync`.  An `ack` promise settles once the events it
// names are folded, so `await client.move(...)` sees the move in `client.view`.
// Several bridge processes may share one database, each table served by one: a join
// through another is answered `redirect {url}` and closed, and the client reconnects to
// `url` (`target`) the same way, falling back to the address it started from (`url`)
// when that process cannot be reached.

import { decodeFrame, encodeJson, encodeMsgpack, PROTOCOL_VERSION } from "./codec.js";
import { BridgeError, ClientClosedError } from "./errors.js";
import { applyEvent, applyPrompt, emptyView, viewFromState } from "./table.js";
import { RulesetWords } from "./words.js";

/**
 * @typedef {import("./table.js").TableView} TableView
 * @typedef {import("./table.js").PromptView} PromptView
 * @typedef {import("./words.js").RulesetDescription} RulesetDescription
 * @typedef {import("./words.js").ActionDescription} ActionDescription
 *
 * @typedef {object} ClientOptions
 * @property {string} token the join token (GM, player or spectator)
 * @property {boolean} [binary] msgpack binary frames instead of JSON text (default false)
 * @property {boolean} [batch] accept batch frames, several messages a frame (default true)
 * @property {string} [clientId] a stable id for this client across reconnects (default: random
 *   per client object).  To retransmit across a page reload too, keep the id *and* `seq`
 *   (both, or neither: a reused id with a restarted seq would get old answers)
 * @property {number} [seq] the seq of the last message sent under this clientId (default 0)
 * @property {boolean} [reconnect] reconnect when the connection drops (default true)
 * @property {boolean} [history] on the first join, ask for every event the bridge still
 *   keeps (`last_event` -1) instead of its state, so that the "event" callbacks replay the
 *   table's recent past (a page's log after a reload); a bridge whose catch-up window no
 *   longer starts at the first event sends its state instead, as to any join (default false)
 * @property {number} [retryMinMs] first reconnect delay (default 200)
 * @property {number} [retryMaxMs] longest reconnect delay (default 5000)
 * @property {typeof WebSocket} [WebSocket] the WebSocket class (default: the global one)
 *
 * @typedef {object} Welcome
 * @property {string} table
 * @property {string} participant
 * @property {"gm" | "player" | "spectator"} role
 * @property {number} protocol
 * @property {string} server
 *
 * @typedef {object} Ack
 * @property {number} ref
 * @property {number | null} first_event
 * @property {number | null} last_event
 *
 * @typedef {object} EventMessage
 * @property {number} index
 * @property {string} kind
 * @property {Record<string, any>} data
 *
 * @typedef {object} Unavailable an action the game knows that the token cannot take now
 * @property {string} action the action, move mode, `end_phase` or `<action>:<choice>`
 * @property {string} code the error code its command would be refused with
 * @property {string} reason the refusal's message: the rule that stops it
 *
 * @typedef {object} Options the `options` answer to `ask_options`
 * @property {number} ref
 * @property {string} token
 * @property {boolean} can_act whether it is this token's action now
 * @property {string | null} reason why not: whose action it is, or the rule keeping it idle
 * @property {number} movement_left
 * @property {string[]} available what its commands would accept now
 * @property {Unavailable[]} unavailable everything else the game knows, with why not
 * @property {string[]} prompts the prompts waiting on the asker
 *
 * @typedef {"idle" | "connecting" | "joined" | "disconnected" | "closed"} Status
 *
 * @typedef {object} ClientEvents
 * @property {(welcome: Welcome) => void} welcome joined (again)
 * @property {(view: TableView) => void} state a full state replaced the view
 * @property {(event: EventMessage, view: TableView) => void} event an event was folded
 * @property {(prompt: PromptView, view: TableView) => void} prompt a prompt for this participant, with its deadline
 * @property {(prompt: PromptView, view: TableView) => void} prompt_waiting someone else's
 *   prompt the fight waits on, with its deadline (its countdown for the whole table)
 * @property {(view: TableView) => void} change the view changed (once per frame)
 * @property {(status: Status, detail?: {code?: number, reason?: string, redirect?: string}) => void} status
 * @property {(ruleset: RulesetDescription) => void} ruleset the running fight's ruleset
 *   description arrived (at join, or after `combat_started`): re-render its words
 * @property {(error: Error) => void} error an error not tied to a command of ours
 */

/** Redirects followed in a row without a welcome before the usual backoff applies
 * between them too (two processes that each think the other serves a table). */
const MAX_QUICK_REDIRECTS = 3;

/** Close codes after which reconnecting cannot help. */
const FATAL_CLOSE = new Map([
  [1008, "policy"], // join token revoked, join timeout, rate limit
  [1009, "too_large"], // a frame we sent was over the bridge's limit
]);

/** @template T @returns {{promise: Promise<T>, resolve: (v: T) => void, reject: (e: Error) => void}} */
function deferred() {
  /** @type {any} */
  let resolve;
  /** @type {any} */
  let reject;
  const promise = new Promise((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** @returns {string} */
function randomId() {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  return "js-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class BridgeClient {
  /**
   * @param {string} url the bridge's WebSocket URL, e.g. "ws://127.0.0.1:8080/ws"
   * @param {ClientOptions} options
   */
  constructor(url, options) {
    if (!options?.token) throw new TypeError("a join token is required");
    /** The address it started from, and comes back to when a redirect's is unreachable. */
    this.url = url;
    /** Where the next connection goes: `url`, or the process a `redirect` named. */
    this.target = url;
    this.token = options.token;
    this.binary = options.binary ?? false;
    this.batch = options.batch ?? true;
    this.clientId = options.clientId ?? randomId();
    this.reconnect = options.reconnect ?? true;
    this.history = options.history ?? false;
    this.retryMinMs = options.retryMinMs ?? 200;
    this.retryMaxMs = options.retryMaxMs ?? 5000;
    this.WebSocket = options.WebSocket ?? globalThis.WebSocket;
    if (!this.WebSocket) throw new TypeError("no WebSocket class: pass options.WebSocket");
    /** @type {TableView} the table, kept current from what the bridge sends */
    this.view = emptyView();
    /** @type {Welcome | null} who this connection joined as */
    this.welcome = null;
    /** @type {Status} */
    this.status = "idle";
    /** @type {number} seq of the last message sent; continues across reconnects */
    this.seq = options.seq ?? 0;
    /** @type {Map<number, {type: string, frame: string | Uint8Array, resolve: (v: any) => void, reject: (e: Error) => void}>} */
    this._pending = new Map();
    /** @type {Array<{lastEvent: number, body: any, resolve: (v: any) => void}>} acks waiting for their events */
    this._parked = [];
    /** @type {number[]} seqs of pings waiting for a pong (pong has no ref) */
    this._pings = [];
    /** @type {Map<string, Set<Function>>} */
    this._handlers = new Map();
    /** @type {WebSocket | null} */
    this._ws = null;
    this._joinSeq = -1;
    this._synced = false; // the view holds a state or events: rejoin from view.lastEvent
    this._awaitingState = false;
    this._resyncAsked = -2;
    this._retryMs = this.retryMinMs;
    /** @type {{url: string, delayMs: number} | null} a redirect received on this connection */
    this._redirect = null;
    this._redirects = 0; // redirects followed since the last welcome
    this._welcomedHere = false; // the current connection was welcomed
    /** @type {ReturnType<typeof setTimeout> | null} */
    this._retryTimer = null;
    /** @type {ReturnType<typeof deferred<Welcome>> | null} */
    this._connecting = null;
    this._changed = false;
    /** @type {Record<string, PromptView>} the prompts of a view a `state` message replaced:
     * their local deadlines, for the prompts the bridge sends again after it */
    this._replacedPrompts = {};
    /** @type {Array<{name: string, title: string}>} the rulesets the server plays (sent at join) */
    this.rulesets = [];
    /** @type {RulesetDescription | null} the running (or last) fight's ruleset, as the
     * server describes it: its actions, prompts' words and events' templates */
    this.ruleset = null;
    /** @type {Map<string, RulesetWords>} every description received, by ruleset name */
    this._words = new Map();
    /** @type {Map<string, Promise<RulesetDescription>>} descriptions asked for, by name */
    this._describing = new Map();
    /** @type {RulesetWords | null} the words every game shares (sent with `rulesets`) */
    this._shared = null;
    /** @type {import("./table.js").HoldsByRuleset} each ruleset's held actions as the
     * server describes them (with `rulesets`, before any event): the view folds them */
    this.holds = {};
  }

  // -- connection --------------------------------------------------------------------

  /**
   * Open the connection and join.  Resolves once joined with the view current (after
   * the full state on a first join); rejects if the bridge refuses the join token.
   * @returns {Promise<Welcome>}
   */
  connect() {
    if (this.status === "closed") return Promise.reject(new ClientClosedError("closed", "client closed"));
    if (!this._connecting) {
      this._connecting = deferred();
      this._open();
    }
    return this._connecting.promise;
  }

  /** Close for good: unanswered commands reject with ClientClosedError "closed". */
  close() {
    this._shutdown("closed", "client closed");
  }

  /**
   * Subscribe to `name` ("welcome", "state", "event", "event:<kind>", "prompt",
   * "prompt_waiting", "change", "status", "error"); returns the function that unsubscribes.
   * @template {keyof ClientEvents | `event:${string}`} K
   * @param {K} name
   * @param {K extends keyof ClientEvents ? ClientEvents[K] : (data: Record<string, any>, event: EventMessage) => void} handler
   * @returns {() => void}
   */
  on(name, handler) {
    let set = this._handlers.get(name);
    if (!set) this._handlers.set(name, (set = new Set()));
    set.add(handler);
    return () => set.delete(handler);
  }

  /** @param {string} name @param {...any} args */
  _emit(name, ...args) {
    for (const handler of this._handlers.get(name) ?? []) {
      try {
        handler(...args);
      } catch (err) {
        if (name === "error") console.error(err);
        else this._emit("error", err);
      }
    }
  }

  /** @param {Status} status @param {{code?: number, reason?: string, redirect?: string}} [detail] */
  _setStatus(status, detail) {
    if (this.status === status) return;
    this.status = status;
    this._emit("status", status, detail);
  }

  _open() {
    this._setStatus("connecting");
    this._redirect = null;
    this._welcomedHere = false;
    const ws = new this.WebSocket(this.target);
    ws.binaryType = "arraybuffer";
    this._ws = ws;
    ws.addEventListener("open", () => this._join(ws));
    ws.addEventListener("message", (e) => this._receive(ws, e.data));
    ws.addEventListener("close", (e) => this._closed(ws, e.code, e.reason));
    ws.addEventListener("error", () => {
      // A close event follows, except where a connection that never opened fails:
      // Node 20's WebSocket fires only this and stays CONNECTING. Then this is its close.
      if (ws.readyState !== 1 && ws.readyState !== 2) this._closed(ws, 1006, "");
    });
  }

  /** @param {WebSocket} ws */
  _join(ws) {
    if (ws !== this._ws) return;
    this._joinSeq = ++this.seq;
    // Asking for the history, the answer is events or a state: the join is ready at its
    // welcome, and the view fills as they come.
    const history = !this._synced && this.history;
    this._awaitingState = !this._synced && !history;
    const body = {
      token: this.token,
      last_event: this._synced || history ? this.view.lastEvent : null,
      client: this.clientId,
      batch: this.batch,
      describe: true,
    };
    ws.send(this._encode("join", this._joinSeq, body));
  }

  /** @param {WebSocket} ws @param {number} code @param {string} reason */
  _closed(ws, code, reason) {
    if (ws !== this._ws) return;
    this._ws = null;
    if (this.status === "closed") return;
    const fatal = FATAL_CLOSE.get(code);
    if (fatal || !this.reconnect) {
      this._shutdown(fatal ?? "disconnected", `connection closed (${code}${reason ? ": " + reason : ""})`);
      return;
    }
    const redirect = this._redirect;
    let delay;
    if (redirect) {
      // Another bridge process serves the table: go there, at once (or when it said),
      // and rejoin from the last event as after any reconnect.
      this.target = redirect.url;
      this._redirects += 1;
      delay = redirect.delayMs + Math.random() * 50;
      if (this._redirects > MAX_QUICK_REDIRECTS) delay += this._backoff();
    } else {
      // A process a redirect named that drops before welcoming (it died): back to the
      // address we started from, which leads on to whoever serves the table now.
      if (!this._welcomedHere) this.target = this.url;
      delay = this._backoff();
    }
    this._setStatus("disconnected", { code, reason, redirect: redirect?.url });
    this._retryTimer = setTimeout(() => {
      this._retryTimer = null;
      if (this.status !== "closed") this._open();
    }, delay);
  }

  /** The next reconnect's jittered, doubling delay. @returns {number} */
  _backoff() {
    const delay = this._retryMs * (0.5 + Math.random() / 2);
    this._retryMs = Math.min(this.retryMaxMs, this._retryMs * 2);
    return delay;
  }

  /** @param {string} code @param {string} message */
  _shutdown(code, message) {
    if (this.status === "closed") return;
    if (this._retryTimer) clearTimeout(this._retryTimer);
    const ws = this._ws;
    this._ws = null;
    this._setStatus("closed", { reason: message });
    if (ws && ws.readyState <= 1) ws.close(1000);
    const error = new ClientClosedError(code, message);
    for (const entry of this._pending.values()) entry.reject(error);
    this._pending.clear();
    this._parked = [];
    this._connecting?.reject(error);
    this._connecting = null;
  }

  // -- sending -----------------------------------------------------------------------

  /** @param {string} type @param {number} seq @param {Record<string, any>} body */
  _encode(type, seq, body) {
    const envelope = { v: PROTOCOL_VERSION, type, seq, body };
    return this.binary ? encodeMsgpack(envelope) : encodeJson(envelope);
  }

  /**
   * Send any client message; resolves with the body of the bridge's answer (`ack`,
   * `options`, `path_plan`, `token_issued`, ...), rejects with a BridgeError for an
   * `error`.  Sent at once if joined, else as soon as the client (re)joins; kept and sent
   * again with the same seq after a dropped connection until it is answered.  A value
   * that has no wire form (a Date, NaN, a Map) throws a TypeError here, before sending.
   * @param {string} type message type, e.g. "move"
   * @param {Record<string, any>} [body]
   * @returns {Promise<any>}
   */
  send(type, body = {}) {
    if (this.status === "closed") return Promise.reject(new ClientClosedError("closed", "client closed"));
    const seq = this.seq + 1;
    const frame = this._encode(type, seq, body); // throws before the seq is taken
    this.seq = seq;
    const { promise, resolve, reject } = deferred();
    this._pending.set(seq, { type, frame, resolve, reject });
    if (this.status === "joined" && this._ws) this._ws.send(frame);
    return promise;
  }

  /**
   * Ask for every event after `after` again (the client does this itself on a gap).
   * @param {number} [after]
   */
  resync(after = this.view.lastEvent) {
    if (this.status === "joined" && this._ws) this._ws.send(this._encode("resync", ++this.seq, { after }));
  }

  /** Round trip to the bridge; resolves on its `pong`. @returns {Promise<void>} */
  ping() {
    const promise = this.send("ping", {});
    this._pings.push(this.seq);
    return promise;
  }

  // -- receiving ---------------------------------------------------------------------

  /** @param {WebSocket} ws @param {string | ArrayBuffer} data */
  _receive(ws, data) {
    if (ws !== this._ws) return;
    // Prompts count down from here, on the monotonic clock (not from dispatching each
    // message of a batch frame, which may come later).
    const receivedAt = performance.now();
    let envelopes;
    try {
      envelopes = decodeFrame(data);
    } catch (err) {
      this._emit("error", err);
      return;
    }
    this._changed = false;
    for (const envelope of envelopes) {
      try {
        this._dispatch(envelope.type, envelope.body, receivedAt);
      } catch (err) {
        this._emit("error", err);
      }
    }
    if (this._changed) this._emit("change", this.view);
  }

  /** @param {string} type @param {Record<string, any>} body @param {number} receivedAt */
  _dispatch(type, body, receivedAt) {
    switch (type) {
      case "welcome":
        return this._welcomed(/** @type {Welcome} */ (body));
      case "state":
        this._replacedPrompts = this.view.prompts;
        this.view = viewFromState(body.state, body.last_event, this.holds);
        this._synced = true;
        this._changed = true;
        this._emit("state", this.view);
        this._settleParked();
        if (this._awaitingState) {
          this._awaitingState = false;
          this._ready();
        }
        return;
      case "event":
        return this._event(/** @type {EventMessage} */ (body));
      case "prompt":
        applyPrompt(this.view, this.welcome?.participant ?? "", body, receivedAt, this._replacedPrompts[body.prompt]);
        this._changed = true;
        this._emit("prompt", this.view.prompts[body.prompt], this.view);
        return;
      case "prompt_waiting":
        // Someone else's prompt: the same countdown, kept as a prompt's is.
        applyPrompt(this.view, this.welcome?.participant ?? "", body, receivedAt, this._replacedPrompts[body.prompt]);
        this._changed = true;
        if (this.view.prompts[body.prompt]) this._emit("prompt_waiting", this.view.prompts[body.prompt], this.view);
        return;
      case "pong": {
        const seq = this._pings.shift();
        if (seq !== undefined) this._settle(seq, body);
        return;
      }
      case "error":
        return this._error(body);
      case "rulesets":
        this.rulesets = body.rulesets;
        for (const r of body.rulesets) this.holds[r.name] = r.holds ?? null;
        this._shared = new RulesetWords({ name: "", title: "", time: { units: [{ key: "round", name: "Round", seconds: 0, also: [] }], surprise: "Surprise Round", action: "Turn" },
          actions: [], move_modes: [], conditions: [], stats: [], triggers: [], holds: null, prompts: body.prompts, events: body.events });
        if (typeof body.ref === "number") this._settle(body.ref, body);
        return;
      case "ruleset":
        this._described(/** @type {any} */ (body));
        if (typeof body.ref === "number") this._settle(body.ref, body);
        return;
      case "redirect":
        // The server closes the connection next; `_closed` follows it.
        this._redirect = { url: body.url, delayMs: (body.retry_after ?? 0) * 1000 };
        return;
      default:
        if (typeof body.ref === "number") this._settle(body.ref, body);
    }
  }

  /** @param {Welcome} welcome */
  _welcomed(welcome) {
    this.welcome = welcome;
    this._replacedPrompts = {};
    this._retryMs = this.retryMinMs;
    this._redirects = 0;
    this._welcomedHere = true;
    this._setStatus("joined");
    this._emit("welcome", welcome);
    // Everything unanswered, in the order it was first sent, under its original seq.
    const ws = this._ws;
    if (ws) for (const entry of this._pending.values()) ws.send(entry.frame);
    if (!this._awaitingState) this._ready();
  }

  _ready() {
    this._connecting?.resolve(/** @type {Welcome} */ (this.welcome));
    this._connecting = null;
  }

  /** @param {EventMessage} event */
  _event(event) {
    let applied;
    try {
      applied = applyEvent(this.view, event.index, event.kind, event.data, this.holds);
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
      // Missing events: ask once per position for everything after what we hold.
      if (this._resyncAsked !== this.view.lastEvent) {
        this._resyncAsked = this.view.lastEvent;
        this.resync();
      }
      return;
    }
    if (!applied) return;
    this._synced = true;
    this._changed = true;
    if (event.kind === "combat_started") this._fightUnder(event.data.ruleset);
    this._emit("event", event, this.view);
    this._emit(`event:${event.kind}`, event.data, event);
    this._settleParked();
  }

  /** @param {Record<string, any>} body */
  _error(body) {
    const ref = body.ref;
    if (ref !== null && ref === this._joinSeq) {
      this._shutdown(body.code, body.message);
      return;
    }
    const entry = ref === null ? undefined : this._pending.get(ref);
    const error = new BridgeError(body.code, body.message, { path: body.path, ref, type: entry?.type ?? null });
    if (!entry) {
      this._emit("error", error);
      return;
    }
    this._pending.delete(ref);
    entry.reject(error);
  }

  /** @param {number} ref @param {Record<string, any>} body */
  _settle(ref, body) {
    const entry = this._pending.get(ref);
    if (!entry) return; // answered already (a retransmission's second answer)
    this._pending.delete(ref);
    const last = typeof body.last_event === "number" ? body.last_event : null;
    if (last !== null && this.view.lastEvent < last) {
      this._parked.push({ lastEvent: last, body, resolve: entry.resolve });
    } else {
      entry.resolve(body);
    }
  }

  _settleParked() {
    if (!this._parked.length) return;
    const done = this._parked.filter((p) => p.lastEvent <= this.view.lastEvent);
    if (!done.length) return;
    this._parked = this._parked.filter((p) => p.lastEvent > this.view.lastEvent);
    for (const p of done) p.resolve(p.body);
  }

  // -- the ruleset's description ----------------------------------------------------

  /** @param {RulesetDescription & {ref?: number | null}} body */
  _described(body) {
    const { ref: _ref, ...description } = body;
    this._words.set(description.name, new RulesetWords(description));
    this.holds[description.name] = description.holds ?? null;
    // Unasked (ref null: sent after the welcome) it is the running fight's.
    if (_ref == null || this.view.combat?.ruleset === description.name) {
      this.ruleset = description;
      this._emit("ruleset", description);
    }
  }

  /** A fight under `name` began: its description, from memory or asked for. @param {string} name */
  _fightUnder(name) {
    const known = this._words.get(name);
    if (known) {
      this.ruleset = known.description;
      this._emit("ruleset", known.description);
      return;
    }
    this.describeRuleset(name).catch((err) => this._emit("error", err));
  }

  /** The rulesets the server plays. @returns {Promise<Array<{name: string, title: string}>>} */
  async listRulesets() {
    const body = await this.send("list_rulesets", {});
    return body.rulesets;
  }

  /**
   * `describe_ruleset`: everything needed to play `name` (kept: asked once per client).
   * Rejects with BridgeError `unknown_ruleset` for a name the server does not play.
   * @param {string} name @returns {Promise<RulesetDescription>}
   */
  describeRuleset(name) {
    const known = this._words.get(name);
    if (known) return Promise.resolve(known.description);
    let asked = this._describing.get(name);
    if (!asked) {
      asked = this.send("describe_ruleset", { ruleset: name }).then(() => {
        const words = this._words.get(name);
        if (!words) throw new Error(`no description of ${name} arrived`);
        return words.description;
      });
      asked.catch(() => this._describing.delete(name));
      this._describing.set(name, asked);
    }
    return asked;
  }

  /** @param {string} id @returns {string} a token's name (its id when unknown) */
  _name(id) {
    return this.view.tokens[id]?.name || id;
  }

  /** @param {string} [ruleset] @returns {RulesetWords | null} the game's words, else
   * (no fight, or its description not here yet) the words every game shares */
  _wordsOf(ruleset) {
    const name = ruleset ?? this.view.combat?.ruleset ?? this.ruleset?.name;
    return (name && this._words.get(name)) || this._shared;
  }

  /**
   * An event in its game's words, token names and dice arithmetic filled in (e.g.
   * "Ogre attacks Hero (strike): 3d6 8 (2, 1, 5) + OCV 5 = 13 vs 10 + DCV 4 = 14: miss"),
   * from the running fight's ruleset description (or `ruleset`'s); a kind every game
   * shares reads in the core's words before any description; null for a game's own
   * kind while its description has not arrived (the `ruleset` callback says when).
   * @param {{kind: string, data: Record<string, any>}} event @param {string} [ruleset]
   * @param {(id: string) => string} [nameOf] a token's name as the page may show it
   *   (default: the bridge's name, else its id); a VTT passes its own
   * @returns {string | null}
   */
  describeEvent(event, ruleset, nameOf = (id) => this._name(id)) {
    return this._wordsOf(ruleset)?.event(event, nameOf) ?? null;
  }

  /**
   * A prompt's question and the labels of its two answers (`accept` is
   * `answerPrompt(id, true)`), and what happens if nobody answers; null when its kind's
   * words are not known yet.
   * @param {{kind: string, attacker: string, target: string, at: [number, number]}} prompt
   * @param {(id: string) => string} [nameOf] a token's name as the page may show it
   *   (default: the bridge's name, else its id); a VTT passes its own
   * @returns {{question: string, accept: string, decline: string, expired: string} | null}
   */
  promptWords(prompt, nameOf = (id) => this._name(id)) {
    return this._wordsOf()?.prompt(prompt, nameOf) ?? null;
  }

  /**
   * An action's description from the running fight's ruleset: its params (type,
   * choices, range, default, dice), `when` (`any`: a reaction too), whether it names a
   * target or an area.  Takes an `options` entry as is (`use_power:Blast`).
   * @param {string} action @returns {ActionDescription | null}
   */
  actionParams(action) {
    return this._wordsOf()?.action(action) ?? null;
  }

  // -- reading the view --------------------------------------------------------------

  /** The open prompts this participant answers. @returns {PromptView[]} */
  myPrompts() {
    const me = this.welcome?.participant;
    return Object.values(this.view.prompts).filter((p) => p.controller === me);
  }

  /** The open prompts someone else answers, which the fight waits on. @returns {PromptView[]} */
  waitingPrompts() {
    const me = this.welcome?.participant;
    return Object.values(this.view.prompts).filter((p) => p.controller !== me);
  }

  /**
   * Resolves once `predicate(view)` holds (checked now and after every frame that changes
   * the view), e.g. `await client.until((v) => v.combat?.moving === null)` to wait for a
   * paused move to finish.  Rejects after `timeoutMs` if given, or when the client closes.
   * @param {(view: TableView) => boolean} predicate
   * @param {number} [timeoutMs]
   * @returns {Promise<TableView>}
   */
  until(predicate, timeoutMs) {
    if (predicate(this.view)) return Promise.resolve(this.view);
    return new Promise((resolve, reject) => {
      /** @type {ReturnType<typeof setTimeout> | undefined} */
      let timer;
      const done = () => {
        offChange();
        offStatus();
        if (timer) clearTimeout(timer);
      };
      const offChange = this.on("change", (view) => {
        if (predicate(view)) {
          done();
          resolve(view);
        }
      });
      const offStatus = this.on("status", (status) => {
        if (status === "closed") {
          done();
          reject(new ClientClosedError("closed", "client closed"));
        }
      });
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          done();
          reject(new Error(`view condition not met within ${timeoutMs} ms`));
        }, timeoutMs);
      }
    });
  }

  /**
   * Milliseconds left to answer `prompt` before the bridge takes the default answer
   * (null: no deadline known yet, or a bridge before wire version 10 and someone
   * else's prompt): its controller's countdown and everyone else's alike.  Counted on this machine's
   * monotonic clock from the `prompt` message's receipt and its `remaining_ms`, so
   * it is right however far this machine's wall clock is from the bridge's.
   * @param {PromptView} prompt
   * @param {number} [now] a `performance.now()` reading (default: now)
   */
  static remainingMs(prompt, now = performance.now()) {
    return prompt.localDeadlineMs == null ? null : Math.max(0, prompt.localDeadlineMs - now);
  }

  // -- named commands: thin wrappers over send(); the protocol README has every field --

  /** @param {Record<string, any>} scene grid, tokens, walls, terrain */
  loadScene(scene) {
    return this.send("load_scene", { scene });
  }

  /** @param {string} ruleset @param {{aware?: string[] | null, seed?: number | bigint | null, groups?: string[][]}} [options] groups: combatants acting together at one count */
  startCombat(ruleset, { aware = null, seed = null, groups = undefined } = {}) {
    return this.send("start_combat", { ruleset, aware, seed, groups });
  }

  /**
   * @param {string} token
   * @param {Array<[number, number]>} path cells after the token's own (gridless: waypoints
   *   in the scene's unit)
   * @param {{mode?: string, attack?: string | null, maneuver?: Record<string, any> | null, elevations?: number[]}} [options]
   *   `elevations`: a flight, the height of the token's base on each cell (gridless: at each waypoint)
   */
  move(token, path, options = {}) {
    return this.send("move", { token, path, ...options });
  }

  /**
   * @param {string} token
   * @param {Array<[number, number]>} points waypoints in the VTT's pixels
   * @param {{mode?: string, attack?: string | null, maneuver?: Record<string, any> | null}} [options]
   */
  movePoints(token, points, options = {}) {
    return this.send("move_points", { token, points, ...options });
  }

  /**
   * @param {string} prompt
   * @param {boolean} accept
   * @param {{rolls?: number[] | null, maneuver?: Record<string, any> | null}} [options]
   */
  answerPrompt(prompt, accept, { rolls = null, maneuver = null } = {}) {
    return this.send("answer_prompt", { prompt, accept, rolls, maneuver });
  }

  /** @param {string} token */
  endPhase(token) {
    return this.send("end_phase", { token });
  }

  /** @param {string} wall @param {boolean} open */
  setDoor(wall, open) {
    return this.send("set_door", { wall, open });
  }

  /** @param {string} token @param {string} target @param {Record<string, any>} [options] ranged, range, maneuver, ocv_bonus, rolls */
  attack(token, target, options = {}) {
    return this.act(token, "attack", { target, ...options });
  }

  /**
   * `act`: `token` takes the ruleset action `action` with `params` (a map; the ruleset
   * declares its fields, e.g. the Hero supplement's `attack` {target, maneuver, rolls},
   * `delay` {before}, `ready` {action, trigger_by, area}, `abort` {maneuver, action},
   * `set_vitals` {end, stun}, and `draw_focus`, `defend`, `stand_up` ...).
   * @param {string} token @param {string} action @param {Record<string, any>} [params]
   */
  act(token, action, params = {}) {
    return this.send("act", { token, action, params });
  }

  /**
   * `join_combat` (GM): bring a new token into the running fight; `token` is a scene
   * token spec (as in `loadScene`); it is placed and rolls its place in the order (at a
   * count already taken, by the game's tie rule).  `rolls`: the table's own dice for
   * those rolls, in the order made (its initiative, then any tie-breaks), or none.
   * @param {Record<string, any>} token @param {number[] | null} [rolls]
   */
  joinCombat(token, rolls = null) {
    return this.send("join_combat", rolls === null ? { token } : { token, rolls });
  }

  /**
   * `roll_initiative`: before a fight, roll `token`'s initiative dice yourself (a player
   * for its own tokens, at a table whose dice policy is `players`; the GM for any); the
   * next `start_combat` rolls that token with them.  `rolls` null takes them back.
   * @param {string} token @param {number[] | null} rolls
   */
  rollInitiative(token, rolls) {
    return this.send("roll_initiative", { token, rolls });
  }

  /**
   * `set_stats` (GM): change statistics of `token` mid-fight (only those its game plays);
   * everyone gets `stats_changed`, and the view's token its new values.
   * @param {string} token @param {Record<string, boolean | number | string>} stats
   */
  setStats(token, stats) {
    return this.send("set_stats", { token, stats });
  }

  /**
   * `edit_scene` (GM): replace the scene's walls and/or terrain mid-fight (left out:
   * kept); everyone gets `scene_edited`, and the view's scene the new ones.
   * @param {{walls?: Record<string, any>[], terrain?: Record<string, any>[]}} edit
   */
  editScene({ walls, terrain } = {}) {
    return this.send("edit_scene", { ...(walls ? { walls } : {}), ...(terrain ? { terrain } : {}) });
  }

  /** `leave_combat` (GM): take `token` out of the fight (`remove`: off the scene too). @param {string} token @param {boolean} [remove] */
  leaveCombat(token, remove = false) {
    return this.send("leave_combat", { token, remove });
  }

  /**
   * `set_effect` (GM): start a lasting effect `name` on `token` (null: the scene) for
   * `rounds` Turns (null: until endEffect()).
   * @param {string} name @param {string | null} [token] @param {number | null} [rounds]
   */
  setEffect(name, token = null, rounds = null) {
    return this.send("set_effect", { name, token, rounds });
  }

  /** `end_effect` (GM): end effect `effect` (its id, `e1` ...). @param {string} effect */
  endEffect(effect) {
    return this.send("end_effect", { effect });
  }

  /**
   * `end_combat` (GM): end the fight.  Its open prompts, held actions and timed effects
   * end with their events, then `combat_ended`; `view.combat` becomes null.
   * @param {string | null} [reason] the table's words (1 to 200 characters), or none
   */
  endCombat(reason = null) {
    return this.send("end_combat", reason === null ? {} : { reason });
  }

  /**
   * `ask_options`: what `token` may do now (`available`) and, for every other action
   * its game knows, the refusal its command would get (`unavailable`: `{action, code,
   * reason}`).
   * @param {string} token @returns {Promise<Options>} the `options` body
   */
  askOptions(token) {
    return /** @type {Promise<Options>} */ (this.send("ask_options", { token }));
  }

  /** @param {string} token @param {[number, number]} to @returns {Promise<Record<string, any>>} the `path_plan` body */
  askPath(token, to) {
    return this.send("ask_path", { token, to });
  }

  /**
   * `ask_threat`: the cells `token` threatens now and its reach area; anyone may ask
   * about any token.  Resolves with the `threat` body: `cells` (sorted `[col, row]`,
   * empty when the rules say it threatens nobody, then `reason` says why), `foes` and
   * `attacks` (the foes it threatens, those it still has an attack of opportunity
   * against), and `outline`, rings of `[x, y]` in the scene's distance units (fill
   * even-odd; `pixels.js` converts them to a VTT's pixels).
   * @param {string} token
   * @returns {Promise<{ref: number, token: string, cells: Array<[number, number]>, outline: Array<Array<[number, number]>>, foes: string[], attacks: string[], reason: string | null}>}
   */
  askThreat(token) {
    return this.send("ask_threat", { token });
  }

  /**
   * `ask_exits`: where a move of `token` along `path` (cells after its own, as `move`
   * takes them) in `mode` would be stopped, found by the check a move runs.  Resolves
   * with the `exits` body: `exits`, in path order, each `{kind, by, step, at, point}`
   * (`kind` the prompt it would open, `point` where the path leaves the threatened
   * square, in scene units), and `reason` when no fight is on.
   * @param {string} token @param {Array<[number, number]>} path @param {string | null} [mode]
   * @returns {Promise<{ref: number, token: string, exits: Array<{kind: string, by: string, step: number, at: [number, number], point: [number, number]}>, reason: string | null}>}
   */
  askExits(token, path, mode = null) {
    return this.send("ask_exits", mode === null ? { token, path } : { token, path, mode });
  }

  /** @param {string} participant @param {"player" | "spectator"} role */
  issueToken(participant, role) {
    return this.send("issue_token", { participant, role });
  }

  /** @param {string} token */
  revokeToken(token) {
    return this.send("revoke_token", { token });
  }

  /** @param {{dice?: "server" | "gm" | null, prompt_timeout_ms?: number | null}} settings */
  configureTable({ dice = null, prompt_timeout_ms = null }) {
    return this.send("configure_table", { dice, prompt_timeout_ms });
  }
}
