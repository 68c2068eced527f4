import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestHash } from '../../src/modules/idempotency/idempotency-service';
import { createTestApp, type TestApp } from '../support/app';
import { createPaperAccount, postStrategy } from '../support/engine';
import { bearer, registerUser, type Session } from '../support/users';

let t: TestApp;
let alice: Session;
let bob: Session;
let strategyId: string;
let accountId: string;

beforeAll(async () => {
  t = await createTestApp();
  alice = await registerUser(t.app);
  bob = await registerUser(t.app);
  strategyId = (
    await postStrategy(t.app, alice, { nickname: 'Keyed', tradeCurrency: 'BTC', timeFrame: '1h' })
  ).json().results.id;
  accountId = (await createPaperAccount(t.app, alice, { nickname: 'Keyed account' })).id;
});
afterAll(() => t.close());

const botBody = (nickname: string) => ({
  nickname,
  strategyId,
  tradingAccountId: accountId,
  fixedAmount: 20,
});

function postBot(s: Session, body: object, key?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/bots',
    headers: { ...bearer(s.apiToken), ...(key === undefined ? {} : { 'idempotency-key': key }) },
    payload: body,
  });
}

function postKeyedStrategy(s: Session, nickname: string, key: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/strategies',
    headers: { ...bearer(s.apiToken), 'idempotency-key': key },
    payload: { nickname, tradeCurrency: 'BTC', timeFrame: '1h' },
  });
}

/** Claims a fresh key for a POST /api/bots of `body`, as a first request that is still running would. */
async function claimAsFirst(body: object) {
  const key = randomUUID();
  const claimed = {
    userId: alice.user.id as string,
    key,
    method: 'POST',
    path: '/api/bots',
    requestHash: requestHash(body),
  };
  const idempotency = t.app.services.idempotency;
  expect((await idempotency.begin(claimed)).kind).toBe('run');
  return { key, claimed, idempotency };
}

async function botsNamed(nickname: string): Promise<number> {
  const { rows } = await t.db.pool.query('SELECT count(*)::int AS n FROM bots WHERE nickname = $1', [
    nickname,
  ]);
  return rows[0].n;
}

describe('Idempotency-Key', () => {
  it('creates one bot for two requests sent at once with one key, and answers both alike', async () => {
    const key = randomUUID();
    const [first, second] = await Promise.all([
      postBot(alice, botBody('Double click'), key),
      postBot(alice, botBody('Double click'), key),
    ]);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.body).toBe(first.body);
    expect(await botsNamed('Double click')).toBe(1);
  });

  it('answers a repeat after the first request ended with the stored answer, without running it again', async () => {
    const key = randomUUID();
    const first = await postBot(alice, botBody('Retried'), key);
    expect(first.statusCode).toBe(201);
    const again = await postBot(alice, botBody('Retried'), key);
    expect(again.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await botsNamed('Retried')).toBe(1);

    // A refusal is an answer too: the same key gets it again even once the request would now pass.
    const refusedKey = randomUUID();
    const refused = await postBot(alice, botBody('Retried'), refusedKey);
    expect(refused.statusCode).toBe(409);
    await t.app.inject({
      method: 'DELETE',
      url: `/api/bots/${first.json().results.id}`,
      headers: bearer(alice.apiToken),
    });
    const refusedAgain = await postBot(alice, botBody('Retried'), refusedKey);
    expect(refusedAgain.statusCode).toBe(409);
    expect(refusedAgain.body).toBe(refused.body);
    expect(await botsNamed('Retried')).toBe(0);
  });

  it('refuses a key reused on another request (body, path or method) with a 422', async () => {
    const key = randomUUID();
    expect((await postBot(alice, botBody('Original'), key)).statusCode).toBe(201);
    const otherBody = await postBot(alice, botBody('Another'), key);
    expect(otherBody.statusCode).toBe(422);
    expect(otherBody.json()).toEqual({
      success: false,
      error: 'IDEMPOTENCY_KEY_REUSED',
      message: 'This Idempotency-Key was already used for a different request',
    });
    const otherPath = await postKeyedStrategy(alice, 'Other path', key);
    expect(otherPath.statusCode).toBe(422);
    expect(otherPath.json().error).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await botsNamed('Another')).toBe(0);
    // The same body with its keys in another order is the same request.
    const { fixedAmount, ...rest } = botBody('Original');
    const reordered = await postBot(alice, { fixedAmount, ...rest }, key);
    expect(reordered.statusCode).toBe(201);
  });

  it('changes nothing without the header: two requests make two bots', async () => {
    const [one, two] = await Promise.all([
      postBot(alice, botBody('No key one')),
      postBot(alice, botBody('No key two')),
    ]);
    expect([one.statusCode, two.statusCode]).toEqual([201, 201]);
    expect(one.headers['idempotent-replayed']).toBeUndefined();
    expect(one.json().results.id).not.toBe(two.json().results.id);
  });

  it('keeps each user’s keys apart', async () => {
    const key = randomUUID();
    expect((await postBot(alice, botBody('Alice keyed'), key)).statusCode).toBe(201);
    const bobs = await postKeyedStrategy(bob, 'Bob keyed', key);
    expect(bobs.statusCode).toBe(201);
  });

  it('refuses a key that is empty, too long or not printable with a 400', async () => {
    for (const key of ['', 'k'.repeat(201), 'tab\there']) {
      const res = await postBot(alice, botBody('Bad key'), key);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        error: 'VALIDATION_ERROR',
        message: 'Idempotency-Key must be 1 to 200 printable characters',
      });
    }
    expect(await botsNamed('Bad key')).toBe(0);
    expect((await postBot(alice, botBody('Long key'), 'k'.repeat(200))).statusCode).toBe(201);
  });

  it('waits for a first request still running, then answers as it did, or 409 if it runs on', async () => {
    const body = botBody('Slow first');
    const { key, claimed, idempotency } = await claimAsFirst(body);

    const stillRunning = await postBot(alice, body, key);
    expect(stillRunning.statusCode).toBe(409);
    expect(stillRunning.json()).toMatchObject({ error: 'IDEMPOTENCY_IN_FLIGHT' });

    const waiting = postBot(alice, body, key);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const answer = JSON.stringify({ success: true, results: { id: 'answered-meanwhile' } });
    await idempotency.finish(claimed, 201, answer);
    const res = await waiting;
    expect(res.statusCode).toBe(201);
    expect(res.body).toBe(answer);
    expect(await botsNamed('Slow first')).toBe(0);
  });

  it('keeps no server failure: the key can be retried', async () => {
    const body = botBody('After a failure');
    const { key, claimed, idempotency } = await claimAsFirst(body);
    await idempotency.finish(claimed, 503, JSON.stringify({ success: false, error: 'INTERNAL' }));
    const retried = await postBot(alice, body, key);
    expect(retried.statusCode).toBe(201);
    expect(await botsNamed('After a failure')).toBe(1);
  });

  it('ignores and sweeps keys older than 24 h', async () => {
    const old = (key: string, hash: string) =>
      t.db.pool.query(
        `INSERT INTO idempotency_keys (user_id, key, method, path, request_hash, status_code, response, created_at)
         VALUES ($1, $2, 'POST', '/api/bots', $3, 201, '{}'::jsonb, now() - interval '25 hours')`,
        [alice.user.id, key, hash],
      );
    const expired = randomUUID();
    const stale = randomUUID();
    await old(expired, 'another request');
    await old(stale, 'another request');
    const res = await postBot(alice, botBody('Expired key'), expired);
    expect(res.statusCode).toBe(201);
    expect(await botsNamed('Expired key')).toBe(1);
    const { rows } = await t.db.pool.query(
      `SELECT key FROM idempotency_keys WHERE created_at < now() - interval '24 hours'`,
    );
    expect(rows).toEqual([]);
  });

  it('keeps answers sealed: a new strategy’s webhook secret is not in the table', async () => {
    const res = await postKeyedStrategy(alice, 'Sealed answer', randomUUID());
    expect(res.statusCode).toBe(201);
    const secret = res.json().results.webhookSecret as string;
    expect(secret).toBeTruthy();
    const { rows } = await t.db.pool.query(
      `SELECT count(*)::int AS n FROM idempotency_keys WHERE response::text LIKE '%' || $1 || '%'`,
      [secret],
    );
    expect(rows[0].n).toBe(0);
  });

  it('leaves the session routes alone', async () => {
    const key = randomUUID();
    const session = await registerUser(t.app);
    const out = await t.app.inject({
      method: 'POST',
      url: '/auth/logout',
      headers: { ...bearer(session.apiToken), 'idempotency-key': key },
    });
    expect(out.statusCode).toBeLessThan(300);
    const { rows } = await t.db.pool.query('SELECT 1 FROM idempotency_keys WHERE key = $1', [key]);
    expect(rows).toEqual([]);
  });
});
