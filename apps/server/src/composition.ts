import type { CloseReason } from '@kairos/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config';
import type { DbHandle } from './db/client';
import { createAccountReadiness } from './engine/account-readiness';
import { createAlertProcessor } from './engine/alert-processor';
import { createOrderExecutor } from './engine/order-executor';
import { createReconciler } from './engine/reconciliation';
import { createPositionCheck } from './engine/position-check';
import { createTakeProfitOrders } from './engine/take-profit-orders';
import { createTradeLifecycle } from './engine/trade-lifecycle';
import { createTradeLock } from './engine/trade-lock';
import { createStopWatchRepo } from './engine/stop-watch-repo';
import { startTradeMonitor, type TradeMonitorOptions } from './engine/trade-monitor';
import { createVenueStopGuard } from './engine/venue-stop-guard';
import { createVenueStopsRepo } from './engine/venue-stops-repo';
import { createTradeSupervisor } from './engine/trade-supervisor';
import type { PaperVenueOptions } from './exchange/paper/paper-venue';
import { createVenues } from './exchange/venues';
import { createSealer, loadMasterKey, newToken } from './lib/crypto';
import { createAccountsRepo } from './modules/accounts/accounts-repo';
import { createAccountsService } from './modules/accounts/accounts-service';
import { createAdminAlertsRepo } from './modules/admin/admin-alerts-repo';
import { createAdminAlertsService } from './modules/admin/admin-alerts-service';
import { createTradeControlPush } from './modules/admin/take-profit-push';
import { createTradeControlRepo } from './modules/admin/trade-control-repo';
import { createTradeControlService } from './modules/admin/trade-control-service';
import { createAuditRepo } from './modules/audit/audit-repo';
import { createAuditService } from './modules/audit/audit-service';
import { createBillingRepo } from './modules/billing/billing-repo';
import { createBillingService } from './modules/billing/billing-service';
import { createManualPaymentProvider } from './modules/billing/payment-provider';
import { createAlertsRepo } from './engine/alerts-repo';
import { createAlertsService } from './modules/alerts/alerts-service';
import { createRejectionRecorder } from './modules/alerts/webhook-rejections';
import { createWebhookRejectionsRepo } from './modules/alerts/webhook-rejections-repo';
import { createAuthRepo } from './modules/auth/auth-repo';
import { createAuthService } from './modules/auth/auth-service';
import { createSessionCache } from './modules/auth/session-cache';
import { createBotsRepo } from './modules/bots/bots-repo';
import { createBotsService } from './modules/bots/bots-service';
import { createIdempotencyRepo } from './modules/idempotency/idempotency-repo';
import { createIdempotencyService } from './modules/idempotency/idempotency-service';
import { createHealthRepo } from './modules/health/health-repo';
import { createHealthService } from './modules/health/health-service';
import { createDashboardRepo } from './modules/dashboard/dashboard-repo';
import { createCurrencyConverter, createDashboardService } from './modules/dashboard/dashboard-service';
import { createEventHub } from './modules/events/event-hub';
import { createBotsListCache } from './modules/bots/bots-list-cache';
import { createInvitesRepo } from './modules/invites/invites-repo';
import { createInvitesService } from './modules/invites/invites-service';
import { createMailer, createOutboxService } from './modules/mail/mailer';
import { createOutboxRepo } from './modules/mail/outbox-repo';
import { createPortfolioRepo } from './modules/portfolio/portfolio-repo';
import { createPortfolioService } from './modules/portfolio/portfolio-service';
import { createQuotasRepo } from './modules/quotas/quotas-repo';
import { createQuotasService } from './modules/quotas/quotas-service';
import { createSecretsRepo } from './modules/secrets/secrets-repo';
import { createSecretsService } from './modules/secrets/secrets-service';
import { createMarketService } from './modules/market/market-service';
import { createStrategiesRepo } from './modules/strategies/strategies-repo';
import { createStrategiesService } from './modules/strategies/strategies-service';
import { createTradesRepo } from './engine/trades-repo';
import { createBotPositionsRepo } from './engine/bot-positions-repo';
import { createOrdersRepo } from './modules/orders/orders-repo';
import { createOrdersService } from './modules/orders/orders-service';
import { createOwnedTradesRepo } from './modules/trades/trades-owner-repo';
import { createTradeLedgerRepo } from './modules/trades/trade-ledger-repo';
import { createTradesService } from './modules/trades/trades-service';
import { createTradeMarks } from './modules/trades/trade-marks';
import { createUsersService } from './modules/users/users-service';

export type AppDeps = {
  config: AppConfig;
  db: DbHandle;
  /** Per-request timeout towards real venues (ccxt), 10 s unless given. */
  venueTimeoutMs?: number;
  /** The paper venue's market, clock and fees (a scripted market in tests); the simulator by default. */
  paperVenueOptions?: Omit<PaperVenueOptions, 'store'>;
};

/** The one composition root: every domain service is built here from narrowed dependencies. */
export function createServices(
  { config, db, venueTimeoutMs, paperVenueOptions }: AppDeps,
  log: FastifyBaseLogger,
) {
  const sealer = createSealer(loadMasterKey(config.masterKey, config.dataDir));
  const outbox = createOutboxRepo(db.db);
  const mailer = createMailer({ outbox, sealer, smtpUrl: config.smtpUrl, log });
  const venues = createVenues({
    db: db.db,
    sealer,
    log,
    venueUrls: config.venueUrls,
    timeoutMs: venueTimeoutMs,
    paper: paperVenueOptions,
  });

  const sessionCache = createSessionCache({ pool: db.pool, log });
  const webhookRejectionsRepo = createWebhookRejectionsRepo(db.db);
  const repos = {
    auth: createAuthRepo(db.db),
    strategies: createStrategiesRepo(db.db),
    alerts: createAlertsRepo(db.db),
    accounts: createAccountsRepo(db.db),
    bots: createBotsRepo(db.db),
    trades: createTradesRepo(db.db),
    botPositions: createBotPositionsRepo(db.db),
    /** Worker heartbeats (the worker writes them) and the database's own health. */
    health: createHealthRepo(db.db),
  };

  // Trades after the entry: readiness gate, trade lock, ladder, supervision, reconciliation (DESIGN §6).
  const readiness = createAccountReadiness();
  const executor = createOrderExecutor({ trades: repos.trades, log, readiness });
  const lifecycle = createTradeLifecycle({ trades: repos.trades, executor });
  const tradeLock = createTradeLock(db.pool);
  const takeProfits = createTakeProfitOrders({ trades: repos.trades, executor, log });
  const venueStopsRepo = createVenueStopsRepo(db.db);
  const venueStops = createVenueStopGuard({ stops: venueStopsRepo, trades: repos.trades, log });
  const supervisor = createTradeSupervisor({
    trades: repos.trades,
    botPositions: repos.botPositions,
    accounts: repos.accounts,
    gateways: venues.gateways,
    executor,
    lifecycle,
    takeProfits,
    venueStops,
    lock: tradeLock,
    log,
  });
  const reconciler = createReconciler({
    trades: repos.trades,
    accounts: repos.accounts,
    gateways: venues.gateways,
    executor,
    supervisor,
    venueStops,
    positions: createPositionCheck({ trades: repos.trades, lifecycle, lock: tradeLock, log }),
    readiness,
    log,
  });
  readiness.bind(async (accountId) => void (await reconciler.settleLiveOrders(accountId)));

  const engine = {
    executor,
    venueStops,
    lifecycle,
    supervisor,
    reconciler,
    /** Paper fill events, reconciliation and the stop-loss watch (the worker runs it). */
    startTradeMonitor: (options?: TradeMonitorOptions) =>
      startTradeMonitor(
        {
          paperVenue: venues.paperVenue,
          trades: repos.trades,
          gateways: venues.gateways,
          executor,
          supervisor,
          reconciler,
          venueStops,
          stopWatchTrades: createStopWatchRepo(db.db),
          lock: tradeLock,
          log,
        },
        options,
      ),
    processor: createAlertProcessor({
      alerts: repos.alerts,
      trades: repos.trades,
      botPositions: repos.botPositions,
      lifecycle: supervisor.managedLifecycle,
      entries: { open: supervisor.openWithStop, setUp: supervisor.setUpAfterEntries },
      gateways: venues.gateways,
      log,
      botConcurrency: config.botConcurrency,
    }),
    /** Exits a bot's open trade at market (bot stopped, admin close). */
    async closeBotPosition(botId: string, reason: CloseReason) {
      await supervisor.closeBotTrade(botId, reason);
    },
  };

  // Dashboard and portfolio: in the user's currency (EUR converted at the paper venue's EUR/USDT).
  const converterFor = createCurrencyConverter(venues.marketData);
  const usersService = createUsersService({ repo: repos.auth });
  const preferences = (userId: string) => usersService.settings(userId);
  const ownedTrades = createOwnedTradesRepo(db.db);
  const tradeMarks = createTradeMarks({ repo: ownedTrades, gateways: venues.gateways, log });
  /** Trades' figures, as every screen shows them, come from the ledger (issue 19). */
  const tradeLedger = createTradeLedgerRepo(db.db);
  // Portfolio's equity is the dashboard's "Total equity (est.)" too (issue 21): one definition.
  const portfolio = createPortfolioService({
    repo: createPortfolioRepo(db.db),
    accounts: repos.accounts,
    gatewayFor: (a) => venues.gateways.forAccount(a),
    converterFor,
    preferences,
  });

  // Admin consoles: every admin action goes through the audit log.
  const audit = createAuditService({ repo: createAuditRepo(db.db), log });
  const events = createEventHub({ pool: db.pool, log });
  const quotas = createQuotasService({ repo: createQuotasRepo(db.db), audit, budget: config.userLimit });
  const invites = createInvitesService({
    repo: createInvitesRepo(db.db),
    audit,
    publicUrl: config.publicUrl,
  });

  return {
    sealer,
    mailer,
    venues,
    repos,
    engine,
    health: createHealthService({ repo: repos.health, config }),
    sessionCache,
    auth: createAuthService({
      cache: sessionCache,
      repo: repos.auth,
      sealer,
      mailer,
      adminEmail: config.adminEmail,
      adminSetup: config.adminSetupToken
        ? { token: config.adminSetupToken, chosen: true }
        : { token: newToken('kst'), chosen: false },
      publicUrl: config.publicUrl,
      registration: { mode: config.registration, invites },
    }),
    users: usersService,
    quotas,
    /** Sealed values at rest: the start-up re-seal of v1 values (issue 20). */
    secrets: createSecretsService({ repo: createSecretsRepo(db.db), sealer, log }),
    strategies: createStrategiesService({ repo: repos.strategies, sealer, quotas }),
    alerts: createAlertsService({
      strategies: repos.strategies,
      alerts: repos.alerts,
      sealer,
      limits: config.webhookLimit,
    }),
    /** Refused webhooks, counted for the alerts console (issue 21). */
    webhookRejections: createRejectionRecorder({ repo: webhookRejectionsRepo, log }),
    accounts: createAccountsService({
      repo: repos.accounts,
      sealer,
      venues: venues.accountVenues,
      audit,
      quotas,
    }),
    market: createMarketService({
      accounts: repos.accounts,
      marketData: venues.marketData,
      gatewayFor: (a) => venues.gateways.forAccount(a),
    }),
    trades: createTradesService({
      trades: repos.trades,
      owned: ownedTrades,
      accounts: repos.accounts,
      gateways: venues.gateways,
      lifecycle: supervisor.managedLifecycle,
      supervisor,
      takeProfits,
      lock: tradeLock,
      venueStops: venueStopsRepo,
      marks: tradeMarks,
      ledger: tradeLedger,
    }),
    /** The user's orders, read as orders (issue 21). */
    orders: createOrdersService({ repo: createOrdersRepo(db.db) }),
    idempotency: createIdempotencyService({ repo: createIdempotencyRepo(db.db), sealer }),
    bots: createBotsService({
      repo: repos.bots,
      accounts: repos.accounts,
      strategies: repos.strategies,
      closePosition: (botId, reason) => engine.closeBotPosition(botId, reason),
      marks: tradeMarks,
      quotas,
      ledger: tradeLedger,
    }),
    audit,
    admin: {
      alerts: createAdminAlertsService({
        repo: createAdminAlertsRepo(db.db),
        audit,
        rejections: webhookRejectionsRepo,
      }),
      outbox: createOutboxService({ outbox, sealer }),
      /** Invite links for closed registration (issue 20). */
      invites,
      tradeControl: createTradeControlService({
        repo: createTradeControlRepo(db.db),
        trades: repos.trades,
        executor,
        gateways: venues.gateways,
        lock: tradeLock,
        closeBotPosition: (botId, reason) => engine.closeBotPosition(botId, reason),
        pushToTakeProfit: createTradeControlPush({
          trades: repos.trades,
          takeProfits,
          supervisor,
          lock: tradeLock,
        }),
        audit,
        marks: tradeMarks,
      }),
    },
    events,
    botsListCache: createBotsListCache({ events }),
    dashboard: createDashboardService({
      repo: createDashboardRepo(db.db),
      converterFor,
      preferences,
      openTrades: { repo: ownedTrades, marks: tradeMarks, ledger: tradeLedger },
      equity: (userId, accountId) => portfolio.equity(userId, accountId),
    }),
    portfolio,
    /** Payment provider: manual by default (an admin records payments); a Stripe adapter plugs in here. */
    billing: createBillingService({
      repo: createBillingRepo(db.db),
      provider: createManualPaymentProvider(),
      audit,
      log,
      // Billing is in USDT; another quote currency is priced on the paper venue's market data (offline).
      priceInUsdt: async (currency) => {
        const last = (await venues.marketData.fetchTicker(`${currency}/USDT`)).last;
        return last ? { rate: last, source: `${currency}/USDT (paper venue)` } : null;
      },
    }),
  };
}

export type Services = ReturnType<typeof createServices>;
