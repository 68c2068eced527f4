/**
 * Markets per venue, loaded once and shared: N accounts on one venue hand the same ccxt market list to
 * `setMarkets()` instead of each downloading exchangeInfo. Concurrent first loads share one request; a failed
 * load is not cached.
 */
export class MarketCache<T = unknown> {
  private readonly entries = new Map<string, { loadedAt: number; value: Promise<T> }>();

  constructor(
    private readonly ttlMs = 60 * 60 * 1000,
    private readonly now: () => number = () => Date.now(),
  ) {}

  getOrLoad(key: string, load: () => Promise<T>): Promise<T> {
    const entry = this.entries.get(key);
    if (entry && this.now() - entry.loadedAt < this.ttlMs) return entry.value;
    const value = load();
    const fresh = { loadedAt: this.now(), value };
    this.entries.set(key, fresh);
    value.catch(() => {
      if (this.entries.get(key) === fresh) this.entries.delete(key);
    });
    return value;
  }

  invalidate(key: string): void {
    this.entries.delete(key);
  }
}

/** The cache the server uses unless a test passes its own. */
export const sharedMarketCache = new MarketCache();
