// Shared by the module's tests: the repository's paths and its Python.

import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (integrations/foundry/test -> ../../..). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
/** The module's folder. */
export const MODULE = path.join(ROOT, "integrations", "foundry");
/** The Python that runs the bridge's code: $VTT_BRIDGE_PYTHON, else the repository's venv. */
export const PYTHON = process.env.VTT_BRIDGE_PYTHON || path.join(ROOT, ".venv/bin/python");

/**
 * Run a Python module of the repository; resolves with its stdout parsed as JSON.
 * @param {string[]} args
 */
export function pythonJson(args) {
  return new Promise((resolve, reject) => {
    execFile(PYTHON, args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${args.join(" ")} failed: ${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout));
    });
  });
}
