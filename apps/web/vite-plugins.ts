import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

/** Where index.html carries the build id, and the file the server answers it from (both read by lib/chunk-recovery.ts). */
export const BUILD_ID_META = 'kairos-build';
export const BUILD_ID_FILE = 'build.json';

/**
 * A build id: a hash of every emitted file's (content-hashed) name and of index.html. Written into index.html as
 * `<meta name="kairos-build">` (the id of the page a tab runs) and into `dist/build.json` (the id the server
 * serves now, revalidated on every read): a chunk that fails to load is a new version only when they differ.
 */
export function buildIdPlugin(): Plugin {
  return {
    name: 'kairos-build-id',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const html = bundle['index.html'];
        if (!html || html.type !== 'asset') return;
        const hash = createHash('sha256');
        for (const name of Object.keys(bundle).sort()) {
          if (name !== 'index.html' && !name.startsWith('.vite/')) hash.update(`${name}\n`);
        }
        hash.update(String(html.source));
        const id = hash.digest('hex').slice(0, 16);
        html.source = String(html.source).replace(
          /<meta charset="UTF-8" \/>/i,
          (charset) => `${charset}\n    <meta name="${BUILD_ID_META}" content="${id}" />`,
        );
        this.emitFile({
          type: 'asset',
          fileName: BUILD_ID_FILE,
          source: `${JSON.stringify({ buildId: id })}\n`,
        });
      },
    },
  };
}

const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|html|webmanifest)$/;

/**
 * Brotli (quality 11) and gzip (level 9) copies beside every compressible file of at least 1 KB, written once at
 * build so the server sends them as they are (`@fastify/static`'s `preCompressed`). A copy no smaller is skipped.
 */
export function precompressPlugin(): Plugin {
  let outDir = 'dist';
  return {
    name: 'kairos-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
          const file = path.join(dir, entry.name);
          if (entry.isDirectory()) return entry.name === '.vite' ? [] : walk(file);
          return COMPRESSIBLE.test(entry.name) ? [file] : [];
        });
      for (const file of walk(outDir)) {
        const source = fs.readFileSync(file);
        if (source.length < 1024) continue;
        const br = zlib.brotliCompressSync(source, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
          },
        });
        if (br.length < source.length) fs.writeFileSync(`${file}.br`, br);
        const gz = zlib.gzipSync(source, { level: 9 });
        if (gz.length < source.length) fs.writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}

/**
 * Sets of modules known once the module graph is complete: the first load's (the entry and everything it imports
 * statically) and, for each named group of lazy modules (matched on their ids), everything those import
 * statically. Chunk groups (vite.config.ts) consult them to leave the first load's modules where they are, and to
 * keep code a visitor's screens need out of chunks made for signed-in screens.
 *
 * `barrels` names packages imported through an index that only re-exports (the contract): a walk goes on from
 * such an import only to the modules exporting the names imported, not to every module of the package (by the
 * index, every screen would seem to reach every schema).
 */
export function moduleSets<Name extends string>(
  lazyGroups: Record<Name, RegExp>,
  barrels: Record<string, RegExp> = {},
): { plugin: Plugin; firstLoad: (id: string) => boolean; reachedFrom: (name: Name, id: string) => boolean } {
  const firstLoad = new Set<string>();
  const reached = new Map<Name, Set<string>>();
  const plugin: Plugin = {
    name: 'kairos-module-sets',
    apply: 'build',
    buildEnd() {
      const ids = [...this.getModuleIds()];
      // For each barrel's index: which of its modules exports each name.
      const indexes = Object.entries(barrels).flatMap(([specifier, pattern]) => {
        const index = ids.find((id) => pattern.test(id));
        if (!index) return [];
        const exporter = new Map<string, string>();
        for (const module of this.getModuleInfo(index)?.importedIds ?? [])
          for (const name of this.getModuleInfo(module)?.exports ?? []) exporter.set(name, module);
        return [{ index, exporter, imports: barrelImports(specifier) }];
      });
      const importsOf = (id: string): string[] => {
        const info = this.getModuleInfo(id);
        if (!info) return [];
        return info.importedIds.flatMap((next) => {
          const barrel = indexes.find((candidate) => candidate.index === next);
          if (!barrel) return [next];
          const names = barrel.imports(info.code ?? '');
          // A namespace import (or one this cannot read) reaches the whole package.
          if (names === 'all') return [next];
          return names.flatMap((name) => barrel.exporter.get(name) ?? []);
        });
      };
      const walk = (id: string, into: Set<string>) => {
        if (into.has(id)) return;
        into.add(id);
        for (const next of importsOf(id)) walk(next, into);
      };
      firstLoad.clear();
      for (const id of ids) if (this.getModuleInfo(id)?.isEntry) walk(id, firstLoad);
      for (const [name, pattern] of Object.entries(lazyGroups) as Array<[Name, RegExp]>) {
        const into = new Set<string>();
        for (const id of ids) if (pattern.test(id)) walk(id, into);
        reached.set(name, into);
      }
    },
  };
  return {
    plugin,
    firstLoad: (id) => firstLoad.has(id),
    reachedFrom: (name, id) => reached.get(name)?.has(id) ?? false,
  };
}

/**
 * The names a module's code (after TypeScript is stripped) imports or re-exports from `specifier`, or 'all' when
 * it takes the whole of it (`import * as`, `export *`) or a form this does not read.
 */
export function barrelImports(specifier: string): (code: string) => string[] | 'all' {
  const quoted = String.raw`["']${specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}["']`;
  const statement = new RegExp(String.raw`\b(?:import|export)\s*([^;'"]*?)\s*from\s*${quoted}`, 'g');
  return (code) => {
    const names: string[] = [];
    for (const [, clause = ''] of code.matchAll(statement)) {
      // `import type { … }`: nothing at run time.
      if (/^type\s*\{/.test(clause.trim())) continue;
      const braces = /^\{([^}]*)\}$/.exec(clause.trim());
      if (!braces) return 'all';
      for (const part of (braces[1] ?? '').split(',')) {
        const name = part.trim().split(/\s+as\s+/)[0];
        // `{ type Trade }`: a type, gone at run time.
        if (name && !/^type\s/.test(name)) names.push(name);
      }
    }
    return names;
  };
}

/**
 * The first screen's reads index.html starts itself (app/early-reads.ts), for a stored session: `source` is
 * `firstScreenReads`'s own text, called with `settings`, the path, the stored time zone (`localStorage[timeZoneKey]`)
 * and the time; the answers wait in `window[global]` for the API client.
 */
export interface EarlyReadsScript {
  source: string;
  settings: object;
  timeZoneKey: string;
  global: string;
}

/** The inline statements that start the early reads (in a function where `return` ends the script). */
function earlyReadsStatements(reads: EarlyReadsScript, sessionKey: string): string {
  return `try {
          var token = localStorage.getItem(${JSON.stringify(sessionKey)});
          if (!token || typeof fetch !== 'function') return;
          var urls = (${reads.source})(${JSON.stringify(reads.settings)}, location.pathname, location.search,
            localStorage.getItem(${JSON.stringify(reads.timeZoneKey)}), new Date());
          var headers = { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: 'Bearer ' + token };
          var answers = {};
          for (var j = 0; j < urls.length; j++) {
            answers[urls[j]] = fetch(urls[j], { headers: headers });
            // Not taken (the screen changed, the session too): its failure is nobody's.
            answers[urls[j]].catch(function () {});
          }
          if (urls.length) window[${JSON.stringify(reads.global)}] = { token: token, at: Date.now(), reads: answers };
        } catch (e) {}`;
}

/** A screen whose code index.html asks for at once, and the modules it loads (ids end with these). */
export interface PreloadedScreen {
  modules: string[];
  /** Only when a session is stored (`localStorage[sessionKey]`): a visitor is sent to Login instead. */
  signedIn?: boolean;
}

/**
 * index.html asks for the code of the screen it opens on (for the paths named) beside the first load, instead of
 * once the first load has run and the router has matched the path (issue 21: the Dashboard's chunks started
 * 1.5–2 s after the page on a throttled phone). A small inline script adds `<link rel="modulepreload">` for the
 * screen's chunks and what they import beyond the first load; the router's own imports then find them loaded or
 * on their way.
 */
export function screenPreloadPlugin(
  screens: Record<string, PreloadedScreen>,
  sessionKey: string,
  earlyReads?: EarlyReadsScript,
  /** Chunks (by name) made for lazy screens: the build fails if the first load would import one. */
  lazyChunks: string[] = [],
): Plugin {
  let base = '/';
  return {
    name: 'kairos-screen-preload',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const html = bundle['index.html'];
        if (!html || html.type !== 'asset') return;
        const chunks = Object.values(bundle).flatMap((file) => (file.type === 'chunk' ? [file] : []));
        const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const closure = (file: string, into: Set<string>) => {
          if (into.has(file)) return;
          into.add(file);
          for (const next of byFile.get(file)?.imports ?? []) closure(next, into);
        };
        const firstLoad = new Set<string>();
        for (const chunk of chunks) if (chunk.isEntry) closure(chunk.fileName, firstLoad);
        for (const file of firstLoad) {
          const name = byFile.get(file)?.name;
          if (name && lazyChunks.includes(name))
            this.error(
              `screen preload: the first load imports ${file}, a lazy screen's chunk (vite.config.ts)`,
            );
        }
        const table: Record<string, { files: string[]; signedIn: boolean }> = {};
        for (const [path, screen] of Object.entries(screens)) {
          const files = new Set<string>();
          for (const module of screen.modules) {
            // The chunk that starts at the module, or the group chunk that holds it (vite.config.ts's groups).
            const chunk =
              chunks.find((candidate) => candidate.facadeModuleId?.endsWith(module)) ??
              chunks.find((candidate) => candidate.moduleIds.some((id) => id.endsWith(module)));
            if (!chunk) this.error(`screen preload: no chunk holds ${module} (vite.config.ts)`);
            closure(chunk.fileName, files);
          }
          table[path] = {
            files: [...files].filter((file) => !firstLoad.has(file)).map((file) => `${base}${file}`),
            signedIn: screen.signedIn ?? false,
          };
        }
        const script = `(function () {
        var screens = ${JSON.stringify(table)};
        var screen = screens[location.pathname];
        try {
          if (!screen || (screen.signedIn && !localStorage.getItem(${JSON.stringify(sessionKey)}))) return;
        } catch (e) {
          return;
        }
        for (var i = 0; i < screen.files.length; i++) {
          var link = document.createElement('link');
          link.rel = 'modulepreload';
          link.crossOrigin = '';
          link.href = screen.files[i];
          document.head.appendChild(link);
        }
        ${earlyReads ? earlyReadsStatements(earlyReads, sessionKey) : ''}
      })();`;
        // Last in the head: the first load's script and stylesheet are asked for first, and this script runs once
        // the stylesheet is in (an inline script waits for the stylesheets before it), while the script loads.
        html.source = String(html.source).replace(
          /<\/head>/i,
          (end) => `  <script>\n      ${script}\n    </script>\n  ${end}`,
        );
      },
    },
  };
}
