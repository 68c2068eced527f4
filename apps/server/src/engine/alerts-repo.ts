import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { statusAfterFailure, systemAlertMove } from '@kairos/core';
import { relaxedCommit } from '../db/pg-fns';
import {
  alertEvents,
  alertOutcomes,
  alerts,
  bots,
  strategies,
  trades,
  tradingAccounts,
  type BotOutcomeStatus,
} from '../db/schema/index';

export type AlertRow = typeof alerts.$inferSelect;
export type AlertStatus = AlertRow['status'];

export const ALERTS_CHANNEL = 'kairos_alerts';

/** The worker's moves, each checked against core's alert state table (DESIGN §5). */
const CLAIM = systemAlertMove('queued', 'in_progress');
const SUCCEED = systemAlertMove('in_progress', 'succeeded');
const FAIL = systemAlertMove('in_progress', 'failed');
const EXPIRE = systemAlertMove('in_progress', 'dead');
const AFTER_FAILURE = {
  queued: systemAlertMove('failed', 'queued'),
  dead: systemAlertMove('failed', 'dead'),
};

export type BotOutcome = {
  alertId: string;
  botId: string;
  userId: string;
  status: BotOutcomeStatus;
  message: string;
  tradeIds: string[];
  retryable: boolean;
};

type NewAlert = {
  strategyId: string;
  strategyKey: string;
  dedupeKey: string;
  action: 'long' | 'short' | 'exit';
  symbol: string;
  price: string | null;
  signalAt: Date | null;
  payload: unknown;
};

/** An alert row as a raw statement returns it (snake_case columns). */
export const alertRowFromSql = (r: Record<string, unknown>): AlertRow => ({
  id: r.id as string,
  strategyId: r.strategy_id as string,
  strategyKey: r.strategy_key as string,
  dedupeKey: r.dedupe_key as string,
  action: r.action as AlertRow['action'],
  symbol: r.symbol as string,
  price: (r.price as string | null) ?? null,
  priceDeviationPercent: (r.price_deviation_percent as string | null) ?? null,
  signalAt: r.signal_at ? new Date(r.signal_at as string) : null,
  payload: r.payload,
  lateOk: Boolean(r.late_ok),
  status: r.status as AlertStatus,
  attempts: Number(r.attempts),
  maxAttempts: Number(r.max_attempts),
  nextAttemptAt: new Date(r.next_attempt_at as string),
  lockedBy: (r.locked_by as string | null) ?? null,
  lockedUntil: r.locked_until ? new Date(r.locked_until as string) : null,
  lastError: (r.last_error as string | null) ?? null,
  deadReason: (r.dead_reason as string | null) ?? null,
  receivedAt: new Date(r.received_at as string),
  startedAt: r.started_at ? new Date(r.started_at as string) : null,
  finishedAt: r.finished_at ? new Date(r.finished_at as string) : null,
});

/** The alert queue on PostgreSQL: rows claimed with FOR UPDATE SKIP LOCKED under a lease. */
export type StrategyRow = typeof strategies.$inferSelect;

/** A bot of the fan-out with what deciding needs, read for all bots at once. */
export type FanOutRow = {
  bot: typeof bots.$inferSelect;
  account: typeof tradingAccounts.$inferSelect;
  /** The bot's open (or closing) trade when the alert was picked up. */
  openTrade: typeof trades.$inferSelect | null;
  /** Realised profit this month; only read for bots with a monthly goal. */
  monthProfit: string | null;
  /** An earlier attempt of this alert settled the bot (then it is not visited again). */
  settled: boolean;
};

/** This month's realised profit of the bot, for bots with a monthly goal only (others need none). */
const monthRealisedProfit = sql<string | null>`CASE WHEN ${bots.monthlyGoalPercent} > 0 THEN (
    SELECT coalesce(sum(mt.realised_pnl), 0)::text FROM trades mt
    WHERE mt.bot_id = ${bots.id} AND mt.status = 'closed' AND mt.closed_at >= date_trunc('month', now())
  ) END`;

export function createAlertsRepo(db: Database) {
  return {
    async strategyOf(alert: Pick<AlertRow, 'strategyId'>): Promise<StrategyRow | undefined> {
      const [strategy] = await db.select().from(strategies).where(eq(strategies.id, alert.strategyId));
      return strategy;
    },

    /**
     * Every bot of the strategy the alert fans out to (active, or still holding a position), in one read:
     * its account, its open trade, (goal bots only) its month's profit, and whether this alert settled it.
     */
    async fanOutRows(alertId: string, strategyId: string): Promise<FanOutRow[]> {
      return db
        .select({
          bot: bots,
          account: tradingAccounts,
          openTrade: trades,
          monthProfit: monthRealisedProfit,
          settled: sql<boolean>`coalesce(NOT ${alertOutcomes.retryable}, false)`,
        })
        .from(bots)
        .innerJoin(tradingAccounts, eq(tradingAccounts.id, bots.tradingAccountId))
        .leftJoin(trades, and(eq(trades.botId, bots.id), inArray(trades.status, ['open', 'closing'])))
        .leftJoin(alertOutcomes, and(eq(alertOutcomes.alertId, alertId), eq(alertOutcomes.botId, bots.id)))
        .where(
          and(eq(bots.strategyId, strategyId), or(eq(bots.isActive, true), sql`${bots.position} <> 'out'`)),
        );
    },

    /**
     * One statement: insert (or find the duplicate), record the first transition and wake the workers with
     * NOTIFY, delivered at commit. A strategy holding `queueCap` queued alerts takes no more (issue 20: one
     * strategy's flood must not grow the queue without bound): `full`, unless the alert is a duplicate.
     */
    async enqueue(
      a: NewAlert,
      queueCap: number,
    ): Promise<{ id: string; status: AlertStatus; duplicate: boolean } | { full: true }> {
      const result = await db.execute(sql`
        WITH room AS (
          SELECT count(*) < ${queueCap} AS ok FROM (
            SELECT 1 FROM alerts WHERE strategy_id = ${a.strategyId} AND status = 'queued' LIMIT ${queueCap}
          ) q
        ), ins AS (
          INSERT INTO alerts (strategy_id, strategy_key, dedupe_key, action, symbol, price, signal_at, payload)
          SELECT ${a.strategyId}::uuid, ${a.strategyKey}::text, ${a.dedupeKey}::text, ${a.action}::text,
                 ${a.symbol}::text, ${a.price}::numeric, ${a.signalAt ? a.signalAt.toISOString() : null}::timestamptz,
                 ${JSON.stringify(a.payload)}::jsonb
          WHERE (SELECT ok FROM room)
          ON CONFLICT (strategy_id, dedupe_key) DO NOTHING
          RETURNING id, status
        ), ev AS (
          INSERT INTO alert_events (alert_id, from_status, to_status, actor)
          SELECT id, NULL, 'queued', 'webhook' FROM ins
        ), note AS (
          SELECT pg_notify(${ALERTS_CHANNEL}, id::text) FROM ins
        )
        SELECT id, status, false AS duplicate FROM ins, (SELECT count(*) FROM note) n
        UNION ALL
        SELECT id, status, true AS duplicate FROM alerts
          WHERE strategy_id = ${a.strategyId} AND dedupe_key = ${a.dedupeKey} AND NOT EXISTS (SELECT 1 FROM ins)
      `);
      const row = result.rows[0] as { id: string; status: AlertStatus; duplicate: boolean } | undefined;
      if (row) return row;
      // A concurrent twin committed after this statement's snapshot: read it now.
      const [twin] = await db
        .select({ id: alerts.id, status: alerts.status })
        .from(alerts)
        .where(and(eq(alerts.strategyId, a.strategyId), eq(alerts.dedupeKey, a.dedupeKey)));
      return twin ? { ...twin, duplicate: true } : { full: true };
    },

    /** Claims up to `limit` due alerts for this worker, strategies taking turns; each moves queued → in_progress. */
    async claim(workerId: string, limit: number, leaseSeconds: number): Promise<AlertRow[]> {
      const result = await db.execute(sql`
        -- Strategies take turns (issue 20): each strategy's oldest due alert first, then each one's second,
        -- and so on; within a strategy, by arrival. One strategy's backlog never delays another's alerts.
        WITH ranked AS (
          SELECT id, received_at,
                 row_number() OVER (PARTITION BY strategy_id ORDER BY received_at, id) AS turn
          FROM alerts
          WHERE status = ${CLAIM.from} AND next_attempt_at <= now()
        ), picked AS (
          SELECT a.id FROM alerts a JOIN ranked r ON r.id = a.id
          WHERE a.status = ${CLAIM.from}
          ORDER BY r.turn, r.received_at, r.id
          LIMIT ${limit}
          FOR UPDATE OF a SKIP LOCKED
        ), upd AS (
          UPDATE alerts a SET status = ${CLAIM.to}, attempts = a.attempts + 1, locked_by = ${workerId},
            locked_until = now() + make_interval(secs => ${leaseSeconds}), started_at = coalesce(a.started_at, now())
          FROM picked WHERE a.id = picked.id
          RETURNING a.*
        ), ev AS (
          INSERT INTO alert_events (alert_id, from_status, to_status, actor)
          SELECT id, ${CLAIM.from}, ${CLAIM.to}, ${`worker:${workerId}`} FROM upd
        )
        -- Not flushed before the answer: a claim lost in a crash is claimed again.
        SELECT * FROM upd WHERE ${relaxedCommit}
      `);
      return result.rows.map((r) => alertRowFromSql(r as Record<string, unknown>));
    },

    /** Keeps a lease alive while a long fan-out runs; false if the alert is no longer ours. */
    async extendLease(alertId: string, workerId: string, leaseSeconds: number): Promise<boolean> {
      const rows = await db
        .update(alerts)
        .set({ lockedUntil: sql`now() + make_interval(secs => ${leaseSeconds})` })
        .where(and(eq(alerts.id, alertId), eq(alerts.lockedBy, workerId), eq(alerts.status, 'in_progress')))
        .returning({ id: alerts.id });
      return rows.length === 1;
    },

    /** Latest word per bot: a retried alert overwrites what the bot did on the previous attempt. */
    async saveOutcome(o: BotOutcome): Promise<void> {
      await this.saveOutcomes([o]);
    },

    /** Several bots' outcomes in one statement (one row per bot of an alert). */
    async saveOutcomes(list: BotOutcome[]): Promise<void> {
      if (list.length === 0) return;
      const at = new Date();
      await db
        .insert(alertOutcomes)
        .values(list.map((o) => ({ ...o, at })))
        .onConflictDoUpdate({
          target: [alertOutcomes.alertId, alertOutcomes.botId],
          set: {
            status: sql`excluded.status`,
            message: sql`excluded.message`,
            tradeIds: sql`excluded.trade_ids`,
            retryable: sql`excluded.retryable`,
            at: sql`excluded.at`,
          },
        });
    },

    async outcomes(alertId: string) {
      return db.select().from(alertOutcomes).where(eq(alertOutcomes.alertId, alertId));
    },

    /** in_progress → succeeded with its recorded transition, in one statement. */
    async finish(alertId: string, workerId: string): Promise<void> {
      await db.execute(sql`
        WITH done AS (
          UPDATE alerts SET status = ${SUCCEED.to}, finished_at = now(), locked_by = NULL, locked_until = NULL,
            last_error = NULL
          WHERE id = ${alertId} AND locked_by = ${workerId} AND status = ${SUCCEED.from}
          RETURNING id
        )
        -- Not flushed before the answer: lost in a crash, the alert is processed again and redoes nothing.
        INSERT INTO alert_events (alert_id, from_status, to_status, actor)
        SELECT id, ${SUCCEED.from}, ${SUCCEED.to}, ${`worker:${workerId}`} FROM done WHERE ${relaxedCommit}`);
    },

    /**
     * in_progress → dead: a signal claimed past its strategy's max lag is not acted on (issue 20); it shows in
     * the alerts console with why, and an admin may resume it knowing it late.
     */
    async expire(alertId: string, workerId: string, reason: string): Promise<void> {
      await db.execute(sql`
        WITH done AS (
          UPDATE alerts SET status = ${EXPIRE.to}, dead_reason = ${reason}, finished_at = now(), locked_by = NULL,
            locked_until = NULL
          WHERE id = ${alertId} AND locked_by = ${workerId} AND status = ${EXPIRE.from}
          RETURNING id
        )
        INSERT INTO alert_events (alert_id, from_status, to_status, actor, error)
        SELECT id, ${EXPIRE.from}, ${EXPIRE.to}, ${`worker:${workerId}`}, ${reason} FROM done`);
    },

    /**
     * in_progress → failed, then automatically failed → queued after a backoff, or → dead once the attempts
     * are used up (core's statusAfterFailure). Both steps are recorded.
     */
    async fail(
      alertId: string,
      actor: string,
      error: string,
      retryDelayMs: number,
      where = sql`TRUE`,
    ): Promise<AlertStatus | undefined> {
      return db.transaction(async (tx) => {
        const cur = await tx.execute(sql`
          SELECT attempts, max_attempts FROM alerts WHERE id = ${alertId} AND status = ${FAIL.from} AND ${where}
          FOR UPDATE`);
        const row = cur.rows[0] as { attempts: number; max_attempts: number } | undefined;
        if (!row) return undefined;
        const next = AFTER_FAILURE[statusAfterFailure(row.attempts, row.max_attempts)];
        const dead = next.to === 'dead';
        await tx.execute(sql`
          WITH upd AS (
            UPDATE alerts SET status = ${next.to},
              next_attempt_at = now() + make_interval(secs => ${retryDelayMs / 1000}),
              locked_by = NULL, locked_until = NULL, last_error = ${error},
              dead_reason = ${dead ? sql`'retries exhausted'` : sql`dead_reason`},
              finished_at = ${dead ? sql`now()` : sql`NULL`}
            WHERE id = ${alertId}
            RETURNING id
          )
          INSERT INTO alert_events (alert_id, from_status, to_status, actor, error, at)
          SELECT id, ${FAIL.from}, ${FAIL.to}, ${actor}, ${error}, now() FROM upd
          UNION ALL
          SELECT id, ${next.from}, ${next.to}, 'system', NULL, now() + interval '1 millisecond' FROM upd`);
        return next.to;
      });
    },

    /** Alerts whose worker stopped renewing its lease (crash, kill -9): failed and retried. */
    async expiredLeases(): Promise<{ id: string; lockedBy: string | null }[]> {
      const result = await db.execute(sql`
        SELECT id, locked_by FROM alerts WHERE status = 'in_progress' AND locked_until < now() LIMIT 100
      `);
      return result.rows.map((r) => ({
        id: r.id as string,
        lockedBy: (r.locked_by as string | null) ?? null,
      }));
    },

    /** Records how far the signal's price was from the venue's when the alert was processed (issue 19). */
    async recordPriceDeviation(alertId: string, percent: string): Promise<void> {
      await db.update(alerts).set({ priceDeviationPercent: percent }).where(eq(alerts.id, alertId));
    },

    async findById(id: string): Promise<AlertRow | undefined> {
      const [row] = await db.select().from(alerts).where(eq(alerts.id, id));
      return row;
    },

    async events(alertId: string) {
      return db.select().from(alertEvents).where(eq(alertEvents.alertId, alertId)).orderBy(alertEvents.at);
    },
  };
}

export type AlertsRepo = ReturnType<typeof createAlertsRepo>;
