import { createHash } from 'node:crypto';
import type { WebhookBody } from '@kairos/contract';

export type NormalizedAction = 'long' | 'short' | 'exit';

/** TradingView sends buy/sell/close as often as long/short/exit. */
export function normalizeAction(action: string): NormalizedAction {
  const a = action.toLowerCase();
  if (a === 'buy' || a === 'long') return 'long';
  if (a === 'sell' || a === 'short') return 'short';
  return 'exit';
}

/** `BTCUSDT`, `btc-usdt`, `BINANCE:BTCUSDT` or `BTC/USDT` → `BTC/USDT`. */
export function normalizeSymbol(raw: string | undefined, tradeCurrency: string, stableCoin: string): string {
  if (!raw) return `${tradeCurrency}/${stableCoin}`;
  let s = raw.trim().toUpperCase();
  if (s.includes(':')) s = s.slice(s.indexOf(':') + 1);
  s = s.replace(/\.P$/, '').replace('-', '/');
  if (s.includes('/')) return s;
  for (const quote of [stableCoin.toUpperCase(), 'USDT', 'USDC', 'USD', 'EUR', 'BTC']) {
    if (s.endsWith(quote) && s.length > quote.length) return `${s.slice(0, -quote.length)}/${quote}`;
  }
  return `${s}/${stableCoin}`;
}

/** Epoch seconds, epoch ms or ISO-8601 → Date; undefined when absent or unreadable. */
export function parseSignalTime(ts: WebhookBody['timestamp']): Date | undefined {
  if (ts === undefined) return undefined;
  if (typeof ts === 'number') return new Date(ts < 1e12 ? ts * 1000 : ts);
  if (/^\d+$/.test(ts)) return parseSignalTime(Number(ts));
  const d = new Date(ts);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/**
 * The client's id when it sends one; otherwise a hash of the signal and the minute it
 * arrived, so TradingView's retries of the same alert collapse into one.
 */
export function dedupeKey(body: WebhookBody, receivedAt: Date): string {
  if (body.id !== undefined) return `id:${String(body.id)}`;
  const { secret: _secret, ...rest } = body;
  const canonical = JSON.stringify(rest, Object.keys(rest).sort());
  const minute = Math.floor(receivedAt.getTime() / 60_000);
  return `h:${createHash('sha256').update(`${canonical}|${minute}`).digest('hex').slice(0, 40)}`;
}
