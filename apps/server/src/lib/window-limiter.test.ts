import { describe, expect, it } from 'vitest';
import { createWindowLimiter } from './window-limiter';

describe('createWindowLimiter', () => {
  it('allows max hits per key and window, says how long until the next window, and starts afresh', () => {
    let now = 1_000;
    const limiter = createWindowLimiter({ max: 2, windowMs: 60_000, now: () => now });
    expect(limiter.hit('a')).toEqual({ allowed: true });
    now += 10_000;
    expect(limiter.hit('a')).toEqual({ allowed: true });
    expect(limiter.hit('b')).toEqual({ allowed: true }); // another key, its own count
    expect(limiter.hit('a')).toEqual({ allowed: false, retryAfterMs: 50_000 });
    now += 50_000;
    expect(limiter.hit('a')).toEqual({ allowed: true });
  });
});
