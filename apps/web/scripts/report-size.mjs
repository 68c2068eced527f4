#!/usr/bin/env node
// Build report (DESIGN §10): first-load JS and every lazy chunk, gzip-compressed, and the first load as it goes
// on the wire (the brotli copies the build writes beside each file, vite-plugins.ts; the server sends those).
// Fails the build when the first load passes 150 KB or a route chunk passes 100 KB (gzip: the budget holds for a
// browser without brotli too).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';

const FIRST_LOAD_BUDGET = 150 * 1024;
const ROUTE_CHUNK_BUDGET = 100 * 1024;

const dist = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));

const gzipped = new Map();
function gzipSize(file) {
  if (!gzipped.has(file)) gzipped.set(file, gzipSync(readFileSync(join(dist, file)), { level: 9 }).length);
  return gzipped.get(file);
}

const brotlied = new Map();
/** The size sent to a browser that accepts brotli: the build's `.br` copy (or the file itself when it has none). */
function brotliSize(file) {
  if (!brotlied.has(file)) {
    const copy = join(dist, `${file}.br`);
    brotlied.set(
      file,
      existsSync(copy)
        ? readFileSync(copy).length
        : brotliCompressSync(readFileSync(join(dist, file))).length,
    );
  }
  return brotlied.get(file);
}

/** Every JS file a manifest entry pulls in statically (itself included). */
function staticClosure(key, seen = new Set()) {
  const entry = manifest[key];
  if (!entry || seen.has(key)) return seen;
  seen.add(key);
  for (const imported of entry.imports ?? []) staticClosure(imported, seen);
  return seen;
}

const filesOf = (keys) =>
  new Set([...keys].map((key) => manifest[key].file).filter((file) => file.endsWith('.js')));
const sum = (files) => [...files].reduce((total, file) => total + gzipSize(file), 0);
const kb = (bytes) => `${(bytes / 1024).toFixed(1).padStart(6)} KB`;

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) throw new Error('No entry in the Vite manifest');
const firstLoad = filesOf(staticClosure(entryKey));
const firstLoadSize = sum(firstLoad);
const firstLoadWire = [...firstLoad].reduce((total, file) => total + brotliSize(file), 0);

// Lazy chunks: route modules (src/app/routes, the app layout) and other on-demand code (charts, locales).
const lazy = Object.entries(manifest)
  .filter(([, entry]) => entry.isDynamicEntry)
  .map(([key, entry]) => {
    const extra = [...filesOf(staticClosure(key))].filter((file) => !firstLoad.has(file));
    return {
      name: key.replace(/^src\//, ''),
      isRoute: key.startsWith('src/app/routes/') || key.startsWith('src/app/layout/'),
      own: gzipSize(entry.file),
      withShared: sum(extra),
    };
  })
  .sort((a, b) => Number(b.isRoute) - Number(a.isRoute) || a.name.localeCompare(b.name));

const failures = [];
const lines = [];
lines.push('', 'Kairos web — build report (gzip)', '');
lines.push(`First-load JS  ${kb(firstLoadSize)}  budget ${kb(FIRST_LOAD_BUDGET)}  (${firstLoad.size} files)`);
lines.push(`  on the wire  ${kb(firstLoadWire)}  (brotli, as the server sends it)`);
for (const file of firstLoad) lines.push(`    ${kb(gzipSize(file))}  ${kb(brotliSize(file))} br  ${file}`);
if (firstLoadSize > FIRST_LOAD_BUDGET) failures.push(`first-load JS is ${kb(firstLoadSize).trim()}`);

lines.push(
  '',
  `Lazy chunks (own size; "+ shared" adds chunks it needs beyond the first load), budget ${kb(ROUTE_CHUNK_BUDGET).trim()} each:`,
);
for (const chunk of lazy) {
  const flag = chunk.own > ROUTE_CHUNK_BUDGET ? '  ✗ over budget' : '';
  lines.push(
    `    ${kb(chunk.own)}  (+ shared ${kb(chunk.withShared).trim()})  ${chunk.isRoute ? 'route' : 'lazy '}  ${chunk.name}${flag}`,
  );
  if (chunk.own > ROUTE_CHUNK_BUDGET) failures.push(`${chunk.name} is ${kb(chunk.own).trim()}`);
}
// Shared chunks loaded only on demand (vendor code split out of the routes) obey the same budget.
const lazyFiles = new Set(lazy.map((chunk) => manifest[`src/${chunk.name}`]?.file));
const shared = Object.values(manifest)
  .map((entry) => entry.file)
  .filter(
    (file, index, all) =>
      file.endsWith('.js') && !firstLoad.has(file) && !lazyFiles.has(file) && all.indexOf(file) === index,
  );
if (shared.length > 0) lines.push('', 'Shared lazy chunks:');
for (const file of shared) {
  const size = gzipSize(file);
  lines.push(`    ${kb(size)}  ${file}${size > ROUTE_CHUNK_BUDGET ? '  ✗ over budget' : ''}`);
  if (size > ROUTE_CHUNK_BUDGET) failures.push(`${file} is ${kb(size).trim()}`);
}
lines.push('');
console.log(lines.join('\n'));

if (failures.length > 0) {
  console.error(`Size budget exceeded:\n  - ${failures.join('\n  - ')}`);
  process.exit(1);
}
console.log('Size budgets met.');
