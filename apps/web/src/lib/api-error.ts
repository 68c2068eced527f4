import type { ApiParams } from '@kairos/contract';

/** An HTTP failure with the message the user should read (spec §8). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  /** The values the server built its message from: with `code`, enough to say it in any language. */
  readonly params: ApiParams | undefined;
  readonly body: unknown;
  /** From a 429's Retry-After header: how long before trying again is worth it. */
  readonly retryAfterSeconds: number | undefined;

  constructor(message: string, status: number, body: unknown, retryAfterSeconds?: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.retryAfterSeconds = retryAfterSeconds;
    const envelope =
      typeof body === 'object' && body !== null ? (body as { error?: unknown; params?: unknown }) : {};
    this.code = typeof envelope.error === 'string' ? envelope.error : undefined;
    this.params = isParams(envelope.params) ? envelope.params : undefined;
  }
}

function isParams(value: unknown): value is ApiParams {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === 'string' || typeof v === 'number')
  );
}

/** The client's own words for a failure the server gave no message for (spec §8). */
export const httpErrorMessage = (status: number) => `HTTP error! status: ${status}`;

/** True when the server said nothing the user could read: only the status is known. */
export function isBareHttpError(error: ApiError): boolean {
  return error.message === httpErrorMessage(error.status);
}
