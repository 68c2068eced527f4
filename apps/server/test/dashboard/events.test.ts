import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { createPaperAccount } from '../support/engine';
import { bearer, GOOD_PASSWORD, registerUser, type Session } from '../support/users';

let t: TestApp;
let base: string;
let alice: Session;
let bob: Session;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  alice = await registerUser(t.app);
  bob = await registerUser(t.app);
});
afterAll(() => t.close());

async function login(email: string): Promise<Session> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/login',
    payload: { email, password: GOOD_PASSWORD },
  });
  const { results } = res.json();
  return { email, apiToken: results.apiToken, refreshToken: results.refreshToken, user: results.user };
}

/** POST /api/events/ticket: what the web asks for before each stream it opens. */
async function ticketFor(who: Session): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/events/ticket',
    headers: bearer(who.apiToken),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().results.ticket;
}

/** Opens the stream like the web's EventSource (a fresh ticket in the URL) and collects its events. */
async function openStream(who: Session, headers: Record<string, string> = {}) {
  return openUrl(`/api/events?ticket=${encodeURIComponent(await ticketFor(who))}`, headers);
}

async function openUrl(url: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const res = await fetch(`${base}${url}`, { signal: controller.signal, headers });
  const state = { ended: false };
  const events: { id?: string; event: string; data: string }[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          state.ended = true;
          return;
        }
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const fields = Object.fromEntries(
            block
              .split('\n')
              .filter((l) => l && !l.startsWith(':'))
              .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]),
          );
          if (fields.event) events.push({ id: fields.id, event: fields.event, data: fields.data ?? '' });
        }
      }
    } catch {
      /* aborted */
    }
  })();
  const waitFor = async (pred: (e: (typeof events)[number]) => boolean, timeoutMs = 5000) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const hit = events.find(pred);
      if (hit) return hit;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no such event; got ${JSON.stringify(events)}`);
  };
  const waitForEnd = async (timeoutMs = 5000) => {
    const deadline = Date.now() + timeoutMs;
    while (!state.ended && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return state.ended;
  };
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    events,
    waitFor,
    waitForEnd,
    get ended() {
      return state.ended;
    },
    close: () => controller.abort(),
  };
}

describe('GET /api/events', () => {
  it('refuses anonymous and revoked tokens', async () => {
    expect((await fetch(`${base}/api/events`)).status).toBe(401);
    expect((await fetch(`${base}/api/events?ticket=kst_nope`)).status).toBe(401);
  });

  it('opens with a single-use ticket of 30 seconds, never with the access token in its URL', async () => {
    // The access token in the URL (it lands in proxy and browser logs) opens nothing.
    expect((await fetch(`${base}/api/events?token=${encodeURIComponent(alice.apiToken)}`)).status).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/events/ticket' })).statusCode).toBe(401);

    const ticket = await ticketFor(alice);
    expect(ticket).not.toContain(alice.apiToken);
    const first = await openUrl(`/api/events?ticket=${encodeURIComponent(ticket)}`);
    expect(first.status).toBe(200);
    await first.waitFor((e) => e.event === 'ready');
    // Used once: a second stream with it (a replay from a log) is refused.
    const replay = await fetch(`${base}/api/events?ticket=${encodeURIComponent(ticket)}`);
    expect(replay.status).toBe(401);
    first.close();

    const late = await ticketFor(alice);
    await t.db.pool.query(`UPDATE stream_tickets SET expires_at = now() - interval '1 second'`);
    expect((await fetch(`${base}/api/events?ticket=${encodeURIComponent(late)}`)).status).toBe(401);
    // Stored hashed.
    const { rows } = await t.db.pool.query(`SELECT ticket_hash FROM stream_tickets`);
    expect(rows.map((r) => r.ticket_hash)).not.toContain(late);
  });

  it('ends when its session is revoked or logs out, and outlives a refresh', async () => {
    const phone = await login(alice.email);
    const stream = await openStream(phone);
    await stream.waitFor((e) => e.event === 'ready');
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/auth/refresh',
      payload: { refreshToken: phone.refreshToken },
    });
    expect(refreshed.statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(stream.ended).toBe(false);

    // Revoked from another device (Settings → Sessions): the stream ends at once.
    const list = await t.app.inject({
      method: 'GET',
      url: '/auth/sessions',
      headers: bearer(alice.apiToken),
    });
    const phoneId = (list.json().results as Array<{ id: string; current: boolean }>).find(
      (s) => !s.current && s.id,
    )!.id;
    const other = await openStream(alice);
    await other.waitFor((e) => e.event === 'ready');
    await t.app.inject({
      method: 'DELETE',
      url: `/auth/sessions/${phoneId}`,
      headers: bearer(alice.apiToken),
    });
    expect(await stream.waitForEnd()).toBe(true);
    // Alice's other stream is untouched.
    expect(other.ended).toBe(false);
    other.close();

    const laptop = await login(alice.email);
    const second = await openStream(laptop);
    await second.waitFor((e) => e.event === 'ready');
    await t.app.inject({ method: 'POST', url: '/auth/logout', headers: bearer(laptop.apiToken) });
    expect(await second.waitForEnd()).toBe(true);
  });

  it("ends when the user's role changes", async () => {
    const carol = await registerUser(t.app);
    const stream = await openStream(carol);
    await stream.waitFor((e) => e.event === 'ready');
    await t.db.pool.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [carol.user.id]);
    expect(await stream.waitForEnd()).toBe(true);
  });

  it("streams the user's own changes, not another user's, and resumes after a reconnect", async () => {
    const aliceStream = await openStream(alice);
    const bobStream = await openStream(bob);
    expect(aliceStream.status).toBe(200);
    expect(aliceStream.contentType).toContain('text/event-stream');
    await aliceStream.waitFor((e) => e.event === 'ready');
    await bobStream.waitFor((e) => e.event === 'ready');

    const account = await createPaperAccount(t.app, alice);
    const balance = await aliceStream.waitFor((e) => e.event === 'balance');
    expect(JSON.parse(balance.data)).toMatchObject({ type: 'balance', id: account.id });

    await new Promise((r) => setTimeout(r, 200));
    expect(bobStream.events.filter((e) => e.event === 'balance')).toHaveLength(0);

    // Reconnect with the last id seen: what happened in between is replayed.
    aliceStream.close();
    const lastId = balance.id!;
    await t.app.inject({
      method: 'PUT',
      url: `/api/trading-accounts/${account.id}`,
      headers: bearer(alice.apiToken),
      payload: { nickname: 'Renamed' },
    });
    const resumed = await openStream(alice, { 'last-event-id': lastId });
    await resumed.waitFor((e) => e.event === 'ready');
    const replayed = await resumed.waitFor((e) => e.event === 'balance' && e.id !== lastId);
    expect(JSON.parse(replayed.data).id).toBe(account.id);

    // An id from another process (or too old) asks the client to refetch everything.
    const stranger = await openStream(alice, { 'last-event-id': 'ffffffff-12' });
    await stranger.waitFor((e) => e.event === 'resync');
    for (const s of [resumed, stranger, bobStream]) s.close();
  });
});
