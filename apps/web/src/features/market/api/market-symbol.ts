/** 'BTC/USDT' (bodies, ccxt) → 'BTC-USDT' (paths, DESIGN §2). */
export function symbolPath(symbol: string): string {
  return encodeURIComponent(symbol.split(':')[0]!.replace('/', '-'));
}

/** 'BTC-USDT' (a URL) → 'BTC/USDT'; anything else unchanged. */
export function symbolFromPath(value: string): string {
  return value.includes('/') ? value.toUpperCase() : value.replace('-', '/').toUpperCase();
}
