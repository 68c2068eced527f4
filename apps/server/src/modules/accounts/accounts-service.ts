import { randomUUID } from 'node:crypto';
import { toDecimal } from '@kairos/core';
import { apiError, type TradingAccount } from '@kairos/contract';
import type { Sealer } from '../../lib/crypto';
import { maskSecret, UnreadableSealedValueError } from '../../lib/crypto';
import { ConflictError, DomainRuleError, NotFoundError } from '../../lib/errors';
import type { AuditService } from '../audit/audit-service';
import type { AuthedUser } from '../auth/auth-service';
import type { QuotasService } from '../quotas/quotas-service';
import {
  accountKeyAt,
  type AccountKeyColumn,
  type AccountVenues,
  type VenueCredentials,
} from '../../exchange/gateway-provider';
import type { AccountsRepo, TradingAccountRow } from './accounts-repo';
import { NO_LAST_ERROR } from '../../engine/last-error';
import { refreshError } from './refresh-error';

export const DEFAULT_PAPER_BALANCE = '10000';
/** Scheduled refreshes keep at most one equity snapshot per account per this interval. */
const SNAPSHOT_INTERVAL_MS = 15 * 60_000;

export type AccountsService = ReturnType<typeof createAccountsService>;

export function createAccountsService(deps: {
  repo: AccountsRepo;
  sealer: Sealer;
  venues: AccountVenues;
  audit: Pick<AuditService, 'recordAudit'>;
  quotas: Pick<QuotasService, 'assertRoom'>;
}) {
  const { repo, sealer, venues } = deps;

  /** Sealed at its column of its account (issue 20): moved into another row or column, it does not open. */
  const sealKey = (accountId: string, column: AccountKeyColumn, plain: string) =>
    sealer.seal(plain, accountKeyAt(accountId, column));

  /**
   * Issue 20: a real-money key whose withdraw permission the venue does not report is taken only when the user
   * says they made sure it cannot withdraw (a testnet or demo key moves no real funds, so it is not asked).
   */
  function assertWithdrawRiskAccepted(
    c: { exchange: string; sandbox: boolean },
    verified: { canWithdraw: false | null },
    acknowledged: boolean | undefined,
  ) {
    if (verified.canWithdraw === null && !c.sandbox && acknowledged !== true)
      throw new DomainRuleError(...apiError('WITHDRAW_PERMISSION_UNKNOWN', { exchange: c.exchange }));
  }

  /** Now, when the key just verified needed the acknowledgement (it was given: checked before); else null. */
  const withdrawRiskAcknowledgedAt = (c: { sandbox: boolean }, verified: { canWithdraw: false | null }) =>
    verified.canWithdraw === null && !c.sandbox ? new Date() : null;

  /**
   * The acknowledgement is kept on the account (`withdrawRiskAcknowledgedAt`, shown with it) and in the audit
   * log: who, which account, which venue, and where Kairos asked for the key's permissions.
   */
  async function recordWithdrawRiskAccepted(
    user: AuthedUser,
    account: TradingAccountRow,
    verified: { withdrawSource: string },
  ) {
    if (!account.withdrawRiskAcknowledgedAt) return;
    await deps.audit.recordAudit(
      { id: user.id, email: user.email, kind: 'user' },
      {
        action: 'account.withdraw_risk_acknowledged',
        target: `account:${account.id}`,
        details: {
          exchange: account.exchange,
          marketType: account.marketType,
          apiKeyMask: account.apiKeyMask,
          source: verified.withdrawSource,
        },
        outcome: 'ok',
      },
    );
  }

  function toDto(a: TradingAccountRow, botCount: number): TradingAccount {
    return {
      id: a.id,
      nickname: a.nickname,
      exchange: a.exchange,
      marketType: a.marketType,
      sandbox: a.sandbox,
      apiKeyMask: a.apiKeyMask,
      usdtBalance: a.usdtBalance,
      balanceUpdatedAt: a.balanceUpdatedAt?.toISOString() ?? null,
      status: a.status,
      lastError: a.lastError,
      lastErrorCode: a.lastErrorCode,
      lastErrorParams: a.lastErrorParams,
      withdrawRiskAcknowledgedAt: a.withdrawRiskAcknowledgedAt?.toISOString() ?? null,
      botCount,
      createdAt: a.createdAt.toISOString(),
      updatedAt: a.updatedAt.toISOString(),
    };
  }

  async function owned(user: AuthedUser, id: string) {
    const a = await repo.findOwned(user.id, id);
    if (!a) throw new NotFoundError(...apiError('NOT_FOUND', { variant: 'account' }));
    return a;
  }

  return {
    async list(user: AuthedUser) {
      return (await repo.listOwned(user.id)).map((r) => toDto(r.account, r.botCount));
    },

    async create(
      user: AuthedUser,
      input: VenueCredentials & {
        nickname: string;
        startingBalance?: string;
        withdrawRiskAcknowledged?: boolean;
      },
    ): Promise<TradingAccount> {
      // Before the venue is asked anything: a user at the cap cannot make Kairos call venues for them.
      await deps.quotas.assertRoom(user, 'tradingAccounts');
      const isPaper = input.exchange === 'paper';
      const verified = isPaper
        ? {
            usdtBalance: input.startingBalance ?? DEFAULT_PAPER_BALANCE,
            canWithdraw: false as const,
            withdrawSource: '',
          }
        : await venues.verify(input);
      assertWithdrawRiskAccepted(input, verified, input.withdrawRiskAcknowledged);
      const { usdtBalance } = verified;
      const id = randomUUID(); // the keys are sealed to their row before it exists
      const account = await repo.insert({
        id,
        userId: user.id,
        nickname: input.nickname,
        exchange: input.exchange,
        marketType: input.marketType,
        sandbox: isPaper ? false : input.sandbox,
        apiKeySealed: !isPaper && input.apiKey ? sealKey(id, 'api_key_sealed', input.apiKey) : null,
        apiSecretSealed:
          !isPaper && input.apiSecret ? sealKey(id, 'api_secret_sealed', input.apiSecret) : null,
        passphraseSealed:
          !isPaper && input.passphrase ? sealKey(id, 'passphrase_sealed', input.passphrase) : null,
        apiKeyMask: !isPaper && input.apiKey ? maskSecret(input.apiKey) : null,
        withdrawRiskAcknowledgedAt: withdrawRiskAcknowledgedAt(input, verified),
        usdtBalance,
        balanceUpdatedAt: new Date(),
      });
      if (isPaper) await venues.fundPaper(account, usdtBalance);
      await recordWithdrawRiskAccepted(user, account, verified);
      await repo.recordSnapshot(account, usdtBalance, 0); // the equity curve starts here
      return toDto(account, 0);
    },

    async update(
      user: AuthedUser,
      id: string,
      input: {
        nickname?: string;
        sandbox?: boolean;
        apiKey?: string;
        apiSecret?: string;
        passphrase?: string;
        withdrawRiskAcknowledged?: boolean;
      },
    ): Promise<TradingAccount> {
      const current = await owned(user, id);
      // A paper account has no keys: key fields are ignored for it, as on create.
      const rotating = current.exchange !== 'paper' && Boolean(input.apiKey || input.apiSecret);
      const changesVenue = rotating || (input.sandbox !== undefined && input.sandbox !== current.sandbox);
      let balance: string | undefined;
      let verified: Awaited<ReturnType<AccountVenues['verify']>> | undefined;
      if (current.exchange !== 'paper' && changesVenue) {
        if (rotating && !(input.apiKey && input.apiSecret)) {
          throw new ConflictError(...apiError('KEY_PAIR_REQUIRED'));
        }
        // The stored keys are opened only where none is given: keys that no longer open (issue 20) are
        // replaced by entering them again, and refused with what to do when one of them is still needed.
        const keep = (given: string | undefined, sealed: string | null, column: AccountKeyColumn) => {
          if (given !== undefined || !sealed) return given;
          try {
            return sealer.open(sealed, accountKeyAt(id, column));
          } catch (e) {
            if (e instanceof UnreadableSealedValueError)
              throw new DomainRuleError(...apiError('ACCOUNT_KEYS_UNREADABLE'));
            throw e;
          }
        };
        verified = await venues.verify({
          exchange: current.exchange,
          marketType: current.marketType,
          sandbox: input.sandbox ?? current.sandbox,
          apiKey: keep(input.apiKey, current.apiKeySealed, 'api_key_sealed'),
          apiSecret: keep(input.apiSecret, current.apiSecretSealed, 'api_secret_sealed'),
          passphrase: keep(input.passphrase, current.passphraseSealed, 'passphrase_sealed'),
        });
        assertWithdrawRiskAccepted(
          { exchange: current.exchange, sandbox: input.sandbox ?? current.sandbox },
          verified,
          input.withdrawRiskAcknowledged,
        );
        balance = verified.usdtBalance;
      }
      const updated = await repo.update(id, {
        ...(input.nickname ? { nickname: input.nickname } : {}),
        ...(current.exchange !== 'paper' && input.sandbox !== undefined ? { sandbox: input.sandbox } : {}),
        ...(rotating
          ? {
              apiKeySealed: sealKey(id, 'api_key_sealed', input.apiKey!),
              apiSecretSealed: sealKey(id, 'api_secret_sealed', input.apiSecret!),
              apiKeyMask: maskSecret(input.apiKey!),
              ...(input.passphrase !== undefined
                ? {
                    passphraseSealed: input.passphrase
                      ? sealKey(id, 'passphrase_sealed', input.passphrase)
                      : null,
                  }
                : {}),
            }
          : {}),
        ...(verified
          ? {
              withdrawRiskAcknowledgedAt: withdrawRiskAcknowledgedAt(
                { sandbox: input.sandbox ?? current.sandbox },
                verified,
              ),
            }
          : {}),
        ...(balance !== undefined
          ? {
              usdtBalance: balance,
              balanceUpdatedAt: new Date(),
              status: 'active' as const,
              ...NO_LAST_ERROR,
            }
          : {}),
      });
      if (changesVenue) venues.forget(id);
      if (verified) await recordWithdrawRiskAccepted(user, updated, verified);
      return toDto(updated, (await repo.botsOf(id)).length);
    },

    /** An account with bots is deleted only when the caller says the bots go too, and never with open trades. */
    async remove(user: AuthedUser, id: string, botsPolicy: 'refuse' | 'delete') {
      await owned(user, id);
      const open = await repo.openTradeCount(id);
      if (open > 0) {
        throw new ConflictError(...apiError('ACCOUNT_HAS_OPEN_TRADES', { count: open }));
      }
      const botCount = (await repo.botsOf(id)).length;
      if (botCount > 0 && botsPolicy !== 'delete') {
        throw new ConflictError(...apiError('ACCOUNT_HAS_BOTS', { count: botCount }));
      }
      await repo.archive(id, botsPolicy === 'delete');
      venues.forget(id);
    },

    /** How much of the account other bots already claim, so the wizard can refuse over-allocation. */
    async botsDistribution(user: AuthedUser, id: string, excludeBotId?: string) {
      const account = await owned(user, id);
      const others = (await repo.botsOf(id)).filter((b) => b.id !== excludeBotId);
      const allocated = others.reduce((s, b) => s.plus(b.portfolioPercent ?? 0), toDecimal(0));
      return {
        accountId: id,
        usdtBalance: account.usdtBalance,
        allocatedPercent: allocated.toFixed(2),
        availablePercent: toDecimal(100).minus(allocated).clampedTo(0, 100).toFixed(2),
        bots: others.map((b) => ({
          botId: b.id,
          nickname: b.nickname,
          portfolioPercent: b.portfolioPercent,
          fixedAmount: b.fixedAmount,
          isActive: b.isActive,
        })),
      };
    },

    /**
     * Refreshes every account's USDT balance (the scheduled job) or some accounts' (after a trade
     * closed: `snapshotNow` records their equity at once instead of at most every 15 minutes).
     */
    async refreshBalances(accountIds?: string[], snapshotNow = false) {
      const accounts = (await repo.listAll()).filter((a) => !accountIds || accountIds.includes(a.id));
      let refreshed = 0;
      for (const a of accounts) {
        try {
          const { usdt, equity } = await venues.balances(a);
          await repo.saveBalance(a.id, usdt, null);
          await repo.recordSnapshot(a, equity, snapshotNow ? 0 : SNAPSHOT_INTERVAL_MS);
          refreshed += 1;
        } catch (e) {
          await repo.saveBalance(a.id, a.usdtBalance, refreshError(a.exchange, e));
        }
      }
      return refreshed;
    },
  };
}
