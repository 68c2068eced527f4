import type { z } from 'zod';
import { env } from '../config/env';
import { loginPathWithRedirect, paths } from '../config/paths';
import { ApiError } from './api-error';
import { takeEarlyRead } from './early-reads';
import { navigateTo } from './navigation';
import { endSession, useSession } from './session-store';

export { ApiError };

export type QueryParams = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  params?: QueryParams;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * The call checks a password or code the user typed (2FA code, current password, reset link):
   * a 401 that names that check is an ordinary error shown on the form, not the end of the session.
   */
  credentialCheck?: boolean;
  /**
   * The `Idempotency-Key` of a write (issue 21): one per user action, so a second send of the same action
   * runs once on the server. Left out, each call gets its own; the client's own resends reuse it.
   */
  idempotencyKey?: string;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/**
 * A write is sent again, with its key, when its answer was lost (the network failed) or while its first
 * send is still running (409 IDEMPOTENCY_IN_FLIGHT): the waits before each resend.
 */
const RESEND_DELAYS_MS = [500, 1500];

/** A random UUID; `crypto.randomUUID` is missing outside secure contexts (a server on plain HTTP). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Sends a write again (same key) after a lost answer or while its first send still runs, when `resend`. `early`:
 * the answer index.html already asked for (lib/early-reads.ts), used instead of a first send when it came.
 */
async function send(
  url: string,
  init: RequestInit,
  resend: boolean,
  early?: Promise<Response | undefined>,
): Promise<[Response, unknown]> {
  for (let attempt = 0; ; attempt++) {
    const last = !resend || attempt >= RESEND_DELAYS_MS.length;
    let response: Response;
    try {
      response = (attempt === 0 && early && (await early)) || (await fetch(url, init));
    } catch (error) {
      if (last || init.signal?.aborted) throw error;
      await wait(RESEND_DELAYS_MS[attempt]!);
      continue;
    }
    const data = await readBody(response);
    const inFlight = response.status === 409 && isRecord(data) && data.error === 'IDEMPOTENCY_IN_FLIGHT';
    if (!inFlight || last) return [response, data];
    await wait(RESEND_DELAYS_MS[attempt]!);
  }
}

/** Server error codes of a failed credential check, as opposed to a missing or revoked session. */
const CREDENTIAL_ERRORS = new Set(['INVALID_CREDENTIALS', 'INVALID_2FA_CODE', 'INVALID_RESET_TOKEN']);

function retryAfterSeconds(response: Response): number | undefined {
  const header = response.headers.get('Retry-After');
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.round((date - Date.now()) / 1000));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function buildUrl(base: string, path: string, params?: QueryParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value !== undefined && value !== null && value !== '') search.append(key, String(value));
  }
  const query = search.toString();
  return `${base}${path.startsWith('/') ? path : `/${path}`}${query ? `?${query}` : ''}`;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Not JSON (a proxy's error page, say): nothing the user should read.
    return null;
  }
}

/** Any response carrying apiToken, at the top level or inside `results`, saves it (spec §7). */
function captureToken(body: unknown): void {
  if (!isRecord(body)) return;
  const token =
    nonEmptyString(body.apiToken) ??
    (isRecord(body.results) ? nonEmptyString(body.results.apiToken) : undefined);
  if (token) useSession.getState().setToken(token);
}

function handleUnauthorized(body: unknown): never {
  const message =
    (isRecord(body) && (nonEmptyString(body.message) ?? nonEmptyString(body.error))) || 'Unauthorized';
  endSession();
  const { pathname, search, hash } = window.location;
  if (pathname !== paths.login) navigateTo(loginPathWithRedirect(`${pathname}${search}${hash}`));
  throw new ApiError(message, 401, body);
}

async function request<T>(
  base: string,
  method: string,
  path: string,
  body: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    ...options.headers,
  };
  const token = useSession.getState().token;
  if (token) headers.Authorization = `Bearer ${token}`;
  const write = WRITES.has(method);
  if (write) headers['Idempotency-Key'] = options.idempotencyKey ?? newIdempotencyKey();

  const url = buildUrl(base, path, options.params);
  const [response, data] = await send(
    url,
    {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: options.signal,
    },
    // The session routes keep no key on the server: a refresh sent twice would revoke the session.
    write && !path.startsWith('/auth/'),
    method === 'GET' ? takeEarlyRead(url, token) : undefined,
  );

  const credentialRefused =
    options.credentialCheck === true && isRecord(data) && CREDENTIAL_ERRORS.has(String(data.error));
  if (response.status === 401 && !credentialRefused) handleUnauthorized(data);
  if (!response.ok) {
    const message =
      (isRecord(data) && nonEmptyString(data.message)) || `HTTP error! status: ${response.status}`;
    throw new ApiError(message, response.status, data, retryAfterSeconds(response));
  }
  captureToken(data);
  return data as T;
}

function createClient(base: () => string) {
  return {
    get: <T>(path: string, options?: RequestOptions) => request<T>(base(), 'GET', path, undefined, options),
    // Every call says it sends JSON (spec §7), so DELETE sends `{}` too: Fastify refuses an empty
    // body announced as application/json with a 400.
    delete: <T>(path: string, options?: RequestOptions) => request<T>(base(), 'DELETE', path, {}, options),
    post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
      request<T>(base(), 'POST', path, body ?? {}, options),
    put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
      request<T>(base(), 'PUT', path, body ?? {}, options),
    patch: <T>(path: string, body?: unknown, options?: RequestOptions) =>
      request<T>(base(), 'PATCH', path, body ?? {}, options),
  };
}

export type ApiClient = ReturnType<typeof createClient>;

/** Main and billing calls (VITE_API_URL). */
export const api = createClient(() => env.VITE_API_URL);
/** The push-to-take-profit host (VITE_TRADE_API_URL). */
export const tradeApi = createClient(() => env.VITE_TRADE_API_URL);

/** The server's success envelope (DESIGN §2). */
export interface ApiEnvelope<T> {
  success: boolean;
  results: T;
  message?: string;
  error?: string;
  total?: number;
  page?: number;
  pageSize?: number;
}

/**
 * Reads `results` from `{ success, results }`; a body without the envelope is returned as is.
 * `success: false` is a failure, said with the server's message or else `failed`.
 */
export function unwrapResults<T>(body: unknown, failed = 'Request failed'): T {
  if (isRecord(body) && 'results' in body) {
    if (body.success === false) {
      throw new ApiError(nonEmptyString(body.message) ?? nonEmptyString(body.error) ?? failed, 200, body);
    }
    return body.results as T;
  }
  return body as T;
}

/** What the user reads when an answer does not have the shape the contract gives it. */
export const INVALID_RESPONSE = 'Invalid response from server';

/**
 * `results` read with the contract's schema for it: what a screen gets is what the contract says the
 * server sends, never fields picked out by hand. An answer that does not fit is refused.
 */
export function parseResults<S extends z.ZodType>(schema: S, body: unknown, failed?: string): z.output<S> {
  return parseWith(schema, unwrapResults<unknown>(body, failed));
}

function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(INVALID_RESPONSE, { cause: parsed.error });
  return parsed.data;
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/**
 * Reads a paged list (`results` array plus `total`, `page`, `pageSize`); with the contract's `item`
 * schema, every row is read with it (see `parseResults`).
 */
export function unwrapPage<T>(
  body: unknown,
  fallback: { page: number; pageSize: number },
  item?: z.ZodType<T>,
): Page<T> {
  const results = unwrapResults<unknown>(body);
  const rows = Array.isArray(results) ? results : [];
  const items = item ? parseWith(item.array(), rows) : (rows as T[]);
  const meta = isRecord(body) ? body : {};
  return {
    items,
    total: typeof meta.total === 'number' ? meta.total : items.length,
    page: typeof meta.page === 'number' ? meta.page : fallback.page,
    pageSize: typeof meta.pageSize === 'number' ? meta.pageSize : fallback.pageSize,
  };
}
