#!/usr/bin/env node
// Build the Foundry module's release: the zip Foundry installs and the manifest it reads.
//
//   node integrations/foundry/scripts/build-release.mjs [--out DIR]   (default build/foundry)
//
// The release layout (README "Releases"): every GitHub release vX.Y.Z of
// vtt-bridge/vtt-bridge carries two assets, this script's output:
//   module.json              the manifest; `manifest` points at releases/latest/download/module.json,
//                            so Foundry's update check always reads the newest release's
//   vtt-bridge-foundry.zip   the module, module.json at its root; `download` points at
//                            releases/download/vX.Y.Z/vtt-bridge-foundry.zip
// The zip's lib/client/ is built here from clients/js (copy-client.mjs), not taken from the
// checked-in copy, and the script refuses a module.json whose version, `download` or
// files do not agree, so a release cannot ship a manifest that installs something else.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { deflateRawSync } from "node:zlib";

import { copyClient, listFiles } from "./copy-client.mjs";

const MODULE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const ROOT = path.resolve(MODULE, "../..");
/** The GitHub repository the release URLs name (as integrations/owlbear's manifest does). */
export const REPOSITORY = "https://github.com/vtt-bridge/vtt-bridge";
/** The zip's name among a release's assets. */
export const ZIP_NAME = "vtt-bridge-foundry.zip";
/** What goes in the zip besides lib/client (built from clients/js): what Foundry loads and shows. */
const SHIPPED = ["module.json", "README.md", "lang", "src"];

/** The URLs a manifest of `version` must carry in the release layout. */
export function releaseUrls(version) {
  return {
    url: `${REPOSITORY}/tree/main/integrations/foundry`,
    manifest: `${REPOSITORY}/releases/latest/download/module.json`,
    download: `${REPOSITORY}/releases/download/v${version}/${ZIP_NAME}`,
  };
}

/** What is wrong with `manifest` for a release (package.json `pkg` alongside): [] when fine. */
export function manifestProblems(manifest, pkg) {
  const problems = [];
  if (manifest.version !== pkg.version) problems.push(`module.json version ${manifest.version} is not package.json's ${pkg.version}`);
  for (const [key, want] of Object.entries(releaseUrls(manifest.version))) {
    if (manifest[key] !== want) problems.push(`module.json ${key} is ${JSON.stringify(manifest[key])}, the release layout says ${want}`);
  }
  const { minimum, verified, maximum } = manifest.compatibility ?? {};
  if (!minimum || !verified || !maximum) problems.push("module.json compatibility needs minimum, verified and maximum");
  else if (!(Number(minimum) <= Number(verified) && Number(verified) <= Number(maximum))) problems.push(`compatibility ${minimum} <= ${verified} <= ${maximum} does not hold`);
  return problems;
}

// -- a minimal zip writer (PKWARE APPNOTE 4.3: local headers, deflate, central directory) --

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 of `bytes` (the zip's checksum). */
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * A zip of `files` ([name, bytes], names with "/"), deflated, every entry dated
 * 1980-01-01 so the same files give the same zip.
 * @param {Array<[string, Buffer]>} files
 */
export function zip(files) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, data] of files) {
    const nameBytes = Buffer.from(name, "utf8");
    const packed = deflateRawSync(data, { level: 9 });
    const crc = crc32(data);
    const header = (signature, size) => {
      const b = Buffer.alloc(size);
      b.writeUInt32LE(signature, 0);
      return b;
    };
    const local = header(0x04034b50, 30);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(0, 10); // time 00:00
    local.writeUInt16LE(0x21, 12); // date 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = header(0x02014b50, 46);
    central.writeUInt16LE(0x0314, 4); // made by: Unix, 2.0
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38); // -rw-r--r--
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The files of the release zip, [name in the zip, bytes], sorted: the module and a fresh lib/client. */
export function releaseFiles() {
  const staging = mkdtempSync(path.join(os.tmpdir(), "vtt-bridge-foundry-"));
  try {
    copyClient(path.join(staging, "client"));
    const files = [];
    for (const entry of SHIPPED) {
      const full = path.join(MODULE, entry);
      if (!statSync(full).isDirectory()) files.push([entry, readFileSync(full)]);
      else for (const rel of listFiles(full)) files.push([`${entry}/${rel.split(path.sep).join("/")}`, readFileSync(path.join(full, rel))]);
    }
    for (const rel of listFiles(path.join(staging, "client"))) {
      files.push([`lib/client/${rel.split(path.sep).join("/")}`, readFileSync(path.join(staging, "client", rel))]);
    }
    return files.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Build the release into `out`: module.json and the zip. Returns their paths. */
export function buildRelease(out = path.join(ROOT, "build", "foundry")) {
  const manifest = JSON.parse(readFileSync(path.join(MODULE, "module.json"), "utf8"));
  const pkg = JSON.parse(readFileSync(path.join(MODULE, "package.json"), "utf8"));
  const problems = manifestProblems(manifest, pkg);
  const files = releaseFiles();
  const names = new Set(files.map(([name]) => name));
  for (const file of [...manifest.esmodules, ...manifest.languages.map((l) => l.path)]) {
    if (!names.has(file)) problems.push(`module.json names ${file}, which the zip would not have`);
  }
  if (problems.length) throw new Error(`not a releasable module:\n  ${problems.join("\n  ")}`);
  mkdirSync(out, { recursive: true });
  const zipPath = path.join(out, ZIP_NAME);
  const manifestPath = path.join(out, "module.json");
  writeFileSync(zipPath, zip(files));
  writeFileSync(manifestPath, readFileSync(path.join(MODULE, "module.json")));
  return { zip: zipPath, manifest: manifestPath, files: files.length };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf("--out");
  try {
    const built = buildRelease(at > 0 ? path.resolve(process.argv[at + 1]) : undefined);
    console.log(`${path.relative(process.cwd(), built.zip)} (${built.files} files) and ${path.relative(process.cwd(), built.manifest)}`);
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
