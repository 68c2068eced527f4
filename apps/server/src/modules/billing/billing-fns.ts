import { apiError, type ApiMessageParams } from '@kairos/contract';
import { computeMonthlyFee, toDecimal, type DecimalInput } from '@kairos/core';

/** A calendar month in UTC. */
export type Period = { year: number; month: number };

export const periodLabel = (p: Period) => `${p.year}-${String(p.month).padStart(2, '0')}`;

/** First instant of the month (UTC). */
export const periodStart = (p: Period) => new Date(Date.UTC(p.year, p.month - 1, 1));

export function nextPeriod(p: Period): Period {
  return p.month === 12 ? { year: p.year + 1, month: 1 } : { year: p.year, month: p.month + 1 };
}

export function previousPeriod(p: Period): Period {
  return p.month === 1 ? { year: p.year - 1, month: 12 } : { year: p.year, month: p.month - 1 };
}

export const periodEnd = (p: Period) => periodStart(nextPeriod(p));

export function comparePeriods(a: Period, b: Period): number {
  return a.year !== b.year ? a.year - b.year : a.month - b.month;
}

export function periodOf(at: Date): Period {
  return { year: at.getUTCFullYear(), month: at.getUTCMonth() + 1 };
}

/** Every month after `after` up to and including `until` (a user's catch-up after a missed run). */
export function periodsBetween(after: Period, until: Period): Period[] {
  const out: Period[] = [];
  for (let p = nextPeriod(after); comparePeriods(p, until) <= 0; p = nextPeriod(p)) out.push(p);
  return out;
}

export type PlanTerms = { percent: string; active: boolean } | null;

export type RecordStatus = 'no_fee' | 'waived' | 'pending' | 'invoiced' | 'paid';

export type MonthFigures = {
  profit: string;
  cumulativeProfitBefore: string;
  cumulativeProfit: string;
  highWaterMarkBefore: string;
  highWaterMarkAfter: string;
  percent: string;
  feeableProfit: string;
  fee: string;
  status: RecordStatus;
};

/**
 * One month of a user's billing (DESIGN §8), chained from the previous month's cumulative profit and
 * high-water mark. With no active plan the month is still recorded — the high-water mark keeps rising
 * with profit made meanwhile, so activating a plan later never bills that profit — but nothing is due.
 */
export function billMonth(input: {
  plan: PlanTerms;
  cumulativeProfitBefore: DecimalInput;
  highWaterMarkBefore: DecimalInput;
  monthProfit: DecimalInput;
}): MonthFigures {
  const billed = input.plan?.active === true;
  const percent = billed ? input.plan!.percent : '0';
  const r = computeMonthlyFee({
    percent,
    cumulativeProfitBefore: input.cumulativeProfitBefore,
    highWaterMarkBefore: input.highWaterMarkBefore,
    monthProfit: input.monthProfit,
  });
  return {
    profit: toDecimal(input.monthProfit).toFixed(),
    cumulativeProfitBefore: toDecimal(input.cumulativeProfitBefore).toFixed(),
    cumulativeProfit: r.cumulativeProfitAfter.toFixed(),
    highWaterMarkBefore: toDecimal(input.highWaterMarkBefore).toFixed(),
    highWaterMarkAfter: r.highWaterMarkAfter.toFixed(),
    percent: toDecimal(percent).toFixed(),
    feeableProfit: r.feeableProfit.toFixed(),
    fee: r.fee.toFixed(),
    status: !billed ? 'waived' : r.fee.gt(0) ? 'pending' : 'no_fee',
  };
}

export type InvoiceStatus = 'draft' | 'open' | 'paid' | 'void';

type InvoiceRefusal = ApiMessageParams<'INVALID_INVOICE_TRANSITION'>['variant'];

/** Invoice moves an admin may make; `refused`: the sentence (INVALID_INVOICE_TRANSITION) the screen shows. */
const INVOICE_MOVES: Record<
  'pay' | 'void',
  { from: InvoiceStatus[]; refused: Partial<Record<InvoiceStatus, InvoiceRefusal>> }
> = {
  pay: { from: ['draft', 'open'], refused: { paid: 'alreadyPaid', void: 'voidNotPayable' } },
  void: { from: ['draft', 'open'], refused: { paid: 'paidNotVoidable', void: 'alreadyVoid' } },
};

/** undefined when allowed, else why not: the arguments of the INVALID_INVOICE_TRANSITION refusal. */
export function invoiceMoveRefusal(move: 'pay' | 'void', from: InvoiceStatus) {
  const rule = INVOICE_MOVES[move];
  if (rule.from.includes(from)) return undefined;
  const variant = rule.refused[from];
  return variant
    ? apiError('INVALID_INVOICE_TRANSITION', { variant })
    : apiError('INVALID_INVOICE_TRANSITION', { move, status: from });
}

export const allowedInvoiceFrom = (move: 'pay' | 'void') => INVOICE_MOVES[move].from;

/** `YYYY-MM-DD`, `days` after `from` (UTC). */
export function dueDate(from: Date, days: number): string {
  return new Date(from.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

/** Money as shown: plain decimal, no trailing zeros (`numeric(38,18)` comes back padded). */
export const money = (v: DecimalInput) => toDecimal(v).toFixed();
