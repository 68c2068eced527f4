import type { AuditEntry, AuditQuery } from '@kairos/contract';
import type { FastifyBaseLogger } from 'fastify';
import { createWindowLimiter } from '../../lib/window-limiter';
import type { AuditRepo } from './audit-repo';

/**
 * Who acts: a signed-in admin, or the system (`id: null`, scheduled jobs). `kind: 'user'` marks a
 * non-admin refused at the door, so the log shows who tried.
 */
export type AdminActor = { id: string | null; email: string | null; kind?: 'admin' | 'user' };

export const SYSTEM_ACTOR: AdminActor = { id: null, email: null };

export type AuditInput = {
  action: string;
  target: string;
  details?: Record<string, unknown>;
};

export type AuditService = ReturnType<typeof createAuditService>;

function actorLabel(actor: AdminActor): string {
  return actor.id ? `${actor.kind ?? 'admin'}:${actor.id}` : 'system';
}

export function createAuditService(deps: { repo: AuditRepo; log: FastifyBaseLogger }) {
  const { repo, log } = deps;
  // Issue 20: a user knocking on an admin route again and again writes one row per route and minute.
  const forbidden = createWindowLimiter({ max: 1, windowMs: 60_000 });

  /** Writes one row; a failing audit write is logged, never allowed to mask the action's own result. */
  async function recordAudit(
    actor: AdminActor,
    entry: AuditInput & { outcome: 'ok' | 'error'; error?: string | null },
  ): Promise<void> {
    try {
      await repo.insert({
        actorId: actor.id,
        actor: actorLabel(actor),
        actorEmail: actor.email,
        action: entry.action,
        target: entry.target,
        details: entry.details ?? {},
        outcome: entry.outcome,
        error: entry.error ?? null,
      });
    } catch (e) {
      log.error({ err: e, audit: entry }, 'audit write failed');
    }
  }

  return {
    recordAudit,

    /** A non-admin refused at an admin route: audited once per user, route and minute (in this process). */
    async recordForbidden(user: { id: string; email: string }, target: string): Promise<void> {
      if (!forbidden.hit(`${user.id} ${target}`).allowed) return;
      await recordAudit(
        { id: user.id, email: user.email, kind: 'user' },
        { action: 'admin.forbidden', target, outcome: 'error', error: 'Admin role required' },
      );
    },

    /**
     * Runs an admin action and records it: `ok` with `summarise(result)` merged into the details,
     * or `error` with the message of whatever refused it (the error is rethrown unchanged).
     */
    async audited<T>(
      actor: AdminActor,
      entry: AuditInput,
      action: () => Promise<T>,
      summarise?: (result: T) => Record<string, unknown>,
    ): Promise<T> {
      let result: T;
      try {
        result = await action();
      } catch (e) {
        await recordAudit(actor, {
          ...entry,
          outcome: 'error',
          error: e instanceof Error ? e.message : String(e),
        });
        throw e;
      }
      await recordAudit(actor, {
        ...entry,
        details: { ...entry.details, ...summarise?.(result) },
        outcome: 'ok',
      });
      return result;
    },

    async list(q: AuditQuery) {
      const { rows, total } = await repo.list({
        ...q,
        from: q.from ? new Date(q.from) : undefined,
        to: q.to ? new Date(q.to) : undefined,
      });
      const results: AuditEntry[] = rows.map((r) => ({
        id: r.id,
        actorId: r.actorId,
        actor: r.actor,
        actorEmail: r.actorEmail,
        action: r.action,
        target: r.target,
        details: r.details,
        outcome: r.outcome,
        error: r.error,
        at: r.at.toISOString(),
      }));
      return { results, total, skip: q.skip, take: q.take };
    },
  };
}
