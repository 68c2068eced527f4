import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTradeLock, type TradeLock } from '../../src/engine/trade-lock';
import { urgently } from '../../src/exchange/urgency';
import { createTestDatabase, type TestDatabase } from '../support/db';

/**
 * The trade lock, and its group form for a fan-out's set-ups: many trades locked in one statement, none
 * worked on twice at once — in this process (a queue per trade) or across processes (advisory locks).
 */
let db: TestDatabase;
let lock: TradeLock;
/** A second process: its own lock over its own pool of the same database. */
let other: TradeLock;
let otherPool: pg.Pool;

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};
const tick = () => new Promise((r) => setTimeout(r, 20));

beforeAll(async () => {
  db = await createTestDatabase();
  lock = createTradeLock(db.pool);
  otherPool = new pg.Pool({ connectionString: db.url, max: 4 });
  other = createTradeLock(otherPool);
});
afterAll(async () => {
  await otherPool.end();
  await db.drop();
});

describe('withTrades', () => {
  it('holds every free trade of the group, and says which', async () => {
    const seen = await lock.withTrades(['a1', 'a2', 'a3', 'a2'], async (locked) => [...locked].sort());
    expect(seen).toEqual(['a1', 'a2', 'a3']);
  });

  it('leaves out a trade another process holds, and never waits for it', async () => {
    const release = deferred();
    const entered = deferred();
    const holder = other.withTrade('b2', async () => {
      entered.resolve();
      await release.promise;
    });
    await entered.promise;
    const seen = await lock.withTrades(['b1', 'b2', 'b3'], async (locked) => [...locked].sort());
    expect(seen).toEqual(['b1', 'b3']);
    release.resolve();
    await holder;
  });

  it('leaves out a trade this process is working on, which then runs after nothing of the group', async () => {
    const release = deferred();
    const entered = deferred();
    const busy = lock.withTrade('c2', async () => {
      entered.resolve();
      await release.promise;
    });
    await entered.promise;
    const seen = await lock.withTrades(['c1', 'c2'], async (locked) => [...locked]);
    expect(seen).toEqual(['c1']);
    release.resolve();
    await busy;
  });

  it("makes this process's callers of a held trade wait for the group, and re-enters within it", async () => {
    const order: string[] = [];
    const release = deferred();
    const group = lock.withTrades(['d1', 'd2'], async (locked) => {
      // Nested: the group's own trades are held already.
      await lock.withTrade('d1', async () => order.push('nested d1'));
      await release.promise;
      order.push(`group done ${locked.length}`);
    });
    await tick();
    const waiter = lock.withTrade('d2', async () => order.push('waiter d2'));
    await tick();
    expect(order).toEqual(['nested d1']);
    release.resolve();
    await Promise.all([group, waiter]);
    expect(order).toEqual(['nested d1', 'group done 2', 'waiter d2']);
  });

  it('frees a trade another process held for this process at once, not at the end of the group', async () => {
    const releaseOther = deferred();
    const entered = deferred();
    const holder = other.withTrade('e2', async () => {
      entered.resolve();
      await releaseOther.promise;
    });
    await entered.promise;
    const releaseGroup = deferred();
    const inGroup = deferred();
    const group = lock.withTrades(['e1', 'e2'], async () => {
      inGroup.resolve();
      await releaseGroup.promise;
    });
    await inGroup.promise;
    releaseOther.resolve();
    await holder;
    // e2 was not the group's: taken here while the group still runs.
    await lock.withTrade('e2', async () => undefined);
    releaseGroup.resolve();
    await group;
  });

  it('releases the locks when the work throws, for both processes', async () => {
    await expect(
      lock.withTrades(['f1'], async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await other.withTrades(['f1'], async (locked) => [...locked])).toEqual(['f1']);
  });

  it('lets a stop-loss exit (urgent) take the next free slot ahead of the queued ones', async () => {
    const small = createTradeLock(db.pool, { maxHeld: 1 });
    const release = deferred();
    const holding = small.withTrade('g0', () => release.promise);
    await tick();
    const order: string[] = [];
    const queued = small.withTrade('g1', async () => void order.push('poll'));
    const urgent = urgently(() => small.withTrade('g2', async () => void order.push('stop exit')));
    await tick();
    release.resolve();
    await Promise.all([holding, queued, urgent]);
    expect(order).toEqual(['stop exit', 'poll']);
  });
});
