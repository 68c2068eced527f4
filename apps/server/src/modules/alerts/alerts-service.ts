import { apiError, type WebhookBody } from '@kairos/contract';
import type { Sealer } from '../../lib/crypto';
import { constantTimeEqual } from '../../lib/crypto';
import { DomainRuleError, TooManyRequestsError, UnauthorizedError, ValidationError } from '../../lib/errors';
import { createWindowLimiter } from '../../lib/window-limiter';
import { webhookSecretAt, type StrategiesRepo } from '../strategies/strategies-repo';
import type { AlertsRepo } from '../../engine/alerts-repo';
import { dedupeKey, normalizeAction, normalizeSymbol, parseSignalTime } from './webhook-fns';

/** Signals stamped this far in the future are refused too (clock skew allowance). */
const FUTURE_SKEW_MS = 60_000;

export type AlertsService = ReturnType<typeof createAlertsService>;

export function createAlertsService(deps: {
  strategies: Pick<StrategiesRepo, 'findByKey'>;
  alerts: Pick<AlertsRepo, 'enqueue'>;
  sealer: Sealer;
  /** Authenticated alerts a strategy may send per minute, and queued alerts it may hold (issue 20). */
  limits: { perStrategyPerMinute: number; queueCap: number };
  now?: () => number;
}) {
  const perStrategy = createWindowLimiter({
    max: deps.limits.perStrategyPerMinute,
    windowMs: 60_000,
    now: deps.now,
  });
  const tooMany = (retryAfterMs: number) =>
    new TooManyRequestsError(
      retryAfterMs / 1000,
      ...apiError('RATE_LIMITED', { variant: 'tooManyRequests' }),
    );

  /** The strategy's secret; one that does not open where it is (moved there in the database) matches nothing. */
  function openSecret(strategy: { id: string; webhookSecretSealed: string }): string | undefined {
    try {
      return deps.sealer.open(strategy.webhookSecretSealed, webhookSecretAt(strategy.id));
    } catch {
      return undefined;
    }
  }

  return {
    /** TradingView webhook: authenticate, refuse stale signals, dedupe, commit and enqueue. */
    async ingest(body: WebhookBody, strategyKeyFromPath: string | undefined, now = new Date()) {
      const key = strategyKeyFromPath ?? body.strategyKey;
      if (!key)
        throw new ValidationError(...apiError('VALIDATION_ERROR', { variant: 'strategyKeyRequired' }));
      const strategy = await deps.strategies.findByKey(key);
      // Unknown key and wrong secret answer the same: a probe learns nothing.
      const expected = strategy ? openSecret(strategy) : undefined;
      const secretOk = constantTimeEqual(expected ?? 'no-such-strategy-secret', body.secret);
      if (!strategy || expected === undefined || !secretOk)
        throw new UnauthorizedError(...apiError('INVALID_WEBHOOK_SECRET'));
      if (body.strategyKey && strategyKeyFromPath && body.strategyKey !== strategyKeyFromPath) {
        throw new ValidationError(...apiError('VALIDATION_ERROR', { variant: 'strategyKeyMismatch' }));
      }
      if (strategy.status === 'retired') throw new DomainRuleError(...apiError('STRATEGY_RETIRED'));
      // Counted once authenticated: a stranger who knows the key cannot use up its owner's alerts.
      const verdict = perStrategy.hit(strategy.id);
      if (!verdict.allowed) throw tooMany(verdict.retryAfterMs);

      const signalAt = parseSignalTime(body.timestamp);
      if (body.timestamp !== undefined && !signalAt)
        throw new ValidationError(...apiError('VALIDATION_ERROR', { variant: 'timestamp' }));
      if (signalAt) {
        const lagMs = now.getTime() - signalAt.getTime();
        if (lagMs > strategy.maxLagSeconds * 1000) {
          throw new DomainRuleError(
            ...apiError('STALE_SIGNAL', { lag: Math.round(lagMs / 1000), max: strategy.maxLagSeconds }),
          );
        }
        if (lagMs < -FUTURE_SKEW_MS)
          throw new DomainRuleError(...apiError('STALE_SIGNAL', { variant: 'future' }));
      }

      const { secret: _secret, ...payload } = body;
      const queued = await deps.alerts.enqueue(
        {
          strategyId: strategy.id,
          strategyKey: strategy.strategyKey,
          dedupeKey: dedupeKey(body, now),
          action: normalizeAction(body.action),
          symbol: normalizeSymbol(body.symbol, strategy.tradeCurrency, strategy.stableCoin),
          price: body.price !== undefined ? String(body.price) : null,
          signalAt: signalAt ?? null,
          payload,
        },
        deps.limits.queueCap,
      );
      // The strategy's queue is full (its alerts come faster than they are worked off): try again shortly.
      if ('full' in queued) throw tooMany(10_000);
      return { alertId: queued.id, status: queued.status, duplicate: queued.duplicate };
    },
  };
}
