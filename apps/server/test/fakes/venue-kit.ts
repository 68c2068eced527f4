/**
 * What the venue protocol test servers share whatever protocol they speak: a loopback HTTP server, faults
 * injected into the next matching requests, and a price path with its candles — TEST CODE ONLY.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Decimal } from '../../src/exchange/decimal';

/** A fault for the next `remaining` requests that `match`. */
export interface Injection {
  remaining: number;
  match: (method: string, path: string) => boolean;
}

/** Uses up one of the first injection matching the request, if any. */
export function takeInjection<T extends Injection>(list: T[], method: string, path: string): T | undefined {
  const found = list.find((entry) => entry.remaining > 0 && entry.match(method, path));
  if (found) found.remaining -= 1;
  return found;
}

/** A server on 127.0.0.1 on a free port; a handler that throws is answered 500 with `errorBody`. */
export async function listenOnLoopback(
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
  errorBody: (error: unknown) => unknown,
): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify(errorBody(error)));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Stops the server and drops its keep-alive connections. */
export async function closeServer(server: Server): Promise<void> {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

export type PricePoint = { time: number; price: Decimal };

/** The price in force at `time` on a path that starts at time 0. */
export function priceAt(history: PricePoint[], time: number): Decimal {
  let price = history[0]!.price;
  for (const entry of history) {
    if (entry.time > time) break;
    price = entry.price;
  }
  return price;
}

export interface PathCandle {
  openTime: number;
  closeTime: number;
  open: Decimal;
  high: Decimal;
  low: Decimal;
  close: Decimal;
}

/**
 * Candles of `interval` ms on the path, oldest first: from `start` (floored to the interval), else the
 * `limit` last ones up to `end` (default now); never past now.
 */
export function pathCandles(
  history: PricePoint[],
  interval: number,
  options: { start?: number; end?: number; limit: number },
): PathCandle[] {
  const now = Date.now();
  const end = options.end ?? now;
  const start =
    options.start !== undefined
      ? Math.floor(options.start / interval) * interval
      : Math.floor(end / interval) * interval - (options.limit - 1) * interval;
  const candles: PathCandle[] = [];
  for (
    let openTime = start;
    openTime <= Math.min(end, now) && candles.length < options.limit;
    openTime += interval
  ) {
    const closeTime = openTime + interval - 1;
    const open = priceAt(history, openTime);
    const close = priceAt(history, closeTime);
    const inside = history.filter((entry) => entry.time >= openTime && entry.time <= closeTime);
    const prices = [open, ...inside.map((entry) => entry.price), close];
    candles.push({
      openTime,
      closeTime,
      open,
      high: Decimal.max(...prices),
      low: Decimal.min(...prices),
      close,
    });
  }
  return candles;
}
