import { describe, expect, it } from 'vitest';
import { createBatchLoader, mapLimited } from './batch-loader';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('createBatchLoader', () => {
  it('sends calls of one tick together, and those made meanwhile together after it', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const load = createBatchLoader(
      async (keys: readonly number[]) => {
        batches.push([...keys]);
        if (batches.length === 1) await gate;
        return keys.map((k) => k * 10);
      },
      { maxBatchSize: 100 },
    );
    const first = [load(1), load(2)];
    await tick();
    const later = [load(3), load(4), load(5)];
    await tick();
    expect(batches).toEqual([[1, 2]]);
    release();
    expect(await Promise.all([...first, ...later])).toEqual([10, 20, 30, 40, 50]);
    expect(batches).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
  });

  it('rejects only the caller whose key failed', async () => {
    const load = createBatchLoader(
      async (keys: readonly number[]) => keys.map((k) => (k === 2 ? new Error('no 2') : k)),
      { maxBatchSize: 10 },
    );
    const results = await Promise.allSettled([load(1), load(2), load(3)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('never has more batches at work than allowed, even when one tick fills several', async () => {
    let atWork = 0;
    let most = 0;
    const load = createBatchLoader(
      async (keys: readonly number[]) => {
        most = Math.max(most, ++atWork);
        await tick();
        atWork -= 1;
        return [...keys];
      },
      { maxBatchSize: 2 },
    );
    expect(await Promise.all([1, 2, 3, 4, 5].map(load))).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(1);
  });
});

describe('mapLimited', () => {
  it('keeps the order and the limit', async () => {
    let atWork = 0;
    let most = 0;
    const out = await mapLimited([3, 1, 2, 5, 4], 2, async (n) => {
      most = Math.max(most, ++atWork);
      await new Promise((r) => setTimeout(r, n));
      atWork -= 1;
      return n * 2;
    });
    expect(out).toEqual([6, 2, 4, 10, 8]);
    expect(most).toBe(2);
  });
});
