import type { FastifyBaseLogger } from 'fastify';
import type { AuthedUser, AuthService } from './auth-service';
import type { AuthNotice, SessionCache } from './session-cache';

type Watched = { user: AuthedUser; end(): void };

/**
 * Ends open event streams when their sign-in ends (issue 20): a revoked session family (logout, Settings →
 * Sessions, a password change, refresh-token reuse), or a user whose role, status or email changed. Heard on
 * the session cache's invalidation channel, so a revocation made by any process ends streams in every one;
 * a session replaced by the next of its family (a refresh) is the sign-in going on, not ending. When the
 * channel is lost every stream ends (the client opens a new one with a new ticket).
 */
export function createStreamWatch(deps: {
  cache: Pick<SessionCache, 'ensureListening' | 'onNotice'>;
  auth: Pick<AuthService, 'sessionEnd'>;
  log: FastifyBaseLogger;
}) {
  const streams = new Set<Watched>();
  let stopListening: (() => void) | undefined;

  function endWhere(match: (user: AuthedUser) => boolean) {
    for (const stream of [...streams]) {
      if (!match(stream.user)) continue;
      streams.delete(stream);
      stream.end();
    }
  }

  async function onNotice(notice: AuthNotice) {
    if (streams.size === 0) return;
    if (notice.kind === 'lost') return endWhere(() => true);
    if (notice.kind === 'user') return endWhere((u) => u.id === notice.id);
    let ended: Awaited<ReturnType<AuthService['sessionEnd']>>;
    try {
      ended = await deps.auth.sessionEnd(notice.id);
    } catch (e) {
      deps.log.warn({ err: e }, 'could not read a revoked session; ending every event stream');
      return endWhere(() => true);
    }
    if (!ended || ended.continues) return;
    endWhere((u) => u.familyId === ended.familyId);
  }

  return {
    /** Before a stream opens: the invalidation channel is heard from now on (throws when it cannot be). */
    async ready() {
      await deps.cache.ensureListening();
      stopListening ??= deps.cache.onNotice((notice) => void onNotice(notice));
    },
    /** Ends `end`'s stream with its sign-in (after `ready`); returns the function that stops watching it. */
    watch(user: AuthedUser, end: () => void): () => void {
      const stream = { user, end };
      streams.add(stream);
      return () => streams.delete(stream);
    },
    get size() {
      return streams.size;
    },
    close() {
      stopListening?.();
      stopListening = undefined;
      streams.clear();
    },
  };
}

export type StreamWatch = ReturnType<typeof createStreamWatch>;
