import type { TFunction } from 'i18next';
import { ApiError } from '../../../lib/api-error';
import { translateTradeMessage } from './trade-messages';

/** What came of pushing a take-profit level to market, in the terms of spec §8. */
export type PushOutcome =
  | { kind: 'success'; name: string; orderId: string }
  | { kind: 'waiting'; name: string; previousName: string }
  | { kind: 'notAvailable'; name: string }
  | { kind: 'failedWith'; name: string; error: string }
  | { kind: 'failed' }
  | { kind: 'network' };

const WAITING = /^Waiting for (\S+) to be filled first$/;
const NOT_AVAILABLE = /^(\S+) is not available to push$/;
const FAILED_WITH = /^Failed to push (\S+): ([\s\S]+)$/;
const ORDER_ID = /Order ID: (\S+)\s*$/;
const NO_REASON = /^HTTP error! status: \d{3}$/;

/** Reads a success body; the order id from `results`, else from the message the server wrote. */
export function pushSuccessOutcome(
  body: { results?: { orderId?: string | null; name?: string } | null; message?: string } | null,
  name: string,
): PushOutcome {
  const orderId = body?.results?.orderId ?? ORDER_ID.exec(body?.message ?? '')?.[1] ?? '';
  return { kind: 'success', name: body?.results?.name ?? name, orderId };
}

/**
 * Sorts a failure into the spec's messages: the server's rule ('Waiting for TP1 to be filled first',
 * 'TP2 is not available to push'), a venue refusal with its reason, no answer at all (network), or a
 * failure that gave no reason.
 */
export function pushFailureOutcome(error: unknown, name: string): PushOutcome {
  if (error instanceof ApiError) {
    const message = error.message.trim();
    const waiting = WAITING.exec(message);
    if (waiting?.[1]) return { kind: 'waiting', name, previousName: waiting[1] };
    const unavailable = NOT_AVAILABLE.exec(message);
    if (unavailable?.[1]) return { kind: 'notAvailable', name: unavailable[1] };
    const failed = FAILED_WITH.exec(message);
    if (failed?.[1] && failed[2]) return { kind: 'failedWith', name: failed[1], error: failed[2] };
    if (!message || NO_REASON.test(message) || message === 'Request failed') return { kind: 'failed' };
    return { kind: 'failedWith', name, error: message };
  }
  // fetch rejects with a TypeError when no answer came back at all.
  if (error instanceof TypeError) return { kind: 'network' };
  return { kind: 'failed' };
}

/** The sentence the user reads (spec §8 word for word in English, translated in French). */
export function pushMessage(t: TFunction, outcome: PushOutcome): string {
  switch (outcome.kind) {
    case 'success':
      return t('trades.push.success', { name: outcome.name, orderId: outcome.orderId });
    case 'waiting':
      return t('trades.push.waiting', { previousName: outcome.previousName });
    case 'notAvailable':
      return t('trades.push.notAvailable', { name: outcome.name });
    case 'failedWith':
      return t('trades.push.failedWith', {
        name: outcome.name,
        error: translateTradeMessage(t, outcome.error),
      });
    case 'network':
      return t('trades.push.network');
    case 'failed':
      return t('trades.push.failed');
  }
}
