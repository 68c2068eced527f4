import { capabilitiesFor } from '../../exchange/capabilities';
import {
  ExchangeAuthenticationError,
  ExchangeGatewayError,
  RateLimitedError,
  RetryableExchangeError,
  UnknownOutcomeError,
} from '../../exchange/errors';
import { DomainRuleError } from '../../lib/errors';
import { codedError, venueCallError, type LastError } from '../../engine/last-error';

/**
 * What failed a balance refresh of an account on `exchangeId`, as the account keeps it (issue 21): the venue
 * refused the key, asked for a pause, could not be reached, refused otherwise; the gateway's own refusal in its
 * own words (a venue or market it cannot trade); the keys did not open; or anything else, its text as it came.
 */
export function refreshError(exchangeId: string, error: unknown): LastError {
  const exchange = capabilitiesFor(exchangeId).displayName;
  const reason = error instanceof Error ? error.message : String(error);
  // A rule of ours, with its code and params.
  if (error instanceof DomainRuleError) return venueCallError(error);
  if (error instanceof RateLimitedError)
    return error.retryAfterMs
      ? codedError('EXCHANGE_RATE_LIMITED', {
          variant: 'wait',
          exchange,
          seconds: Math.max(1, Math.ceil(error.retryAfterMs / 1000)),
        })
      : codedError('EXCHANGE_RATE_LIMITED', { exchange });
  if (error instanceof ExchangeAuthenticationError)
    return codedError('EXCHANGE_AUTH_FAILED', { exchange, reason });
  // The gateway's own refusal in its own words, with its code and params.
  if (error instanceof ExchangeGatewayError && error.params) return venueCallError(error);
  if (error instanceof RetryableExchangeError || error instanceof UnknownOutcomeError)
    return codedError('EXCHANGE_UNAVAILABLE', { exchange, reason });
  if (error instanceof ExchangeGatewayError) return codedError('EXCHANGE_REFUSED', { exchange, reason });
  return codedError('BALANCE_REFRESH_FAILED', { reason });
}
