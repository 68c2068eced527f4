/** An HTTP failure with the message the user should read (spec §8). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly body: unknown;

  constructor(message: string, status: number, body: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    const error = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
    this.code = typeof error === 'string' ? error : undefined;
  }
}
