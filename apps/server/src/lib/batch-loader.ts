import DataLoader from 'dataloader';

/**
 * Coalesces calls made while the previous batch is still at work into one call of `run` (group commit):
 * the first call goes out at once (alone, when nothing else came in the same tick), and whatever arrives
 * while a batch is in flight waits for it and then goes out together. Under load, batches grow to what the
 * callers have in flight; a lone caller waits for nothing. `run` answers each key in order, an Error
 * rejecting that key's caller only. `run` must not wait on its own loader (it would wait for itself).
 */
export function createBatchLoader<K, V>(
  run: (keys: readonly K[]) => Promise<(V | Error)[]>,
  options: { maxBatchSize: number; maxInFlight?: number },
): (key: K) => Promise<V> {
  const maxInFlight = options.maxInFlight ?? 1;
  // Batches sent or about to be (counted when scheduled: several may fill up in one tick).
  let active = 0;
  const waiting: (() => void)[] = [];
  const loader = new DataLoader<K, V>(
    async (keys) => {
      try {
        return await run(keys);
      } finally {
        const next = waiting.shift();
        if (next) next();
        else active -= 1;
      }
    },
    {
      cache: false,
      maxBatchSize: options.maxBatchSize,
      batchScheduleFn: (dispatch) => {
        if (active < maxInFlight) {
          active += 1;
          process.nextTick(dispatch);
        } else waiting.push(dispatch);
      },
    },
  );
  return (key) => loader.load(key);
}

/** `work` over `items`, at most `limit` at a time; the results in the items' order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!);
      }
    }),
  );
  return results;
}

/**
 * One read shared by every caller asking for the same key while it is in `cache` (a venue's ticker, an
 * account's balance, for one alert or one watch pass); a failed read is dropped, so the next caller reads again.
 */
export function sharedRead<T>(
  cache: Map<string, Promise<T>>,
  key: string,
  read: () => Promise<T>,
): Promise<T> {
  let value = cache.get(key);
  if (!value) {
    value = read();
    cache.set(key, value);
    value.catch(() => cache.delete(key));
  }
  return value;
}
