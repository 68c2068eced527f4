import type { AppConfig } from './config';
import type { DbHandle } from './db/client';
import { createHealthService } from './modules/health/health-service';

export type AppDeps = { config: AppConfig; db: DbHandle };

/** The one composition root: every domain service is built here from narrowed dependencies. */
export function createServices({ config, db }: AppDeps) {
  return {
    health: createHealthService({ db: db.db, config }),
  };
}

export type Services = ReturnType<typeof createServices>;
