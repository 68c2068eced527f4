import { vi } from 'vitest';

export interface RecordedRequest {
  url: string;
  path: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

export type MockReply = { status?: number; body?: unknown; headers?: Record<string, string> } | undefined;

/**
 * Replaces fetch with a handler keyed on "METHOD /path". Unhandled calls answer
 * `{ success: true, results: [] }`, so screens render their empty state.
 */
export function mockFetch(handler: (request: RecordedRequest) => MockReply = () => undefined) {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const headers = Object.fromEntries(
      Object.entries((init.headers ?? {}) as Record<string, string>).map(([name, value]) => [
        name.toLowerCase(),
        value,
      ]),
    );
    const request: RecordedRequest = {
      url,
      path: new URL(url, 'http://localhost').pathname,
      method: init.method ?? 'GET',
      headers,
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    requests.push(request);
    const reply = handler(request) ?? { status: 200, body: { success: true, results: [] } };
    const status = reply.status ?? 200;
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status,
      headers: { 'Content-Type': 'application/json', ...reply.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, requests };
}
