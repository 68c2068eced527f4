import { sha256 } from './sha256';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// 128 bits of the digest: 62^22 > 2^128, so 22 base62 digits always suffice.
const HASH_BYTES = 16;
const HASH_DIGITS = 22;

/** Marks our orders at the venue (and makes the id start with a letter, which some venues require). */
export const CLIENT_ORDER_ID_PREFIX = 'k';

export const CLIENT_ORDER_ID_PATTERN = /^[A-Za-z0-9]{1,32}$/;

function toBase62(bytes: Uint8Array, digits: number): string {
  let value = bytes.reduce((acc, byte) => (acc << 8n) | BigInt(byte), 0n);
  let text = '';
  while (value > 0n) {
    text = BASE62[Number(value % 62n)] + text;
    value /= 62n;
  }
  return text.padStart(digits, '0');
}

/**
 * A 23-character `[A-Za-z0-9]` id derived from any list of parts: `k` + 128 bits of SHA-256 in base62.
 * The parts are JSON-encoded first so `['a:b', 'c']` and `['a', 'b:c']` never collide.
 */
export function deterministicId(parts: readonly (string | number)[]): string {
  const digest = sha256(new TextEncoder().encode(JSON.stringify(parts.map(String))));
  return CLIENT_ORDER_ID_PREFIX + toBase62(digest.subarray(0, HASH_BYTES), HASH_DIGITS);
}

/**
 * The client order id for one order leg of one bot for one alert (DESIGN §5). Deterministic, so the
 * executor persists it before calling the venue and, after a crash or timeout, finds the order by it
 * instead of placing a second one. `leg` is e.g. `open_long`, `close_short`, `tp1`, `stop`.
 */
export function clientOrderId(input: {
  alertId: string | number;
  botId: string | number;
  leg: string;
}): string {
  return deterministicId(['order', input.alertId, input.botId, input.leg]);
}

/**
 * The id of the next attempt of an order whose attempt `previous` ended without doing its job (refused, or
 * lost: the venue never received it). A chain — `id`, `retryClientOrderId(id)`, … — so that whoever
 * retries finds the attempts already made by walking it, and the same attempt is never sent twice.
 */
export function retryClientOrderId(previous: string): string {
  return deterministicId(['retry', previous]);
}

/**
 * The attempts of one order made so far, in order, following the retry chain from `first` through the ids
 * that exist; `next` is the id the next attempt takes.
 */
export function retryChain<T extends { clientOrderId: string }>(
  first: string,
  existing: readonly T[],
): { attempts: T[]; next: string } {
  const byId = new Map(existing.map((o) => [o.clientOrderId, o]));
  const attempts: T[] = [];
  let id = first;
  for (let found = byId.get(id); found; found = byId.get(id)) {
    attempts.push(found);
    id = retryClientOrderId(id);
  }
  return { attempts, next: id };
}

/**
 * Client order id of an order the engine places for a trade (not for an alert): the trade id plus what
 * the order is for — `['tp1', 0]`, `['tp1', 'push']`, `['stop']`, `['complete']`, `['bot-stop']`. Re-running
 * the same step finds the same id, so it is never placed twice.
 */
export function tradeClientOrderId(tradeId: string, ...parts: (string | number)[]): string {
  return deterministicId(['trade', tradeId, ...parts]);
}
