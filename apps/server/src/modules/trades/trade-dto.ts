import type { TradeRow } from '@kairos/contract';
import type { trades } from '../../db/schema/index';

type TradeDbRow = typeof trades.$inferSelect;

export function toTradeRow(t: TradeDbRow): TradeRow {
  return {
    id: t.id,
    botId: t.botId,
    tradingAccountId: t.tradingAccountId,
    symbol: t.symbol,
    side: t.side,
    status: t.status,
    quantity: t.quantity,
    entryPrice: t.entryPrice,
    exitPrice: t.exitPrice,
    pnl: t.realisedPnl,
    pnlPercent: t.pnlPercent,
    commission: t.commission,
    durationMs: t.closedAt ? Math.max(0, t.closedAt.getTime() - t.openedAt.getTime()) : null,
    openedAt: t.openedAt.toISOString(),
    closedAt: t.closedAt?.toISOString() ?? null,
    closeReason: t.closeReason,
    error: t.error,
  };
}
