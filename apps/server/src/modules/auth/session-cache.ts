import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { listenOn, type Listening } from '../../db/pg-fns';
import type { AuthedUser } from './auth-service';

export const AUTH_CHANNEL = 'kairos_auth';

type Entry = { user: AuthedUser; until: number };

/**
 * What the invalidation channel heard: a session revoked, a user's role, status or email changed, or the
 * channel itself lost (anything may have been missed).
 */
export type AuthNotice = { kind: 'session' | 'user'; id: string } | { kind: 'lost' };

/**
 * Signed-in users by token hash, kept briefly so a busy client costs no session query per
 * request. Revocation is never late: the revoking process drops entries at once, and a
 * database trigger NOTIFYs every other process (`session:<id>`, `user:<id>`); if that channel
 * is lost the cache is emptied.
 */
export function createSessionCache(deps: {
  pool: pg.Pool;
  log: FastifyBaseLogger;
  ttlMs?: number;
  max?: number;
}) {
  const ttlMs = deps.ttlMs ?? 10_000;
  const max = deps.max ?? 10_000;
  const entries = new Map<string, Entry>();
  const noticeListeners = new Set<(notice: AuthNotice) => void>();
  const tell = (notice: AuthNotice) => {
    for (const fn of noticeListeners) fn(notice);
  };
  let listener: Listening | undefined;
  let listening: Promise<void> | undefined;
  let closed = false;

  function drop(match: (u: AuthedUser) => boolean) {
    for (const [hash, e] of entries) if (match(e.user)) entries.delete(hash);
  }

  function onNotification(msg: pg.Notification) {
    const [kind, id] = (msg.payload ?? '').split(':');
    if (kind === 'session') drop((u) => u.sessionId === id);
    else if (kind === 'user') drop((u) => u.id === id);
    if ((kind === 'session' || kind === 'user') && id) tell({ kind, id });
  }

  async function listen() {
    listener = await listenOn(deps.pool, AUTH_CHANNEL, onNotification, (e) => {
      deps.log.warn({ err: e }, 'auth cache lost its invalidation channel; emptied');
      entries.clear();
      listener = undefined;
      listening = undefined;
      tell({ kind: 'lost' });
    });
  }

  return {
    /** Only serves entries while the invalidation channel is up. */
    get(tokenHash: string): AuthedUser | undefined {
      if (!listener) return undefined;
      const e = entries.get(tokenHash);
      if (!e) return undefined;
      if (e.until <= Date.now()) {
        entries.delete(tokenHash);
        return undefined;
      }
      return e.user;
    },
    set(tokenHash: string, user: AuthedUser, expiresAt: Date) {
      if (closed) return;
      if (!listener) {
        listening ??= listen().catch((e) => {
          listening = undefined;
          deps.log.warn({ err: e }, 'auth cache could not listen; running without it');
        });
        return;
      }
      if (entries.size >= max) entries.delete(entries.keys().next().value!);
      entries.set(tokenHash, { user, until: Math.min(Date.now() + ttlMs, expiresAt.getTime()) });
    },
    /** Listens on the invalidation channel now (what `onNotice` listeners rely on). */
    async ensureListening() {
      if (closed) return;
      listening ??= listen().catch((e) => {
        listening = undefined;
        throw e;
      });
      await listening;
      if (!listener) throw new Error('the auth invalidation channel is not listening');
    },
    /** Told of every notice heard from now on; returns the function that stops it. */
    onNotice(fn: (notice: AuthNotice) => void): () => void {
      noticeListeners.add(fn);
      return () => noticeListeners.delete(fn);
    },
    forgetSession: (sessionId: string) => drop((u) => u.sessionId === sessionId),
    forgetFamily: (familyId: string) => drop((u) => u.familyId === familyId),
    forgetUser: (userId: string) => drop((u) => u.id === userId),
    async close() {
      closed = true;
      entries.clear();
      noticeListeners.clear();
      await listening;
      await listener?.close();
      listener = undefined;
    },
  };
}

export type SessionCache = ReturnType<typeof createSessionCache>;
