import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { balanceSnapshots, bots, trades, tradingAccounts } from '../../db/schema/index';
import { NO_LAST_ERROR, type LastError } from '../../engine/last-error';

export type TradingAccountRow = typeof tradingAccounts.$inferSelect;

export function createAccountsRepo(db: Database) {
  return {
    /** Scoped to the owner in the query itself: another user's id, or a deleted account, finds nothing. */
    async findOwned(userId: string, id: string): Promise<TradingAccountRow | undefined> {
      const [row] = await db
        .select()
        .from(tradingAccounts)
        .where(
          and(
            eq(tradingAccounts.id, id),
            eq(tradingAccounts.userId, userId),
            isNull(tradingAccounts.archivedAt),
          ),
        );
      return row;
    },
    async findById(id: string): Promise<TradingAccountRow | undefined> {
      const [row] = await db.select().from(tradingAccounts).where(eq(tradingAccounts.id, id));
      return row;
    },
    async listOwned(userId: string) {
      return db
        .select({
          account: tradingAccounts,
          // Qualified by hand: inside the subquery a bare "id" would be the bot's.
          botCount: sql<number>`(SELECT count(*)::int FROM bots b WHERE b.trading_account_id = "trading_accounts"."id")`,
        })
        .from(tradingAccounts)
        .where(and(eq(tradingAccounts.userId, userId), isNull(tradingAccounts.archivedAt)))
        .orderBy(tradingAccounts.createdAt);
    },
    /** Every account in use (a deleted one is left alone). */
    async listAll(): Promise<TradingAccountRow[]> {
      return db.select().from(tradingAccounts).where(isNull(tradingAccounts.archivedAt));
    },
    async insert(values: typeof tradingAccounts.$inferInsert): Promise<TradingAccountRow> {
      const [row] = await db.insert(tradingAccounts).values(values).returning();
      return row!;
    },
    async update(
      id: string,
      values: Partial<typeof tradingAccounts.$inferInsert>,
    ): Promise<TradingAccountRow> {
      const [row] = await db
        .update(tradingAccounts)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(tradingAccounts.id, id))
        .returning();
      return row!;
    },
    /**
     * A refresh's outcome: the balance, or why it failed (its text, code and params). Balance refreshes do not
     * bump `updated_at`, which keys the gateway cache.
     */
    async saveBalance(id: string, usdtBalance: string, error: LastError | null): Promise<void> {
      await db
        .update(tradingAccounts)
        .set(
          error
            ? { status: 'error', ...error }
            : { usdtBalance, balanceUpdatedAt: new Date(), status: 'active', ...NO_LAST_ERROR },
        )
        .where(eq(tradingAccounts.id, id));
    },
    /** Writes a balance snapshot unless one was taken less than `minIntervalMs` ago. */
    async recordSnapshot(
      account: TradingAccountRow,
      equity: string,
      minIntervalMs: number,
    ): Promise<boolean> {
      const [last] = await db
        .select({ at: balanceSnapshots.at })
        .from(balanceSnapshots)
        .where(eq(balanceSnapshots.tradingAccountId, account.id))
        .orderBy(sql`${balanceSnapshots.at} DESC`)
        .limit(1);
      if (last && Date.now() - last.at.getTime() < minIntervalMs) return false;
      await db
        .insert(balanceSnapshots)
        .values({ userId: account.userId, tradingAccountId: account.id, equity });
      return true;
    },
    async botsOf(accountId: string) {
      return db.select().from(bots).where(eq(bots.tradingAccountId, accountId)).orderBy(bots.createdAt);
    },
    async openTradeCount(accountId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(trades)
        .where(and(eq(trades.tradingAccountId, accountId), sql`${trades.status} IN ('open', 'closing')`));
      return row?.n ?? 0;
    },
    /**
     * A deleted account is archived (issue 19), with, when asked, its bots deleted, in one transaction: it
     * leaves every list and its keys are wiped, while its trades and what they made stay on the books.
     */
    async archive(id: string, withBots: boolean): Promise<void> {
      await db.transaction(async (tx) => {
        if (withBots) await tx.delete(bots).where(eq(bots.tradingAccountId, id));
        await tx
          .update(tradingAccounts)
          .set({
            archivedAt: new Date(),
            apiKeySealed: null,
            apiSecretSealed: null,
            passphraseSealed: null,
            updatedAt: new Date(),
          })
          .where(and(eq(tradingAccounts.id, id), isNull(tradingAccounts.archivedAt)));
      });
    },
  };
}
export type AccountsRepo = ReturnType<typeof createAccountsRepo>;
