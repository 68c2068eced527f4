import { parseSymbol, toDecimal, toNumericString } from '@kairos/core';
import type { ExchangeGateway, Fill } from '../exchange/gateway';

/** A fee currency's quote price, by currency; a currency the venue could not price is left out. */
export type FeeRates = Readonly<Record<string, string>>;

/**
 * The quote price of every fee currency in `fills` that is neither the market's base nor its quote (BNB on a
 * Binance account that pays fees with it), read from the venue's ticker as the fills are stored (issue 19):
 * the rate each such fee is booked at. A pair the venue does not list is priced through USDT; a currency it
 * cannot price at all is left out (the fee stays unconverted and is reported, never guessed).
 */
export async function feeRatesOf(
  gateway: ExchangeGateway,
  symbol: string,
  fills: readonly Fill[],
): Promise<FeeRates> {
  const { base, quote } = parseSymbol(symbol);
  const currencies = new Set(
    fills
      .filter(
        (f) =>
          f.feeCurrency && f.feeCurrency !== base && f.feeCurrency !== quote && toDecimal(f.fee ?? 0).gt(0),
      )
      .map((f) => f.feeCurrency!),
  );
  if (currencies.size === 0) return {};
  const rates: Record<string, string> = {};
  for (const currency of currencies) {
    const rate = await priceIn(gateway, currency, quote).catch(() => null);
    if (rate) rates[currency] = rate;
  }
  return rates;
}

/** The last price of `currency` in `quote` on the venue: its own pair, else through USDT. */
async function priceIn(gateway: ExchangeGateway, currency: string, quote: string): Promise<string | null> {
  const markets = await gateway.listMarkets();
  const last = async (base: string, of: string) => {
    const market = markets.find((m) => m.base === base && m.quote === of);
    if (!market) return null;
    const ticker = await gateway.fetchTicker(market.symbol);
    return ticker.last && toDecimal(ticker.last).gt(0) ? toDecimal(ticker.last) : null;
  };
  const direct = await last(currency, quote);
  if (direct) return toNumericString(direct);
  if (quote === 'USDT') return null;
  const [inUsdt, quoteInUsdt] = [await last(currency, 'USDT'), await last(quote, 'USDT')];
  return inUsdt && quoteInUsdt ? toNumericString(inUsdt.div(quoteInUsdt)) : null;
}
