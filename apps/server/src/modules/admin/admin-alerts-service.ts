import {
  apiError,
  type AdminAlert,
  type AdminAlertDetail,
  type AdminAlertsQuery,
  type AdminWebhookRejection,
} from '@kairos/contract';
import {
  ALERT_STATUSES,
  AlertTransitionError,
  applyAlertAdminAction,
  canApplyAlertAdminAction,
  type AlertAdminAction,
} from '@kairos/core';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors';
import type { WebhookRejectionsRepo } from '../alerts/webhook-rejections-repo';
import type { AdminActor, AuditService } from '../audit/audit-service';
import type { AdminAlertsRepo, AlertListFilter, AlertListRow } from './admin-alerts-repo';
import { dateFilterBound } from './admin-fns';

function toAdminAlert(a: AlertListRow): AdminAlert {
  return {
    id: a.id,
    strategyId: a.strategyId,
    strategyKey: a.strategyKey,
    action: a.action,
    symbol: a.symbol,
    price: a.price,
    status: a.status,
    attempts: a.attempts,
    maxAttempts: a.maxAttempts,
    lastError: a.lastError,
    deadReason: a.deadReason,
    receivedAt: a.receivedAt.toISOString(),
    signalAt: a.signalAt?.toISOString() ?? null,
    nextAttemptAt: a.nextAttemptAt.toISOString(),
    finishedAt: a.finishedAt?.toISOString() ?? null,
    outcomes: a.outcomes,
    canMarkDead: canApplyAlertAdminAction('markDead', a.status),
    canResume: canApplyAlertAdminAction('resume', a.status),
  };
}

/** The stored payload never held the secret; stripped again so no future path can leak one. */
function safePayload(payload: unknown): Record<string, unknown> {
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return {};
  const { secret: _secret, ...rest } = payload as Record<string, unknown>;
  return rest;
}

const ALLOWED_FROM: Record<AlertAdminAction, readonly (typeof ALERT_STATUSES)[number][]> = {
  markDead: ALERT_STATUSES.filter((s) => canApplyAlertAdminAction('markDead', s)),
  resume: ALERT_STATUSES.filter((s) => canApplyAlertAdminAction('resume', s)),
};

export type AdminAlertsService = ReturnType<typeof createAdminAlertsService>;

/** Alert monitoring (spec §2 "Admin alerts", DESIGN §5): list, detail, mark dead, resume. */
export function createAdminAlertsService(deps: {
  repo: AdminAlertsRepo;
  audit: Pick<AuditService, 'audited'>;
  rejections?: Pick<WebhookRejectionsRepo, 'summary'>;
}) {
  const { repo, audit } = deps;

  async function summary(id: string): Promise<AdminAlert> {
    const row = await repo.findWithCounts(id);
    if (!row) throw new NotFoundError(...apiError('NOT_FOUND', { variant: 'alert' }));
    return toAdminAlert(row);
  }

  /** Runs the conditional move; when it did not happen, says why in the words of the state table. */
  async function move(actor: AdminActor, id: string, action: AlertAdminAction, reason: string | null) {
    const from = await repo.applyAdminAction(id, action, ALLOWED_FROM[action], `admin:${actor.id}`, reason);
    if (from) return { from, alert: await summary(id) };
    const current = await repo.currentStatus(id);
    if (!current) throw new NotFoundError(...apiError('NOT_FOUND', { variant: 'alert' }));
    try {
      applyAlertAdminAction(action, current);
    } catch (e) {
      if (e instanceof AlertTransitionError)
        throw new ConflictError('INVALID_ALERT_TRANSITION', e.message, e.params);
      throw e;
    }
    // Allowed now, refused a moment ago: a worker moved it in between.
    throw new ConflictError(...apiError('ALERT_CHANGED'));
  }

  /** Webhooks refused over the last `hours`, per strategy key and reason (issue 21). */
  async function rejected(hours: number): Promise<AdminWebhookRejection[]> {
    const rows = (await deps.rejections?.summary(new Date(Date.now() - hours * 3_600_000), 200)) ?? [];
    return rows.map((r) => ({ ...r, lastAt: r.lastAt.toISOString() }));
  }

  return {
    rejected,
    async list(q: AdminAlertsQuery) {
      const filter: AlertListFilter = {
        status: q.status,
        strategyKey: q.strategyKey,
        ...(q.from ? { from: dateFilterBound(q.from, 'from').at } : {}),
        ...(q.to
          ? (() => {
              const bound = dateFilterBound(q.to, 'to');
              return { to: bound.at, toExclusive: bound.exclusive };
            })()
          : {}),
      };
      const { rows, total } = await repo.list(filter, q.page, q.pageSize);
      return { results: rows.map(toAdminAlert), total, page: q.page, pageSize: q.pageSize };
    },

    async detail(id: string): Promise<AdminAlertDetail> {
      const row = await repo.findWithCounts(id);
      if (!row) throw new NotFoundError(...apiError('NOT_FOUND', { variant: 'alert' }));
      const [outcomes, events] = await Promise.all([repo.outcomes(id), repo.events(id)]);
      const errors = [
        ...events
          .filter((e) => e.toStatus === 'failed' && e.error)
          .map((e) => ({ at: e.at, source: e.actor, message: e.error! })),
        ...outcomes
          .filter((o) => o.status === 'failed')
          .map((o) => ({
            at: o.at,
            source: `bot ${o.botNickname ?? o.botId}${o.userEmail ? ` (${o.userEmail})` : ''}`,
            message: o.message,
          })),
      ].sort((a, b) => a.at.getTime() - b.at.getTime());
      return {
        ...toAdminAlert(row),
        payload: safePayload(row.payload),
        startedAt: row.startedAt?.toISOString() ?? null,
        botOutcomes: outcomes.map((o) => ({ ...o, at: o.at.toISOString() })),
        errors: errors.map((e) => ({ ...e, at: e.at.toISOString() })),
        history: events.map((e) => ({
          fromStatus: e.fromStatus,
          toStatus: e.toStatus,
          actor: e.actor,
          note: e.error,
          at: e.at.toISOString(),
        })),
      };
    },

    /** queued/failed → dead, with the admin's reason (recorded on the alert and in its history). */
    async markDead(actor: AdminActor, id: string, reason: string): Promise<AdminAlert> {
      return audit
        .audited(
          actor,
          { action: 'alert.mark_dead', target: `alert:${id}`, details: { reason } },
          async () => {
            // A blank reason is refused before anything moves (the route's schema refuses it too).
            if (!reason.trim())
              throw new ValidationError(...apiError('VALIDATION_ERROR', { variant: 'alertReasonRequired' }));
            const { from, alert } = await move(actor, id, 'markDead', reason.trim());
            return { from, alert };
          },
          (r) => ({ from: r.from, to: 'dead' }),
        )
        .then((r) => r.alert);
    },

    /** dead/failed → queued: attempts reset (it gets its retries again), due now, workers woken. */
    async resume(actor: AdminActor, id: string): Promise<AdminAlert> {
      return audit
        .audited(
          actor,
          { action: 'alert.resume', target: `alert:${id}` },
          () => move(actor, id, 'resume', null),
          (r) => ({ from: r.from, to: 'queued' }),
        )
        .then((r) => r.alert);
    },
  };
}
