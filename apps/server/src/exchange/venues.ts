import { apiError, nestedParams } from '@kairos/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { VenueUrls } from '../config';
import type { Database } from '../db/client';
import type { tradingAccounts } from '../db/schema/index';
import {
  createGatewayProvider,
  openAccountKeys,
  type AccountVenues,
  type VenueCredentials,
} from './gateway-provider';
import { type Sealer, UnreadableSealedValueError } from '../lib/crypto';
import { DomainRuleError } from '../lib/errors';
import { valueBalances } from './valuation';
import { capabilitiesFor, offeredVenues } from './capabilities';
import { CcxtGateway } from './ccxt-gateway';
import { ExchangeAuthenticationError, ExchangeGatewayError } from './errors';
import type { ExchangeGateway } from './gateway';
import { PaperGateway } from './paper/paper-gateway';
import { createPgPaperLedgerStore } from './paper/paper-ledger-pg';
import { PaperVenue, type PaperVenueOptions } from './paper/paper-venue';
import { sharedVenueThrottles } from './venue-throttle';

type AccountRow = typeof tradingAccounts.$inferSelect;

/** Account id of the market-data-only view of the paper venue (public prices, books and candles). */
const MARKET_DATA_ACCOUNT = '00000000-0000-0000-0000-000000000000';

/**
 * The exchange layer's composition: one paper venue for every paper account, one ccxt gateway
 * per real account (sharing each venue's throttle), and the checks the accounts domain needs.
 */
export function createVenues(deps: {
  db: Database;
  sealer: Sealer;
  log: FastifyBaseLogger;
  /** KAIROS_VENUE_URLS: where ccxt reaches each venue listed. */
  venueUrls: VenueUrls;
  /** Per-request timeout of ccxt calls (ccxt's own default, 10 s, when unset). */
  timeoutMs?: number;
  /** Market, clock and fees of the paper venue (defaults: the simulator, the wall clock, 0.1 %). */
  paper?: Omit<PaperVenueOptions, 'store'>;
}) {
  const paperVenue = new PaperVenue({ ...deps.paper, store: createPgPaperLedgerStore(deps.db) });

  function ccxtGateway(c: VenueCredentials): CcxtGateway {
    return new CcxtGateway({
      exchangeId: c.exchange,
      apiKey: c.apiKey ?? '',
      secret: c.apiSecret ?? '',
      password: c.passphrase,
      sandbox: c.sandbox,
      marketType: c.marketType,
      throttle: sharedVenueThrottles,
      ...(deps.venueUrls[c.exchange] !== undefined ? { apiUrls: deps.venueUrls[c.exchange] } : {}),
      ...(deps.timeoutMs ? { timeoutMs: deps.timeoutMs } : {}),
    });
  }

  const gateways = createGatewayProvider((account: AccountRow): ExchangeGateway => {
    if (account.exchange === 'paper') return new PaperGateway(paperVenue, account.id, account.marketType);
    return ccxtGateway({
      exchange: account.exchange,
      marketType: account.marketType,
      sandbox: account.sandbox,
      ...openAccountKeys(deps.sealer, account),
    });
  });

  const accountVenues: AccountVenues = {
    async verify(c) {
      if (!capabilitiesFor(c.exchange).proven)
        throw new DomainRuleError(
          ...apiError('UNSUPPORTED_EXCHANGE', { variant: 'notOffered', exchange: c.exchange }),
        );
      let gateway: CcxtGateway;
      try {
        gateway = ccxtGateway(c);
      } catch (e) {
        throw new DomainRuleError(
          ...(e instanceof Error
            ? apiError(
                'UNSUPPORTED_EXCHANGE',
                nestedParams('error', e instanceof ExchangeGatewayError ? e : { message: e.message }),
              )
            : apiError('UNSUPPORTED_EXCHANGE', { variant: 'unknown' })),
        );
      }
      if (capabilitiesFor(c.exchange).requiresPassword && !c.passphrase) {
        throw new DomainRuleError(...apiError('PASSPHRASE_REQUIRED', { exchange: c.exchange }));
      }
      try {
        const balances = await gateway.fetchBalances();
        const permissions = await gateway.checkApiKeyPermissions();
        if (permissions.canWithdraw) {
          throw new DomainRuleError(...apiError('KEY_CAN_WITHDRAW'));
        }
        if (permissions.canTrade === false) {
          throw new DomainRuleError(
            ...apiError('KEY_CANNOT_TRADE', { exchange: c.exchange, marketType: c.marketType }),
          );
        }
        // Kairos keeps one position per symbol: a hedge-mode account would refuse every futures order.
        if ((await gateway.fetchPositionMode()) === 'hedge') {
          const family = c.exchange.startsWith('binance') ? 'binance' : c.exchange;
          throw new DomainRuleError(
            ...(family === 'binance' || family === 'bybit' || family === 'okx'
              ? apiError('HEDGE_MODE', { variant: family })
              : apiError('HEDGE_MODE', { exchange: c.exchange })),
          );
        }
        return {
          usdtBalance: balances.USDT?.total ?? '0',
          canWithdraw: permissions.canWithdraw === null ? null : false,
          withdrawSource: permissions.source,
        };
      } catch (e) {
        if (e instanceof DomainRuleError) throw e;
        if (e instanceof ExchangeAuthenticationError) {
          throw new DomainRuleError(
            ...apiError('EXCHANGE_AUTH_FAILED', { exchange: c.exchange, reason: e.message }),
          );
        }
        if (e instanceof ExchangeGatewayError) {
          throw new DomainRuleError(
            ...apiError('EXCHANGE_UNAVAILABLE', { exchange: c.exchange, reason: e.message }),
          );
        }
        throw e;
      }
    },
    async fundPaper(account, startingBalance) {
      await paperVenue.fundAccount(account.id, { USDT: startingBalance });
    },
    async balances(account) {
      let gateway: ExchangeGateway;
      try {
        gateway = await gateways.forAccount(account);
      } catch (e) {
        // The account's keys do not open at their place (issue 20): entering them again mends it.
        if (e instanceof UnreadableSealedValueError)
          throw new DomainRuleError(...apiError('ACCOUNT_KEYS_UNREADABLE'));
        throw e;
      }
      const balances = await gateway.fetchBalances();
      const { total } = await valueBalances(gateway, balances);
      return { usdt: balances.USDT?.total ?? '0', equity: total.toFixed() };
    },
    forget: (id) => gateways.forget(id),
  };

  return {
    paperVenue,
    gateways,
    accountVenues,
    /** Prices, books and candles of the paper venue, for anyone (no account needed). */
    marketData: new PaperGateway(paperVenue, MARKET_DATA_ACCOUNT, 'spot') as ExchangeGateway,
    exchanges: () => [
      {
        id: 'paper',
        name: 'Paper trading (simulated)',
        marketTypes: ['spot', 'future'] as ('spot' | 'future')[],
        sandbox: false,
        sandboxMarketTypes: [] as ('spot' | 'future')[],
        sandboxKind: {},
        needsPassphrase: false,
      },
      ...offeredVenues().map((v) => {
        // The capability says how ccxt switches it on; the answer, what the user gets: testnet or demo.
        const kindOf = (type: 'spot' | 'future') =>
          !v.marketTypes.includes(type) || v.sandbox[type] === undefined
            ? undefined
            : v.sandbox[type] === 'demo'
              ? ('demo' as const)
              : ('testnet' as const);
        const sandboxMarketTypes = v.marketTypes.filter((type) => kindOf(type) !== undefined);
        return {
          id: v.id,
          name: v.displayName,
          marketTypes: [...v.marketTypes],
          sandbox: sandboxMarketTypes.length > 0,
          sandboxMarketTypes,
          sandboxKind: { spot: kindOf('spot'), future: kindOf('future') },
          needsPassphrase: v.requiresPassword,
        };
      }),
    ],
  };
}

export type Venues = ReturnType<typeof createVenues>;
