import {
  apiError,
  type BillingRecord,
  type BillingUser,
  type BillingUserDetail,
  type Invoice,
  type LedgerAdjustment,
  type LedgerAdjustmentBody,
  type LedgerAdjustmentsQuery,
  type MonthlyProcessResult,
  type MyBilling,
} from '@kairos/contract';
import { Decimal, sum, toDecimal } from '@kairos/core';
import type { FastifyBaseLogger } from 'fastify';
import { USD_STABLECOINS } from '../../exchange/valuation';
import { ConflictError, DomainRuleError, NotFoundError } from '../../lib/errors';
import type { AdminActor, AuditService } from '../audit/audit-service';
import {
  allowedInvoiceFrom,
  billMonth,
  dueDate,
  invoiceMoveRefusal,
  money,
  periodEnd,
  periodLabel,
  periodOf,
  periodsBetween,
  periodStart,
  previousPeriod,
  type Period,
} from './billing-fns';
import type {
  BillingRepo,
  InvoiceRow,
  InvoiceView,
  LedgerEventRow,
  PlanRow,
  RecordRow,
  RecordView,
} from './billing-repo';
import type { PaymentProvider } from './payment-provider';

/** Days an invoice opened by auto charge has before it is due. */
const AUTO_INVOICE_DUE_DAYS = 14;

function toRecordDto(r: RecordView): BillingRecord {
  return {
    id: r.id,
    userId: r.userId,
    userEmail: r.userEmail,
    year: r.year,
    month: r.month,
    profit: money(r.profit),
    cumulativeProfitBefore: money(r.cumulativeProfitBefore),
    cumulativeProfit: money(r.cumulativeProfit),
    highWaterMarkBefore: money(r.highWaterMarkBefore),
    highWaterMarkAfter: money(r.highWaterMarkAfter),
    percent: money(r.percent),
    feeableProfit: money(r.feeableProfit),
    fee: money(r.fee),
    status: r.status,
    invoiceId: r.invoiceId,
    processedAt: r.processedAt.toISOString(),
  };
}

/** An adjustment's ledger event as the admin reads it. */
function toAdjustmentDto(e: LedgerEventRow): LedgerAdjustment {
  return {
    id: e.id,
    userId: e.userId,
    kind: 'adjustment',
    amount: money(e.amount),
    currency: e.currency,
    note: e.note ?? '',
    effectiveAt: e.effectiveAt.toISOString(),
    bookedAt: e.bookedAt.toISOString(),
  };
}

function toInvoiceDto(i: InvoiceView): Invoice {
  return {
    id: i.id,
    number: i.number,
    userId: i.userId,
    userEmail: i.userEmail,
    billingRecordId: i.billingRecordId,
    year: i.year,
    month: i.month,
    amount: money(i.amount),
    currency: i.currency,
    status: i.status,
    dueDate: i.dueDate,
    issuedAt: i.issuedAt?.toISOString() ?? null,
    paidAt: i.paidAt?.toISOString() ?? null,
    voidedAt: i.voidedAt?.toISOString() ?? null,
    voidReason: i.voidReason,
    provider: i.provider,
    providerReference: i.providerReference,
    createdAt: i.createdAt.toISOString(),
  };
}

const toPlanDto = (p: PlanRow | null) =>
  p
    ? {
        percent: money(p.percent),
        active: p.active,
        autoCharge: p.autoCharge,
        updatedAt: p.updatedAt.toISOString(),
      }
    : null;

export type BillingService = ReturnType<typeof createBillingService>;

/**
 * Profit-share billing (DESIGN §8). A month is processed once per user: its record chains from the
 * previous month's cumulative profit and high-water mark and is never rewritten, so processing a
 * month again changes nothing. Invoices are created from records; money is collected through the
 * PaymentProvider port.
 */
export function createBillingService(deps: {
  repo: BillingRepo;
  provider: PaymentProvider;
  audit: Pick<AuditService, 'audited'>;
  log: FastifyBaseLogger;
  /** USDT per unit of a currency now, and where it was read; null when it cannot be priced. */
  priceInUsdt?: (currency: string) => Promise<{ rate: string; source: string } | null>;
  now?: () => Date;
}) {
  const { repo, provider, audit, log } = deps;
  const now = deps.now ?? (() => new Date());

  /** The rate an amount in `currency` is billed at: 1 for USD stablecoins, else the market's (null: none). */
  async function rateOf(currency: string): Promise<{ rate: string; source: string } | null> {
    if (USD_STABLECOINS.has(currency)) return { rate: '1', source: 'stable' };
    try {
      return (await deps.priceInUsdt?.(currency)) ?? null;
    } catch (e) {
      log.warn({ err: e, currency }, 'could not price a currency for billing');
      return null;
    }
  }

  async function currentMonthOf(users: { id: string; plan: PlanRow | null }[]) {
    const period = periodOf(now());
    const ids = users.map((u) => u.id);
    const [byCurrency, lasts] = await Promise.all([repo.profitsSince(ids), repo.lastRecords(ids)]);
    const rates = new Map(
      await Promise.all(
        [...new Set(byCurrency.map((p) => p.currency))].map(
          async (c) => [c, (await rateOf(c))?.rate] as const,
        ),
      ),
    );
    const profits = new Map<string, Decimal>();
    for (const p of byCurrency) {
      const rate = rates.get(p.currency);
      if (rate)
        profits.set(
          p.userId,
          (profits.get(p.userId) ?? new Decimal(0)).plus(toDecimal(p.amount).times(rate)),
        );
    }
    return new Map(
      users.map((u) => {
        const last = lasts.get(u.id);
        const profit = (profits.get(u.id) ?? new Decimal(0)).toFixed();
        const figures = billMonth({
          plan: u.plan,
          cumulativeProfitBefore: last?.cumulativeProfit ?? '0',
          highWaterMarkBefore: last?.highWaterMarkAfter ?? '0',
          monthProfit: profit,
        });
        return [
          u.id,
          {
            ...period,
            profit: money(profit),
            highWaterMark: money(last?.highWaterMarkAfter ?? '0'),
            estimatedFee: figures.fee,
          },
        ];
      }),
    );
  }

  async function billingUsers(rows: { id: string; email: string; plan: PlanRow | null }[]) {
    const [current, latest] = await Promise.all([
      currentMonthOf(rows),
      repo.latestInvoices(rows.map((r) => r.id)),
    ]);
    return rows.map((r): BillingUser => ({
      userId: r.id,
      email: r.email,
      plan: toPlanDto(r.plan),
      currentMonth: current.get(r.id)!,
      latestInvoice: latest.has(r.id) ? toInvoiceDto(latest.get(r.id)!) : null,
    }));
  }

  async function userDetail(userId: string): Promise<BillingUserDetail> {
    const user = await userOr404(userId);
    const [[summary], records, invoices] = await Promise.all([
      billingUsers([user]),
      repo.listRecords({ userId, skip: 0, take: 1000 }),
      repo.listInvoices({ userId, skip: 0, take: 1000 }),
    ]);
    return {
      ...summary!,
      records: records.rows.map(toRecordDto),
      invoices: invoices.rows.map(toInvoiceDto),
    };
  }

  async function userOr404(userId: string) {
    const user = await repo.findUser(userId);
    if (!user) throw new NotFoundError(...apiError('NOT_FOUND', { variant: 'user' }));
    return user;
  }

  async function invoiceOr404(id: string): Promise<InvoiceView> {
    const invoice = await repo.findInvoice(id);
    if (!invoice) throw new NotFoundError(...apiError('NOT_FOUND', { variant: 'invoice' }));
    return invoice;
  }

  const toCharge = (i: InvoiceView) => ({
    id: i.id,
    number: i.number,
    userId: i.userId,
    userEmail: i.userEmail,
    amount: money(i.amount),
    currency: i.currency,
    dueDate: i.dueDate,
  });

  /** Auto charge after the month's transaction committed: the provider is an outside call. */
  async function autoCharge(created: InvoiceRow[]) {
    for (const row of created) {
      const invoice = (await repo.findInvoice(row.id))!;
      try {
        const result = await provider.charge(toCharge(invoice));
        if (result.status === 'paid') {
          await repo.settleInvoice(invoice.id, allowedInvoiceFrom('pay'), {
            to: 'paid',
            reference: result.reference,
            paidAt: now(),
          });
        } else if (result.status === 'pending' && result.reference) {
          await repo.settleInvoice(invoice.id, ['open'], { to: 'open', reference: result.reference });
        } else if (result.status === 'failed') {
          log.warn({ invoice: invoice.number, message: result.message }, 'auto charge failed');
        }
      } catch (e) {
        // The invoice stays open: an admin can record the payment or retry by hand.
        log.error({ err: e, invoice: invoice.number }, 'auto charge crashed');
      }
    }
  }

  async function processMonth(period: Period): Promise<MonthlyProcessResult> {
    const start = periodStart(period);
    const end = periodEnd(period);
    if (end.getTime() > now().getTime())
      throw new DomainRuleError(...apiError('PERIOD_NOT_OVER', { period: periodLabel(period) }));

    const outcome = await repo.inProcessingLock(async (tx) => {
      const candidates = await repo.candidates(tx, period, start, end);
      const unchanged = candidates.filter((c) => c.hasPeriod).length;
      const skipped = candidates.filter((c) => !c.hasPeriod && c.hasLater).length;
      const work = candidates
        .filter((c) => !c.hasPeriod && !c.hasLater)
        // A user whose chain stopped before last month is caught up month by month first.
        .map((c) => ({ c, months: c.last ? periodsBetween(c.last.period, period) : [period] }));
      // Each month bills the ledger events not billed yet whose money moved before its end: a late close
      // (booked after its month was processed) lands in the next month processed, with its real time.
      const events = await repo.unbilledEvents(
        tx,
        work.map((w) => w.c.userId),
        end,
      );
      // Every amount is billed in USDT at a rate recorded with the event: a stablecoin at 1, another currency
      // (a BTC-quoted pair's PnL) at the market's price, read once per currency; an event that cannot be priced
      // waits for a later month.
      const toRecord: { eventId: number; currency: string; rate: string; source: string }[] = [];
      const priced = new Map<string, { rate: string; source: string } | null>();
      for (const e of events) {
        if (e.rate !== null) continue;
        if (!priced.has(e.currency)) priced.set(e.currency, await rateOf(e.currency));
        const found = priced.get(e.currency);
        if (found) {
          e.rate = found.rate;
          if (found.source !== 'stable') toRecord.push({ eventId: e.id, currency: e.currency, ...found });
        }
      }
      await repo.recordRates(tx, toRecord);
      const billedBy = new Map<string, number[]>();
      const rows = work.flatMap(({ c, months }) => {
        let cumulative = c.last?.cumulativeProfit ?? '0';
        let highWaterMark = c.last?.highWaterMarkAfter ?? '0';
        let pending = events.filter((e) => e.userId === c.userId && e.rate !== null);
        return months.map((m) => {
          const mine = pending.filter((e) => e.effectiveAt < periodEnd(m));
          pending = pending.filter((e) => e.effectiveAt >= periodEnd(m));
          billedBy.set(
            `${c.userId}|${m.year}-${m.month}`,
            mine.map((e) => e.id),
          );
          const figures = billMonth({
            plan: c.plan,
            cumulativeProfitBefore: cumulative,
            highWaterMarkBefore: highWaterMark,
            monthProfit: sum(mine.map((e) => toDecimal(e.amount).times(e.rate!))).toFixed(),
          });
          cumulative = figures.cumulativeProfit;
          highWaterMark = figures.highWaterMarkAfter;
          return { userId: c.userId, ...m, ...figures };
        });
      });
      const inserted = await repo.insertRecords(tx, rows);
      await repo.markBilled(
        tx,
        inserted.flatMap((r) =>
          (billedBy.get(`${r.userId}|${r.year}-${r.month}`) ?? []).map((eventId) => ({
            eventId,
            recordId: r.id,
          })),
        ),
      );
      const charged = new Set(
        candidates.filter((c) => c.plan?.active && c.plan.autoCharge).map((c) => c.userId),
      );
      const invoices: InvoiceRow[] = [];
      for (const record of inserted.filter((r) => r.status === 'pending' && charged.has(r.userId))) {
        invoices.push(
          await repo.insertInvoice(tx, record, {
            currency: 'USDT',
            dueDate: dueDate(now(), AUTO_INVOICE_DUE_DAYS),
            provider: provider.name,
            issuedAt: now(),
          }),
        );
      }
      const totals = await repo.periodTotals(tx, period);
      return { created: inserted.length, unchanged, skipped, totals, invoices };
    });
    await autoCharge(outcome.invoices);
    return {
      ...period,
      created: outcome.created,
      unchanged: outcome.unchanged,
      skipped: outcome.skipped,
      totalProfit: money(outcome.totals.profit),
      totalFees: money(outcome.totals.fees),
      invoicesCreated: outcome.invoices.length,
    };
  }

  /** Admin "process month": idempotent (a user's month already processed is left as it is). */
  async function processMonthly(actor: AdminActor, period: Period): Promise<MonthlyProcessResult> {
    return audit.audited(
      actor,
      { action: 'billing.monthly_process', target: `billing:${periodLabel(period)}` },
      () => processMonth(period),
      (r) => ({ created: r.created, unchanged: r.unchanged, skipped: r.skipped, totalFees: r.totalFees }),
    );
  }

  /**
   * Records the rate of every ledger event in a currency other than a USD stablecoin that has none yet, at
   * the market's price now (issue 19): run every minute, so an event is converted at about the time its
   * money moved, not when its month is billed. An event whose currency cannot be priced now waits for the
   * next run (or for its month, which prices it then). Returns how many rates it recorded.
   */
  async function recordPendingRates(limit = 500): Promise<number> {
    const events = await repo.eventsWithoutRate([...USD_STABLECOINS], limit);
    const priced = new Map<string, { rate: string; source: string } | null>();
    const rows: { eventId: number; currency: string; rate: string; source: string }[] = [];
    for (const e of events) {
      if (!priced.has(e.currency)) priced.set(e.currency, await rateOf(e.currency));
      const found = priced.get(e.currency);
      if (found) rows.push({ eventId: e.id, currency: e.currency, ...found });
    }
    if (rows.length > 0) await repo.inProcessingLock((tx) => repo.recordRates(tx, rows));
    return rows.length;
  }

  return {
    recordPendingRates,
    async listUsers(q: { skip: number; take: number; active?: boolean }) {
      const { rows, total } = await repo.listUsers(q);
      return { results: await billingUsers(rows), total, skip: q.skip, take: q.take };
    },

    userDetail,

    /**
     * The signed-in user's own billing (issue 21): their plan, the month in progress, every processed month
     * and invoice, newest first — without the admin's side (other users, how a payment was recorded).
     */
    async mine(userId: string): Promise<MyBilling> {
      const detail = await userDetail(userId);
      return {
        plan: detail.plan,
        currentMonth: detail.currentMonth,
        months: detail.records.map(({ userId: _u, userEmail: _e, ...month }) => month),
        invoices: detail.invoices.map(
          ({ userId: _u, userEmail: _e, provider: _p, providerReference: _r, ...invoice }) => invoice,
        ),
      };
    },

    /** Creates the plan (percent required) or changes the fields given; history keeps its own percent. */
    async updatePlan(
      actor: AdminActor,
      body: { userId: string; percent?: string; active?: boolean; autoCharge?: boolean },
    ): Promise<BillingUser> {
      const { userId, ...changes } = body;
      return audit.audited(
        actor,
        { action: 'billing.plan_update', target: `user:${userId}`, details: changes },
        async () => {
          const user = await userOr404(userId);
          if (!user.plan && changes.percent === undefined)
            throw new DomainRuleError(...apiError('PLAN_PERCENT_REQUIRED'));
          const plan = await repo.upsertPlan(userId, changes);
          const [result] = await billingUsers([{ id: user.id, email: user.email, plan }]);
          return result!;
        },
      );
    },

    /** The ledger events behind a record's profit: each amount, its rate and what it added in USDT. */
    async recordEvents(recordId: string) {
      const events = await repo.recordEvents(recordId);
      if (!events) throw new NotFoundError(...apiError('NOT_FOUND', { variant: 'record' }));
      return events.map((e) => {
        const rate = e.rate ?? '1';
        return {
          id: e.id,
          tradeId: e.tradeId,
          kind: e.kind,
          amount: money(e.amount),
          currency: e.currency,
          rate: money(rate),
          amountUsdt: money(toDecimal(e.amount).times(rate).toFixed()),
          rateSource: e.rateSource,
          effectiveAt: e.effectiveAt.toISOString(),
          bookedAt: e.bookedAt.toISOString(),
          note: e.note,
        };
      });
    },

    /**
     * An admin's correction of what a user is billed on (issue 19): a new ledger event, never an edit, effective
     * now, so the first month processed after it bills it (converted at its recorded rate like any event).
     */
    async addAdjustment(actor: AdminActor, body: LedgerAdjustmentBody): Promise<LedgerAdjustment> {
      const { userId, amount, currency, reason } = body;
      return audit.audited(
        actor,
        {
          action: 'billing.ledger_adjustment',
          target: `user:${userId}`,
          details: { amount, currency, reason },
        },
        async () => {
          await userOr404(userId);
          return toAdjustmentDto(await repo.insertAdjustment({ userId, amount, currency, note: reason }));
        },
      );
    },

    /** The adjustments made, newest first (Admin → Ledger adjustments). */
    async listAdjustments(q: LedgerAdjustmentsQuery) {
      const { rows, total } = await repo.listAdjustments(q);
      return {
        results: rows.map((r) => ({ ...toAdjustmentDto(r.event), userEmail: r.userEmail })),
        total,
        skip: q.skip,
        take: q.take,
      };
    },

    async listRecords(q: Parameters<BillingRepo['listRecords']>[0]) {
      const { rows, total } = await repo.listRecords(q);
      return { results: rows.map(toRecordDto), total, skip: q.skip, take: q.take };
    },

    async listInvoices(q: Parameters<BillingRepo['listInvoices']>[0]) {
      const { rows, total } = await repo.listInvoices(q);
      return { results: rows.map(toInvoiceDto), total, skip: q.skip, take: q.take };
    },

    processMonthly,

    /** The scheduled job on the 1st: the month that just ended. */
    async processPreviousMonth(actor: AdminActor): Promise<MonthlyProcessResult> {
      return processMonthly(actor, previousPeriod(periodOf(now())));
    },

    /** One live invoice per user and period: asking again returns the same invoice (`created: false`). */
    async createInvoice(
      actor: AdminActor,
      body: { userId: string; year: number; month: number; currency: 'USDT' | 'USD'; dueInDays: number },
    ): Promise<{ invoice: Invoice; created: boolean }> {
      const period = { year: body.year, month: body.month };
      const label = periodLabel(period);
      return audit.audited(
        actor,
        { action: 'billing.invoice_create', target: `user:${body.userId}`, details: { period: label } },
        async () => {
          await userOr404(body.userId);
          const { row, created } = await repo.inProcessingLock(async (tx) => {
            const record: RecordRow | undefined = await repo.findRecord(tx, body.userId, period, true);
            if (!record)
              throw new DomainRuleError(...apiError('BILLING_PERIOD_NOT_PROCESSED', { period: label }));
            const existing = await repo.liveInvoiceOfRecord(tx, record.id);
            if (existing) return { row: existing, created: false };
            if (toDecimal(record.fee).lte(0))
              throw new DomainRuleError(...apiError('NO_FEE_DUE', { period: label }));
            const row = await repo.insertInvoice(tx, record, {
              currency: body.currency,
              dueDate: dueDate(now(), body.dueInDays),
              provider: provider.name,
              issuedAt: now(),
            });
            return { row, created: true };
          });
          return { invoice: toInvoiceDto((await repo.findInvoice(row.id))!), created };
        },
        (r) => ({ invoiceId: r.invoice.id, number: r.invoice.number, created: r.created }),
      );
    },

    /** An admin records a payment received outside any provider (bank transfer, on-chain). */
    async payInvoice(
      actor: AdminActor,
      id: string,
      body: { reference?: string; paidAt?: string } = {},
    ): Promise<Invoice> {
      return audit.audited(
        actor,
        { action: 'billing.invoice_pay', target: `invoice:${id}`, details: { reference: body.reference } },
        async () => {
          const invoice = await invoiceOr404(id);
          const refusal = invoiceMoveRefusal('pay', invoice.status);
          if (refusal) throw new ConflictError(...refusal);
          const reference = await provider.recordPayment(toCharge(invoice), {
            reference: body.reference,
            adminId: actor.id,
          });
          const paid = await repo.settleInvoice(id, allowedInvoiceFrom('pay'), {
            to: 'paid',
            reference,
            paidAt: body.paidAt ? new Date(body.paidAt) : now(),
          });
          if (!paid) throw new ConflictError(...apiError('INVOICE_CHANGED'));
          return toInvoiceDto((await repo.findInvoice(id))!);
        },
      );
    },

    /** Voids an unpaid invoice; its month is due again (a new invoice may be created). */
    async voidInvoice(actor: AdminActor, id: string, reason: string): Promise<Invoice> {
      return audit.audited(
        actor,
        { action: 'billing.invoice_void', target: `invoice:${id}`, details: { reason } },
        async () => {
          const invoice = await invoiceOr404(id);
          const refusal = invoiceMoveRefusal('void', invoice.status);
          if (refusal) throw new ConflictError(...refusal);
          const voided = await repo.settleInvoice(id, allowedInvoiceFrom('void'), { to: 'void', reason });
          if (!voided) throw new ConflictError(...apiError('INVOICE_CHANGED'));
          return toInvoiceDto((await repo.findInvoice(id))!);
        },
      );
    },
  };
}
