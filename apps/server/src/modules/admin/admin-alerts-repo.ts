import type { AlertAdminAction, AlertStatus } from '@kairos/core';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { ALERTS_CHANNEL, alertRowFromSql, type AlertRow } from '../../engine/alerts-repo';

export type AlertListFilter = {
  status?: AlertStatus;
  strategyKey?: string;
  from?: Date;
  /** Inclusive unless `toExclusive`. */
  to?: Date;
  toExclusive?: boolean;
};

export type OutcomeCounts = {
  total: number;
  opened: number;
  closed: number;
  reversed: number;
  skipped: number;
  failed: number;
};

export type AlertListRow = AlertRow & { outcomes: OutcomeCounts };

export type AlertOutcomeView = {
  botId: string;
  userId: string;
  userEmail: string | null;
  botNickname: string | null;
  status: 'opened' | 'closed' | 'reversed' | 'skipped' | 'failed';
  message: string;
  tradeIds: string[];
  retryable: boolean;
  at: Date;
};

const OUTCOME_COUNTS = sql`
  LEFT JOIN LATERAL (
    SELECT count(*)::int AS total,
      count(*) FILTER (WHERE o.status = 'opened')::int AS opened,
      count(*) FILTER (WHERE o.status = 'closed')::int AS closed,
      count(*) FILTER (WHERE o.status = 'reversed')::int AS reversed,
      count(*) FILTER (WHERE o.status = 'skipped')::int AS skipped,
      count(*) FILTER (WHERE o.status = 'failed')::int AS failed
    FROM alert_outcomes o WHERE o.alert_id = a.id
  ) oc ON TRUE`;

function withCounts(r: Record<string, unknown>): AlertListRow {
  return {
    ...alertRowFromSql(r),
    outcomes: {
      total: Number(r.oc_total),
      opened: Number(r.oc_opened),
      closed: Number(r.oc_closed),
      reversed: Number(r.oc_reversed),
      skipped: Number(r.oc_skipped),
      failed: Number(r.oc_failed),
    },
  };
}

const COUNT_COLUMNS = sql`oc.total AS oc_total, oc.opened AS oc_opened, oc.closed AS oc_closed,
  oc.reversed AS oc_reversed, oc.skipped AS oc_skipped, oc.failed AS oc_failed`;

/**
 * The admin's view of the alert queue: every alert whatever its strategy's owner, and the two admin
 * moves, each a single conditional statement (status checked in the UPDATE itself) that also records
 * the transition — a worker claiming the alert at the same moment either wins or loses, never both.
 */
export function createAdminAlertsRepo(db: Database) {
  return {
    async list(
      filter: AlertListFilter,
      page: number,
      pageSize: number,
    ): Promise<{ rows: AlertListRow[]; total: number }> {
      const conditions: SQL[] = [];
      if (filter.status) conditions.push(sql`a.status = ${filter.status}`);
      if (filter.strategyKey) conditions.push(sql`a.strategy_key = ${filter.strategyKey}`);
      if (filter.from) conditions.push(sql`a.received_at >= ${filter.from.toISOString()}`);
      if (filter.to)
        conditions.push(
          filter.toExclusive
            ? sql`a.received_at < ${filter.to.toISOString()}`
            : sql`a.received_at <= ${filter.to.toISOString()}`,
        );
      const where = conditions.length ? sql`WHERE ${sql.join(conditions, sql` AND `)}` : sql``;
      const [rows, total] = await Promise.all([
        db.execute(sql`
          SELECT a.*, ${COUNT_COLUMNS} FROM alerts a ${OUTCOME_COUNTS}
          ${where}
          ORDER BY a.received_at DESC, a.id DESC
          LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`),
        db.execute(sql`SELECT count(*)::int AS n FROM alerts a ${where}`),
      ]);
      return {
        rows: rows.rows.map((r) => withCounts(r as Record<string, unknown>)),
        total: Number((total.rows[0] as { n: number }).n),
      };
    },

    async findWithCounts(id: string): Promise<AlertListRow | undefined> {
      const res = await db.execute(sql`
        SELECT a.*, ${COUNT_COLUMNS} FROM alerts a ${OUTCOME_COUNTS} WHERE a.id = ${id}`);
      const row = res.rows[0] as Record<string, unknown> | undefined;
      return row ? withCounts(row) : undefined;
    },

    async outcomes(alertId: string): Promise<AlertOutcomeView[]> {
      const res = await db.execute(sql`
        SELECT o.bot_id, o.user_id, u.email, b.nickname, o.status, o.message, o.trade_ids, o.retryable, o.at
        FROM alert_outcomes o
        LEFT JOIN users u ON u.id = o.user_id
        LEFT JOIN bots b ON b.id = o.bot_id
        WHERE o.alert_id = ${alertId}
        ORDER BY o.at, o.bot_id`);
      return res.rows.map((r) => ({
        botId: r.bot_id as string,
        userId: r.user_id as string,
        userEmail: (r.email as string | null) ?? null,
        botNickname: (r.nickname as string | null) ?? null,
        status: r.status as AlertOutcomeView['status'],
        message: r.message as string,
        tradeIds: (r.trade_ids as string[] | null) ?? [],
        retryable: Boolean(r.retryable),
        at: new Date(r.at as string),
      }));
    },

    async events(alertId: string) {
      const res = await db.execute(sql`
        SELECT from_status, to_status, actor, error, at FROM alert_events
        WHERE alert_id = ${alertId} ORDER BY at, id`);
      return res.rows.map((r) => ({
        fromStatus: (r.from_status as string | null) ?? null,
        toStatus: r.to_status as string,
        actor: r.actor as string,
        error: (r.error as string | null) ?? null,
        at: new Date(r.at as string),
      }));
    },

    async currentStatus(id: string): Promise<AlertStatus | undefined> {
      const res = await db.execute(sql`SELECT status FROM alerts WHERE id = ${id}`);
      return (res.rows[0] as { status: AlertStatus } | undefined)?.status;
    },

    /**
     * Admin move: only from `allowedFrom` (checked under the row lock). `markDead` stores the reason;
     * `resume` gives the alert its retries back, makes it due now and wakes the workers (NOTIFY at
     * commit). Returns the status it moved from, or undefined when the alert was not in an allowed one.
     */
    async applyAdminAction(
      id: string,
      action: AlertAdminAction,
      allowedFrom: readonly AlertStatus[],
      actor: string,
      reason: string | null,
    ): Promise<AlertStatus | undefined> {
      const statuses = sql.join(
        allowedFrom.map((s) => sql`${s}`),
        sql`, `,
      );
      const res =
        action === 'markDead'
          ? await db.execute(sql`
              WITH cur AS (
                SELECT id, status FROM alerts WHERE id = ${id} AND status IN (${statuses}) FOR UPDATE
              ), upd AS (
                UPDATE alerts a SET status = 'dead', dead_reason = ${reason}, finished_at = now(),
                  locked_by = NULL, locked_until = NULL
                FROM cur WHERE a.id = cur.id
                RETURNING a.id, cur.status AS from_status
              ), ev AS (
                INSERT INTO alert_events (alert_id, from_status, to_status, actor, error)
                SELECT id, from_status, 'dead', ${actor}, ${reason} FROM upd
              )
              SELECT from_status FROM upd`)
          : await db.execute(sql`
              WITH cur AS (
                SELECT id, status FROM alerts WHERE id = ${id} AND status IN (${statuses}) FOR UPDATE
              ), upd AS (
                UPDATE alerts a SET status = 'queued', attempts = 0, next_attempt_at = now(),
                  dead_reason = NULL, finished_at = NULL, locked_by = NULL, locked_until = NULL,
                  -- Resumed by an admin who confirmed it: it runs even past the strategy's max lag.
                  late_ok = true
                FROM cur WHERE a.id = cur.id
                RETURNING a.id, cur.status AS from_status
              ), ev AS (
                INSERT INTO alert_events (alert_id, from_status, to_status, actor)
                SELECT id, from_status, 'queued', ${actor} FROM upd
              ), note AS (
                SELECT pg_notify(${ALERTS_CHANNEL}, id::text) FROM upd
              )
              SELECT from_status FROM upd, (SELECT count(*) FROM note) n`);
      return (res.rows[0] as { from_status: AlertStatus } | undefined)?.from_status;
    },
  };
}

export type AdminAlertsRepo = ReturnType<typeof createAdminAlertsRepo>;
