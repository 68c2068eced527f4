/** An HTTP failure with the message the user should read (spec §8). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly body: unknown;
  /** From a 429's Retry-After header: how long before trying again is worth it. */
  readonly retryAfterSeconds: number | undefined;

  constructor(message: string, status: number, body: unknown, retryAfterSeconds?: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.retryAfterSeconds = retryAfterSeconds;
    const error = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
    this.code = typeof error === 'string' ? error : undefined;
  }
}
