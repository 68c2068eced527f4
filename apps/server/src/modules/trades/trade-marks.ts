import type { TradeRow } from '@kairos/contract';
import {
  ESTIMATED_TAKER_FEE_RATE,
  computeUnrealisedPnl,
  estimatePartialClosePnl,
  isTradeActive,
  Decimal,
  toDecimal,
} from '@kairos/core';
import type { FastifyBaseLogger } from 'fastify';
import type { AccountRow, GatewayProvider } from '../../exchange/gateway-provider';
import { heldQuantity } from '../../engine/trades-fns';
import type { TradeDbRow } from '../../engine/trades-repo';
import type { OwnedTradesRepo } from './trades-owner-repo';

/** How long one last price serves every answer asking for the same account and symbol. */
export const MARK_PRICE_TTL_MS = 2_000;

export type TradeMarkFields = Pick<
  TradeRow,
  | 'currentPrice'
  | 'unrealisedPnl'
  | 'unrealisedPnlPercent'
  | 'unrealisedPnlMarginPercent'
  | 'estimatedClosePnl'
>;

/** What marking one trade took: its fields, and what a push estimate needs (price, fee rate). */
export type TradeMark = {
  fields: TradeMarkFields;
  held: Decimal;
  currentPrice: string | null;
  takerFeeRate: string;
};

const round = (d: Decimal | null, places: number) =>
  d === null ? null : d.toDecimalPlaces(places).toFixed();

/**
 * An open trade at `currentPrice` (pure): fees and funding count here while no exit booked them (the
 * realised PnL of a partly closed trade already holds every fee paid and the funding). Nothing when the
 * trade holds nothing or has no entry price or price.
 */
export function markTrade(
  t: Pick<TradeDbRow, 'side' | 'entryPrice' | 'commission' | 'funding' | 'realisedPnl'>,
  held: Decimal,
  currentPrice: string | null,
  opts: { leverage: Decimal | null; takerFeeRate: string },
): TradeMarkFields {
  if (!currentPrice || !t.entryPrice || !held.gt(0)) return {};
  const booked = t.realisedPnl !== null;
  const u = computeUnrealisedPnl({
    side: t.side,
    heldQuantity: held,
    averageEntryPrice: t.entryPrice,
    currentPrice,
    feesPaid: booked ? 0 : t.commission,
    funding: booked ? 0 : t.funding,
    leverage: opts.leverage,
    takerFeeRate: opts.takerFeeRate,
  });
  return {
    currentPrice: toDecimal(currentPrice).toFixed(),
    unrealisedPnl: round(u.unrealisedPnl, 8),
    unrealisedPnlPercent: round(u.unrealisedPnlPercent, 4),
    unrealisedPnlMarginPercent: round(u.unrealisedPnlMarginPercent, 4),
    estimatedClosePnl: round(u.estimatedClosePnl, 8),
  };
}

/**
 * The taker fee rate an exit is estimated at: the usual rate of the market type, or what the trade's own entry
 * paid when that was more (a venue or an account tier dearer than the usual; read only while no exit has
 * added its fees to the commission), at most 1 %.
 */
export function takerFeeRateFor(
  t: Pick<TradeDbRow, 'entryPrice' | 'quantity' | 'commission' | 'realisedPnl'>,
  marketType: keyof typeof ESTIMATED_TAKER_FEE_RATE,
): string {
  const usual = toDecimal(ESTIMATED_TAKER_FEE_RATE[marketType]);
  if (t.realisedPnl !== null || !t.entryPrice) return usual.toFixed();
  const notional = toDecimal(t.entryPrice).times(t.quantity);
  if (!notional.gt(0)) return usual.toFixed();
  const paid = toDecimal(t.commission).div(notional);
  return Decimal.min(Decimal.max(usual, paid), '0.01').toFixed();
}

/** Pushing a take-profit level now: its unfilled amount at the last price, less the estimated taker fee. */
export function estimatePush(
  t: Pick<TradeDbRow, 'side' | 'entryPrice'>,
  level: { amount: string | null; filled: string },
  mark: TradeMark | undefined,
): string | null {
  if (!mark?.currentPrice || !t.entryPrice || !level.amount) return null;
  const quantity = Decimal.min(toDecimal(level.amount).minus(level.filled), mark.held);
  if (!quantity.gt(0)) return null;
  return round(
    estimatePartialClosePnl({
      side: t.side,
      quantity,
      averageEntryPrice: t.entryPrice,
      currentPrice: mark.currentPrice,
      takerFeeRate: mark.takerFeeRate,
    }),
    8,
  );
}

export type TradeMarks = ReturnType<typeof createTradeMarks>;

/**
 * Marks the user's open trades at their venue's last price for the answers that show them (issue 21): one
 * ticker read per account and symbol, shared by every answer for `MARK_PRICE_TTL_MS`; a venue that cannot
 * answer leaves its trades unmarked (the answer still goes out).
 */
export function createTradeMarks(deps: {
  repo: Pick<OwnedTradesRepo, 'markInputs'>;
  gateways: GatewayProvider;
  log?: Pick<FastifyBaseLogger, 'warn'>;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const prices = new Map<string, { at: number; price: Promise<string | null> }>();

  function priceOf(account: AccountRow, symbol: string): Promise<string | null> {
    const key = `${account.id}|${account.updatedAt.getTime()}|${symbol}`;
    const hit = prices.get(key);
    if (hit && now() - hit.at < MARK_PRICE_TTL_MS) return hit.price;
    for (const [k, v] of prices) if (now() - v.at >= MARK_PRICE_TTL_MS) prices.delete(k);
    const price = deps.gateways
      .forAccount(account)
      .then((g) => g.fetchTicker(symbol))
      .then((t) => t.last)
      .catch((e: unknown) => {
        deps.log?.warn({ err: e, symbol, exchange: account.exchange }, 'trade marks: no price');
        prices.delete(key);
        return null;
      });
    prices.set(key, { at: now(), price });
    return price;
  }

  return {
    priceOf,
    /** Each active trade of `rows` (the user's) marked, by trade id; ended trades are left out. */
    async marks(userId: string, rows: readonly TradeDbRow[]): Promise<Map<string, TradeMark>> {
      const active = rows.filter((t) => isTradeActive(t.status) && t.entryPrice !== null);
      const out = new Map<string, TradeMark>();
      if (active.length === 0) return out;
      const inputs = await deps.repo.markInputs(
        userId,
        active.map((t) => t.id),
      );
      const byTrade = new Map(inputs.rows.map((r) => [r.tradeId, r]));
      const fillsOf = new Map<string, (typeof inputs.fills)[number][]>();
      for (const f of inputs.fills) fillsOf.set(f.tradeId, [...(fillsOf.get(f.tradeId) ?? []), f]);
      await Promise.all(
        active.map(async (t) => {
          const input = byTrade.get(t.id);
          if (!input) return;
          const held = heldQuantity(t, fillsOf.get(t.id) ?? []);
          const futures = input.account.marketType === 'future';
          const takerFeeRate = takerFeeRateFor(t, input.account.marketType);
          const currentPrice = held.gt(0) ? await priceOf(input.account, t.symbol) : null;
          const leverage =
            futures && input.leveragePercent ? toDecimal(input.leveragePercent).div(100) : null;
          out.set(t.id, {
            fields: markTrade(t, held, currentPrice, { leverage, takerFeeRate }),
            held,
            currentPrice,
            takerFeeRate,
          });
        }),
      );
      return out;
    },
  };
}
