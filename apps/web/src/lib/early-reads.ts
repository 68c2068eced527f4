/**
 * Answers index.html asked for before the app's scripts ran (app/early-reads.ts): the inline script leaves them in
 * `window.__kairosEarlyReads`. The API client takes one instead of sending the same GET again — once, with the
 * session it was asked with, within a few seconds of the page's start; anything else is asked for anew.
 */
export const EARLY_READS_GLOBAL = '__kairosEarlyReads';
/** An answer older than this (from the page's start) is not taken: the screen asks for fresh figures. */
export const EARLY_READ_MAX_AGE_MS = 10_000;

export interface EarlyReads {
  /** The session token the reads were sent with. */
  token: string;
  /** `Date.now()` when they were sent. */
  at: number;
  reads: Record<string, Promise<Response>>;
}

function earlyReads(): EarlyReads | undefined {
  const value = (globalThis as Record<string, unknown>)[EARLY_READS_GLOBAL];
  return typeof value === 'object' && value !== null ? (value as EarlyReads) : undefined;
}

/**
 * The early answer to `GET url` sent with `token`, taken (a second call gets nothing), or undefined. A read
 * that failed resolves to undefined too, so the caller sends its own.
 */
export function takeEarlyRead(url: string, token: string | null): Promise<Response | undefined> | undefined {
  const early = earlyReads();
  const read = early?.reads[url];
  if (!early || !read) return undefined;
  delete early.reads[url];
  if (token === null || early.token !== token || Date.now() - early.at > EARLY_READ_MAX_AGE_MS) {
    read.catch(() => undefined);
    return undefined;
  }
  return read.then(
    (response) => response,
    () => undefined,
  );
}
