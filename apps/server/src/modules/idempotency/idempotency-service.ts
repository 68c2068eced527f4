import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { apiError } from '@kairos/contract';
import { ConflictError, DomainRuleError, ValidationError } from '../../lib/errors';
import type { Sealer } from '../../lib/crypto';
import { keptAnswerAt, type IdempotencyRepo, type IdempotencyRequest } from './idempotency-repo';

/** 1 to 200 printable ASCII characters (a UUID, a ULID, any client's own scheme). */
const KEY_SHAPE = /^[\x20-\x7e]{1,200}$/;

/** What a request with a key is to do: run its handler (the key is now its own), or answer as stored. */
export type IdempotencyStart =
  { kind: 'run'; request: IdempotencyRequest } | { kind: 'replay'; statusCode: number; body: string };

/** A value with its object keys in order: two bodies that differ only in key order hash the same. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

export function requestHash(body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(body ?? null)))
    .digest('hex');
}

/** The header's value if it is a well-formed key; a 400 otherwise. */
export function parseIdempotencyKey(header: string | string[]): string {
  if (typeof header !== 'string' || !KEY_SHAPE.test(header)) {
    throw new ValidationError(...apiError('VALIDATION_ERROR', { variant: 'idempotencyKey' }));
  }
  return header;
}

/** Answers that are kept for the key: not a server failure, nor "too many requests" (both worth a retry). */
export function isStorable(statusCode: number): boolean {
  return statusCode < 500 && statusCode !== 429;
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;

/**
 * `Idempotency-Key` (issue 21): a request a client sends twice with one key (a double click, a retry after
 * a lost answer) runs once; the repeat gets the first answer. Answers are kept sealed (they may carry a
 * webhook secret) for 24 h.
 */
export function createIdempotencyService(deps: {
  repo: IdempotencyRepo;
  sealer: Sealer;
  /** How long a repeat waits for the first request's answer before a 409 (ms). */
  waitMs?: number;
  pollMs?: number;
}) {
  const { repo, sealer } = deps;
  const waitMs = deps.waitMs ?? 800;
  const pollMs = deps.pollMs ?? 40;

  return {
    async begin(request: IdempotencyRequest): Promise<IdempotencyStart> {
      const deadline = Date.now() + waitMs;
      for (;;) {
        if (await repo.claim(request)) return { kind: 'run', request };
        const stored = await repo.find(request.userId, request.key);
        // Gone between the two reads (its request failed and gave it back, or it expired): claim again.
        if (!stored && Date.now() < deadline) continue;
        if (!stored) throw new ConflictError(...apiError('IDEMPOTENCY_IN_FLIGHT'));
        if (
          stored.method !== request.method ||
          stored.path !== request.path ||
          stored.requestHash !== request.requestHash
        ) {
          throw new DomainRuleError(...apiError('IDEMPOTENCY_KEY_REUSED'));
        }
        if (stored.statusCode !== null) {
          const sealed = (stored.response as { sealed?: unknown } | null)?.sealed;
          return {
            kind: 'replay',
            statusCode: stored.statusCode,
            body:
              typeof sealed === 'string'
                ? sealer.open(sealed, keptAnswerAt(request.userId, request.key))
                : '',
          };
        }
        if (Date.now() >= deadline) throw new ConflictError(...apiError('IDEMPOTENCY_IN_FLIGHT'));
        await sleep(pollMs);
      }
    },

    /** The claimed request's answer: kept for its repeats, or, not storable, the key given back. */
    async finish(request: IdempotencyRequest, statusCode: number, body: string | undefined): Promise<void> {
      if (body === undefined || !isStorable(statusCode)) {
        await repo.release(request.userId, request.key);
        return;
      }
      await repo.complete(request.userId, request.key, statusCode, {
        sealed: sealer.seal(body, keptAnswerAt(request.userId, request.key)),
      });
    },
  };
}
