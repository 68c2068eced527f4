import { retryDelayMs } from '@kairos/core';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { listenOn, type Listening } from '../db/pg-fns';
import { ALERTS_CHANNEL, type AlertRow, type AlertsRepo } from './alerts-repo';
import type { AlertResult } from './alert-processor';

export type AlertWorkerOptions = {
  workerId: string;
  /** A crashed worker's alerts are taken over after this long without a lease renewal. */
  leaseSeconds: number;
  /** Alerts processed at once by this worker. */
  concurrency: number;
  pollMs: number;
};

/**
 * Claims queued alerts (FOR UPDATE SKIP LOCKED, so each is processed by one worker of many),
 * keeps their lease alive while it works, and settles them: succeeded, or failed → retried
 * with backoff → dead. Woken at once by NOTIFY; polls as a fallback and for retries.
 */
export function startAlertWorker(deps: {
  pool: pg.Pool;
  alerts: AlertsRepo;
  process: (alert: AlertRow) => Promise<AlertResult>;
  log: FastifyBaseLogger;
  options: AlertWorkerOptions;
}) {
  const { alerts, log, options } = deps;
  const inFlight = new Map<string, Promise<void>>();
  let stopped = false;
  let wake: (() => void) | undefined;
  let listener: Listening | undefined;
  let relistenTimer: ReturnType<typeof setTimeout> | undefined;

  async function work(alert: AlertRow) {
    const renew = setInterval(
      () => void alerts.extendLease(alert.id, options.workerId, options.leaseSeconds).catch(() => {}),
      (options.leaseSeconds * 1000) / 3,
    );
    try {
      const result = await deps.process(alert);
      if (result.retry) {
        await alerts.fail(
          alert.id,
          `worker:${options.workerId}`,
          result.error ?? 'retryable failure',
          Math.max(retryDelayMs(alert.attempts), result.retryAfterMs ?? 0),
        );
      } else if (result.expired) {
        log.warn({ alertId: alert.id, reason: result.expired }, 'alert expired before it was claimed');
        await alerts.expire(alert.id, options.workerId, result.expired);
      } else {
        await alerts.finish(alert.id, options.workerId);
      }
    } catch (e) {
      log.error({ err: e, alertId: alert.id }, 'alert processing crashed');
      await alerts
        .fail(
          alert.id,
          `worker:${options.workerId}`,
          e instanceof Error ? e.message : String(e),
          retryDelayMs(alert.attempts),
        )
        .catch((err) => log.error({ err }, 'could not record alert failure'));
    } finally {
      clearInterval(renew);
    }
  }

  async function reapExpiredLeases() {
    for (const { id, lockedBy } of await alerts.expiredLeases()) {
      // Our own alert whose renewal ran late (a busy event loop) is still ours: renew, don't retake.
      if (lockedBy === options.workerId && inFlight.has(id)) {
        await alerts.extendLease(id, options.workerId, options.leaseSeconds);
        continue;
      }
      const status = await alerts.fail(id, 'system', `lease expired (worker ${lockedBy ?? '?'} stopped)`, 0);
      if (status) log.warn({ alertId: id, lockedBy, status }, 'took over an alert from a stopped worker');
    }
  }

  async function loop() {
    let lastReap = 0;
    while (!stopped) {
      try {
        if (Date.now() - lastReap > 1000) {
          lastReap = Date.now();
          await reapExpiredLeases();
        }
        const free = options.concurrency - inFlight.size;
        const claimed = free > 0 ? await alerts.claim(options.workerId, free, options.leaseSeconds) : [];
        for (const alert of claimed) {
          const p = work(alert).finally(() => inFlight.delete(alert.id));
          inFlight.set(alert.id, p);
          void p.then(() => wake?.());
        }
        if (claimed.length > 0 && claimed.length === free) continue;
      } catch (e) {
        if (!stopped) log.error({ err: e }, 'alert queue poll failed');
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /** Polling carries on without NOTIFY; the channel is opened again until it holds. */
  function relistenSoon() {
    if (stopped || relistenTimer) return;
    relistenTimer = setTimeout(() => {
      relistenTimer = undefined;
      void listen();
    }, 1_000);
  }

  async function listen() {
    try {
      const channel = await listenOn(
        deps.pool,
        ALERTS_CHANNEL,
        () => wake?.(),
        () => {
          listener = undefined;
          relistenSoon();
        },
      );
      // Stopped while the channel was opening: given back at once, or pool.end() would wait for it.
      if (stopped) return channel.close();
      listener = channel;
    } catch (e) {
      log.warn({ err: e }, 'LISTEN failed: polling only');
      relistenSoon();
    }
  }

  const running = listen().then(loop);

  return {
    /** Stops claiming, then waits for the alerts in hand to finish. */
    async stop() {
      stopped = true;
      clearTimeout(relistenTimer);
      wake?.();
      await running;
      await Promise.allSettled(inFlight.values());
      await listener?.close();
      listener = undefined;
    },
  };
}
