import type { HealthResponse } from '@kairos/contract';
import type { AppConfig } from '../../config';
import { expectedMigrationCount } from '../../db/migrate';
import type { HealthRepo } from './health-repo';

export type HealthService = ReturnType<typeof createHealthService>;

export function createHealthService(deps: { repo: HealthRepo; config: Pick<AppConfig, 'role'> }) {
  const startedAt = Date.now();
  const expected = expectedMigrationCount();
  return {
    async check(): Promise<HealthResponse> {
      const t0 = performance.now();
      let reachable = false;
      let latencyMs: number | null = null;
      let applied = 0;
      let lastBeatAt: Date | null = null;
      let workers = 0;
      try {
        await deps.repo.ping();
        reachable = true;
        latencyMs = Math.round((performance.now() - t0) * 100) / 100;
        applied = await deps.repo.appliedMigrations();
        const beats = await deps.repo.recentBeats();
        workers = beats.length;
        lastBeatAt = beats[0] ?? null;
      } catch {
        // reported below as unavailable
      }
      const upToDate = reachable && applied >= expected;
      return {
        status: reachable && upToDate ? 'ok' : 'unavailable',
        database: { reachable, latencyMs },
        migrations: { applied, expected, upToDate },
        worker: {
          lastBeatAt: lastBeatAt?.toISOString() ?? null,
          ageSeconds: lastBeatAt ? Math.max(0, Math.round((Date.now() - lastBeatAt.getTime()) / 1000)) : null,
          workers,
        },
        role: deps.config.role,
        uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      };
    },
  };
}
