import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { loadConfig, type AppConfig } from '../../src/config';
import { createTestDatabase, type TestDatabase } from './db';

export type TestApp = { app: FastifyInstance; db: TestDatabase; config: AppConfig; close(): Promise<void> };

/** The real app on a fresh database, driven with `inject`. */
export async function createTestApp(
  env: Record<string, string> = {},
  opts: { webDist?: string | null } = {},
): Promise<TestApp> {
  const db = await createTestDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kairos-app-'));
  const config = loadConfig({ LOG_LEVEL: 'silent', KAIROS_DATA_DIR: dataDir, DATABASE_URL: db.url, ...env });
  const app = await buildApp({ config, db, webDist: opts.webDist ?? null });
  await app.ready();
  return {
    app,
    db,
    config,
    async close() {
      await app.close();
      await db.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
