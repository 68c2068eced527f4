import type { FastifyBaseLogger } from 'fastify';
import type { RejectionCount, WebhookRejectionsRepo } from './webhook-rejections-repo';

/**
 * Counts refused webhooks in memory and writes them every `flushMs` in one statement (issue 21): a flood of
 * bad requests costs one write per interval, not one per request. Nothing of the request is kept but its
 * strategy key, the refusal's code and the source address.
 */
export function createRejectionRecorder(deps: {
  repo: Pick<WebhookRejectionsRepo, 'add'>;
  log: FastifyBaseLogger;
  flushMs?: number;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  let pending = new Map<string, RejectionCount>();
  let writing: Promise<void> = Promise.resolve();
  const timer = setInterval(() => void flush(), deps.flushMs ?? 5_000);
  timer.unref?.();

  function flush(): Promise<void> {
    const rows = [...pending.values()];
    pending = new Map();
    if (rows.length === 0) return writing;
    writing = writing
      .then(() => deps.repo.add(rows))
      .catch((e: unknown) => deps.log.warn({ err: e }, 'could not record refused webhooks'));
    return writing;
  }

  return {
    record(strategyKey: string | undefined, reason: string, address: string | undefined) {
      const at = now();
      const minute = new Date(Math.floor(at.getTime() / 60_000) * 60_000);
      const key = `${minute.getTime()}|${strategyKey ?? ''}|${reason}`;
      const row = pending.get(key);
      if (row) {
        row.count += 1;
        row.lastAt = at;
        row.lastAddress = address ?? null;
      } else {
        pending.set(key, {
          minute,
          strategyKey: (strategyKey ?? '').slice(0, 64),
          reason: reason.slice(0, 64),
          count: 1,
          lastAt: at,
          lastAddress: address ?? null,
        });
      }
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}

export type RejectionRecorder = ReturnType<typeof createRejectionRecorder>;
