// The VTT adapters the demo drives the fight through, by name. An integration plugs in
// by adding one entry: a function (args) => adapter, the interface in runner.js.

import { makeFoundryAdapter } from "./foundry-adapter.js";
import { makeOwlbearAdapter } from "./owlbear-adapter.js";

/** @type {Record<string, (args: {script: any, bridgeUrl: string, gmToken: string}) => Promise<any>>} */
export const ADAPTERS = {
  foundry: (args) => makeFoundryAdapter({ ...args, generation: 13 }),
  "foundry-v12": (args) => makeFoundryAdapter({ ...args, generation: 12 }),
  owlbear: makeOwlbearAdapter,
};
