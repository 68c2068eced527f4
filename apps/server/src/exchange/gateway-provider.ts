import type { tradingAccounts } from '../db/schema/index';
import type { SealedAt, Sealer } from '../lib/crypto';
import type { ExchangeGateway } from './gateway';

/** A trading account as stored: what a gateway is built from. */
export type AccountRow = typeof tradingAccounts.$inferSelect;

/** The sealed exchange-key columns of `trading_accounts`. */
export type AccountKeyColumn = 'api_key_sealed' | 'api_secret_sealed' | 'passphrase_sealed';

/** Where an account's sealed key lives (issue 20): bound to its column and account, it opens nowhere else. */
export const accountKeyAt = (accountId: string, column: AccountKeyColumn): SealedAt => ({
  table: 'trading_accounts',
  column,
  row: accountId,
});

/** An account's keys, each opened at its own place: a key moved from another row or column throws. */
export function openAccountKeys(
  sealer: Pick<Sealer, 'open'>,
  account: Pick<AccountRow, 'id' | 'apiKeySealed' | 'apiSecretSealed' | 'passphraseSealed'>,
): Pick<VenueCredentials, 'apiKey' | 'apiSecret' | 'passphrase'> {
  const open = (sealed: string | null, column: AccountKeyColumn) =>
    sealed ? sealer.open(sealed, accountKeyAt(account.id, column)) : undefined;
  return {
    apiKey: open(account.apiKeySealed, 'api_key_sealed'),
    apiSecret: open(account.apiSecretSealed, 'api_secret_sealed'),
    passphrase: open(account.passphraseSealed, 'passphrase_sealed'),
  };
}

/** Finds a trading account by id (the accounts repo is one). */
export type AccountLookup = { findById(id: string): Promise<AccountRow | undefined> };

/** The keys and venue of an account being connected or verified. */
export type VenueCredentials = {
  exchange: string;
  marketType: 'spot' | 'future';
  sandbox: boolean;
  apiKey?: string;
  apiSecret?: string;
  passphrase?: string;
};

/** What the accounts domain needs from the exchange layer. */
export type AccountVenues = {
  /**
   * Connects with the keys, fetches the balance, refuses keys that can withdraw; throws a 422 with the venue's
   * reason. `canWithdraw` null: the venue did not say (`withdrawSource`: where Kairos asked).
   */
  verify(
    credentials: VenueCredentials,
  ): Promise<{ usdtBalance: string; canWithdraw: false | null; withdrawSource: string }>;
  /** Credits a new paper account with its simulated starting balance. */
  fundPaper(account: AccountRow, startingBalance: string): Promise<void>;
  /** The account's current USDT balance (total) and its whole equity valued in USDT. */
  balances(account: AccountRow): Promise<{ usdt: string; equity: string }>;
  /** Drops any cached connection after keys change or the account goes. */
  forget(accountId: string): void;
};

/** Resolves an account to the gateway that trades it: the paper venue or a ccxt exchange. */
export type GatewayProvider = { forAccount(account: AccountRow): Promise<ExchangeGateway> };

export type GatewayFactory = (account: AccountRow) => ExchangeGateway | Promise<ExchangeGateway>;

/** One gateway per account, rebuilt when the account changes (keys rotated, sandbox toggled). */
export function createGatewayProvider(
  factory: GatewayFactory,
): GatewayProvider & { forget(accountId: string): void } {
  const cache = new Map<string, { version: number; gateway: Promise<ExchangeGateway> }>();
  return {
    forAccount(account) {
      const version = account.updatedAt.getTime();
      const hit = cache.get(account.id);
      if (hit && hit.version === version) return hit.gateway;
      const gateway = Promise.resolve(factory(account));
      cache.set(account.id, { version, gateway });
      gateway.catch(() => cache.delete(account.id));
      return gateway;
    },
    forget(accountId) {
      cache.delete(accountId);
    },
  };
}
