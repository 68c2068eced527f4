import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/db/embedded-postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

let embedded: EmbeddedPostgres | undefined;
let tmp: string | undefined;

/** DATABASE_URL when set (CI), otherwise one embedded cluster for the run; each test file makes its own database. */
export async function setup(project: TestProject) {
  let url = process.env.DATABASE_URL;
  if (!url) {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kairos-test-'));
    fs.chmodSync(tmp, 0o755);
    embedded = await startEmbeddedPostgres({ dataDir: path.join(tmp, 'pg') });
    // Each test file creates its database: the superuser's URL (the app's role may not create databases).
    url = embedded.adminUrl;
  }
  project.provide('databaseUrl', url);
}

export async function teardown() {
  await embedded?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
}
