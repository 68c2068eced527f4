import { decimalText, TAKE_PROFIT_ROLE } from '@kairos/contract';
import type { TFunction } from 'i18next';

/** "BTC/USDT" → ["BTC", "USDT"]; a futures symbol ("BTC/USDT:USDT") keeps its quote. */
export function splitSymbol(symbol: string): { base: string; quote: string } {
  const [base = '', rest = ''] = symbol.split('/');
  return { base, quote: rest.split(':')[0] ?? '' };
}

/** 'tp2' → 'TP2' (DESIGN §6: the `{name}` of the push messages). */
export function takeProfitName(role: string): string {
  return TAKE_PROFIT_ROLE.test(role) ? role.toUpperCase() : role;
}

/** "2d 4h", "3h 12m", "5m", "40s". */
export function formatDuration(ms: number | null | undefined, t: TFunction): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '—';
  const totalMinutes = Math.floor(ms / 60_000);
  const days = Math.floor(totalMinutes / 1440);
  const hours = Math.floor((totalMinutes % 1440) / 60);
  const minutes = totalMinutes % 60;
  if (days > 0) return t('duration.daysHours', { days, hours });
  if (hours > 0) return t('duration.hoursMinutes', { hours, minutes });
  if (totalMinutes > 0) return t('duration.minutes', { minutes });
  return t('trades.duration.seconds', { seconds: Math.floor(ms / 1000) });
}

/** The server's duration once closed; an open trade's runs until `now`. */
export function tradeDurationMs(
  trade: { durationMs: number | null; openedAt: string; closedAt: string | null },
  now = Date.now(),
): number | null {
  if (trade.durationMs !== null) return trade.durationMs;
  const opened = Date.parse(trade.openedAt);
  if (Number.isNaN(opened)) return null;
  const closed = trade.closedAt ? Date.parse(trade.closedAt) : now;
  return Math.max(0, closed - opened);
}

/** A finished trade may be deleted; one still live at the venue may not. */
export function isFinished(status: string): boolean {
  return status === 'closed' || status === 'cancelled' || status === 'error';
}

/** "1,5" (a French keyboard) → "1.5"; the value stays a string, never a float. */
export const toDecimal = decimalText;

/**
 * An open trade whose entry has not filled at all (a resting limit order): an order, not a position yet
 * (issue 21) — nothing held, no entry price, no stop placed.
 */
export function isAwaitingEntry(trade: {
  status: string;
  quantity: string;
  entryPrice: string | null;
}): boolean {
  return trade.status === 'open' && trade.entryPrice === null && Number(trade.quantity) === 0;
}
