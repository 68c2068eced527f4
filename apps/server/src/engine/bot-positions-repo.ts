import { and, eq, sql } from 'drizzle-orm';
import { ACTIVE_TRADE_STATUSES } from '@kairos/core';
import type { Database } from '../db/client';
import { relaxedCommit } from '../db/pg-fns';
import { bots, trades } from '../db/schema/index';

type BotPosition = 'long' | 'short' | 'out';

/** The trade statuses a bot still holds a position through, as SQL (core's words, written inline). */
const ACTIVE = sql.raw(ACTIVE_TRADE_STATUSES.map((s) => `'${s}'`).join(', '));

/**
 * A bot's position (long, short or out), as the engine learns it from its trades' fills. The bots' other
 * columns are the bots module's; only the engine moves a position.
 */
export function createBotPositionsRepo(db: Database) {
  const outUnlessTrading = db
    .update(bots)
    .set({ position: 'out', updatedAt: sql`${sql.placeholder('updatedAt')}` })
    .where(
      and(
        eq(bots.id, sql.placeholder('botId')),
        sql`${bots.position} <> 'out'`,
        sql`NOT EXISTS (SELECT 1 FROM ${trades} t WHERE t.bot_id = ${bots.id} AND t.status IN (${ACTIVE}))`,
        relaxedCommit,
      ),
    )
    .prepare('bot_positions_out_unless_trading');

  return {
    /**
     * Several bots' positions in one statement. A position that comes with a trade is only taken while
     * that trade is still active (one that ended meanwhile already set its bot out).
     */
    async setMany(
      changes: { botId: string; position: BotPosition; tradeId: string | null }[],
    ): Promise<void> {
      if (changes.length === 0) return;
      const values = sql.join(
        changes.map((c) => sql`(${c.botId}::uuid, ${c.position}, ${c.tradeId}::uuid)`),
        sql`, `,
      );
      await db.execute(sql`
        UPDATE ${bots} SET position = v.position, updated_at = now()
        FROM (VALUES ${values}) AS v(bot_id, position, trade_id)
        WHERE ${bots.id} = v.bot_id
          AND (v.trade_id IS NULL OR EXISTS (
            SELECT 1 FROM ${trades} t WHERE t.id = v.trade_id AND t.status IN (${ACTIVE})))`);
    },

    /** The bot is out once it holds no active trade (a late event for an old trade changes nothing). */
    async outUnlessTrading(botId: string): Promise<void> {
      await outUnlessTrading.execute({ botId, updatedAt: new Date() });
    },
  };
}

export type BotPositionsRepo = ReturnType<typeof createBotPositionsRepo>;
