import { apiError, type ApiMessageArgs, type ApiMessageCode } from '@kairos/contract';
import type { ErrorParams } from '@kairos/core';
import { capabilitiesFor } from '../../exchange/capabilities';
import {
  ExchangeAuthenticationError,
  ExchangeGatewayError,
  RateLimitedError,
  RetryableExchangeError,
  UnknownOutcomeError,
} from '../../exchange/errors';
import { DomainRuleError } from '../../lib/errors';

/** Why an account's last balance refresh failed: the English, and the code and params the web says it from. */
export type AccountError = {
  lastError: string;
  lastErrorCode: string;
  lastErrorParams: ErrorParams | null;
};

/** No error: what a refresh that worked (or keys just verified) writes. */
export const NO_ACCOUNT_ERROR = { lastError: null, lastErrorCode: null, lastErrorParams: null } as const;

function coded<C extends ApiMessageCode>(code: C, ...[params]: ApiMessageArgs<C>): AccountError {
  const [lastErrorCode, lastError, lastErrorParams] = apiError(code, ...([params] as ApiMessageArgs<C>));
  return { lastError, lastErrorCode, lastErrorParams: lastErrorParams ?? null };
}

/**
 * What failed a balance refresh of an account on `exchangeId`, as the account keeps it (issue 21): the venue
 * refused the key, asked for a pause, could not be reached, refused otherwise; the gateway's own refusal in its
 * own words (a venue or market it cannot trade); the keys did not open; or anything else, its text as it came.
 */
export function refreshError(exchangeId: string, error: unknown): AccountError {
  const exchange = capabilitiesFor(exchangeId).displayName;
  const reason = error instanceof Error ? error.message : String(error);
  if (error instanceof DomainRuleError)
    return { lastError: error.message, lastErrorCode: error.code, lastErrorParams: error.params ?? null };
  if (error instanceof RateLimitedError)
    return error.retryAfterMs
      ? coded('EXCHANGE_RATE_LIMITED', {
          variant: 'wait',
          exchange,
          seconds: Math.max(1, Math.ceil(error.retryAfterMs / 1000)),
        })
      : coded('EXCHANGE_RATE_LIMITED', { exchange });
  if (error instanceof ExchangeAuthenticationError)
    return coded('EXCHANGE_AUTH_FAILED', { exchange, reason });
  if (error instanceof ExchangeGatewayError && error.params)
    return { lastError: error.message, lastErrorCode: error.code, lastErrorParams: error.params };
  if (error instanceof RetryableExchangeError || error instanceof UnknownOutcomeError)
    return coded('EXCHANGE_UNAVAILABLE', { exchange, reason });
  if (error instanceof ExchangeGatewayError) return coded('EXCHANGE_REFUSED', { exchange, reason });
  return coded('BALANCE_REFRESH_FAILED', { reason });
}
