import { describe, expect, it } from 'vitest';
import {
  VenueThrottle,
  VenueThrottleRegistry,
  parseRetryAfter,
  venueKey,
  type ThrottleClock,
} from './venue-throttle';

/** Manual clock: timers fire only when the test advances time. */
class FakeClock implements ThrottleClock {
  time = 0;
  private timers: Array<{ at: number; fn: () => void; id: number }> = [];
  private ids = 0;
  now = () => this.time;
  setTimeout = (fn: () => void, ms: number) => {
    const id = ++this.ids;
    this.timers.push({ at: this.time + ms, fn, id });
    return id;
  };
  clearTimeout = (handle: unknown) => {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  };
  async advance(ms: number) {
    const target = this.time + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > target) break;
      this.timers.shift();
      this.time = next.at;
      next.fn();
      await Promise.resolve();
    }
    this.time = target;
    await Promise.resolve();
  }
}

function track(promise: Promise<void>) {
  const state = { done: false };
  void promise.then(() => (state.done = true));
  return state;
}

describe('VenueThrottle', () => {
  it('lets a burst up to capacity through, then paces at the refill rate in FIFO order', async () => {
    const clock = new FakeClock();
    const throttle = new VenueThrottle('v', { capacity: 2, refillPerSecond: 10 }, clock);
    const order: number[] = [];
    const requests = [1, 2, 3, 4].map((n) => throttle.acquire(1).then(() => order.push(n)));
    await clock.advance(0);
    expect(order).toEqual([1, 2]);
    await clock.advance(100);
    expect(order).toEqual([1, 2, 3]);
    await clock.advance(100);
    await Promise.all(requests);
    expect(order).toEqual([1, 2, 3, 4]);
  });

  it('lets urgent requests (stop exits) go ahead of queued polling, in their own arrival order', async () => {
    const clock = new FakeClock();
    const throttle = new VenueThrottle('v', { capacity: 1, refillPerSecond: 10 }, clock);
    const order: string[] = [];
    await throttle.acquire(1);
    const requests = [
      throttle.acquire(1).then(() => order.push('poll 1')),
      throttle.acquire(1).then(() => order.push('poll 2')),
      throttle.acquire(1, true).then(() => order.push('stop A')),
      throttle.acquire(1).then(() => order.push('poll 3')),
      throttle.acquire(1, true).then(() => order.push('stop B')),
    ];
    await clock.advance(500);
    await Promise.all(requests);
    expect(order).toEqual(['stop A', 'stop B', 'poll 1', 'poll 2', 'poll 3']);
  });

  it('marks the venue calls of an urgent task, and only those', async () => {
    const { urgently, isUrgent } = await import('./urgency');
    const seen: boolean[] = [];
    const call = async () => {
      await Promise.resolve();
      seen.push(isUrgent());
    };
    await Promise.all([urgently(async () => call()), call()]);
    expect(seen.sort()).toEqual([false, true]);
  });

  it('never lets a light request overtake a heavy one queued before it', async () => {
    const clock = new FakeClock();
    const throttle = new VenueThrottle('v', { capacity: 5, refillPerSecond: 5 }, clock);
    await throttle.acquire(5);
    const heavy = track(throttle.acquire(4));
    const light = track(throttle.acquire(1));
    await clock.advance(400);
    expect(heavy.done).toBe(false);
    expect(light.done).toBe(false);
    await clock.advance(400);
    expect(heavy.done).toBe(true);
    expect(light.done).toBe(false);
    await clock.advance(200);
    expect(light.done).toBe(true);
  });

  it("pauses the whole venue for the venue's Retry-After after a 429", async () => {
    const clock = new FakeClock();
    const throttle = new VenueThrottle('v', { capacity: 100, refillPerSecond: 100 }, clock);
    expect(throttle.reportRateLimited(3_000)).toBe(3_000);
    const waiting = track(throttle.acquire());
    await clock.advance(2_999);
    expect(waiting.done).toBe(false);
    expect(throttle.pausedForMs()).toBe(1);
    await clock.advance(1);
    expect(waiting.done).toBe(true);
  });

  it('without Retry-After, pauses 1 s and doubles on consecutive limits until a success', () => {
    const throttle = new VenueThrottle('v', { capacity: 1, refillPerSecond: 1 }, new FakeClock());
    expect([null, null, null].map(() => throttle.reportRateLimited(null))).toEqual([1_000, 2_000, 4_000]);
    throttle.reportSuccess();
    expect(throttle.reportRateLimited(null)).toBe(1_000);
  });

  it('is shared per venue key through the registry', () => {
    const registry = new VenueThrottleRegistry(new FakeClock());
    const key = venueKey({ exchangeId: 'binance', sandbox: false, baseUrl: 'https://api.binance.com' });
    const a = registry.forVenue(key, { capacity: 1, refillPerSecond: 1 });
    const b = registry.forVenue(key, { capacity: 50, refillPerSecond: 50 });
    const sandbox = registry.forVenue(
      venueKey({ exchangeId: 'binance', sandbox: true, baseUrl: 'https://testnet.binance.vision' }),
      { capacity: 1, refillPerSecond: 1 },
    );
    expect(b).toBe(a);
    expect(sandbox).not.toBe(a);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('2')).toBe(2_000);
    expect(parseRetryAfter('0.5')).toBe(500);
    expect(
      parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')),
    ).toBe(10_000);
    expect(parseRetryAfter(undefined)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
  });
});
