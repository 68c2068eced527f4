import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { listenOn, type Listening } from '../../db/pg-fns';

export const EVENTS_CHANNEL = 'kairos_events';

const TYPES: Record<string, string> = {
  trades: 'trade',
  orders: 'order',
  bots: 'bot',
  trading_accounts: 'balance',
  alerts: 'alert',
};

export type LiveEvent = {
  id: string;
  userId: string | null;
  type: string;
  entityId: string;
  /** Trades only: the new status and the account (lets the worker snapshot balances on close). */
  status?: string;
  accountId?: string;
};
/**
 * A signed-in user's stream, or (userId '*') an internal listener that sees every event; `lost` is told
 * when the database connection drops (events may have been missed until it is back).
 */
export type Subscriber = {
  userId: string;
  isAdmin: boolean;
  send(event: LiveEvent): void;
  lost?(): void;
};

const BUFFER_SIZE = 5000;

/**
 * Fans database change notifications out to the signed-in users' SSE streams. Event ids carry
 * this process's boot id so a reconnecting client can resume from the buffer, or be told to
 * resync when it was connected to another process or was away too long.
 */
export function createEventHub(deps: { pool: pg.Pool; log: FastifyBaseLogger }) {
  const bootId = randomBytes(4).toString('hex');
  const subscribers = new Set<Subscriber>();
  const buffer: LiveEvent[] = [];
  let seq = 0;
  let listener: Listening | undefined;
  let starting: Promise<void> | undefined;
  let closed = false;

  const visibleTo = (s: Subscriber, e: LiveEvent) =>
    s.userId === '*' || (e.userId === null ? s.isAdmin : e.userId === s.userId);

  function onNotification(msg: pg.Notification) {
    if (msg.channel !== EVENTS_CHANNEL || !msg.payload) return;
    let raw: { u: string | null; t: string; id: string; st?: string; a?: string };
    try {
      raw = JSON.parse(msg.payload);
    } catch {
      return;
    }
    const event: LiveEvent = {
      id: `${bootId}-${++seq}`,
      userId: raw.u,
      type: TYPES[raw.t] ?? raw.t,
      entityId: raw.id,
      ...(raw.st ? { status: raw.st, accountId: raw.a } : {}),
    };
    buffer.push(event);
    if (buffer.length > BUFFER_SIZE) buffer.shift();
    for (const s of subscribers) if (visibleTo(s, event)) s.send(event);
  }

  async function listen() {
    if (listener || closed) return;
    const channel = await listenOn(deps.pool, EVENTS_CHANNEL, onNotification, (e) => {
      deps.log.warn({ err: e }, 'live events connection lost; reconnecting');
      listener = undefined;
      starting = undefined;
      for (const s of subscribers) s.lost?.();
      relisten();
    });
    // Closed while the channel was opening: given back at once, or pool.end() would wait for it forever.
    if (closed) return channel.close();
    listener = channel;
  }

  /** After a lost connection, every second until it holds: a worker has no SSE client to ask again. */
  function relisten() {
    setTimeout(() => {
      if (!closed) ensureListening().catch(relisten);
    }, 1000);
  }

  function ensureListening() {
    starting ??= listen().catch((e) => {
      starting = undefined;
      throw e;
    });
    return starting;
  }

  return {
    ensureListening,
    subscribe(s: Subscriber, lastEventId?: string): 'resumed' | 'resync' | 'fresh' {
      subscribers.add(s);
      if (!lastEventId) return 'fresh';
      const [boot, n] = lastEventId.split('-');
      const oldest = buffer[0] ? Number(buffer[0].id.split('-')[1]) : seq + 1;
      if (boot !== bootId || Number(n) + 1 < oldest) return 'resync';
      for (const e of buffer) if (Number(e.id.split('-')[1]) > Number(n) && visibleTo(s, e)) s.send(e);
      return 'resumed';
    },
    unsubscribe(s: Subscriber) {
      subscribers.delete(s);
    },
    get size() {
      return subscribers.size;
    },
    /** Whether changes are being heard now (what the caches built on these events rely on). */
    get listening() {
      return listener !== undefined;
    },
    async close() {
      closed = true;
      subscribers.clear();
      await starting?.catch(() => undefined); // a channel being opened closes itself (see listen)
      await listener?.close();
      listener = undefined;
    },
  };
}

export type EventHub = ReturnType<typeof createEventHub>;
