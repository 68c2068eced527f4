import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config';
import type { DbHandle } from './db/client';
import { createSealer, loadMasterKey } from './lib/crypto';
import { createAuthRepo } from './modules/auth/auth-repo';
import { createAuthService } from './modules/auth/auth-service';
import { createHealthService } from './modules/health/health-service';
import { createMailer } from './modules/mail/mailer';
import { createUsersService } from './modules/users/users-service';

export type AppDeps = { config: AppConfig; db: DbHandle };

/** The one composition root: every domain service is built here from narrowed dependencies. */
export function createServices({ config, db }: AppDeps, log: FastifyBaseLogger) {
  const sealer = createSealer(loadMasterKey(config.masterKey, config.dataDir));
  const mailer = createMailer({ db: db.db, sealer, smtpUrl: config.smtpUrl, log });
  const authRepo = createAuthRepo(db.db);
  return {
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
  };
}

export type Services = ReturnType<typeof createServices>;
