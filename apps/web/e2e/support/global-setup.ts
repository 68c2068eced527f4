import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startAssetShield } from './asset-shield';
import { withFreshWebBuild } from './build';
import { embeddedDatabaseUrl } from './database';
import { startMailSink } from './mail-sink';
import { type RunningServer, createRunDatabase, startServer } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the real server under test, e.g. http://127.0.0.1:41234 (no trailing slash). */
    baseUrl: string;
    /** Where the mail sink writes the mails the server sends (see `waitForMail`). */
    mailDir: string;
    /** The admin email of this run (KAIROS_ADMIN_EMAIL). */
    adminEmail: string;
    /** What registering the admin email needs (KAIROS_ADMIN_SETUP_TOKEN). */
    adminSetupToken: string;
    /** The run's database, for arrangements no API can make (see `withDatabase`); '' if unknown. */
    databaseUrl: string;
  }
}

export const ADMIN_EMAIL = 'admin@e2e.test';
/** KAIROS_ADMIN_SETUP_TOKEN of the run: registering ADMIN_EMAIL needs it (issue 20). */
export const ADMIN_SETUP_TOKEN = 'kst_e2e-admin-setup-token';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/**
 * One real server for the whole e2e run: the web app built if stale, a fresh data dir, a fresh
 * database (on DATABASE_URL's server, else embedded PostgreSQL), SMTP into a local sink.
 */
export default async function setup(project: TestProject) {
  const started = Date.now();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kairos-e2e-'));
  fs.chmodSync(tmp, 0o755); // embedded PostgreSQL runs as another user when we are root
  const mailDir = path.join(tmp, 'mail');
  const assetCopy = path.join(tmp, 'web-assets');
  const mailSink = await startMailSink(mailDir);
  const database = process.env.DATABASE_URL ? await createRunDatabase(process.env.DATABASE_URL) : undefined;

  let server: RunningServer | undefined;
  let shield: Awaited<ReturnType<typeof startAssetShield>> | undefined;
  let built: boolean;
  // The browser's address (the asset shield), fixed first: reset links are built from KAIROS_PUBLIC_URL.
  const publicPort = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  try {
    // Under the build lock: the server reads index.html at start-up, and its assets are copied
    // before anyone may rebuild (see asset-shield.ts).
    built = await withFreshWebBuild(root, async () => {
      server = await startServer(root, {
        HOST: '127.0.0.1',
        KAIROS_DATA_DIR: path.join(tmp, 'data'),
        LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
        KAIROS_ADMIN_EMAIL: ADMIN_EMAIL,
        KAIROS_ADMIN_SETUP_TOKEN: ADMIN_SETUP_TOKEN,
        KAIROS_ROLE: 'all',
        KAIROS_PUBLIC_URL: `http://127.0.0.1:${publicPort}`,
        // Each browser context and API call poses as its own client address (see support/api.ts).
        KAIROS_TRUST_PROXY: 'true',
        KAIROS_MASTER_KEY: undefined,
        SMTP_URL: `smtp://127.0.0.1:${mailSink.port}`,
        DATABASE_URL: database?.url,
      });
      fs.cpSync(path.join(root, 'apps/web/dist/assets'), assetCopy, { recursive: true });
    });
    shield = await startAssetShield(server!.baseUrl, assetCopy, publicPort);
  } catch (error) {
    await server?.stop();
    await mailSink.close();
    await database?.drop();
    fs.rmSync(tmp, { recursive: true, force: true });
    throw error;
  }
  const baseUrl = shield.url;

  console.log(
    `e2e: server ${baseUrl} on ${database ? 'a fresh database on DATABASE_URL' : 'embedded PostgreSQL'}` +
      `${built ? ', web app rebuilt' : ''} (ready in ${Date.now() - started} ms)`,
  );
  project.provide('baseUrl', baseUrl);
  project.provide('mailDir', mailDir);
  project.provide('adminEmail', ADMIN_EMAIL);
  project.provide('adminSetupToken', ADMIN_SETUP_TOKEN);
  project.provide('databaseUrl', database?.url ?? embeddedDatabaseUrl(path.join(tmp, 'data')) ?? '');

  return async () => {
    await shield?.close();
    await server?.stop();
    if (process.env.E2E_SERVER_LOG) console.log(server?.output());
    await mailSink.close();
    await database?.drop().catch((error: unknown) => console.warn('e2e: could not drop the database', error));
    fs.rmSync(tmp, { recursive: true, force: true });
  };
}
