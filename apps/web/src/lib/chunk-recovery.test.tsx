import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  NewVersionError,
  chunkFailureCause,
  retryDelay,
  useServerUnreachable,
  withChunkRecovery,
} from './chunk-recovery';

const chunkError = () =>
  new TypeError('Failed to fetch dynamically imported module: http://localhost/assets/trades-abc.js');

function serverServes(buildId: string | 'down') {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      if (buildId === 'down') throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify({ buildId }), { headers: { 'Content-Type': 'application/json' } });
    }),
  );
}

function Notice() {
  return <p>{useServerUnreachable() ? 'unreachable' : 'reachable'}</p>;
}

let meta: HTMLMetaElement;
beforeEach(() => {
  meta = document.createElement('meta');
  meta.name = 'kairos-build';
  meta.content = 'build-1';
  document.head.append(meta);
});
afterEach(() => meta.remove());

describe('chunkFailureCause', () => {
  it('says unreachable when the server does not answer, or a gateway answers for it', async () => {
    serverServes('down');
    expect(await chunkFailureCause()).toBe('unreachable');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('Bad gateway', { status: 502 })),
    );
    expect(await chunkFailureCause()).toBe('unreachable');
  });

  it('says new version only when the server serves another build than the page runs', async () => {
    serverServes('build-2');
    expect(await chunkFailureCause()).toBe('newVersion');
    serverServes('build-1');
    expect(await chunkFailureCause()).toBe('other');
    // A server without build.json (the dev server) is no proof of a new version.
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{}', { status: 404 })),
    );
    expect(await chunkFailureCause()).toBe('other');
  });
});

describe('withChunkRecovery', () => {
  it('retries with backoff while the server cannot be reached, saying so, and loads once it answers', async () => {
    serverServes('down');
    render(<Notice />);
    const waits: number[] = [];
    let failures = 4;
    const load = vi.fn(async () => {
      if (failures-- > 0) throw chunkError();
      return { Component: 'Trades' };
    });
    let release: () => void = () => {};
    const waited = vi.fn(
      (ms: number) =>
        new Promise<void>((resolve) => {
          waits.push(ms);
          if (waits.length === 4) {
            serverServes('build-1'); // the server is back, with the same build
            release = resolve;
          } else resolve();
        }),
    );
    const loading = withChunkRecovery(load, waited)();
    await vi.waitFor(() => expect(waits).toHaveLength(4));
    expect(screen.getByText('unreachable')).toBeTruthy();
    await act(async () => release());
    await expect(loading).resolves.toEqual({ Component: 'Trades' });
    expect(load).toHaveBeenCalledTimes(5);
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(screen.getByText('reachable')).toBeTruthy();
  });

  it('refuses with NewVersionError when the server now serves another build', async () => {
    serverServes('build-2');
    const load = vi.fn(async () => {
      throw chunkError();
    });
    await expect(withChunkRecovery(load, async () => {})()).rejects.toBeInstanceOf(NewVersionError);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('gives up with the load’s own error when the server answers with this build and loading still fails', async () => {
    serverServes('build-1');
    const error = chunkError();
    const load = vi.fn(async () => {
      throw error;
    });
    await expect(withChunkRecovery(load, async () => {})()).rejects.toBe(error);
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('lets any other error through at once', async () => {
    const error = new Error('boom');
    const load = vi.fn(async () => {
      throw error;
    });
    await expect(withChunkRecovery(load, async () => {})()).rejects.toBe(error);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('waits at most 30 s between tries', () => {
    expect(retryDelay(0)).toBe(1_000);
    expect(retryDelay(10)).toBe(30_000);
  });
});
