import { useSyncExternalStore } from 'react';
import type { RouteObject } from 'react-router';

/**
 * A screen's code that fails to load (issue 21) is one of two things: the server cannot be reached (an outage,
 * the network), so the import is tried again with backoff while a notice says so; or the server now runs
 * another build, whose files replaced this tab's, so the user is told to reload. `dist/build.json` is the
 * build the server serves now; the `kairos-build` meta of index.html is the build this tab runs
 * (both written by the build, vite-plugins.ts).
 */
export type ChunkFailureCause = 'unreachable' | 'newVersion' | 'other';

/** The screen's code belongs to a build the server no longer serves. */
export class NewVersionError extends Error {
  constructor() {
    super('A new version of Kairos is available');
  }
}

export const isChunkLoadError = (error: unknown): boolean =>
  error instanceof Error &&
  /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(
    error.message,
  );

const runningBuild = () =>
  document.querySelector<HTMLMetaElement>('meta[name="kairos-build"]')?.content || undefined;

/** Asks the server which build it serves: no answer (or a gateway's 502–504) means it cannot be reached. */
export async function chunkFailureCause(): Promise<ChunkFailureCause> {
  let response: Response;
  try {
    response = await fetch('/build.json', { cache: 'no-store', headers: { Accept: 'application/json' } });
  } catch {
    return 'unreachable';
  }
  if (response.status >= 502 && response.status <= 504) return 'unreachable';
  const served = response.ok
    ? ((await response.json().catch(() => ({}))) as { buildId?: unknown }).buildId
    : undefined;
  const running = runningBuild();
  return typeof served === 'string' && running && served !== running ? 'newVersion' : 'other';
}

// Whether a screen is waiting for the server to answer again (the notice of the root layout).
let unreachable = false;
const listeners = new Set<() => void>();
function setUnreachable(value: boolean) {
  if (unreachable === value) return;
  unreachable = value;
  listeners.forEach((listener) => listener());
}
export function useServerUnreachable(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => unreachable,
  );
}

/** 1 s, 2 s, 4 s… up to 30 s between tries. */
export const retryDelay = (attempt: number) => Math.min(30_000, 1_000 * 2 ** attempt);

/** Tries a failed load again this many times while the server answers with the same build. */
const RETRIES_WHILE_REACHABLE = 2;

/**
 * `load`, tried again while the server cannot be reached (for as long as the outage lasts). Refuses with
 * NewVersionError when the server serves another build, and with the load's own error when the server
 * answers with this build and the load still fails.
 */
export function withChunkRecovery<T>(
  load: () => Promise<T>,
  wait: (ms: number) => Promise<unknown> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): () => Promise<T> {
  return async () => {
    for (let attempt = 0, reachableFailures = 0; ; attempt += 1) {
      try {
        const loaded = await load();
        setUnreachable(false);
        return loaded;
      } catch (error) {
        const cause = isChunkLoadError(error) ? await chunkFailureCause() : undefined;
        setUnreachable(cause === 'unreachable');
        if (cause === 'newVersion') throw new NewVersionError();
        if (cause === undefined || (cause === 'other' && ++reachableFailures > RETRIES_WHILE_REACHABLE)) {
          throw error;
        }
        await wait(retryDelay(attempt));
      }
    }
  };
}

/** Every lazy screen of `routes`, loaded with chunk recovery. */
export function recoverChunks(routes: RouteObject[]): RouteObject[] {
  return routes.map((route) => ({
    ...route,
    ...(typeof route.lazy === 'function' && { lazy: withChunkRecovery(route.lazy) }),
    ...(route.children && { children: recoverChunks(route.children) }),
  })) as RouteObject[];
}
