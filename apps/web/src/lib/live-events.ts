import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Live updates (DESIGN §2): `GET /api/events` pushes `{ type, id, status? }` for the signed-in
 * user's changes, and each event refreshes the TanStack queries that show that kind of data.
 *
 * The one place that says which query key prefixes an event refreshes. Features keep their
 * queries under these roots (prefix match: ['bots'] covers ['bots', id, 'trades', { page }]):
 *   ['trades', …]                 trade list ['trades', 'list', …] and TradeDetail ['trades', id]
 *   ['bots', …]                   bots list, BotDetail ['bots', id] (position, isTrading), its trades
 *   ['trading-accounts', …]       accounts (balances, bot counts) and bots distributions
 *   ['dashboard', …]              GET /api/dashboard, one entry per filter set
 *   ['portfolio', …]              GET /portfolio and ['portfolio', 'history', period]
 *   ['admin', 'alerts', …]        AdminAlerts list and detail (alert events reach admins only)
 *   ['admin', 'trade-control', …] AdminTradeControl strategies and status per strategy
 */
export const LIVE_INVALIDATIONS = {
  trade: [['trades'], ['bots'], ['dashboard'], ['portfolio'], ['admin', 'trade-control']],
  order: [['trades'], ['bots'], ['dashboard'], ['portfolio'], ['admin', 'trade-control']],
  // Nickname and bot counts show on the dashboard (capital by bot) and the accounts screen.
  bot: [['bots'], ['dashboard'], ['trading-accounts']],
  balance: [['trading-accounts'], ['dashboard'], ['portfolio']],
  alert: [
    ['admin', 'alerts'],
    ['admin', 'trade-control'],
  ],
} as const satisfies Record<string, readonly QueryKey[]>;

export type LiveEventType = keyof typeof LIVE_INVALIDATIONS;
export const LIVE_EVENT_TYPES = Object.keys(LIVE_INVALIDATIONS) as LiveEventType[];

/** Query key prefixes an event refreshes; none for a type this client does not know. */
export function invalidationsFor(type: string): readonly QueryKey[] {
  return Object.hasOwn(LIVE_INVALIDATIONS, type) ? LIVE_INVALIDATIONS[type as LiveEventType] : [];
}

/** Bursts are coalesced over this window: one refetch per query, not one per event. */
export const COALESCE_MS = 250;
/** A query still fetching is left to finish; past this wait it is refetched anyway. */
const MAX_DEFER_MS = 2_000;

export interface InvalidationBatcher {
  add(keys: readonly QueryKey[]): void;
  /** `resync`: every query of the session is refetched (events were missed). */
  invalidateAll(): void;
  dispose(): void;
}

/**
 * Coalesces invalidations: the prefixes named during a window are invalidated once at its end.
 * A query already fetching is not cancelled (a storm of events would otherwise cancel every
 * refetch before it lands): its prefix waits for the next window.
 */
export function createInvalidationBatcher(
  queryClient: QueryClient,
  { windowMs = COALESCE_MS }: { windowMs?: number } = {},
): InvalidationBatcher {
  const pending = new Map<string, { key: QueryKey; since: number }>();
  let everything = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const schedule = () => {
    timer ??= setTimeout(flush, windowMs);
  };

  function flush() {
    timer = undefined;
    if (everything) {
      everything = false;
      pending.clear();
      void queryClient.invalidateQueries();
      return;
    }
    const now = Date.now();
    for (const [id, { key, since }] of [...pending]) {
      if (queryClient.isFetching({ queryKey: key }) > 0 && now - since < MAX_DEFER_MS) continue;
      pending.delete(id);
      void queryClient.invalidateQueries({ queryKey: key });
    }
    if (pending.size > 0) schedule();
  }

  return {
    add(keys) {
      for (const key of keys) {
        const id = JSON.stringify(key);
        if (!pending.has(id)) pending.set(id, { key, since: Date.now() });
      }
      if (keys.length > 0) schedule();
    },
    invalidateAll() {
      everything = true;
      schedule();
    },
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      pending.clear();
      everything = false;
    },
  };
}

export type LiveStatus = 'off' | 'connecting' | 'live' | 'reconnecting';

export interface LiveConnectionOptions {
  /**
   * The stream's URL, asked again for every stream opened (it carries a single-use ticket);
   * `lastEventId` when reopening after a drop, so the server resumes.
   */
  url: (lastEventId: string | undefined) => string | Promise<string>;
  onEvent: (type: LiveEventType) => void;
  /** Events may have been missed: refetch everything. */
  onResync: () => void;
  onStatus?: (status: LiveStatus) => void;
  /** Injected in tests. */
  EventSourceImpl?: typeof EventSource;
  /** First wait before reopening a stream the browser closed (doubles up to 60 s). */
  retryMs?: number;
}

/**
 * One EventSource for the session. A stream opens with a single-use ticket (issue 20), so the
 * browser's own reconnect (which would present the used ticket again) is not relied on: after any
 * drop the stream is closed and reopened here with a new URL, backoff, and the last id in the query
 * string. Returns the function that closes it for good.
 */
export function connectLiveEvents(options: LiveConnectionOptions): () => void {
  const Impl = options.EventSourceImpl ?? globalThis.EventSource;
  const retryMs = options.retryMs ?? 3_000;
  let source: EventSource | undefined;
  let lastEventId: string | undefined;
  let connectedBefore = false;
  let retry = retryMs;
  let reopenTimer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const status = (value: LiveStatus) => options.onStatus?.(value);

  function reopenLater() {
    status('reconnecting');
    reopenTimer = setTimeout(open, retry);
    retry = Math.min(retry * 2, 60_000);
  }

  function open() {
    status(connectedBefore ? 'reconnecting' : 'connecting');
    let url: string | Promise<string>;
    try {
      url = options.url(lastEventId);
    } catch {
      reopenLater();
      return;
    }
    if (typeof url === 'string') start(url);
    else
      url.then(
        (ready) => {
          if (!closed) start(ready);
        },
        () => {
          if (!closed) reopenLater();
        },
      );
  }

  function start(url: string) {
    const current = new Impl(url);
    source = current;
    for (const type of LIVE_EVENT_TYPES) {
      current.addEventListener(type, (event) => {
        const id = (event as MessageEvent).lastEventId;
        if (id) lastEventId = id;
        options.onEvent(type);
      });
    }
    current.addEventListener('ready', () => {
      // Back after a drop with no event id to resume from: whatever happened meanwhile is unknown.
      if (connectedBefore && !lastEventId) options.onResync();
      connectedBefore = true;
      retry = retryMs;
      status('live');
    });
    current.addEventListener('resync', () => {
      connectedBefore = true;
      retry = retryMs;
      options.onResync();
      status('live');
    });
    current.onerror = () => {
      if (closed || current !== source) return;
      current.close();
      reopenLater();
    };
  }

  open();
  return () => {
    closed = true;
    if (reopenTimer !== undefined) clearTimeout(reopenTimer);
    source?.close();
    status('off');
  };
}
