import pg from 'pg';
import pino from 'pino';
import { describe, expect, it, inject } from 'vitest';
import { createEventHub } from '../../src/modules/events/event-hub';
import { createSessionCache } from '../../src/modules/auth/session-cache';

/**
 * A LISTEN channel asked for just before its owner closes (a bots list read as the app stops) must still be
 * given back: otherwise it stays checked out and pool.end() waits forever — the app never finished stopping
 * (test/accounts/testnet.test.ts's afterAll timed out now and then, and CI refused the landing for it).
 */
const url = new URL(inject('databaseUrl'));
url.pathname = '/postgres';
const log = pino({ level: 'silent' });

/** pool.end(), or 'hung' after 5 s. */
async function endWithin(pool: pg.Pool) {
  let timer: NodeJS.Timeout | undefined;
  const result = await Promise.race([
    pool.end().then(() => 'ended'),
    new Promise((resolve) => (timer = setTimeout(() => resolve('hung'), 5_000))),
  ]);
  clearTimeout(timer);
  return result;
}

describe('closing while a LISTEN channel is being opened', () => {
  it('gives the live events channel back', async () => {
    const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
    const hub = createEventHub({ pool, log });
    const starting = hub.ensureListening().catch(() => undefined);
    await hub.close();
    await starting;
    expect(hub.listening).toBe(false);
    expect(await endWithin(pool)).toBe('ended');
  });

  it("gives the session cache's channel back", async () => {
    const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
    const cache = createSessionCache({ pool, log });
    cache.set(
      'hash',
      { id: 'u', email: 'u@example.com', role: 'user', sessionId: 's', familyId: 'f' },
      new Date(Date.now() + 60_000),
    );
    await cache.close();
    expect(await endWithin(pool)).toBe('ended');
  });
});
