/** Reading the auth endpoints' bodies: `{ success, results }`, tolerating fields at the top level. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The body's fields merged with those inside `results` (results win). */
export function flattenResults(body: Record<string, unknown>): Record<string, unknown> {
  return isRecord(body.results) ? { ...body, ...body.results } : body;
}
