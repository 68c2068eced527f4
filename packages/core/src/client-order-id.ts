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
