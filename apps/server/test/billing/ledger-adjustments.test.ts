import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { bearer, registerUser, type Session } from '../support/users';

/**
 * Issue 19: Admin → Ledger adjustments lists the corrections made (newest first, paged, one user's on
 * request), each with the user's email, the signed amount, the currency, the reason and when it was booked.
 */
const ADMIN = 'adjustments-admin@example.com';
let t: TestApp;
let admin: Session;
let ann: Session;
let ben: Session;

const call = async (s: Session, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => {
  const res = await t.app.inject({
    method,
    url,
    headers: bearer(s.apiToken),
    ...(payload ? { payload } : {}),
  });
  return { status: res.statusCode, body: res.json() };
};
const adjust = (who: Session, amount: string, reason: string, currency = 'USDT') =>
  call(admin, 'POST', '/admin/ledger/adjustments', { userId: who.user.id, amount, currency, reason });

beforeAll(async () => {
  t = await createTestApp({ KAIROS_ADMIN_EMAIL: ADMIN });
  admin = await registerUser(t.app, ADMIN);
  ann = await registerUser(t.app);
  ben = await registerUser(t.app);
  expect((await adjust(ann, '12.5', 'Refund of a double fee')).status).toBe(201);
  expect((await adjust(ben, '-3', 'Fee waived by mistake', 'usdc')).status).toBe(201);
  expect((await adjust(ann, '-0.25', 'Rounding')).status).toBe(201);
});
afterAll(() => t.close());

describe('GET /admin/ledger/adjustments', () => {
  it('lists every adjustment, newest first, with who it is for and why', async () => {
    const res = await call(admin, 'GET', '/admin/ledger/adjustments');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, total: 3, skip: 0, take: 25 });
    expect(
      res.body.results.map((a: Record<string, string>) => [a.userEmail, a.amount, a.currency, a.note]),
    ).toEqual([
      [ann.user.email, '-0.25', 'USDT', 'Rounding'],
      [ben.user.email, '-3', 'USDC', 'Fee waived by mistake'],
      [ann.user.email, '12.5', 'USDT', 'Refund of a double fee'],
    ]);
    expect(res.body.results[0]).toMatchObject({ kind: 'adjustment', userId: ann.user.id });
    expect(Date.parse(res.body.results[0].bookedAt)).not.toBeNaN();
  });

  it('pages, and narrows to one user', async () => {
    const page = await call(admin, 'GET', '/admin/ledger/adjustments?skip=1&take=1');
    expect(page.body).toMatchObject({ total: 3, skip: 1, take: 1 });
    expect(page.body.results.map((a: { note: string }) => a.note)).toEqual(['Fee waived by mistake']);
    const anns = await call(admin, 'GET', `/admin/ledger/adjustments?userId=${ann.user.id}`);
    expect(anns.body.total).toBe(2);
    expect(anns.body.results.every((a: { userId: string }) => a.userId === ann.user.id)).toBe(true);
  });

  it('refuses bad paging with a message, and anyone but an admin', async () => {
    const bad = await call(admin, 'GET', '/admin/ledger/adjustments?take=0&userId=nope');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('VALIDATION_ERROR');
    expect((await call(ann, 'GET', '/admin/ledger/adjustments')).status).toBe(403);
  });
});
