/**
 * A bare ccxt instance (no Kairos gateway) talking to a venue protocol test server, for what Kairos does not
 * read yet (funding) — TEST CODE ONLY. Configured as CcxtGateway configures a futures account: the
 * capability table's options, the futures markets only, no currencies, and every `urls.api` entry moved to
 * the server's origin.
 */
import ccxt from 'ccxt';
import type { Exchange } from 'ccxt';
import { capabilitiesFor } from '../../src/exchange/capabilities';

/** Every URL of a (flat or nested) `urls.api` with its scheme and host replaced by `origin`. */
function relocate(api: unknown, origin: string): unknown {
  if (typeof api === 'string') return api.replace(/^[a-z]+:\/\/[^/]+/i, origin);
  if (api && typeof api === 'object') {
    return Object.fromEntries(Object.entries(api).map(([key, value]) => [key, relocate(value, origin)]));
  }
  return api;
}

export function futuresCcxtAt(
  exchangeId: 'binanceusdm' | 'binance' | 'bybit' | 'okx',
  origin: string,
  keys: { apiKey: string; secret: string; password?: string },
): Exchange {
  const capabilities = capabilitiesFor(exchangeId);
  const types = capabilities.fetchMarketsTypes.future;
  const ExchangeClass = (
    ccxt as unknown as Record<string, new (config: Record<string, unknown>) => Exchange>
  )[exchangeId]!;
  const exchange = new ExchangeClass({
    ...keys,
    enableRateLimit: false,
    options: {
      ...capabilities.options,
      fetchCurrencies: false,
      fetchMargins: false,
      ...(types ? { fetchMarkets: { types } } : {}),
      defaultType: capabilities.defaultType.future,
    },
  });
  exchange.urls['api'] = relocate(exchange.urls['api'], origin) as typeof exchange.urls.api;
  // The gateway never loads currencies (it fetches and sets the markets only); nor does this client.
  exchange.has['fetchCurrencies'] = false;
  return exchange;
}
