import type { EventHub } from '../events/event-hub';

type Entry = { body: string; until: number };

/**
 * Each user's bots list as sent (JSON), kept briefly so a busy client costs no query per request. Never
 * served past a change: every live event of the user (trades, orders, bots and accounts, raised by database
 * triggers whatever process wrote) drops it, as do this process's own bot and strategy writes; a list read
 * before a change that lands while it is being read is not kept. Served only while the events are heard
 * (a lost connection empties it), and for `ttlMs` at most (the month's profit turns with the calendar).
 */
export function createBotsListCache(deps: { events: EventHub; ttlMs?: number; max?: number }) {
  const ttlMs = deps.ttlMs ?? 5_000;
  const max = deps.max ?? 10_000;
  const entries = new Map<string, Entry>();
  /** Bumped on every change of a user (per user) and on every strategy change or lost connection (all). */
  const generations = new Map<string, number>();
  let epoch = 0;
  let lastListenAttempt = 0;

  const invalidate = (userId: string) => {
    entries.delete(userId);
    generations.set(userId, (generations.get(userId) ?? 0) + 1);
    // Generations only need to outlive a read in flight: forget them when the map grows.
    if (generations.size > max) {
      generations.clear();
      epoch += 1;
    }
  };
  const clear = () => {
    entries.clear();
    generations.clear();
    epoch += 1;
  };
  deps.events.subscribe({
    userId: '*',
    isAdmin: true,
    send: (e) => {
      if (e.userId) invalidate(e.userId);
    },
    lost: clear,
  });

  return {
    get(userId: string): string | undefined {
      if (!deps.events.listening) {
        // Heard from the first use on (retried every few seconds while the database refuses).
        if (Date.now() - lastListenAttempt > 5_000) {
          lastListenAttempt = Date.now();
          deps.events.ensureListening().catch(() => {});
        }
        return undefined;
      }
      const e = entries.get(userId);
      if (!e) return undefined;
      if (e.until <= Date.now()) {
        entries.delete(userId);
        return undefined;
      }
      return e.body;
    },
    /** Taken before reading the list; `set` keeps the list only if nothing changed since. */
    version(userId: string): string {
      return `${epoch}:${generations.get(userId) ?? 0}`;
    },
    set(userId: string, version: string, body: string) {
      if (!deps.events.listening || version !== this.version(userId)) return;
      if (entries.size >= max) entries.delete(entries.keys().next().value!);
      entries.set(userId, { body, until: Date.now() + ttlMs });
    },
    invalidate,
    clear,
  };
}

export type BotsListCache = ReturnType<typeof createBotsListCache>;
