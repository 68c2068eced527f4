import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { createPaperAccount } from '../support/engine';
import { bearer, registerUser, type Session } from '../support/users';

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

/** Opens the stream like the web's EventSource and collects its events. */
async function openStream(token: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/events?token=${encodeURIComponent(token)}`, {
    signal: controller.signal,
    headers,
  });
  const events: { id?: string; event: string; data: string }[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
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
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    events,
    waitFor,
    close: () => controller.abort(),
  };
}

describe('GET /api/events', () => {
  it('refuses anonymous and revoked tokens', async () => {
    expect((await fetch(`${base}/api/events`)).status).toBe(401);
    expect((await fetch(`${base}/api/events?token=kat_nope`)).status).toBe(401);
  });

  it("streams the user's own changes, not another user's, and resumes after a reconnect", async () => {
    const aliceStream = await openStream(alice.apiToken);
    const bobStream = await openStream(bob.apiToken);
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
    const resumed = await openStream(alice.apiToken, { 'last-event-id': lastId });
    await resumed.waitFor((e) => e.event === 'ready');
    const replayed = await resumed.waitFor((e) => e.event === 'balance' && e.id !== lastId);
    expect(JSON.parse(replayed.data).id).toBe(account.id);

    // An id from another process (or too old) asks the client to refetch everything.
    const stranger = await openStream(alice.apiToken, { 'last-event-id': 'ffffffff-12' });
    await stranger.waitFor((e) => e.event === 'resync');
    for (const s of [resumed, stranger, bobStream]) s.close();
  });
});
