/**
 * One request budget per venue egress, shared by every account that talks to it.
 *
 * A venue limits an IP (or a key family) as a whole; ccxt's limiter lives in each exchange instance, so
 * 1,000 accounts on Binance would each believe they own the full budget. `CcxtGateway` routes ccxt's
 * per-request cost through the throttle of its venue instead. After a 429/418 the whole venue pauses for the
 * Retry-After the venue sent, so no account keeps knocking and turns a rate limit into an IP ban.
 */

export interface VenueLimits {
  /** Largest burst, in cost units (ccxt's per-endpoint cost). */
  capacity: number;
  /** Sustained rate, cost units per second. */
  refillPerSecond: number;
}

export interface VenueEgress {
  exchangeId: string;
  sandbox: boolean;
  /** Origin of the REST endpoint actually called ('https://api.binance.com'). */
  baseUrl: string;
}

export function venueKey(egress: VenueEgress): string {
  return `${egress.exchangeId}|${egress.sandbox ? 'sandbox' : 'live'}|${egress.baseUrl}`;
}

/** Pause after a 429 that carried no Retry-After; doubles on each consecutive one, up to the cap. */
const DEFAULT_PAUSE_MS = 1_000;
const MAX_DEFAULT_PAUSE_MS = 60_000;

interface Waiter {
  cost: number;
  urgent: boolean;
  resolve: () => void;
}

export interface ThrottleClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const systemClock: ThrottleClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Token bucket with a FIFO queue (no request overtakes an earlier, heavier one) and a venue-wide pause. Urgent
 * requests (stop-loss exits) queue ahead of every normal one, in their own arrival order.
 */
export class VenueThrottle {
  private tokens: number;
  private refilledAt: number;
  private readonly queue: Waiter[] = [];
  private timer: unknown = null;
  private pausedUntilMs = 0;
  private consecutiveLimits = 0;

  constructor(
    readonly key: string,
    private limits: VenueLimits,
    private readonly clock: ThrottleClock = systemClock,
  ) {
    this.tokens = limits.capacity;
    this.refilledAt = clock.now();
  }

  /** Resolves when `cost` units may be spent. A cost above capacity waits for a full bucket, then overdraws. */
  acquire(cost = 1, urgent = false): Promise<void> {
    const normalized = Number.isFinite(cost) && cost > 0 ? cost : 1;
    return new Promise<void>((resolve) => {
      const waiter = { cost: normalized, urgent, resolve };
      const firstNormal = urgent ? this.queue.findIndex((w) => !w.urgent) : -1;
      if (firstNormal === -1) this.queue.push(waiter);
      else this.queue.splice(firstNormal, 0, waiter);
      this.drain();
    });
  }

  /** Stops every request to the venue for `ms` (keeps the longest pause if one is already running). */
  pause(ms: number): void {
    const until = this.clock.now() + Math.max(0, ms);
    if (until > this.pausedUntilMs) this.pausedUntilMs = until;
    this.reschedule();
  }

  /**
   * Records a 429/418. Honours the venue's Retry-After; without one, pauses 1 s, doubling on each
   * consecutive limit. Returns the pause applied.
   */
  reportRateLimited(retryAfterMs: number | null): number {
    this.consecutiveLimits += 1;
    const pauseMs =
      retryAfterMs !== null && retryAfterMs >= 0
        ? retryAfterMs
        : Math.min(MAX_DEFAULT_PAUSE_MS, DEFAULT_PAUSE_MS * 2 ** (this.consecutiveLimits - 1));
    this.pause(pauseMs);
    // The bucket is empty as far as the venue is concerned.
    this.tokens = Math.min(this.tokens, 0);
    return pauseMs;
  }

  reportSuccess(): void {
    this.consecutiveLimits = 0;
  }

  /** Milliseconds until the venue pause ends (0 when not paused). */
  pausedForMs(): number {
    return Math.max(0, this.pausedUntilMs - this.clock.now());
  }

  get pendingRequests(): number {
    return this.queue.length;
  }

  /** Venue limits can be learnt later (e.g. from the first exchange instance); never lowers the tokens held. */
  updateLimits(limits: VenueLimits): void {
    this.refill();
    this.limits = limits;
    this.tokens = Math.min(this.tokens, limits.capacity);
    this.reschedule();
  }

  private refill(): void {
    const now = this.clock.now();
    const elapsedSeconds = (now - this.refilledAt) / 1000;
    if (elapsedSeconds > 0) {
      this.tokens = Math.min(
        this.limits.capacity,
        this.tokens + elapsedSeconds * this.limits.refillPerSecond,
      );
    }
    this.refilledAt = now;
  }

  private drain(): void {
    this.refill();
    const now = this.clock.now();
    if (now < this.pausedUntilMs) {
      this.schedule(this.pausedUntilMs - now);
      return;
    }
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      const needed = Math.min(head.cost, this.limits.capacity);
      if (this.tokens < needed) {
        this.schedule(((needed - this.tokens) / this.limits.refillPerSecond) * 1000);
        return;
      }
      this.tokens -= head.cost;
      this.queue.shift();
      head.resolve();
    }
  }

  private schedule(ms: number): void {
    if (this.timer !== null) return;
    this.timer = this.clock.setTimeout(
      () => {
        this.timer = null;
        this.drain();
      },
      Math.max(1, Math.ceil(ms)),
    );
  }

  private reschedule(): void {
    if (this.timer !== null) {
      this.clock.clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.queue.length > 0) this.drain();
  }
}

/** Process-wide map from venue egress to its throttle. Every gateway on a venue must use the same registry. */
export class VenueThrottleRegistry {
  private readonly throttles = new Map<string, VenueThrottle>();

  constructor(private readonly clock: ThrottleClock = systemClock) {}

  /** The throttle for `key`, created with `limits` the first time (later callers share it). */
  forVenue(key: string, limits: VenueLimits): VenueThrottle {
    let throttle = this.throttles.get(key);
    if (!throttle) {
      throttle = new VenueThrottle(key, limits, this.clock);
      this.throttles.set(key, throttle);
    }
    return throttle;
  }

  get(key: string): VenueThrottle | undefined {
    return this.throttles.get(key);
  }
}

/** The registry the server uses unless a test passes its own. */
export const sharedVenueThrottles = new VenueThrottleRegistry();

/**
 * Parses a Retry-After header (delta-seconds or an HTTP date) into milliseconds; null when absent/invalid.
 */
export function parseRetryAfter(value: string | undefined | null, nowMs = Date.now()): number | null {
  if (value === undefined || value === null || value.trim() === '') return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number.parseFloat(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}
