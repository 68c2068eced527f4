import {
  AuthenticationError,
  BadRequest,
  BadSymbol,
  DDoSProtection,
  DuplicateOrderId,
  ExchangeError,
  ExchangeNotAvailable,
  InsufficientFunds,
  InvalidNonce,
  InvalidOrder,
  NetworkError,
  NotSupported,
  OrderNotFound,
  PermissionDenied,
  RateLimitExceeded,
  RequestTimeout,
} from 'ccxt';
import { describe, expect, it, vi } from 'vitest';
import {
  ClockSkewError,
  ExchangeAuthenticationError,
  InsufficientFundsError,
  InvalidOrderError,
  OrderNotFoundError,
  RateLimitedError,
  RetryableExchangeError,
  UnknownOutcomeError,
  UnknownSymbolError,
  UnsupportedOperationError,
  VenueError,
  backoffDelay,
  translateCcxtError,
  withRetry,
} from './errors';

describe('translateCcxtError', () => {
  it.each([
    ['RequestTimeout on a read', new RequestTimeout('t'), false, RetryableExchangeError],
    ['RequestTimeout on an order', new RequestTimeout('t'), true, UnknownOutcomeError],
    ['NetworkError on an order', new NetworkError('reset'), true, UnknownOutcomeError],
    ['ExchangeNotAvailable on a read', new ExchangeNotAvailable('503'), false, RetryableExchangeError],
    ['DDoSProtection (418/429) on an order', new DDoSProtection('429'), true, RateLimitedError],
    ['RateLimitExceeded', new RateLimitExceeded('-1003'), false, RateLimitedError],
    ['InvalidNonce on an order (refused before execution)', new InvalidNonce('-1021'), true, ClockSkewError],
    ['AuthenticationError', new AuthenticationError('-2015'), false, ExchangeAuthenticationError],
    ['PermissionDenied', new PermissionDenied('no trading'), true, ExchangeAuthenticationError],
    ['InsufficientFunds', new InsufficientFunds('-2010'), true, InsufficientFundsError],
    ['OrderNotFound', new OrderNotFound('-2013'), false, OrderNotFoundError],
    ['BadSymbol', new BadSymbol('-1121'), false, UnknownSymbolError],
    ['InvalidOrder', new InvalidOrder('LOT_SIZE'), true, InvalidOrderError],
    ['DuplicateOrderId', new DuplicateOrderId('dup'), true, InvalidOrderError],
    ['NotSupported', new NotSupported('no'), false, UnsupportedOperationError],
    ['BadRequest on an order', new BadRequest('-1013'), true, InvalidOrderError],
    ['BadRequest on a read', new BadRequest('-1100'), false, VenueError],
    ['plain ExchangeError on an order', new ExchangeError('-2022'), true, InvalidOrderError],
  ])('%s', (_label, error, mutation, expected) => {
    const translated = translateCcxtError(error, { mutation });
    expect(translated).toBeInstanceOf(expected);
    expect(translated.cause).toBe(error);
  });

  it("reads a clock-skew refusal by the venue's own code when ccxt gives a plain ExchangeError (local host)", () => {
    const refusal = new ExchangeError(
      'binanceusdm {"code":-1021,"msg":"Timestamp for this request is outside of the recvWindow."}',
    );
    expect(translateCcxtError(refusal, { mutation: true, clockSkew: /"code"\s*:\s*-1021\b/ })).toBeInstanceOf(
      ClockSkewError,
    );
    // Without the venue's code it is a refusal of the order, as before.
    expect(translateCcxtError(refusal, { mutation: true })).toBeInstanceOf(InvalidOrderError);
  });

  it('carries the Retry-After into RateLimitedError', () => {
    const translated = translateCcxtError(new DDoSProtection('429'), { retryAfterMs: 1500 });
    expect((translated as RateLimitedError).retryAfterMs).toBe(1500);
  });

  it('leaves our own errors and programming errors untouched', () => {
    const domain = new InvalidOrderError('x');
    const bug = new TypeError('undefined is not a function');
    expect(translateCcxtError(domain)).toBe(domain);
    expect(translateCcxtError(bug)).toBe(bug);
  });
});

describe('withRetry', () => {
  const noSleep = { sleep: vi.fn(async () => {}), random: () => 0.5 };

  it('retries retryable errors with exponential backoff, then succeeds', async () => {
    const sleep = vi.fn(async (_ms: number) => {});
    let calls = 0;
    const result = await withRetry(
      async () => {
        calls += 1;
        if (calls < 3) throw new RetryableExchangeError('blip');
        return 'ok';
      },
      { retries: 3, baseMs: 100, maxMs: 1_000, sleep, random: () => 1 },
    );
    expect(result).toBe('ok');
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([100, 200]);
  });

  it('waits at least the Retry-After of a rate limit', async () => {
    const sleep = vi.fn(async (_ms: number) => {});
    let calls = 0;
    await withRetry(
      async () => {
        calls += 1;
        if (calls === 1) throw new RateLimitedError('429', 700);
        return 'ok';
      },
      { retries: 1, baseMs: 100, maxMs: 1_000, sleep, random: () => 0 },
    );
    expect(sleep).toHaveBeenCalledWith(700);
  });

  it('gives a ban longer than maxMs back to the caller at once', async () => {
    const ban = new RateLimitedError('418', 120_000);
    await expect(
      withRetry(async () => Promise.reject(ban), { retries: 5, baseMs: 10, maxMs: 1_000, ...noSleep }),
    ).rejects.toBe(ban);
  });

  it('never retries an unknown outcome or a refusal', async () => {
    for (const error of [
      new UnknownOutcomeError('timeout'),
      new InvalidOrderError('no'),
      new InsufficientFundsError('poor'),
    ]) {
      const fn = vi.fn(async () => Promise.reject(error));
      await expect(withRetry(fn, { retries: 5, baseMs: 1, maxMs: 10, ...noSleep })).rejects.toBe(error);
      expect(fn).toHaveBeenCalledTimes(1);
    }
  });

  it('stops after the configured retries', async () => {
    const fn = vi.fn(async () => Promise.reject(new RetryableExchangeError('down')));
    await expect(withRetry(fn, { retries: 2, baseMs: 1, maxMs: 10, ...noSleep })).rejects.toBeInstanceOf(
      RetryableExchangeError,
    );
    expect(fn).toHaveBeenCalledTimes(3);
  });

  it('caps and jitters the backoff', () => {
    expect(backoffDelay(0, { baseMs: 100, maxMs: 1_000, random: () => 0 })).toBe(50);
    expect(backoffDelay(0, { baseMs: 100, maxMs: 1_000, random: () => 1 })).toBe(100);
    expect(backoffDelay(10, { baseMs: 100, maxMs: 1_000, random: () => 1 })).toBe(1_000);
  });
});
