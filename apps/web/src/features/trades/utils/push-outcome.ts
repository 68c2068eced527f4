import type { ApiParams, PushTakeProfitResponse } from '@kairos/contract';
import type { TFunction } from 'i18next';
import { errorMessage, translateApiMessage } from '../../../i18n/translate-message';
import { ApiError, isBareHttpError } from '../../../lib/api-error';

/** What came of pushing a take-profit level to market, in the terms of spec §8. */
export type PushOutcome =
  /** The server's answer by its code: pushed, waiting for the level below, not available, failed with why. */
  | { kind: 'answer'; code: string; params: ApiParams; message: string }
  /** Another refusal (the trade is gone, a rule): 'Failed to push {name}: {error}'. */
  | { kind: 'refused'; name: string; error: ApiError }
  | { kind: 'failed' }
  | { kind: 'network' };

/** The answer of a push that went through; the order id comes from `results` when params lack it. */
export function pushSuccessOutcome(
  body: Partial<Pick<PushTakeProfitResponse, 'code' | 'params' | 'message'>> & {
    results?: { orderId?: string | null; name?: string } | null;
  },
  name: string,
): PushOutcome {
  const params = body.params ?? { name: body.results?.name ?? name, orderId: body.results?.orderId ?? '' };
  return { kind: 'answer', code: body.code ?? 'TAKE_PROFIT_PUSHED', params, message: body.message ?? '' };
}

/** The push's own refusals, which name their level themselves. */
const PUSH_REFUSALS = new Set(['TAKE_PROFIT_NOT_PUSHABLE', 'PUSH_FAILED']);

/**
 * Sorts a failure into the spec's messages: the push's own refusals ('Waiting for TP1 to be filled
 * first', 'TP2 is not available to push', 'Failed to push TP1: …'), another refusal named after the
 * level, no answer at all (network), or a failure that gave no reason.
 */
export function pushFailureOutcome(error: unknown, name: string): PushOutcome {
  if (error instanceof ApiError) {
    if (error.code && PUSH_REFUSALS.has(error.code)) {
      return { kind: 'answer', code: error.code, params: error.params ?? {}, message: error.message };
    }
    if (!error.message.trim() || isBareHttpError(error) || error.message === 'Request failed') {
      return { kind: 'failed' };
    }
    return { kind: 'refused', name, error };
  }
  // fetch rejects with a TypeError when no answer came back at all.
  if (error instanceof TypeError) return { kind: 'network' };
  return { kind: 'failed' };
}

/** The sentence the user reads (spec §8 word for word in English, translated in French). */
export function pushMessage(t: TFunction, outcome: PushOutcome): string {
  switch (outcome.kind) {
    case 'answer':
      return translateApiMessage(t, outcome.code, outcome.params, outcome.message);
    case 'refused': {
      const error = errorMessage(t, outcome.error);
      return translateApiMessage(t, 'PUSH_FAILED', { name: outcome.name, error }, error);
    }
    case 'network':
      return t('trades.push.network');
    case 'failed':
      return t('trades.push.failed');
  }
}

/** True when the level went to market (or, for a test, could). */
export function isPushSuccess(outcome: PushOutcome): boolean {
  return (
    outcome.kind === 'answer' &&
    (outcome.code === 'TAKE_PROFIT_PUSHED' || outcome.code === 'TAKE_PROFIT_PUSHABLE')
  );
}
