import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database, DbOrTx, Transaction } from '../../db/client';
import {
  BILLED_LEDGER_KINDS,
  billedEvents,
  billingPlans,
  billingRecords,
  invoices,
  ledgerEvents,
  ledgerRates,
  users,
} from '../../db/schema/index';
import type { MonthFigures, Period } from './billing-fns';

export type PlanRow = typeof billingPlans.$inferSelect;
export type RecordRow = typeof billingRecords.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;
export type LedgerEventRow = typeof ledgerEvents.$inferSelect;
export type RecordView = RecordRow & { userEmail: string; invoiceId: string | null };
export type InvoiceView = InvoiceRow & { userEmail: string };

/** Advisory lock serialising monthly processing across every API and worker process. */
const BILLING_LOCK = 724_311_101;

/** What processing a month needs to know about one user, read in one pass. */
export type BillingCandidate = {
  userId: string;
  hasPeriod: boolean;
  hasLater: boolean;
  last: { period: Period; cumulativeProfit: string; highWaterMarkAfter: string } | null;
  plan: { percent: string; active: boolean; autoCharge: boolean } | null;
};

/** A ledger event no month has billed yet. */
export type UnbilledEvent = {
  id: number;
  userId: string;
  amount: string;
  currency: string;
  /** USDT per unit of `currency`, when recorded already. */
  rate: string | null;
  effectiveAt: Date;
};

/** The ledger events billing adds up (the movements beside them are never billed: their PnL events are). */
const BILLED_KINDS = sql.raw(`(${BILLED_LEDGER_KINDS.map((k) => `'${k}'`).join(', ')})`);

const liveInvoiceId = sql<string | null>`(SELECT i.id FROM invoices i
  WHERE i.billing_record_id = ${billingRecords.id} AND i.status <> 'void'
  ORDER BY i.created_at DESC LIMIT 1)`;

export function createBillingRepo(db: Database) {
  return {
    /** Runs `work` in one transaction holding the billing lock: two runs of a month never interleave. */
    async inProcessingLock<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${BILLING_LOCK})`);
        return work(tx);
      });
    },

    /**
     * Users concerned by a month: those with a plan, with ledger events not billed yet from before its end,
     * or already billed before (their chain continues with a zero month).
     */
    async candidates(tx: DbOrTx, period: Period, start: Date, end: Date): Promise<BillingCandidate[]> {
      const res = await tx.execute(sql`
        WITH who AS (
          SELECT user_id FROM billing_plans
          UNION SELECT e.user_id FROM ledger_events e
            WHERE e.effective_at < ${end.toISOString()} AND e.kind IN ${BILLED_KINDS}
              AND NOT EXISTS (SELECT 1 FROM billed_events b WHERE b.event_id = e.id)
          UNION SELECT user_id FROM billing_records WHERE (year, month) <= (${period.year}, ${period.month})
        )
        SELECT who.user_id,
          EXISTS (SELECT 1 FROM billing_records r WHERE r.user_id = who.user_id
            AND r.year = ${period.year} AND r.month = ${period.month}) AS has_period,
          EXISTS (SELECT 1 FROM billing_records r WHERE r.user_id = who.user_id
            AND (r.year, r.month) > (${period.year}, ${period.month})) AS has_later,
          last.year AS last_year, last.month AS last_month, last.cumulative_profit, last.high_water_mark_after,
          p.percent, p.active, p.auto_charge
        FROM who
        LEFT JOIN billing_plans p ON p.user_id = who.user_id
        LEFT JOIN LATERAL (
          SELECT year, month, cumulative_profit, high_water_mark_after FROM billing_records r
          WHERE r.user_id = who.user_id AND (r.year, r.month) < (${period.year}, ${period.month})
          ORDER BY r.year DESC, r.month DESC LIMIT 1
        ) last ON TRUE
        ORDER BY who.user_id`);
      return res.rows.map((r) => ({
        userId: r.user_id as string,
        hasPeriod: Boolean(r.has_period),
        hasLater: Boolean(r.has_later),
        last:
          r.last_year === null || r.last_year === undefined
            ? null
            : {
                period: { year: Number(r.last_year), month: Number(r.last_month) },
                cumulativeProfit: r.cumulative_profit as string,
                highWaterMarkAfter: r.high_water_mark_after as string,
              },
        plan:
          r.percent === null || r.percent === undefined
            ? null
            : { percent: r.percent as string, active: Boolean(r.active), autoCharge: Boolean(r.auto_charge) },
      }));
    },

    /**
     * The users' ledger events not billed yet whose money moved before `before`, in effective order: what
     * their next months bill (a late close lands in the first month processed after it was booked).
     */
    async unbilledEvents(tx: DbOrTx, userIds: string[], before: Date): Promise<UnbilledEvent[]> {
      if (userIds.length === 0) return [];
      const res = await tx.execute(sql`
        SELECT e.id, e.user_id, e.amount::text AS amount, e.currency, r.rate::text AS rate, e.effective_at
        FROM ledger_events e LEFT JOIN ledger_rates r ON r.event_id = e.id
        WHERE e.effective_at < ${before.toISOString()} AND e.kind IN ${BILLED_KINDS}
          AND e.user_id IN (${sql.join(
            userIds.map((id) => sql`${id}`),
            sql`, `,
          )})
          AND NOT EXISTS (SELECT 1 FROM billed_events b WHERE b.event_id = e.id)
        ORDER BY e.effective_at, e.id`);
      return res.rows.map((r) => ({
        id: Number(r.id),
        userId: r.user_id as string,
        amount: r.amount as string,
        currency: r.currency as string,
        rate: (r.rate as string | null) ?? null,
        effectiveAt: new Date(r.effective_at as string),
      }));
    },

    /** The ledger events a record billed, in effective order, with their rates (none: the record is unknown). */
    async recordEvents(recordId: string) {
      const [record] = await db
        .select({ id: billingRecords.id })
        .from(billingRecords)
        .where(eq(billingRecords.id, recordId));
      if (!record) return null;
      const res = await db.execute(sql`
        SELECT e.id, e.trade_id, e.kind, e.amount::text AS amount, e.currency, r.rate::text AS rate, r.source,
          e.effective_at, e.booked_at, e.note
        FROM billed_events b JOIN ledger_events e ON e.id = b.event_id LEFT JOIN ledger_rates r ON r.event_id = e.id
        WHERE b.record_id = ${recordId}
        ORDER BY e.effective_at, e.id`);
      return res.rows.map((r) => ({
        id: Number(r.id),
        tradeId: (r.trade_id as string | null) ?? null,
        kind: r.kind as string,
        amount: r.amount as string,
        currency: r.currency as string,
        rate: (r.rate as string | null) ?? null,
        rateSource: (r.source as string | null) ?? null,
        effectiveAt: new Date(r.effective_at as string),
        bookedAt: new Date(r.booked_at as string),
        note: (r.note as string | null) ?? null,
      }));
    },

    /** The admins' corrections, newest first (optionally one user's), with each user's email. */
    async listAdjustments(q: { skip: number; take: number; userId?: string }) {
      const where = and(
        eq(ledgerEvents.kind, 'adjustment'),
        q.userId ? eq(ledgerEvents.userId, q.userId) : undefined,
      );
      const [rows, [total]] = await Promise.all([
        db
          .select({ event: ledgerEvents, userEmail: users.email })
          .from(ledgerEvents)
          .innerJoin(users, eq(users.id, ledgerEvents.userId))
          .where(where)
          .orderBy(desc(ledgerEvents.id))
          .offset(q.skip)
          .limit(q.take),
        db.select({ n: count() }).from(ledgerEvents).where(where),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    /** An admin's correction (issue 19): a new ledger event, billed like a trade's PnL. */
    async insertAdjustment(row: { userId: string; amount: string; currency: string; note: string }) {
      const [event] = await db
        .insert(ledgerEvents)
        .values({ ...row, kind: 'adjustment', effectiveAt: sql`now()` })
        .returning();
      return event!;
    },

    /**
     * Ledger events in a currency other than the given (USD stablecoin) ones with no rate recorded yet,
     * oldest first: what the rate recorder prices soon after they are booked.
     */
    async eventsWithoutRate(
      except: readonly string[],
      limit: number,
    ): Promise<{ id: number; currency: string }[]> {
      const res = await db.execute(sql`
        SELECT e.id, e.currency FROM ledger_events e
        WHERE NOT (e.currency = ANY(${sql.param([...except])}::text[])) AND e.kind IN ${BILLED_KINDS}
          AND NOT EXISTS (SELECT 1 FROM ledger_rates r WHERE r.event_id = e.id)
        ORDER BY e.id LIMIT ${limit}`);
      return res.rows.map((r) => ({ id: Number(r.id), currency: r.currency as string }));
    },

    /** The rates events were converted at, recorded once each. */
    async recordRates(
      tx: DbOrTx,
      rows: { eventId: number; currency: string; rate: string; source: string }[],
    ): Promise<void> {
      if (rows.length === 0) return;
      await tx.insert(ledgerRates).values(rows).onConflictDoNothing();
    },

    /** Each event billed by one record (an event already billed stays with its record). */
    async markBilled(tx: DbOrTx, links: { eventId: number; recordId: string }[]): Promise<void> {
      if (links.length === 0) return;
      await tx.insert(billedEvents).values(links).onConflictDoNothing();
    },

    /** What each user's next month would bill today: their ledger events not billed yet, by currency. */
    async profitsSince(userIds: string[]): Promise<{ userId: string; currency: string; amount: string }[]> {
      if (userIds.length === 0) return [];
      const res = await db.execute(sql`
        SELECT e.user_id, e.currency, coalesce(sum(e.amount), 0)::text AS p FROM ledger_events e
        WHERE e.kind IN ${BILLED_KINDS} AND e.user_id IN (${sql.join(
          userIds.map((id) => sql`${id}`),
          sql`, `,
        )})
          AND NOT EXISTS (SELECT 1 FROM billed_events b WHERE b.event_id = e.id)
        GROUP BY e.user_id, e.currency`);
      return res.rows.map((r) => ({
        userId: r.user_id as string,
        currency: r.currency as string,
        amount: r.p as string,
      }));
    },

    /** Inserts month records; a (user, year, month) already there is left exactly as it was. */
    async insertRecords(
      tx: DbOrTx,
      rows: (MonthFigures & { userId: string; year: number; month: number })[],
    ): Promise<RecordRow[]> {
      if (rows.length === 0) return [];
      return tx.insert(billingRecords).values(rows).onConflictDoNothing().returning();
    },

    /** Each user's newest record: where the month in progress starts from. */
    async lastRecords(userIds: string[]): Promise<Map<string, RecordRow>> {
      if (userIds.length === 0) return new Map();
      const rows = await db
        .selectDistinctOn([billingRecords.userId])
        .from(billingRecords)
        .where(inArray(billingRecords.userId, userIds))
        .orderBy(billingRecords.userId, desc(billingRecords.year), desc(billingRecords.month));
      return new Map(rows.map((r) => [r.userId, r]));
    },

    async periodTotals(tx: DbOrTx, p: Period): Promise<{ profit: string; fees: string }> {
      const res = await tx.execute(sql`
        SELECT coalesce(sum(profit), 0)::text AS profit, coalesce(sum(fee), 0)::text AS fees
        FROM billing_records WHERE year = ${p.year} AND month = ${p.month}`);
      return res.rows[0] as { profit: string; fees: string };
    },

    async findUser(userId: string) {
      const [row] = await db
        .select({ id: users.id, email: users.email, plan: billingPlans })
        .from(users)
        .leftJoin(billingPlans, eq(billingPlans.userId, users.id))
        .where(eq(users.id, userId));
      return row;
    },

    async listUsers(q: { skip: number; take: number; active?: boolean }) {
      const where =
        q.active === undefined
          ? undefined
          : q.active
            ? eq(billingPlans.active, true)
            : sql`${billingPlans.active} IS NOT TRUE`;
      const [rows, [total]] = await Promise.all([
        db
          .select({ id: users.id, email: users.email, plan: billingPlans })
          .from(users)
          .leftJoin(billingPlans, eq(billingPlans.userId, users.id))
          .where(where)
          .orderBy(asc(users.email))
          .offset(q.skip)
          .limit(q.take),
        db
          .select({ n: count() })
          .from(users)
          .leftJoin(billingPlans, eq(billingPlans.userId, users.id))
          .where(where),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    async upsertPlan(
      userId: string,
      values: { percent?: string; active?: boolean; autoCharge?: boolean },
    ): Promise<PlanRow> {
      const now = new Date();
      const [row] = await db
        .insert(billingPlans)
        .values({ userId, percent: values.percent ?? '0', ...values, updatedAt: now })
        .onConflictDoUpdate({ target: billingPlans.userId, set: { ...values, updatedAt: now } })
        .returning();
      return row!;
    },

    async listRecords(q: {
      skip: number;
      take: number;
      userId?: string;
      year?: number;
      month?: number;
      status?: RecordRow['status'];
    }): Promise<{ rows: RecordView[]; total: number }> {
      const conditions: SQL[] = [];
      if (q.userId) conditions.push(eq(billingRecords.userId, q.userId));
      if (q.year) conditions.push(eq(billingRecords.year, q.year));
      if (q.month) conditions.push(eq(billingRecords.month, q.month));
      if (q.status) conditions.push(eq(billingRecords.status, q.status));
      const where = conditions.length ? and(...conditions) : undefined;
      const [rows, [total]] = await Promise.all([
        db
          .select({ record: billingRecords, userEmail: users.email, invoiceId: liveInvoiceId })
          .from(billingRecords)
          .innerJoin(users, eq(users.id, billingRecords.userId))
          .where(where)
          .orderBy(desc(billingRecords.year), desc(billingRecords.month), asc(users.email))
          .offset(q.skip)
          .limit(q.take),
        db.select({ n: count() }).from(billingRecords).where(where),
      ]);
      return {
        rows: rows.map((r) => ({ ...r.record, userEmail: r.userEmail, invoiceId: r.invoiceId ?? null })),
        total: total?.n ?? 0,
      };
    },

    async listInvoices(q: {
      skip: number;
      take: number;
      userId?: string;
      status?: InvoiceRow['status'];
    }): Promise<{ rows: InvoiceView[]; total: number }> {
      const conditions: SQL[] = [];
      if (q.userId) conditions.push(eq(invoices.userId, q.userId));
      if (q.status) conditions.push(eq(invoices.status, q.status));
      const where = conditions.length ? and(...conditions) : undefined;
      const [rows, [total]] = await Promise.all([
        db
          .select({ invoice: invoices, userEmail: users.email })
          .from(invoices)
          .innerJoin(users, eq(users.id, invoices.userId))
          .where(where)
          .orderBy(desc(invoices.createdAt), desc(invoices.number))
          .offset(q.skip)
          .limit(q.take),
        db.select({ n: count() }).from(invoices).where(where),
      ]);
      return { rows: rows.map((r) => ({ ...r.invoice, userEmail: r.userEmail })), total: total?.n ?? 0 };
    },

    /** Newest invoice per user, for the billing table. */
    async latestInvoices(userIds: string[]): Promise<Map<string, InvoiceView>> {
      if (userIds.length === 0) return new Map();
      const rows = await db
        .selectDistinctOn([invoices.userId], { invoice: invoices, userEmail: users.email })
        .from(invoices)
        .innerJoin(users, eq(users.id, invoices.userId))
        .where(inArray(invoices.userId, userIds))
        .orderBy(invoices.userId, desc(invoices.createdAt), desc(invoices.number));
      return new Map(rows.map((r) => [r.invoice.userId, { ...r.invoice, userEmail: r.userEmail }]));
    },

    async findInvoice(id: string): Promise<InvoiceView | undefined> {
      const [row] = await db
        .select({ invoice: invoices, userEmail: users.email })
        .from(invoices)
        .innerJoin(users, eq(users.id, invoices.userId))
        .where(eq(invoices.id, id));
      return row ? { ...row.invoice, userEmail: row.userEmail } : undefined;
    },

    async findRecord(tx: DbOrTx, userId: string, p: Period, lock = false): Promise<RecordRow | undefined> {
      const query = tx
        .select()
        .from(billingRecords)
        .where(
          and(
            eq(billingRecords.userId, userId),
            eq(billingRecords.year, p.year),
            eq(billingRecords.month, p.month),
          ),
        );
      const [row] = lock ? await query.for('update') : await query;
      return row;
    },

    async liveInvoiceOfRecord(tx: DbOrTx, recordId: string): Promise<InvoiceRow | undefined> {
      const [row] = await tx
        .select()
        .from(invoices)
        .where(and(eq(invoices.billingRecordId, recordId), sql`${invoices.status} <> 'void'`));
      return row;
    },

    /**
     * A new open invoice for a record; its number comes from a global sequence. The caller holds the
     * record's row lock, so a concurrent create for the same period waits and then finds this one.
     */
    async insertInvoice(
      tx: DbOrTx,
      record: RecordRow,
      values: { currency: 'USDT' | 'USD'; dueDate: string; provider: string; issuedAt: Date },
    ): Promise<InvoiceRow> {
      const period = `${record.year}${String(record.month).padStart(2, '0')}`;
      const [row] = await tx
        .insert(invoices)
        .values({
          number: sql`'INV-' || ${period} || '-' || lpad(nextval('invoice_number_seq')::text, 6, '0')`,
          userId: record.userId,
          billingRecordId: record.id,
          year: record.year,
          month: record.month,
          amount: record.fee,
          currency: values.currency,
          status: 'open',
          dueDate: values.dueDate,
          issuedAt: values.issuedAt,
          provider: values.provider,
        })
        .returning();
      await tx
        .update(billingRecords)
        .set({ status: 'invoiced', updatedAt: new Date() })
        .where(eq(billingRecords.id, record.id));
      return row!;
    },

    /** Conditional move of an invoice (status checked in the UPDATE); its record follows. */
    async settleInvoice(
      id: string,
      allowedFrom: readonly InvoiceRow['status'][],
      change:
        | { to: 'paid'; reference: string; paidAt: Date }
        | { to: 'void'; reason: string }
        | { to: 'open'; reference: string | null },
    ): Promise<InvoiceRow | undefined> {
      return db.transaction(async (tx) => {
        const now = new Date();
        const [row] = await tx
          .update(invoices)
          .set(
            change.to === 'paid'
              ? { status: 'paid', paidAt: change.paidAt, providerReference: change.reference, updatedAt: now }
              : change.to === 'void'
                ? { status: 'void', voidedAt: now, voidReason: change.reason, updatedAt: now }
                : { providerReference: change.reference, updatedAt: now },
          )
          .where(and(eq(invoices.id, id), inArray(invoices.status, [...allowedFrom])))
          .returning();
        if (!row) return undefined;
        if (change.to !== 'open') {
          await tx
            .update(billingRecords)
            .set({ status: change.to === 'paid' ? 'paid' : 'pending', updatedAt: now })
            .where(eq(billingRecords.id, row.billingRecordId));
        }
        return row;
      });
    },
  };
}

export type BillingRepo = ReturnType<typeof createBillingRepo>;
