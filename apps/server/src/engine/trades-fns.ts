import {
  isTakeProfitRole,
  parseSymbol,
  pushableTakeProfit,
  roundDownToStep,
  sum,
  takeProfitStatusFromOrder,
  tpDisplayName,
  toDecimal,
  type PushTakeProfitDecision,
  type TakeProfitRole,
  type TakeProfitStatus,
} from '@kairos/core';
import type { TakeProfitPlan } from '../db/schema/index';

type FillLike = { side: 'buy' | 'sell'; amount: string; fee: string | null; feeCurrency: string | null };

/**
 * The base quantity a trade still holds: entry fills − exit fills, and for a long also every fee the
 * venue took in the base currency (Binance spot charges a buy's fee in the coin bought), since that part
 * was never received and cannot be sold.
 */
export function heldQuantity(trade: { side: 'long' | 'short'; symbol: string }, fills: readonly FillLike[]) {
  const entrySide = trade.side === 'long' ? 'buy' : 'sell';
  const { base } = parseSymbol(trade.symbol);
  const entered = sum(fills.filter((f) => f.side === entrySide).map((f) => f.amount));
  const exited = sum(fills.filter((f) => f.side !== entrySide).map((f) => f.amount));
  const baseFees =
    trade.side === 'long'
      ? sum(fills.filter((f) => f.feeCurrency === base).map((f) => f.fee ?? '0'))
      : toDecimal(0);
  return entered.minus(exited).minus(baseFees);
}

/** What can still be sold (long) or bought back (short): the held quantity rounded down to the step, never < 0. */
export function sellableQuantity(
  trade: { side: 'long' | 'short'; symbol: string },
  fills: readonly FillLike[],
  market: { amountStep: string | null },
) {
  const held = heldQuantity(trade, fills);
  if (held.lte(0)) return toDecimal(0);
  return market.amountStep ? roundDownToStep(held, market.amountStep) : held;
}

type OrderLike = {
  role: string;
  type: 'market' | 'limit';
  status: Parameters<typeof takeProfitStatusFromOrder>[0];
  price: string | null;
  average: string | null;
  amount: string;
  filled: string;
  venueOrderId: string | null;
  clientOrderId: string;
  createdAt: Date;
};

export type LadderLevelView = {
  role: TakeProfitRole;
  name: string;
  percent: string;
  sizePercent: string;
  status: TakeProfitStatus;
  price: string | null;
  amount: string | null;
  filled: string;
  orderId: string | null;
  clientOrderId: string | null;
  pushed: boolean;
  pushable: boolean;
};

function roleNumber(role: string): number {
  return Number(role.slice(2));
}

/**
 * The ladder as TradeDetail shows it: one level per planned TP, its status from its current order
 * (the newest one of that role: a re-placed or pushed level has several). A planned level with no order
 * once others were placed was too small for the venue and merged into its neighbour: shown cancelled.
 */
export function ladderView(
  plan: readonly TakeProfitPlan[],
  orders: readonly OrderLike[],
  tradeStatus: string,
): LadderLevelView[] {
  const tpOrders = orders.filter((o) => isTakeProfitRole(o.role));
  const placed = tpOrders.length > 0;
  const levels = [...plan]
    .filter((p) => isTakeProfitRole(p.role))
    .sort((a, b) => roleNumber(a.role) - roleNumber(b.role))
    .map((p) => {
      const rows = tpOrders
        .filter((o) => o.role === p.role)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
      const current = rows.at(-1);
      const earlierFilled = sum(rows.slice(0, -1).map((o) => o.filled));
      const status: TakeProfitStatus = current
        ? takeProfitStatusFromOrder(current.status)
        : placed
          ? 'cancelled'
          : 'waiting';
      return {
        role: p.role as TakeProfitRole,
        name: tpDisplayName(p.role),
        percent: p.percent,
        sizePercent: p.sizePercent,
        status,
        price: plainOrNull(current ? (current.type === 'limit' ? current.price : current.average) : null),
        amount: current ? toDecimal(current.amount).plus(earlierFilled).toFixed() : null,
        filled: sum(rows.map((o) => o.filled)).toFixed(),
        orderId: current?.venueOrderId ?? null,
        clientOrderId: current?.clientOrderId ?? null,
        pushed: rows.some((o) => o.type === 'market'),
        pushable: false,
      };
    });
  for (const level of levels) level.pushable = pushDecision(levels, level.role, tradeStatus).ok;
  return levels;
}

/**
 * Push-to-take-profit rules (spec §8, DESIGN §6) on top of core's: a trade that is not open has nothing
 * to push, and a level not placed yet (entry still filling) is not available either.
 */
export function pushDecision<T extends { role: TakeProfitRole; status: TakeProfitStatus }>(
  levels: readonly T[],
  role: string,
  tradeStatus: string,
): PushTakeProfitDecision<T> {
  const unavailable = { ok: false as const, message: `${tpDisplayName(role)} is not available to push` };
  if (tradeStatus !== 'open') return unavailable;
  const decision = pushableTakeProfit(levels, role);
  if (decision.ok && decision.level.status === 'waiting') return unavailable;
  return decision;
}

/**
 * A new take-profit plan for an open trade (PUT): levels already filled keep their place and plan entry;
 * the new levels follow them, numbered after the last filled one (`tp2`, `tp3`, … once TP1 filled).
 */
export function replanTakeProfits(
  current: readonly TakeProfitPlan[],
  filledRoles: ReadonlySet<string>,
  next: readonly { percent: string; sizePercent: string }[],
): { plan: TakeProfitPlan[]; newRoles: string[] } {
  const kept = current.filter((p) => filledRoles.has(p.role));
  const start = Math.max(0, ...[...filledRoles].filter(isTakeProfitRole).map(roleNumber));
  const added = next.map((p, i) => ({
    role: `tp${start + i + 1}`,
    percent: p.percent,
    sizePercent: p.sizePercent,
  }));
  return { plan: [...kept, ...added], newRoles: added.map((p) => p.role) };
}

/** Normalizes a plan typed by a person: roles `tp1…` in the order given when absent. */
export function planFromInput(input: readonly { role?: string; percent: string; sizePercent: string }[]) {
  return input.map((tp, i) => ({
    role: tp.role ?? `tp${i + 1}`,
    percent: tp.percent,
    sizePercent: tp.sizePercent,
  }));
}

function plainOrNull(value: string | null): string | null {
  return value === null ? null : toDecimal(value).toFixed();
}

type FundingHolder = { id: string; quantity: string; openedAt: Date; closedAt: Date | null };

/**
 * Which trade each funding payment of one symbol was paid on (issue 19): a payment belongs to the trades
 * holding the position at its time (opened at or before it, not closed before it). Two trades on one
 * position share it by their quantities; a payment no trade held is nobody's.
 */
export function attributeFunding<P extends { amount: string; timestamp: number }>(
  holders: readonly FundingHolder[],
  payments: readonly P[],
): Map<string, (P & { share: string })[]> {
  const byTrade = new Map<string, (P & { share: string })[]>();
  for (const payment of payments) {
    const held = holders.filter(
      (t) =>
        t.openedAt.getTime() <= payment.timestamp &&
        (t.closedAt === null || t.closedAt.getTime() >= payment.timestamp) &&
        toDecimal(t.quantity).gt(0),
    );
    const total = sum(held.map((t) => t.quantity));
    for (const t of held) {
      const share = toDecimal(payment.amount).times(t.quantity).div(total);
      const list = byTrade.get(t.id) ?? [];
      list.push({ ...payment, share: share.toFixed() });
      byTrade.set(t.id, list);
    }
  }
  return byTrade;
}
