import { DomainRuleError } from './errors';

export interface ParsedSymbol {
  base: string;
  quote: string;
  /** Settlement currency of a derivative (`BTC/USDT:USDT`); absent on spot. */
  settle?: string;
}

export class InvalidSymbolError extends DomainRuleError {
  constructor(readonly symbol: string) {
    super('INVALID_SYMBOL', `Not a valid market symbol: ${symbol}`, { symbol });
  }
}

const UNIFIED_SYMBOL = /^([A-Za-z0-9]+)\/([A-Za-z0-9]+)(?::([A-Za-z0-9]+))?$/;

/** Splits a ccxt unified symbol (`BTC/USDT`, `BTC/USDT:USDT`) into its currencies. */
export function parseSymbol(symbol: string): ParsedSymbol {
  const match = UNIFIED_SYMBOL.exec(symbol);
  if (!match) throw new InvalidSymbolError(symbol);
  const [, base = '', quote = '', settle] = match;
  return settle === undefined ? { base, quote } : { base, quote, settle };
}

/** `BTC-USDT` → `BTC/USDT`, the unified form used in bodies and with ccxt. */
export function symbolFromPath(pathSymbol: string): string {
  const symbol = pathSymbol.replace('-', '/');
  parseSymbol(symbol);
  return symbol;
}
