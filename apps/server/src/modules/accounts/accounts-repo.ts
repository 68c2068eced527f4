import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { tradingAccounts } from '../../db/schema/index';

export type TradingAccountRow = typeof tradingAccounts.$inferSelect;

export function createAccountsRepo(db: Database) {
  return {
    /** Scoped to the owner in the query itself: another user's id finds nothing. */
    async findOwned(userId: string, id: string): Promise<TradingAccountRow | undefined> {
      const [row] = await db
        .select()
        .from(tradingAccounts)
        .where(and(eq(tradingAccounts.id, id), eq(tradingAccounts.userId, userId)));
      return row;
    },
    async findById(id: string): Promise<TradingAccountRow | undefined> {
      const [row] = await db.select().from(tradingAccounts).where(eq(tradingAccounts.id, id));
      return row;
    },
  };
}
export type AccountsRepo = ReturnType<typeof createAccountsRepo>;
