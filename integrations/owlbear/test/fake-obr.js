// An Owlbear room in memory: one shared scene, and per player an object shaped like the
// SDK's default export `OBR` (@owlbear-rodeo/sdk 3.1.0, lib/index.d.ts), with the parts the
// extension calls. Return values and callback arguments follow the SDK's declarations:
//   api/scene/SceneItemsApi.d.ts  getItems(filter?), updateItems(filterOrItems, update),
//                                 onChange(cb(items: Item[])) with every item of the scene
//   api/scene/SceneGridApi.d.ts   getDpi, getType, getMeasurement, getScale -> GridScale, onChange
//   api/PlayerApi.d.ts            id, getId, getRole -> "GM" | "PLAYER", get/setMetadata
//   api/RoomApi.d.ts              id, get/setMetadata
//   api/BroadcastApi.d.ts         sendMessage(channel, data, {destination}), onMessage(cb({data, connectionId}))
//   api/PopoverApi.d.ts, api/NotificationApi.d.ts, api/ActionApi.d.ts
// Changes reach onChange subscribers asynchronously, as the SDK's messages do, and every
// update is stamped with the updating player's id in `lastModifiedUserId`, as Owlbear's
// server does. Metadata writes are recorded so a test can prove nothing secret went there.

let counter = 0;

/** A GridScale (types/Grid.d.ts) for "5ft", "1m", "2m". */
export function gridScale(/** @type {string} */ raw) {
  const m = /^(\d+(?:\.\d+)?)\s*(.*)$/.exec(raw);
  if (!m) throw new Error(`bad scale ${raw}`);
  const digits = m[1].includes(".") ? m[1].split(".")[1].length : 0;
  return { raw, parsed: { multiplier: Number(m[1]), unit: m[2], digits } };
}

/** A TextContent (types/items/TextContent.d.ts) as buildImage leaves it: no label text. */
function emptyText() {
  return {
    richText: [{ type: "paragraph", children: [{ text: "" }] }],
    plainText: "",
    style: {
      fillColor: "white", fillOpacity: 1, strokeColor: "white", strokeOpacity: 1, strokeWidth: 0,
      textAlign: "CENTER", textAlignVertical: "BOTTOM", fontFamily: "Roboto", fontSize: 24,
      fontWeight: 400, lineHeight: 1.5, padding: 8,
    },
    type: "PLAIN",
    width: "AUTO",
    height: "AUTO",
  };
}

/**
 * An Image item (types/items/Image.d.ts, extending types/items/Item.d.ts).
 * @param {{id?: string, name: string, layer?: string, position: {x: number, y: number},
 *   width: number, height: number, gridDpi: number, offset: {x: number, y: number},
 *   scale?: {x: number, y: number}, metadata?: Record<string, unknown>, createdUserId: string}} spec
 */
export function imageItem(spec) {
  return {
    ...baseItem("IMAGE", spec.id ?? nextId("8000"), spec.name, spec.layer ?? "CHARACTER", spec.createdUserId, spec.position,
      spec.scale ?? { x: 1, y: 1 }, spec.metadata ?? {}),
    image: { width: spec.width, height: spec.height, mime: "image/webp", url: `https://example.invalid/${spec.name}.webp` },
    grid: { offset: { ...spec.offset }, dpi: spec.gridDpi },
    text: emptyText(),
    textItemType: "LABEL",
  };
}

/** An id shaped as Owlbear's (a UUID), unique in the run. */
function nextId(/** @type {string} */ group) {
  counter += 1;
  return `00000000-0000-4000-${group}-${String(counter).padStart(12, "0")}`;
}

/**
 * The fields every item has (types/items/Item.d.ts), as a fresh item has them.
 * @param {string} type @param {string} id @param {string} name @param {string} layer
 * @param {string} createdUserId @param {{x: number, y: number}} position
 * @param {{x: number, y: number}} scale @param {Record<string, unknown>} metadata
 */
function baseItem(type, id, name, layer, createdUserId, position, scale, metadata) {
  counter += 1;
  return {
    id,
    type,
    name,
    visible: true,
    locked: false,
    createdUserId,
    zIndex: Date.UTC(2026, 0, 1) + counter,
    lastModified: new Date(Date.UTC(2026, 0, 1)).toISOString(),
    lastModifiedUserId: createdUserId,
    position: { ...position },
    rotation: 0,
    scale: { ...scale },
    metadata: structuredClone(metadata),
    layer,
  };
}

/**
 * A Wall item (types/items/Wall.d.ts): points relative to its position.
 * @param {{id?: string, points: {x: number, y: number}[], position?: {x: number, y: number},
 *   blocking?: boolean, createdUserId: string}} spec
 */
export function wallItem(spec) {
  return {
    ...baseItem("WALL", spec.id ?? nextId("9000"), "Wall", "DRAWING", spec.createdUserId, spec.position ?? { x: 0, y: 0 },
      { x: 1, y: 1 }, {}),
    points: spec.points.map((p) => ({ ...p })),
    doubleSided: false,
    blocking: spec.blocking ?? true,
  };
}

/**
 * A Shape item (types/items/Shape.d.ts): `shapeType`, `width`, `height`, style.
 * @param {{id?: string, name?: string, shapeType: string, width: number, height: number,
 *   position?: {x: number, y: number}, rotation?: number, metadata?: Record<string, unknown>, createdUserId: string}} spec
 */
export function shapeItem(spec) {
  return {
    ...baseItem("SHAPE", spec.id ?? nextId("9100"), spec.name ?? "Shape", "DRAWING", spec.createdUserId,
      spec.position ?? { x: 0, y: 0 }, { x: 1, y: 1 }, spec.metadata ?? {}),
    rotation: spec.rotation ?? 0,
    width: spec.width,
    height: spec.height,
    shapeType: spec.shapeType,
    style: { fillColor: "#c9b27c", fillOpacity: 0.5, strokeColor: "#000", strokeOpacity: 1, strokeWidth: 5, strokeDash: [] },
  };
}

/**
 * A Curve item (types/items/Curve.d.ts): points relative to its position, closed or not.
 * @param {{id?: string, name?: string, points: {x: number, y: number}[], position?: {x: number, y: number},
 *   metadata?: Record<string, unknown>, createdUserId: string}} spec
 */
export function curveItem(spec) {
  return {
    ...baseItem("CURVE", spec.id ?? nextId("9200"), spec.name ?? "Curve", "DRAWING", spec.createdUserId,
      spec.position ?? { x: 0, y: 0 }, { x: 1, y: 1 }, spec.metadata ?? {}),
    points: spec.points.map((p) => ({ ...p })),
    style: { fillColor: "#7fb2e5", fillOpacity: 0.5, strokeColor: "#000", strokeOpacity: 1, strokeWidth: 5, strokeDash: [],
      tension: 0, closed: true },
  };
}

/** @param {any} filter an ItemFilter (types/ItemFilter.d.ts): ids or a predicate */
function matches(filter, /** @type {any} */ item) {
  if (filter === undefined) return true;
  if (Array.isArray(filter)) return filter.some((f) => (typeof f === "string" ? f === item.id : f.id === item.id));
  return filter(item);
}

/** A room: a scene (items and grid) shared by the players who join it. */
export class FakeRoom {
  /** @param {{dpi?: number, type?: string, measurement?: string, scale?: string, id?: string}} [grid] */
  constructor({ dpi = 150, type = "SQUARE", measurement = "CHEBYSHEV", scale = "5ft", id = "room-7c3e9a" } = {}) {
    this.id = id;
    this.grid = { dpi, type, measurement, scale };
    /** @type {any[]} */
    this.items = [];
    /** @type {Set<(items: any[]) => void>} */
    this.itemListeners = new Set();
    /** @type {Set<(grid: any) => void>} */
    this.gridListeners = new Set();
    /** Every metadata write: `{where, by, update}`. */
    this.metadataWrites = [];
  }

  /** Items as the SDK hands them out: copies. */
  snapshot() {
    return structuredClone(this.items);
  }

  _notifyItems() {
    const items = this.snapshot();
    setImmediate(() => {
      for (const cb of [...this.itemListeners]) cb(structuredClone(items));
    });
  }

  /** Change the grid as the GM's scene settings would. */
  setGrid(/** @type {Partial<FakeRoom["grid"]>} */ changes) {
    Object.assign(this.grid, changes);
    setImmediate(() => {
      for (const cb of [...this.gridListeners]) cb(this.gridObject());
    });
  }

  /** A Grid (types/Grid.d.ts). */
  gridObject() {
    return {
      dpi: this.grid.dpi,
      style: { lineType: "SOLID", lineOpacity: 0.4, lineColor: "DARK", lineWidth: 2 },
      type: this.grid.type,
      measurement: this.grid.measurement,
      scale: this.grid.scale,
    };
  }

  /**
   * A player's `OBR`, shaped as SDK 3.1.0's default export.
   * @param {string} playerId @param {"GM" | "PLAYER"} role @param {string} [name]
   */
  join(playerId, role, name = playerId) {
    const room = this;
    const connectionId = `conn-${playerId}`;
    /** @type {Map<string, Set<(e: {data: unknown, connectionId: string}) => void>>} */
    const local = new Map();
    const calls = { popovers: [], notifications: [], badges: [] };
    let playerMetadata = {};
    const obr = {
      isAvailable: true,
      isReady: true,
      onReady: (/** @type {() => void} */ cb) => setImmediate(cb),
      calls,
      player: {
        id: playerId,
        getId: async () => playerId,
        getRole: async () => role,
        getName: async () => name,
        getConnectionId: async () => connectionId,
        getMetadata: async () => structuredClone(playerMetadata),
        setMetadata: async (/** @type {Record<string, unknown>} */ update) => {
          room.metadataWrites.push({ where: "player", by: playerId, update: structuredClone(update) });
          playerMetadata = { ...playerMetadata, ...update };
        },
        getSelection: async () => undefined,
      },
      room: {
        id: room.id,
        getMetadata: async () => ({}),
        setMetadata: async (/** @type {Record<string, unknown>} */ update) => {
          room.metadataWrites.push({ where: "room", by: playerId, update: structuredClone(update) });
        },
      },
      scene: {
        isReady: async () => true,
        onReadyChange: (/** @type {(ready: boolean) => void} */ cb) => () => {},
        getMetadata: async () => ({}),
        setMetadata: async (/** @type {Record<string, unknown>} */ update) => {
          room.metadataWrites.push({ where: "scene", by: playerId, update: structuredClone(update) });
        },
        items: {
          getItems: async (/** @type {any} */ filter) => structuredClone(room.items.filter((i) => matches(filter, i))),
          updateItems: async (/** @type {any} */ filter, /** @type {(drafts: any[]) => void} */ update) => {
            const targets = room.items.filter((i) => matches(filter, i));
            const drafts = structuredClone(targets);
            update(drafts);
            const stamp = new Date().toISOString();
            for (const draft of drafts) {
              const at = room.items.findIndex((i) => i.id === draft.id);
              const before = room.items[at];
              if (JSON.stringify(before.metadata) !== JSON.stringify(draft.metadata)) {
                room.metadataWrites.push({ where: "item", by: playerId, update: structuredClone(draft.metadata) });
              }
              room.items[at] = { ...draft, id: before.id, type: before.type, lastModified: stamp, lastModifiedUserId: playerId };
            }
            room._notifyItems();
          },
          addItems: async (/** @type {any[]} */ items) => {
            for (const item of items) room.items.push({ ...structuredClone(item), lastModifiedUserId: playerId });
            room._notifyItems();
          },
          deleteItems: async (/** @type {string[]} */ ids) => {
            room.items = room.items.filter((i) => !ids.includes(i.id));
            room._notifyItems();
          },
          onChange: (/** @type {(items: any[]) => void} */ cb) => {
            room.itemListeners.add(cb);
            return () => room.itemListeners.delete(cb);
          },
        },
        grid: {
          getDpi: async () => room.grid.dpi,
          getType: async () => room.grid.type,
          getMeasurement: async () => room.grid.measurement,
          getScale: async () => gridScale(room.grid.scale),
          onChange: (/** @type {(grid: any) => void} */ cb) => {
            room.gridListeners.add(cb);
            return () => room.gridListeners.delete(cb);
          },
        },
      },
      broadcast: {
        sendMessage: async (/** @type {string} */ channel, /** @type {unknown} */ data, /** @type {{destination: string}} */ options) => {
          // Only LOCAL is used by the extension: this player's own iframes.
          if (options?.destination !== "LOCAL") throw new Error("the extension broadcasts LOCAL only");
          const event = { data: structuredClone(data), connectionId };
          setImmediate(() => {
            for (const cb of [...(local.get(channel) ?? [])]) cb(event);
          });
        },
        onMessage: (/** @type {string} */ channel, /** @type {(e: any) => void} */ cb) => {
          if (!local.has(channel)) local.set(channel, new Set());
          local.get(channel)?.add(cb);
          return () => local.get(channel)?.delete(cb);
        },
      },
      popover: {
        open: async (/** @type {any} */ popover) => void calls.popovers.push({ op: "open", ...popover }),
        close: async (/** @type {string} */ id) => void calls.popovers.push({ op: "close", id }),
      },
      notification: {
        show: async (/** @type {string} */ message, /** @type {string} */ variant) => {
          calls.notifications.push({ message, variant });
          return `note-${calls.notifications.length}`;
        },
      },
      action: {
        setBadgeText: async (/** @type {string | undefined} */ text) => void calls.badges.push(text),
      },
    };
    return obr;
  }

  /**
   * A player drags and drops an item: Owlbear writes the drop position with that player's
   * id (`lastModifiedUserId`), which reaches every player's `items.onChange`.
   * @param {ReturnType<FakeRoom["join"]>} obr @param {string} id @param {{x: number, y: number}} to
   */
  drag(obr, id, to) {
    return obr.scene.items.updateItems([id], (drafts) => {
      for (const d of drafts) d.position = { ...to };
    });
  }

  /** The current item `id` (a copy). */
  item(/** @type {string} */ id) {
    return structuredClone(this.items.find((i) => i.id === id));
  }
}
