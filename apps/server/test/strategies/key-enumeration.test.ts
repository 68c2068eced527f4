import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { postStrategy } from '../support/engine';
import { bearer, registerUser, type Session } from '../support/users';

// Issue 20: a strategy key held by another user's private strategy is not said to be taken.
let t: TestApp;
let alice: Session;
let bob: Session;

beforeAll(async () => {
  t = await createTestApp();
  alice = await registerUser(t.app);
  bob = await registerUser(t.app);
});
afterAll(() => t.close());

const strategy = (strategyKey: string, nickname = strategyKey) => ({
  nickname,
  strategyKey,
  tradeCurrency: 'ETH',
  timeFrame: '15m',
});

describe('a strategy key someone else holds', () => {
  it('answers a generic refusal that does not say another account holds it', async () => {
    expect((await postStrategy(t.app, alice, strategy('alice-private'))).statusCode).toBe(201);

    const bobs = await postStrategy(t.app, bob, strategy('alice-private', 'copy'));
    expect(bobs.statusCode).toBe(409);
    expect(bobs.json()).toMatchObject({ success: false, error: 'STRATEGY_KEY_UNAVAILABLE' });
    expect(bobs.json().message).not.toMatch(/taken|exists|account|user/i);

    // Renaming one of bob's own strategies to it answers the same.
    const own = await postStrategy(t.app, bob, strategy('bob-own'));
    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/api/strategies/${own.json().results.id}`,
      headers: bearer(bob.apiToken),
      payload: { strategyKey: 'alice-private' },
    });
    expect([renamed.statusCode, renamed.json().error]).toEqual([409, 'STRATEGY_KEY_UNAVAILABLE']);
    expect(renamed.json().message).toBe(bobs.json().message);
  });

  it('still tells the owner that their own strategy has the key', async () => {
    expect((await postStrategy(t.app, alice, strategy('alice-twice'))).statusCode).toBe(201);
    const again = await postStrategy(t.app, alice, strategy('alice-twice', 'again'));
    expect([again.statusCode, again.json().error]).toEqual([409, 'STRATEGY_KEY_TAKEN']);
  });
});
