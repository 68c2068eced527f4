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
  /** Streams open in this process, per user. */
  const streams = new Map<string, number>();

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

    /** Takes one of the user's event-stream places (409 past the cap); the function returned gives it back. */
    async openStream(user: AuthedUser): Promise<() => void> {
      const max = (await settings()).maxEventStreams;
      const open = streams.get(user.id) ?? 0;
      if (user.role !== 'admin' && open >= max) throw reached('eventStreams', max);
      streams.set(user.id, open + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (streams.get(user.id) ?? 1) - 1;
        if (left > 0) streams.set(user.id, left);
        else streams.delete(user.id);
      };
    },
  };
}
