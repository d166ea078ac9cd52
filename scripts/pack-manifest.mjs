// The package.json that goes into the tarball: without `scripts`, whose files (scripts/, bench/,
// test/) the tarball does not hold (`npm run test` in an installed package would only fail).
// `prepack` runs `strip`, `postpack` runs `restore`; npm packs the file as it is on disk between
// them (and runs `postpack` from the manifest it read before `prepack`).
//
// The original is kept in .package.json.packing until `restore` puts it back. That file is also the
// lock: two packs of this directory at once (`npm test` runs `attw --pack` beside the package test's
// `npm pack`) take turns, so neither packs or restores the other's stripped copy. A copy left by a
// pack that was killed before `restore` is put back by the next `strip` once it is a minute old, or
// at once by `node scripts/pack-manifest.mjs restore`.
import { readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const manifest = path.join(root, 'package.json');
const kept = path.join(root, '.package.json.packing');
/** A pack holds the lock for a few seconds; one older than this was killed. */
const STALE_MS = 60_000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes package.json whole or not at all (a reader never sees half a file). */
function replaceManifest(text) {
  const temporary = `${manifest}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, manifest);
}

function restore() {
  let original;
  try {
    original = readFileSync(kept, 'utf8');
  } catch (error) {
    if (error.code === 'ENOENT') return false;
    throw error;
  }
  if (original !== '') replaceManifest(original); // '' : killed after taking the lock, before stripping
  unlinkSync(kept);
  return true;
}

async function strip() {
  for (;;) {
    try {
      writeFileSync(kept, '', { flag: 'wx' }); // taken only if no other pack holds it
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const age = Date.now() - (statSync(kept, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_MS && restore())
        process.stderr.write('pack-manifest: put back the package.json a killed pack left stripped\n');
      await sleep(100);
    }
  }
  // Read only once the lock is ours: before, the file may be another pack's stripped copy.
  const original = readFileSync(manifest, 'utf8');
  writeFileSync(kept, original);
  const { scripts: _scripts, ...published } = JSON.parse(original);
  replaceManifest(`${JSON.stringify(published, null, 2)}\n`);
}

const command = process.argv[2];
if (command === 'strip') await strip();
else if (command === 'restore') restore();
else {
  process.stderr.write('usage: node scripts/pack-manifest.mjs strip|restore\n');
  process.exit(2);
}
