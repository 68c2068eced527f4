/**
 * The stop watch's exits in flight: each trade acted on at most once at a time, a few at a time per account
 * (one slow venue account holds back none of the others, nor takes every trade lock), many across accounts;
 * what comes in while an account is busy waits its turn in arrival order.
 */
export function createExitQueue<T extends { id: string; accountId: string }>(
  run: (item: T) => Promise<void>,
  limits: { total: number; perAccount: number },
) {
  const inFlight = new Set<string>();
  const queued = new Map<string, T>();
  const perAccount = new Map<string, number>();
  const running = new Set<Promise<void>>();

  function pump() {
    for (const [id, item] of queued) {
      if (running.size >= limits.total) return;
      if ((perAccount.get(item.accountId) ?? 0) >= limits.perAccount) continue;
      queued.delete(id);
      inFlight.add(id);
      perAccount.set(item.accountId, (perAccount.get(item.accountId) ?? 0) + 1);
      const work = run(item)
        .catch(() => undefined)
        .finally(() => {
          inFlight.delete(id);
          const n = (perAccount.get(item.accountId) ?? 1) - 1;
          if (n > 0) perAccount.set(item.accountId, n);
          else perAccount.delete(item.accountId);
          running.delete(work);
          pump();
        });
      running.add(work);
    }
  }

  return {
    /** Queues `item` unless its trade is queued or being acted on already; false then. */
    offer(item: T): boolean {
      if (inFlight.has(item.id) || queued.has(item.id)) return false;
      queued.set(item.id, item);
      pump();
      return true;
    },
    busy: (id: string) => inFlight.has(id) || queued.has(id),
    /** Drops what waits and resolves once what runs has finished. */
    async drain() {
      queued.clear();
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}
