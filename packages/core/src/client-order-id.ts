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

function fromBase62(text: string): bigint | null {
  let value = 0n;
  for (const char of text) {
    const digit = BASE62.indexOf(char);
    if (digit < 0) return null;
    value = value * 62n + BigInt(digit);
  }
  return value;
}

const OUR_ID = new RegExp(`^${CLIENT_ORDER_ID_PREFIX}[0-9A-Za-z]{${HASH_DIGITS}}$`);
const HEX_ID = /^[0-9a-f]{32}$/;

/**
 * One of our ids (`deterministicId`'s form) as 32 lowercase hex digits — the same 128 bits, for venues whose
 * client ids are UUIDs or too short for ours (Kraken: a UUID, or at most 18 characters of text). Null for an
 * id not of our form.
 */
export function clientOrderIdToHex(id: string): string | null {
  if (!OUR_ID.test(id)) return null;
  const value = fromBase62(id.slice(CLIENT_ORDER_ID_PREFIX.length));
  if (value === null || value >= 1n << 128n) return null;
  return value.toString(16).padStart(32, '0');
}

/** The id `clientOrderIdToHex` made these 32 hex digits from; null when `hex` is not 32 hex digits. */
export function clientOrderIdFromHex(hex: string): string | null {
  if (!HEX_ID.test(hex)) return null;
  const bytes = new Uint8Array(HASH_BYTES);
  let value = BigInt(`0x${hex}`);
  for (let i = HASH_BYTES - 1; i >= 0; i--) {
    bytes[i] = Number(value & 0xffn);
    value >>= 8n;
  }
  return CLIENT_ORDER_ID_PREFIX + toBase62(bytes, HASH_DIGITS);
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
