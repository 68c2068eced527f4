import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import { isUrgent } from '../exchange/urgency';

/** Advisory-lock class of trade locks (the paper ledger uses its own class). */
const TRADE_LOCK_CLASS = 7_100;

export type TradeLock = {
  /**
   * Runs `work` while holding the trade's lock: in this process (a queue per trade) and across processes
   * (a PostgreSQL advisory lock), so the ladder, the stop and the exits of one trade are never worked on
   * twice at once. Re-entrant within the same async call chain.
   */
  withTrade<T>(tradeId: string, work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` holding the locks of as many of `tradeIds` as are free now, taken together on one connection
   * (a fan-out's set-ups: one lock round trip for the group, and their work free to run side by side so its
   * statements go out in batches). `work` is told which it holds; the others (worked on elsewhere this very
   * moment) are the caller's to run through `withTrade`. Never waits for a held lock.
   */
  withTrades<T>(tradeIds: readonly string[], work: (locked: readonly string[]) => Promise<T>): Promise<T>;
  /** Runs `work` outside any held lock's context (for event handlers fired from inside a locked call). */
  detached<T>(work: () => T): T;
};

export function createTradeLock(pool: pg.Pool, options: { maxHeld?: number } = {}): TradeLock {
  const held = new AsyncLocalStorage<ReadonlySet<string>>();
  const queues = new Map<string, Promise<unknown>>();
  // Each held lock pins a pool connection: cap them so the work inside always finds a free one.
  const maxHeld = options.maxHeld ?? 4;
  let inUse = 0;
  const waiting: (() => void)[] = [];

  async function acquireSlot() {
    if (inUse < maxHeld) {
      inUse += 1;
      return;
    }
    // A stop-loss exit (`urgently`) goes ahead of every queued supervision and poll, as it does in the
    // venue's throttle: a late stop costs money.
    await new Promise<void>((resolve) => (isUrgent() ? waiting.unshift(resolve) : waiting.push(resolve)));
  }
  function releaseSlot() {
    const next = waiting.shift();
    if (next) next();
    else inUse -= 1;
  }

  async function lockedRun<T>(tradeId: string, work: () => Promise<T>): Promise<T> {
    // A lock taken inside another never waits for a slot: the outer one may be holding the last.
    const nested = (held.getStore()?.size ?? 0) > 0;
    if (!nested) await acquireSlot();
    let client: pg.PoolClient | undefined;
    try {
      client = await pool.connect();
      await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [TRADE_LOCK_CLASS, tradeId]);
      const outer = held.getStore() ?? new Set<string>();
      return await held.run(new Set([...outer, tradeId]), work);
    } finally {
      if (client) {
        await client
          .query('SELECT pg_advisory_unlock($1, hashtext($2))', [TRADE_LOCK_CLASS, tradeId])
          .then(() => client!.release())
          .catch((e: Error) => client!.release(e));
      }
      if (!nested) releaseSlot();
    }
  }

  /**
   * Marks a trade worked on in this process until the returned function is called: `withTrade` callers queue
   * behind it meanwhile.
   */
  function occupy(tradeId: string): () => void {
    let free!: () => void;
    const tail = new Promise<void>((resolve) => (free = resolve));
    queues.set(tradeId, tail);
    void tail.then(() => {
      if (queues.get(tradeId) === tail) queues.delete(tradeId);
    });
    return free;
  }

  async function groupRun<T>(
    candidates: readonly string[],
    frees: ReadonlyMap<string, () => void>,
    work: (locked: readonly string[]) => Promise<T>,
  ): Promise<T> {
    let client: pg.PoolClient | undefined;
    let locked: string[] = [];
    try {
      await acquireSlot();
      try {
        client = await pool.connect();
        const { rows } = await client.query<{ id: string }>(
          'SELECT id FROM unnest($2::text[]) AS id WHERE pg_try_advisory_lock($1, hashtext(id))',
          [TRADE_LOCK_CLASS, candidates],
        );
        locked = rows.map((r) => r.id);
        // Those another process holds are free again for this process's callers at once.
        const mine = new Set(locked);
        for (const id of candidates) if (!mine.has(id)) frees.get(id)!();
        const outer = held.getStore() ?? new Set<string>();
        return await held.run(new Set([...outer, ...locked]), () => work(locked));
      } finally {
        if (client) {
          await client
            .query('SELECT pg_advisory_unlock($1, hashtext(id)) FROM unnest($2::text[]) AS id', [
              TRADE_LOCK_CLASS,
              locked,
            ])
            .then(() => client!.release())
            .catch((e: Error) => client!.release(e));
        }
        releaseSlot();
      }
    } finally {
      for (const free of frees.values()) free();
    }
  }

  return {
    withTrades(tradeIds, work) {
      // Only trades nobody in this process works on or waits for, claimed at once (before any await).
      const mine = held.getStore();
      const candidates = [...new Set(tradeIds)].filter((id) => !queues.has(id) && !mine?.has(id));
      if (candidates.length === 0) return work([]);
      const frees = new Map(candidates.map((id) => [id, occupy(id)]));
      return groupRun(candidates, frees, work);
    },
    withTrade(tradeId, work) {
      if (held.getStore()?.has(tradeId)) return work();
      const previous = queues.get(tradeId) ?? Promise.resolve();
      const run = previous.then(
        () => lockedRun(tradeId, work),
        () => lockedRun(tradeId, work),
      );
      const tail = run.catch(() => {});
      queues.set(tradeId, tail);
      void tail.then(() => {
        if (queues.get(tradeId) === tail) queues.delete(tradeId);
      });
      return run;
    },
    detached(work) {
      return held.exit(work);
    },
  };
}
