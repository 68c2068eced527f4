import { desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { appliedMigrationCount } from '../../db/migrate';
import { workerHeartbeats } from '../../db/schema/index';

export type WorkerBeat = { workerId: string; hostname: string; pid: number; startedAt: Date };

export type HealthRepo = ReturnType<typeof createHealthRepo>;

/** The database's own health, and the worker heartbeats: each worker writes its row, `/healthz` reads them. */
export function createHealthRepo(db: Database) {
  return {
    async ping(): Promise<void> {
      await db.execute(sql`SELECT 1`);
    },

    appliedMigrations(): Promise<number> {
      return appliedMigrationCount(db);
    },

    /** Beats of the workers alive in the last 5 minutes, latest first. */
    async recentBeats(): Promise<Date[]> {
      const beats = await db
        .select({ beatAt: workerHeartbeats.beatAt })
        .from(workerHeartbeats)
        .where(sql`${workerHeartbeats.beatAt} > now() - interval '5 minutes'`)
        .orderBy(desc(workerHeartbeats.beatAt));
      return beats.map((b) => b.beatAt);
    },

    async beat(worker: WorkerBeat, at: Date): Promise<void> {
      await db
        .insert(workerHeartbeats)
        .values({ ...worker, beatAt: at })
        .onConflictDoUpdate({ target: workerHeartbeats.workerId, set: { beatAt: at } });
    },

    async removeWorker(workerId: string): Promise<void> {
      await db.delete(workerHeartbeats).where(eq(workerHeartbeats.workerId, workerId));
    },
  };
}
