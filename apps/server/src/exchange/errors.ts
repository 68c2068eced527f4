import {
  AuthenticationError,
  BadRequest,
  BadSymbol,
  DDoSProtection,
  ExchangeError as CcxtExchangeError,
  InsufficientFunds,
  InvalidNonce,
  InvalidOrder,
  NetworkError,
  NotSupported,
  OperationFailed,
  OrderNotFound,
  RateLimitExceeded,
} from 'ccxt';
import { apiError, type ApiMessageArgs } from '@kairos/contract';
import type { ErrorParams } from '@kairos/core';

/**
 * The few errors the rest of Kairos sees from a venue. ccxt's ~40 classes are translated once, at the edge
 * (`translateCcxtError`); nothing outside `exchange/` imports ccxt errors.
 */
export type ExchangeErrorCode =
  | 'RETRYABLE'
  | 'RATE_LIMITED'
  | 'INVALID_ORDER'
  | 'UNKNOWN_SYMBOL'
  | 'INSUFFICIENT_FUNDS'
  | 'AUTHENTICATION'
  | 'UNKNOWN_OUTCOME'
  | 'ORDER_NOT_FOUND'
  | 'UNSUPPORTED'
  | 'VENUE_ERROR';

export interface ExchangeErrorOptions {
  cause?: unknown;
  /** For words of our own (the paper venue, the gateway): what the catalog says them with (`venueWords`). */
  params?: ErrorParams;
}

export abstract class ExchangeGatewayError extends Error {
  abstract readonly code: ExchangeErrorCode;
  readonly params?: ErrorParams;
  constructor(message: string, options?: ExchangeErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    if (options?.params) this.params = options.params;
  }
}

/**
 * `[message, { params }]` of a refusal in our own words, from the catalog (the venue's own words are
 * passed on as they are): `new InsufficientFundsError(...venueWords('INSUFFICIENT_FUNDS', { … }))`.
 */
export function venueWords<C extends ExchangeErrorCode>(
  code: C,
  ...params: ApiMessageArgs<C>
): [message: string, options: ExchangeErrorOptions] {
  const [, message, values] = apiError(code, ...params);
  return [message, { params: values }];
}

/** Transient (network, venue overloaded, clock skew): the same call may succeed later. */
export class RetryableExchangeError extends ExchangeGatewayError {
  readonly code: ExchangeErrorCode = 'RETRYABLE';
}

/** The venue refused a signed request for its timestamp (host clock off by more than the receive window). */
export class ClockSkewError extends RetryableExchangeError {}

/** The venue (or our own venue throttle) asked us to slow down. */
export class RateLimitedError extends RetryableExchangeError {
  override readonly code: ExchangeErrorCode = 'RATE_LIMITED';
  constructor(
    message: string,
    /** How long the venue asked us to wait (Retry-After), when it said so. */
    readonly retryAfterMs: number | null,
    options?: ExchangeErrorOptions,
  ) {
    super(message, options);
  }
}

/** The venue refused the order itself (size, price, filters, reduce-only, duplicate id…). */
export class InvalidOrderError extends ExchangeGatewayError {
  readonly code: ExchangeErrorCode = 'INVALID_ORDER';
}

export class UnknownSymbolError extends InvalidOrderError {
  override readonly code: ExchangeErrorCode = 'UNKNOWN_SYMBOL';
}

export class InsufficientFundsError extends ExchangeGatewayError {
  readonly code: ExchangeErrorCode = 'INSUFFICIENT_FUNDS';
}

/** Bad key, bad signature, missing permission, IP not whitelisted. */
export class ExchangeAuthenticationError extends ExchangeGatewayError {
  readonly code: ExchangeErrorCode = 'AUTHENTICATION';
}

/**
 * An order-changing request may or may not have reached the venue (timeout, connection reset, "execution
 * status unknown"). Never "failed": the caller settles it by looking the order up by client order id.
 */
export class UnknownOutcomeError extends ExchangeGatewayError {
  readonly code: ExchangeErrorCode = 'UNKNOWN_OUTCOME';
}

export class OrderNotFoundError extends ExchangeGatewayError {
  readonly code: ExchangeErrorCode = 'ORDER_NOT_FOUND';
}

/** The venue (or this account's market type) does not offer that operation. */
export class UnsupportedOperationError extends ExchangeGatewayError {
  readonly code: ExchangeErrorCode = 'UNSUPPORTED';
}

/** Any other refusal from the venue; not retried. */
export class VenueError extends ExchangeGatewayError {
  readonly code: ExchangeErrorCode = 'VENUE_ERROR';
}

export interface TranslateOptions {
  /**
   * True for calls that change state (create/cancel). A transport failure after sending then means "unknown
   * outcome" instead of "retryable", and a plain venue refusal means the order was rejected.
   */
  mutation?: boolean;
  /** Pause the venue asked for, when the response carried a Retry-After. */
  retryAfterMs?: number | null;
  /**
   * The venue's own code for a timestamp outside its receive window, read besides ccxt's class: ccxt picks
   * some error tables by the venue's real host, so against another URL the refusal can arrive as a plain
   * ExchangeError.
   */
  clockSkew?: RegExp;
}

/** Maps a ccxt error to a domain error. Errors that are not ccxt's (our own bugs) are returned unchanged. */
export function translateCcxtError(error: unknown, options: TranslateOptions = {}): Error {
  if (error instanceof ExchangeGatewayError) return error;
  if (!(error instanceof Error)) return new VenueError(String(error));
  const message = error.message;
  const cause = { cause: error };
  const mutation = options.mutation === true;

  // Order matters: ccxt's classes nest (OrderNotFound ⊂ InvalidOrder, RateLimitExceeded ⊂ NetworkError…).
  if (error instanceof RateLimitExceeded || error instanceof DDoSProtection) {
    // A 429/418 is an answer: the request was refused, so even an order can be sent again.
    return new RateLimitedError(message, options.retryAfterMs ?? null, cause);
  }
  if (error instanceof InvalidNonce || options.clockSkew?.test(message)) {
    // Timestamp outside the receive window: refused before execution.
    return new ClockSkewError(message, cause);
  }
  if (error instanceof NetworkError) {
    return mutation ? new UnknownOutcomeError(message, cause) : new RetryableExchangeError(message, cause);
  }
  if (error instanceof OperationFailed) {
    // BadResponse, "execution status unknown" (-1006/-1007), internal errors.
    return mutation ? new UnknownOutcomeError(message, cause) : new RetryableExchangeError(message, cause);
  }
  if (error instanceof AuthenticationError) return new ExchangeAuthenticationError(message, cause);
  if (error instanceof InsufficientFunds) return new InsufficientFundsError(message, cause);
  if (error instanceof OrderNotFound) return new OrderNotFoundError(message, cause);
  if (error instanceof BadSymbol) return new UnknownSymbolError(message, cause);
  if (error instanceof InvalidOrder) return new InvalidOrderError(message, cause);
  if (error instanceof NotSupported) return new UnsupportedOperationError(message, cause);
  if (error instanceof BadRequest) {
    return mutation ? new InvalidOrderError(message, cause) : new VenueError(message, cause);
  }
  if (error instanceof CcxtExchangeError) {
    // The venue answered with an error body: nothing was executed.
    return mutation ? new InvalidOrderError(message, cause) : new VenueError(message, cause);
  }
  return error;
}

export interface RetryOptions {
  /** Attempts after the first one. */
  retries: number;
  baseMs: number;
  maxMs: number;
  /** Injected for tests; defaults to Math.random. */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  onRetry?: (error: RetryableExchangeError, attempt: number, delayMs: number) => void;
}

export const DEFAULT_READ_RETRY: RetryOptions = { retries: 2, baseMs: 250, maxMs: 4_000 };

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Exponential backoff with "equal jitter": half fixed, half random, capped at maxMs. */
export function backoffDelay(attempt: number, options: Pick<RetryOptions, 'baseMs' | 'maxMs' | 'random'>) {
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** attempt);
  const random = options.random ?? Math.random;
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * Runs `fn`, retrying only `RetryableExchangeError`s (rate limits included) with backoff. A venue's
 * Retry-After is a floor for the delay (and one longer than `maxMs` is not waited for). Everything else —
 * unknown outcomes above all — is thrown at once.
 */
export async function withRetry<T>(fn: () => Promise<T>, options: RetryOptions): Promise<T> {
  const sleep = options.sleep ?? defaultSleep;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (!(error instanceof RetryableExchangeError) || attempt >= options.retries) throw error;
      const retryAfter = error instanceof RateLimitedError ? error.retryAfterMs : null;
      // A ban longer than we are willing to wait (418 for minutes) goes back to the caller.
      if (retryAfter !== null && retryAfter > options.maxMs) throw error;
      const delay = Math.max(retryAfter ?? 0, backoffDelay(attempt, options));
      options.onRetry?.(error, attempt + 1, delay);
      await sleep(delay);
    }
  }
}
