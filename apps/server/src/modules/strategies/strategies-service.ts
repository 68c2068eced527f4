import { randomBytes, randomUUID } from 'node:crypto';
import { apiError, type Strategy } from '@kairos/contract';
import type { Sealer } from '../../lib/crypto';
import { ConflictError, ForbiddenError, NotFoundError } from '../../lib/errors';
import type { AuthedUser } from '../auth/auth-service';
import type { QuotasService } from '../quotas/quotas-service';
import { webhookSecretAt, type StrategiesRepo, type StrategyRow } from './strategies-repo';

type TakeProfitInput = { role?: string; percent: string; sizePercent: string };
export type StrategyInput = {
  nickname: string;
  strategyKey?: string;
  tradeCurrency: string;
  stableCoin: string;
  timeFrame: string;
  status: 'active' | 'paused' | 'retired';
  takeProfits: TakeProfitInput[];
  stopLossPercent?: string | null;
  breakEvenAfterTp1: boolean;
  maxLagSeconds: number;
  priceTolerancePercent: number;
  stopLimitOffsetPercent: number;
};

/** Roles follow the order given: tp1, tp2, … */
function normalizeTakeProfits(tps: TakeProfitInput[]) {
  return tps.map((tp, i) => ({ role: `tp${i + 1}`, percent: tp.percent, sizePercent: tp.sizePercent }));
}

function slug(text: string): string {
  const base = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `${base || 'strategy'}-${randomBytes(3).toString('hex')}`;
}

const newWebhookSecret = () => randomBytes(24).toString('base64url');

export type StrategiesService = ReturnType<typeof createStrategiesService>;

export function createStrategiesService(deps: {
  repo: StrategiesRepo;
  sealer: Sealer;
  quotas: Pick<QuotasService, 'assertRoom'>;
}) {
  const { repo, sealer } = deps;

  function toDto(row: StrategyRow, user: AuthedUser, origin: string): Strategy {
    const isOwner = row.ownerId === user.id;
    return {
      id: row.id,
      nickname: row.nickname,
      strategyKey: row.strategyKey,
      tradeCurrency: row.tradeCurrency,
      stableCoin: row.stableCoin,
      timeFrame: row.timeFrame,
      status: row.status,
      takeProfits: row.takeProfits,
      stopLossPercent: row.stopLossPercent,
      breakEvenAfterTp1: row.breakEvenAfterTp1,
      maxLagSeconds: row.maxLagSeconds,
      priceTolerancePercent: Number(row.priceTolerancePercent),
      stopLimitOffsetPercent: Number(row.stopLimitOffsetPercent),
      isPublic: row.isPublic,
      isOwner,
      ...(isOwner ? { webhookSecret: sealer.open(row.webhookSecretSealed, webhookSecretAt(row.id)) } : {}),
      webhookUrl: `${origin.replace(/\/$/, '')}/webhooks/${row.strategyKey}`,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }

  async function owned(user: AuthedUser, id: string): Promise<StrategyRow> {
    const row = await repo.findVisible(user.id, id);
    if (!row) throw new NotFoundError(...apiError('NOT_FOUND', { variant: 'strategy' }));
    if (row.ownerId !== user.id)
      throw new ForbiddenError(...apiError('FORBIDDEN', { variant: 'strategyOwnerOnly' }));
    return row;
  }

  /**
   * A key is unique across users (it names the webhook). Issue 20: only the owner is told their own strategy
   * holds it; for anyone else's the refusal is generic and does not say that another account holds the key.
   */
  async function refuseTakenKey(user: AuthedUser, strategyKey: string): Promise<never> {
    const holder = await repo.findByKey(strategyKey);
    if (holder?.ownerId === user.id) throw new ConflictError(...apiError('STRATEGY_KEY_TAKEN'));
    throw new ConflictError(...apiError('STRATEGY_KEY_UNAVAILABLE'));
  }

  return {
    async list(user: AuthedUser, origin: string) {
      return (await repo.listVisible(user.id)).map((r) => toDto(r, user, origin));
    },
    async get(user: AuthedUser, id: string, origin: string) {
      const row = await repo.findVisible(user.id, id);
      if (!row) throw new NotFoundError(...apiError('NOT_FOUND', { variant: 'strategy' }));
      return toDto(row, user, origin);
    },
    async create(user: AuthedUser, input: StrategyInput, origin: string) {
      await deps.quotas.assertRoom(user, 'strategies');
      // The id is chosen here: the secret is sealed to its row.
      const id = randomUUID();
      const row = await repo.insert({
        id,
        ownerId: user.id,
        // Admin strategies are offered to every user; a user's own stay private.
        isPublic: user.role === 'admin',
        nickname: input.nickname,
        strategyKey: input.strategyKey ?? slug(input.nickname),
        tradeCurrency: input.tradeCurrency,
        stableCoin: input.stableCoin,
        timeFrame: input.timeFrame,
        status: input.status,
        takeProfits: normalizeTakeProfits(input.takeProfits),
        stopLossPercent: input.stopLossPercent ?? null,
        breakEvenAfterTp1: input.breakEvenAfterTp1,
        maxLagSeconds: input.maxLagSeconds,
        priceTolerancePercent: String(input.priceTolerancePercent),
        stopLimitOffsetPercent: String(input.stopLimitOffsetPercent),
        webhookSecretSealed: sealer.seal(newWebhookSecret(), webhookSecretAt(id)),
      });
      if (!row) return refuseTakenKey(user, input.strategyKey ?? slug(input.nickname));
      return toDto(row, user, origin);
    },
    async update(
      user: AuthedUser,
      id: string,
      input: Partial<StrategyInput> & { rotateWebhookSecret?: boolean },
      origin: string,
    ) {
      await owned(user, id);
      const { rotateWebhookSecret, takeProfits, priceTolerancePercent, stopLimitOffsetPercent, ...rest } =
        input;
      if (rest.strategyKey) {
        const clash = await repo.findByKey(rest.strategyKey);
        if (clash && clash.id !== id) await refuseTakenKey(user, rest.strategyKey);
      }
      const row = await repo.update(id, {
        ...rest,
        ...(takeProfits ? { takeProfits: normalizeTakeProfits(takeProfits) } : {}),
        ...(priceTolerancePercent !== undefined
          ? { priceTolerancePercent: String(priceTolerancePercent) }
          : {}),
        ...(stopLimitOffsetPercent !== undefined
          ? { stopLimitOffsetPercent: String(stopLimitOffsetPercent) }
          : {}),
        ...(rotateWebhookSecret
          ? { webhookSecretSealed: sealer.seal(newWebhookSecret(), webhookSecretAt(id)) }
          : {}),
      });
      return toDto(row!, user, origin);
    },
    async remove(user: AuthedUser, id: string) {
      await owned(user, id);
      const n = await repo.botCount(id);
      if (n > 0) {
        throw new ConflictError(...apiError('STRATEGY_IN_USE', { count: n }));
      }
      await repo.remove(id);
    },
  };
}
