import { and, count, eq, isNull, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { QuotaSettings } from '@kairos/contract';
import type { Database } from '../../db/client';
import { bots, quotaSettings, strategies, tradingAccounts } from '../../db/schema/index';

/** What a cap counts: a user's strategies, trading accounts in use (not archived) and bots. */
export type HeldKind = 'strategies' | 'tradingAccounts' | 'bots';

const held: Record<HeldKind, (userId: string) => { table: PgTable; where: SQL | undefined }> = {
  strategies: (userId) => ({ table: strategies, where: eq(strategies.ownerId, userId) }),
  tradingAccounts: (userId) => ({
    table: tradingAccounts,
    where: and(eq(tradingAccounts.userId, userId), isNull(tradingAccounts.archivedAt)),
  }),
  bots: (userId) => ({ table: bots, where: eq(bots.userId, userId) }),
};

export type QuotasRepo = ReturnType<typeof createQuotasRepo>;

export function createQuotasRepo(db: Database) {
  return {
    async settings(): Promise<QuotaSettings | undefined> {
      const [row] = await db
        .select({
          maxStrategies: quotaSettings.maxStrategies,
          maxTradingAccounts: quotaSettings.maxTradingAccounts,
          maxBots: quotaSettings.maxBots,
          maxEventStreams: quotaSettings.maxEventStreams,
        })
        .from(quotaSettings)
        .where(eq(quotaSettings.id, 1));
      return row;
    },
    async saveSettings(values: QuotaSettings): Promise<void> {
      await db
        .insert(quotaSettings)
        .values({ id: 1, ...values })
        .onConflictDoUpdate({ target: quotaSettings.id, set: { ...values, updatedAt: new Date() } });
    },
    async countHeld(userId: string, kind: HeldKind): Promise<number> {
      const { table, where } = held[kind](userId);
      const [row] = await db.select({ n: count() }).from(table).where(where);
      return row?.n ?? 0;
    },
  };
}
