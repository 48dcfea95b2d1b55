// A stand-in for Foundry's document workflow, for the module's tests and the demo.
//
// It is not our code being faked but Foundry's: a world of documents shared by several
// connected clients, each with its own recording `Hooks`, with the hook order Foundry
// documents: pre-hooks (`preUpdateToken`, v13 `preMoveToken`, `preUpdateCombat`) run
// only on the client that asked for the change and cancel it by returning false
// (Hooks.call stops there); post-hooks (`updateToken`, `moveToken`, `updateCombat`,
// ...) run on every client. Documents read and write the source data of fixtures.js.

import { liveGrid, randomID } from "./fixtures.js";
import "./i18n.js";

/** Foundry's Hooks, recording every call. */
export class RecordingHooks {
  constructor() {
    /** @type {Map<string, Function[]>} */
    this.handlers = new Map();
    /** @type {Array<{name: string, result: boolean}>} */
    this.calls = [];
  }

  on(name, fn) {
    if (!this.handlers.has(name)) this.handlers.set(name, []);
    this.handlers.get(name).push(fn);
    return this.handlers.get(name).length;
  }

  /** Hooks.once, as `on` (the tests call each hook at most once). */
  once(name, fn) {
    return this.on(name, fn);
  }

  /** Hooks.call: stops at, and returns false on, the first handler returning false. */
  call(name, ...args) {
    for (const fn of this.handlers.get(name) ?? []) {
      if (fn(...args) === false) {
        this.calls.push({ name, result: false });
        return false;
      }
    }
    this.calls.push({ name, result: true });
    return true;
  }

  callAll(name, ...args) {
    for (const fn of this.handlers.get(name) ?? []) fn(...args);
    this.calls.push({ name, result: true });
    return true;
  }

  /** How many handlers `name` has. */
  count(name) {
    return (this.handlers.get(name) ?? []).length;
  }
}

/** Foundry's Collection: a Map with `contents`. */
export class Collection extends Map {
  get contents() {
    return [...this.values()];
  }

  find(fn) {
    return this.contents.find(fn);
  }
}

/** One world, several connected clients. */
export class FoundryWorld {
  /**
   * @param {{scene: any, dimensions: any, users: any[], actors?: any[], generation?: number}} data
   *   fixture data; `dimensions` as Scene#getDimensions gives it
   */
  constructor({ scene, dimensions, users, actors = [], generation = 13 }) {
    this.sceneData = scene;
    this.dimensions = dimensions;
    this.users = users;
    this.actors = new Map(actors.map((a) => [a._id, a]));
    this.generation = generation;
    /** @type {FoundryClient[]} */
    this.clients = [];
    /** @type {any[]} Combat source data */
    this.combats = [];
    /** World settings by "namespace.key" (Foundry's defaults for the core ones read here). */
    this.settings = new Map([["core.gridDiagonals", 0]]);
  }

  /** A GM changes a world setting: the Setting document's `updateSetting` on every client. */
  updateSetting(key, value) {
    this.settings.set(key, value);
    const setting = { key, value, id: randomID("setting") };
    this._post("updateSetting", () => [setting, { value }, {}, null]);
  }

  /** Connect the user `userId`'s client. */
  connect(userId) {
    const user = this.users.find((u) => u._id === userId);
    const client = new FoundryClient(this, user);
    this.clients.push(client);
    return client;
  }

  tokenData(id) {
    return this.sceneData.tokens.find((t) => t._id === id);
  }

  _post(name, make) {
    for (const c of this.clients) c.Hooks.callAll(name, ...make(c));
  }

  updateToken(client, id, changes, options = {}) {
    const doc = client.token(id);
    if (client.Hooks.call("preUpdateToken", doc, changes, options, client.user._id) === false) return undefined;
    Object.assign(this.tokenData(id), changes);
    this._post("updateToken", (c) => [c.token(id), changes, options, client.user._id]);
    return doc;
  }

  /** v13 TokenDocument#move: `preMoveToken` with a TokenMovementOperation, then the update. */
  moveToken(client, id, waypoints, options = {}) {
    const doc = client.token(id);
    const data = this.tokenData(id);
    const movementId = randomID("move");
    const shape = data.shape;
    const full = waypoints.map((w) => ({
      x: Math.round(w.x), y: Math.round(w.y), elevation: w.elevation ?? data.elevation, width: data.width, height: data.height, shape,
      action: "walk", snapped: false, explicit: true, checkpoint: true, intermediate: false,
      userId: client.user._id, movementId, cost: 0,
    }));
    const section = (wps) => ({ waypoints: wps, distance: 0, cost: 0, spaces: 0, diagonals: 0 });
    const movement = {
      id: movementId, chain: [], origin: { x: data.x, y: data.y, elevation: data.elevation, width: data.width, height: data.height, shape },
      destination: full.at(-1), passed: section([]), pending: section(full),
      history: { recorded: section([]), unrecorded: section([]), distance: 0, cost: 0, spaces: 0, diagonals: 0 },
      method: options.method ?? "api", autoRotate: false, showRuler: false, constrainOptions: {}, recorded: false,
    };
    const operation = { ...options, movement: { [id]: movement } };
    if (client.Hooks.call("preMoveToken", doc, movement, operation) === false) return false;
    const changes = { x: full.at(-1).x, y: full.at(-1).y };
    if (full.at(-1).elevation !== data.elevation) changes.elevation = full.at(-1).elevation;
    if (client.Hooks.call("preUpdateToken", doc, changes, operation, client.user._id) === false) return false;
    Object.assign(data, changes);
    this._post("updateToken", (c) => [c.token(id), changes, operation, client.user._id]);
    this._post("moveToken", (c) => [c.token(id), movement, operation, c.user]);
    return true;
  }

  updateWall(client, id, changes, options = {}) {
    const data = this.sceneData.walls.find((w) => w._id === id);
    Object.assign(data, changes);
    this._post("updateWall", () => [data, changes, options, client.user._id]);
  }

  createCombat(client, sceneId) {
    const data = { _id: randomID("combat"), scene: sceneId, active: true, round: 0, turn: null, started: false, combatants: [], flags: {} };
    this.combats.push(data);
    this._post("createCombat", (c) => [c.combat(data._id), {}, client.user._id]);
    return client.combat(data._id);
  }

  /** Combat#delete (the tracker's "End Combat"): `preDeleteCombat` on the deleting
   * client, then the document goes and `deleteCombat` runs everywhere. */
  deleteCombat(client, id, options = {}) {
    const doc = client.combat(id);
    if (client.Hooks.call("preDeleteCombat", doc, options, client.user._id) === false) return undefined;
    this.combats = this.combats.filter((c) => c._id !== id);
    this._post("deleteCombat", () => [doc, options, client.user._id]);
    return doc;
  }

  updateCombat(client, id, changes, options = {}) {
    const doc = client.combat(id);
    if (client.Hooks.call("preUpdateCombat", doc, changes, options, client.user._id) === false) return undefined;
    const data = this.combats.find((c) => c._id === id);
    for (const [key, value] of Object.entries(changes)) {
      if (key.startsWith("flags.")) data.flags[key.slice(6)] = value;
      else data[key] = value;
    }
    if (data.round > 0) data.started = true;
    this._post("updateCombat", (c) => [c.combat(id), changes, options, client.user._id]);
    return doc;
  }
}

/** One connected Foundry client: its own Hooks, `game` and views of the documents. */
export class FoundryClient {
  constructor(world, user) {
    this.world = world;
    this.user = { ...user, id: user._id, get isGM() { return user.role >= 3; } };
    this.Hooks = new RecordingHooks();
    const users = new Collection(world.users.map((u) => [u._id, { ...u, id: u._id, isGM: u.role >= 3 }]));
    Object.defineProperty(users, "activeGM", {
      get: () => users.contents.filter((u) => u.isGM && world.clients.some((c) => c.user.id === u.id))[0] ?? null,
    });
    this.game = {
      user: this.user,
      users,
      release: { generation: world.generation },
      scenes: { active: this.scene() },
      settings: { get: (namespace, key) => world.settings.get(`${namespace}.${key}`) },
    };
  }

  /** The scene as this client sees it (a fresh view of the shared data). */
  scene() {
    const world = this.world;
    const data = world.sceneData;
    const client = this;
    const view = {
      ...data,
      id: data._id,
      dimensions: world.dimensions,
      // Scene#prepareBaseData: the live grid object, with the world's diagonal rule.
      get grid() {
        return liveGrid(data.grid, { diagonals: world.settings.get("core.gridDiagonals") });
      },
      get tokens() {
        return new Collection(data.tokens.map((t) => [t._id, client.token(t._id)]));
      },
      get walls() {
        return data.walls;
      },
    };
    return view;
  }

  /** A TokenDocument view: fields read through to the world, writes go through it. */
  token(id) {
    const world = this.world;
    const data = world.tokenData(id);
    if (!data) return undefined;
    const client = this;
    const actor = data.actorId ? world.actors.get(data.actorId) : null;
    const doc = Object.create(data);
    Object.assign(doc, {
      id,
      actor,
      get isOwner() {
        return client.user.isGM || (actor?.ownership?.[client.user.id] ?? actor?.ownership?.default ?? 0) >= 3;
      },
      update: async (changes, options) => world.updateToken(client, id, changes, options),
      move: async (waypoints, options) => world.moveToken(client, id, waypoints, options),
    });
    Object.defineProperty(doc, "parent", { get: () => client.game.scenes.active });
    return doc;
  }

  /** A Combat view with Foundry's `turns` order and embedded-document writes. */
  combat(id) {
    const world = this.world;
    const data = world.combats.find((c) => c._id === id);
    const client = this;
    const doc = Object.create(data);
    Object.assign(doc, {
      id,
      get combatants() {
        return new Collection(data.combatants.map((c) => [c._id, { ...c, id: c._id }]));
      },
      /** Combat#_sortCombatants: initiative, highest first; none last; then by id. */
      get turns() {
        return [...data.combatants].sort((a, b) => {
          const ia = a.initiative ?? -Infinity;
          const ib = b.initiative ?? -Infinity;
          return ib - ia || a._id.localeCompare(b._id);
        });
      },
      update: async (changes, options) => world.updateCombat(client, id, changes, options),
      delete: async (options) => world.deleteCombat(client, id, options),
      async createEmbeddedDocuments(_name, list) {
        for (const c of list) data.combatants.push({ _id: randomID("cbt"), defeated: false, hidden: false, ...c });
      },
      async updateEmbeddedDocuments(_name, list) {
        for (const u of list) Object.assign(data.combatants.find((c) => c._id === u._id), u);
      },
    });
    return doc;
  }

  /** The scene's Combat, or null. */
  findCombat(sceneId) {
    const data = this.world.combats.find((c) => c.scene === sceneId);
    return data ? this.combat(data._id) : null;
  }
}
