// The scene the GM's page offers to load on an empty table: a 1 m square grid for the
// Hero System supplement, with a wall, a door, terrain, and tokens for the demo table's
// participants (gm, alice, bob).  A fight worth looking at: the hero starts inside the
// ogre's reach, so walking away provokes.

export const DEMO_RULESET = "hero-supplement";

export const DEMO_SCENE = {
  grid: { kind: "square", cell_size: 1, unit: "m", width: 16, height: 12, diagonal: "one" },
  tokens: [
    { id: "ogre", name: "Ogre", owner: "gm", side: "monsters", x: 7, y: 5, size: 2, reach: 2, movement: 6,
      stats: { ocv: 5, dcv: 3, init: 12 } },
    { id: "goblin", name: "Goblin", owner: "gm", side: "monsters", x: 12, y: 2, size: 1, reach: 1, movement: 6,
      stats: { ocv: 4, dcv: 5, init: 9 } },
    { id: "hero", name: "Hero", owner: "alice", side: "heroes", x: 6, y: 6, size: 1, reach: 1, movement: 6,
      stats: { ocv: 6, dcv: 4, init: 14 } },
    { id: "elf", name: "Elf", owner: "bob", side: "heroes", x: 3, y: 3, size: 1, reach: 1, movement: 7,
      stats: { ocv: 5, dcv: 6, init: 13 } },
  ],
  walls: [
    { id: "w-north", a: [10, 0], b: [10, 4], blocks_move: true, blocks_sight: true, door: "none" },
    { id: "door-1", a: [10, 4], b: [10, 5], blocks_move: true, blocks_sight: true, door: "closed" },
    { id: "w-south", a: [10, 5], b: [10, 9], blocks_move: true, blocks_sight: true, door: "none" },
  ],
  terrain: [
    { kind: "water", polygon: [[2, 8], [6, 8], [6, 11], [2, 11]] },
    { kind: "difficult", polygon: [[12, 7], [15, 7], [15, 10], [12, 10]] },
  ],
};
