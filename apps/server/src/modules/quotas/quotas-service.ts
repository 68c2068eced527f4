import { apiError, DEFAULT_USER_QUOTAS, type QuotaSettings } from '@kairos/contract';
import { ConflictError, TooManyRequestsError } from '../../lib/errors';
import { createWindowLimiter } from '../../lib/window-limiter';
import type { AdminActor, AuditService } from '../audit/audit-service';
import type { AuthedUser } from '../auth/auth-service';
import type { HeldKind, QuotasRepo } from './quotas-repo';

const CAP_OF: Record<HeldKind, keyof QuotaSettings> = {
  strategies: 'maxStrategies',
  tradingAccounts: 'maxTradingAccounts',
  bots: 'maxBots',
};

export type QuotasService = ReturnType<typeof createQuotasService>;

/**
 * Issue 20's quotas: a request budget per user and minute on the authenticated API (writes tighter than
 * reads; in this process's memory, like the webhook limits), and the operator's caps on what one user holds
 * (strategies, trading accounts, bots, open event streams). Admins are not capped: they set the caps.
 */
export function createQuotasService(deps: {
  repo: QuotasRepo;
  audit: Pick<AuditService, 'audited'>;
  /** Requests a user may make per minute: reads (GET, HEAD) and writes (everything else) apart. */
  budget: { readsPerMinute: number; writesPerMinute: number };
  now?: () => number;
}) {
  const reads = createWindowLimiter({ max: deps.budget.readsPerMinute, windowMs: 60_000, now: deps.now });
  const writes = createWindowLimiter({ max: deps.budget.writesPerMinute, windowMs: 60_000, now: deps.now });
  /** Streams open in this process, per user, oldest first. */
  const streams = new Map<string, { end: () => void }[]>();

  async function settings(): Promise<QuotaSettings> {
    return (await deps.repo.settings()) ?? { ...DEFAULT_USER_QUOTAS };
  }
  const reached = (variant: HeldKind | 'eventStreams', max: number) =>
    new ConflictError(...apiError('QUOTA_REACHED', { variant, max }));

  return {
    settings,

    async saveSettings(actor: AdminActor, values: QuotaSettings): Promise<QuotaSettings> {
      return deps.audit.audited(
        actor,
        { action: 'settings.quotas', target: 'quotas', details: { ...values } },
        async () => {
          await deps.repo.saveSettings(values);
          return values;
        },
      );
    },

    /** Counts one request of a signed-in user against their budget; 429 with Retry-After past it. */
    spend(user: AuthedUser, method: string): void {
      const limiter = method === 'GET' || method === 'HEAD' ? reads : writes;
      const verdict = limiter.hit(user.id);
      if (verdict.allowed) return;
      const seconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
      throw new TooManyRequestsError(
        seconds,
        ...apiError('RATE_LIMITED', { variant: 'userBudget', seconds }),
      );
    },

    /** Refuses (409 QUOTA_REACHED) a user's new strategy, account or bot once they hold the operator's cap. */
    async assertRoom(user: AuthedUser, kind: HeldKind): Promise<void> {
      if (user.role === 'admin') return;
      const max = (await settings())[CAP_OF[kind]];
      if ((await deps.repo.countHeld(user.id, kind)) >= max) throw reached(kind, max);
    },

    /**
     * Takes one of the user's event-stream places; the function returned gives it back. Past the cap the
     * user's oldest stream is ended (`end`, which gives its place back) to make room: a page just opened or
     * reloaded always gets its live updates, and a stream the browser left behind (a reload, a closed tab the
     * network has not reported yet) is the one that goes. At most the cap are ever open at once.
     */
    async openStream(user: AuthedUser, end: () => void): Promise<() => void> {
      const max = (await settings()).maxEventStreams;
      const mine = streams.get(user.id) ?? [];
      streams.set(user.id, mine);
      if (user.role !== 'admin') while (mine.length >= max) mine.shift()!.end();
      const stream = { end };
      mine.push(stream);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const i = mine.indexOf(stream);
        if (i >= 0) mine.splice(i, 1);
        if (mine.length === 0 && streams.get(user.id) === mine) streams.delete(user.id);
      };
    },
  };
}
