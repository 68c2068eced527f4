import { QueryClient, type QueryKey, partialMatchKey } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  COALESCE_MS,
  type LiveStatus,
  connectLiveEvents,
  createInvalidationBatcher,
  invalidationsFor,
} from './live-events';
import { FakeEventSource } from '../testing/fake-event-source';

const EventSourceImpl = FakeEventSource as unknown as typeof EventSource;

beforeEach(() => {
  vi.useFakeTimers();
  FakeEventSource.instances = [];
});

afterEach(() => {
  vi.useRealTimers();
});

describe('which queries an event refreshes', () => {
  it.each([
    ['trade', [['trades'], ['bots'], ['dashboard'], ['portfolio']]],
    ['order', [['trades'], ['bots'], ['dashboard'], ['portfolio']]],
    ['bot', [['bots']]],
    ['balance', [['trading-accounts'], ['dashboard'], ['portfolio']]],
    ['alert', [['admin', 'alerts']]],
  ])('%s refreshes %j', (type, expected) => {
    expect(invalidationsFor(type)).toEqual(expect.arrayContaining(expected));
  });

  it('ignores event types it does not know (and inherited names)', () => {
    expect(invalidationsFor('heartbeat')).toEqual([]);
    expect(invalidationsFor('toString')).toEqual([]);
  });

  it('reaches the keys the screens use, by prefix', () => {
    const screens: QueryKey[] = [
      ['trades', 'list', { status: 'open', page: 1 }],
      ['trades', 't1'],
      ['bots'],
      ['bots', 'b1'],
      ['bots', 'b1', 'trades', { page: 1 }],
      ['dashboard', { from: '2026-01-01', to: '2026-01-30' }],
      ['portfolio'],
      ['portfolio', 'history', '30d'],
      ['trading-accounts'],
      ['admin', 'alerts', 'list', { page: 1 }],
      ['admin', 'trade-control', 'status', 's1'],
      ['user', 'settings'],
    ];
    const reached = (type: string) =>
      screens.filter((key) => invalidationsFor(type).some((prefix) => partialMatchKey(key, prefix)));
    expect(reached('trade')).toEqual([
      ['trades', 'list', { status: 'open', page: 1 }],
      ['trades', 't1'],
      ['bots'],
      ['bots', 'b1'],
      ['bots', 'b1', 'trades', { page: 1 }],
      ['dashboard', { from: '2026-01-01', to: '2026-01-30' }],
      ['portfolio'],
      ['portfolio', 'history', '30d'],
      ['admin', 'trade-control', 'status', 's1'],
    ]);
    expect(reached('balance')).toEqual([
      ['dashboard', { from: '2026-01-01', to: '2026-01-30' }],
      ['portfolio'],
      ['portfolio', 'history', '30d'],
      ['trading-accounts'],
    ]);
    expect(reached('alert')).toEqual([
      ['admin', 'alerts', 'list', { page: 1 }],
      ['admin', 'trade-control', 'status', 's1'],
    ]);
  });
});

describe('coalescing', () => {
  function setup() {
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries').mockResolvedValue();
    const batcher = createInvalidationBatcher(client);
    return { client, invalidate, batcher };
  }

  it('turns a burst of 1,000 events into one invalidation per query prefix', () => {
    const { invalidate, batcher } = setup();
    for (let index = 0; index < 1_000; index += 1) {
      batcher.add(invalidationsFor(index % 2 ? 'trade' : 'order'));
      batcher.add(invalidationsFor('bot'));
    }
    expect(invalidate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(COALESCE_MS);
    const prefixes = invalidate.mock.calls.map(([filters]) => filters?.queryKey);
    expect(prefixes).toHaveLength(new Set(prefixes.map((key) => JSON.stringify(key))).size);
    expect(prefixes).toEqual(
      expect.arrayContaining([['trades'], ['bots'], ['dashboard'], ['portfolio'], ['trading-accounts']]),
    );
    expect(prefixes.length).toBeLessThanOrEqual(6);
  });

  it('waits for the next window after a flush', () => {
    const { invalidate, batcher } = setup();
    batcher.add([['bots']]);
    vi.advanceTimersByTime(COALESCE_MS);
    expect(invalidate).toHaveBeenCalledTimes(1);
    batcher.add([['bots']]);
    vi.advanceTimersByTime(COALESCE_MS - 1);
    expect(invalidate).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(invalidate).toHaveBeenCalledTimes(2);
  });

  it('lets a refetch in flight land instead of cancelling it, then refreshes once more', () => {
    const { client, invalidate, batcher } = setup();
    const fetching = vi.spyOn(client, 'isFetching').mockReturnValue(1);
    batcher.add([['dashboard']]);
    vi.advanceTimersByTime(COALESCE_MS * 2);
    expect(invalidate).not.toHaveBeenCalled();
    fetching.mockReturnValue(0);
    vi.advanceTimersByTime(COALESCE_MS);
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['dashboard'] });
  });

  it('does not wait forever for a query that keeps fetching', () => {
    const { client, invalidate, batcher } = setup();
    vi.spyOn(client, 'isFetching').mockReturnValue(1);
    batcher.add([['dashboard']]);
    vi.advanceTimersByTime(2_500);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['dashboard'] });
  });

  it('refetches everything on resync, once', () => {
    const { invalidate, batcher } = setup();
    batcher.add([['bots']]);
    batcher.invalidateAll();
    batcher.invalidateAll();
    vi.advanceTimersByTime(COALESCE_MS);
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(invalidate).toHaveBeenCalledWith();
  });

  it('drops what is pending when disposed (logout)', () => {
    const { invalidate, batcher } = setup();
    batcher.add([['bots']]);
    batcher.dispose();
    vi.advanceTimersByTime(COALESCE_MS * 4);
    expect(invalidate).not.toHaveBeenCalled();
  });
});

describe('the connection', () => {
  /** Each stream asks for a new ticket (POST /api/events/ticket): t1, t2, … */
  function connect({ failTickets = 0 } = {}) {
    const events: string[] = [];
    const statuses: LiveStatus[] = [];
    let resyncs = 0;
    let tickets = 0;
    let failures = failTickets;
    const close = connectLiveEvents({
      url: async (lastEventId) => {
        if (failures > 0) {
          failures -= 1;
          throw new Error('Failed to fetch');
        }
        tickets += 1;
        return `/api/events?ticket=t${tickets}${lastEventId ? `&lastEventId=${lastEventId}` : ''}`;
      },
      onEvent: (type) => events.push(type),
      onResync: () => (resyncs += 1),
      onStatus: (status) => statuses.push(status),
      EventSourceImpl,
      retryMs: 1_000,
    });
    return { events, statuses, resyncs: () => resyncs, close };
  }
  /** Lets the ticket request answer. */
  const settle = () => vi.advanceTimersByTimeAsync(0);

  it('opens one stream with a fresh ticket and passes each known event on', async () => {
    const live = connect();
    await settle();
    const source = FakeEventSource.latest();
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(source.url).toBe('/api/events?ticket=t1');
    source.emit('ready');
    source.emit('trade', 'boot-1');
    source.emit('balance', 'boot-2');
    source.emit('alert', 'boot-3');
    expect(live.events).toEqual(['trade', 'balance', 'alert']);
    expect(live.statuses).toEqual(['connecting', 'live']);
  });

  it('resync refetches everything', async () => {
    const live = connect();
    await settle();
    FakeEventSource.latest().emit('resync');
    expect(live.resyncs()).toBe(1);
    expect(live.statuses.at(-1)).toBe('live');
  });

  it('reopens a dropped stream with a new ticket (never the used one), resuming after the last event id, with backoff', async () => {
    const live = connect();
    await settle();
    const first = FakeEventSource.latest();
    first.emit('ready');
    first.emit('trade', 'boot-41');
    // The browser would retry by itself with the same URL: its ticket is spent, so the stream is closed.
    first.drop(false);
    expect(first.readyState).toBe(FakeEventSource.CLOSED);
    expect(live.statuses.at(-1)).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(999);
    expect(FakeEventSource.instances).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    const second = FakeEventSource.latest();
    expect(second.url).toBe('/api/events?ticket=t2&lastEventId=boot-41');
    second.drop(true);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(FakeEventSource.instances).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeEventSource.instances).toHaveLength(3);
  });

  it('tries again later when no ticket can be had', async () => {
    const live = connect({ failTickets: 1 });
    await settle();
    expect(FakeEventSource.instances).toHaveLength(0);
    expect(live.statuses.at(-1)).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(FakeEventSource.latest().url).toBe('/api/events?ticket=t1');
  });

  it('refetches everything when back without an event id to resume from', async () => {
    const live = connect();
    await settle();
    FakeEventSource.latest().emit('ready');
    expect(live.resyncs()).toBe(0);
    FakeEventSource.latest().drop(false);
    await vi.advanceTimersByTimeAsync(1_000);
    FakeEventSource.latest().emit('ready');
    expect(live.resyncs()).toBe(1);
  });

  it('closes the stream for good when closed (logout)', async () => {
    const live = connect();
    await settle();
    const source = FakeEventSource.latest();
    source.emit('ready');
    source.drop(true);
    live.close();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(source.readyState).toBe(FakeEventSource.CLOSED);
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(live.statuses.at(-1)).toBe('off');
  });
});
