import { apiError, type ApiMessageArgs, type ApiMessageCode, type ApiParams } from '@kairos/contract';
import { DomainRuleError, type ErrorParams } from '@kairos/core';
import { ExchangeGatewayError } from '../exchange/errors';
import type { OrderRow } from './trades-repo';

/**
 * A row's last error as it keeps it (issue 21) — an order's or a venue stop's (why it is not as it was sent), a
 * trading account's (why its last balance refresh failed): the English, and the code and params
 * (`API_MESSAGES`) the web says it from in the user's language.
 */
export type LastError = {
  lastError: string;
  lastErrorCode: string;
  lastErrorParams: ErrorParams | null;
};

/** No error: what a venue's answer, a row about to be sent again, or a refresh that worked writes. */
export const NO_LAST_ERROR = { lastError: null, lastErrorCode: null, lastErrorParams: null } as const;

/** One of the server's own sentences, by its catalogue code. */
export function codedError<C extends ApiMessageCode>(code: C, ...[params]: ApiMessageArgs<C>): LastError {
  const [lastErrorCode, lastError, lastErrorParams] = apiError(code, ...([params] as ApiMessageArgs<C>));
  return { lastError, lastErrorCode, lastErrorParams: lastErrorParams ?? null };
}

/**
 * What a venue call threw, as the order or stop keeps it: the venue's refusal with its code (its own words as
 * `reason`, or the params of words of ours, the paper venue's), a rule of ours with its code and params, and
 * anything else as ORDER_FAILED with its text. The English is the error's message, as it always was.
 */
export function venueCallError(error: unknown): LastError {
  const lastError = error instanceof Error ? error.message : String(error);
  if (error instanceof ExchangeGatewayError)
    return { lastError, lastErrorCode: error.code, lastErrorParams: error.params ?? { reason: lastError } };
  if (error instanceof DomainRuleError)
    return { lastError, lastErrorCode: error.code, lastErrorParams: error.params ?? null };
  return { lastError, lastErrorCode: 'ORDER_FAILED', lastErrorParams: { reason: lastError } };
}

/** A refusal said inside another message (`nestedParams`): its English, and its code and params if it has them. */
export type Refusal = { message: string; code?: string; params?: ApiParams };

/**
 * A refusal said inside another message (PUSH_FAILED's and COMPLETE_FAILED's `error`, through `nestedParams`): its
 * words, and its code and params when it is a venue's refusal or a rule of ours.
 */
export function innerRefusal(e: unknown): Refusal {
  if (e instanceof DomainRuleError || e instanceof ExchangeGatewayError)
    return { message: e.message, code: e.code, params: e.params };
  return { message: e instanceof Error ? e.message : String(e) };
}

/**
 * A refused order's last error as a refusal said inside another one (`nestedParams`: ORDER_REJECTED's
 * `reason`, PUSH_FAILED's `error`): its English, and the code and params its row keeps (issue 21), so the web
 * says the venue's refusal in the user's language. None when the row keeps no error.
 */
export function orderRefusal(
  order: Pick<OrderRow, 'lastError' | 'lastErrorCode' | 'lastErrorParams'>,
): Refusal | undefined {
  if (!order.lastError) return undefined;
  return {
    message: order.lastError,
    ...(order.lastErrorCode ? { code: order.lastErrorCode } : {}),
    ...(order.lastErrorParams ? { params: order.lastErrorParams } : {}),
  };
}
