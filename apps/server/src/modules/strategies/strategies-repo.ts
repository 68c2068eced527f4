import type { SealedAt } from '../../lib/crypto';
import { and, count, eq, or } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { bots, strategies } from '../../db/schema/index';

/** Where a strategy's webhook secret is sealed (issue 20: its AES-GCM associated data). */
export const webhookSecretAt = (strategyId: string): SealedAt => ({
  table: 'strategies',
  column: 'webhook_secret_sealed',
  row: strategyId,
});

export type StrategyRow = typeof strategies.$inferSelect;

export function createStrategiesRepo(db: Database) {
  return {
    /** The user's own strategies and every public (admin) one. */
    async listVisible(userId: string): Promise<StrategyRow[]> {
      return db
        .select()
        .from(strategies)
        .where(or(eq(strategies.ownerId, userId), eq(strategies.isPublic, true)))
        .orderBy(strategies.createdAt);
    },
    async findVisible(userId: string, id: string): Promise<StrategyRow | undefined> {
      const [row] = await db
        .select()
        .from(strategies)
        .where(and(eq(strategies.id, id), or(eq(strategies.ownerId, userId), eq(strategies.isPublic, true))));
      return row;
    },
    async findById(id: string): Promise<StrategyRow | undefined> {
      const [row] = await db.select().from(strategies).where(eq(strategies.id, id));
      return row;
    },
    async findByKey(strategyKey: string): Promise<StrategyRow | undefined> {
      const [row] = await db.select().from(strategies).where(eq(strategies.strategyKey, strategyKey));
      return row;
    },
    async insert(values: typeof strategies.$inferInsert): Promise<StrategyRow | undefined> {
      const [row] = await db
        .insert(strategies)
        .values(values)
        .onConflictDoNothing({ target: strategies.strategyKey })
        .returning();
      return row;
    },
    async update(
      id: string,
      values: Partial<typeof strategies.$inferInsert>,
    ): Promise<StrategyRow | undefined> {
      const [row] = await db
        .update(strategies)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(strategies.id, id))
        .returning();
      return row;
    },
    async remove(id: string): Promise<void> {
      await db.delete(strategies).where(eq(strategies.id, id));
    },
    async botCount(id: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(bots).where(eq(bots.strategyId, id));
      return row?.n ?? 0;
    },
  };
}
export type StrategiesRepo = ReturnType<typeof createStrategiesRepo>;
