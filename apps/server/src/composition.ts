import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config';
import type { DbHandle } from './db/client';
import { createSealer, loadMasterKey } from './lib/crypto';
import { createAuthRepo } from './modules/auth/auth-repo';
import { createAuthService } from './modules/auth/auth-service';
import { createHealthService } from './modules/health/health-service';
import { createMailer } from './modules/mail/mailer';
import { createUsersService } from './modules/users/users-service';
import { createAccountsRepo } from './modules/accounts/accounts-repo';
import { createAlertsRepo } from './modules/alerts/alerts-repo';
import { createAlertsService } from './modules/alerts/alerts-service';
import { createBotsRepo } from './modules/bots/bots-repo';
import { createBotsService, type PositionCloser } from './modules/bots/bots-service';
import { createStrategiesRepo } from './modules/strategies/strategies-repo';
import { createStrategiesService } from './modules/strategies/strategies-service';
import { createTradesRepo } from './modules/trades/trades-repo';

export type AppDeps = { config: AppConfig; db: DbHandle };

/** The one composition root: every domain service is built here from narrowed dependencies. */
export function createServices({ config, db }: AppDeps, log: FastifyBaseLogger) {
  const sealer = createSealer(loadMasterKey(config.masterKey, config.dataDir));
  const mailer = createMailer({ db: db.db, sealer, smtpUrl: config.smtpUrl, log });
  const authRepo = createAuthRepo(db.db);
  const strategiesRepo = createStrategiesRepo(db.db);
  const alertsRepo = createAlertsRepo(db.db);
  const accountsRepo = createAccountsRepo(db.db);
  const tradesRepo = createTradesRepo(db.db);
  const closePosition: PositionCloser = async () => {};
  return {
    repos: { strategies: strategiesRepo, alerts: alertsRepo, accounts: accountsRepo, trades: tradesRepo },
    sealer,
    mailer,
    health: createHealthService({ db: db.db, config }),
    auth: createAuthService({
      repo: authRepo,
      sealer,
      mailer,
      adminEmail: config.adminEmail,
      publicUrl: config.publicUrl,
    }),
    users: createUsersService({ repo: authRepo }),
    strategies: createStrategiesService({ repo: strategiesRepo, sealer }),
    alerts: createAlertsService({ strategies: strategiesRepo, alerts: alertsRepo, sealer }),
    bots: createBotsService({
      repo: createBotsRepo(db.db),
      accounts: accountsRepo,
      strategies: strategiesRepo,
      closePosition,
    }),
  };
}

export type Services = ReturnType<typeof createServices>;
