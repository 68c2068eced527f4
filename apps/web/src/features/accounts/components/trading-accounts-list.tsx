import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { PlusIcon } from '../../../components/ui/icons';
import { EmptyState } from '../../../components/ui/states';
import { type Column } from '../../../components/ui/table';
import { TableOrCards } from '../../../components/ui/table-or-cards';
import { translateStoredMessage } from '../../../i18n/translate-message';
import { useFormatters } from '../../../lib/use-formatters';
import { useExchanges } from '../api/get-exchanges';
import { type TradingAccount, useTradingAccounts } from '../api/get-trading-accounts';
import { DeleteAccountDialog } from './delete-account-dialog';
import { EditAccountDialog } from './edit-account-dialog';
import { AccountStatusBadge, VenueLabel } from './venue-label';
import { formatMoneyNumber } from '../../../lib/money';

/**
 * Issue 20: the venue does not report whether this key may withdraw, and the owner confirmed it cannot —
 * said on the account so they keep it that way.
 */
function WithdrawRiskNote({ at }: { at: string }) {
  const { t } = useTranslation();
  const time = useFormatters().dateTime(at);
  return <span className="text-xs text-warn">{t('accounts.withdrawRiskNote', { time })}</span>;
}

/**
 * Why the account's last balance refresh failed, in the user's language: from its code and params (issue 21);
 * an error written before errors carried them is shown as the server wrote it (translated when it is one of
 * the web's known sentences).
 */
function accountError(t: TFunction, account: TradingAccount): string {
  return translateStoredMessage(t, account.lastError, account.lastErrorCode, account.lastErrorParams) ?? '';
}

/** Spec §2 TradingAccounts: venue, market type, balance, bots, status; edit and delete per row. */
export function TradingAccountsList({ onConnect }: { onConnect: () => void }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const accounts = useTradingAccounts();
  const venues = useExchanges();
  const [editing, setEditing] = useState<TradingAccount | null>(null);
  const [deleting, setDeleting] = useState<TradingAccount | null>(null);
  const venueOf = (account: TradingAccount) => venues.data?.find((venue) => venue.id === account.exchange);

  const venue = (account: TradingAccount) => (
    <VenueLabel account={account} venueName={venueOf(account)?.name} />
  );
  const apiKey = (account: TradingAccount) =>
    account.apiKeyMask ? (
      <span className="flex flex-col items-start gap-0.5">
        <span className="font-mono text-xs text-muted">{account.apiKeyMask}</span>
        {account.withdrawRiskAcknowledgedAt ? (
          <WithdrawRiskNote at={account.withdrawRiskAcknowledgedAt} />
        ) : null}
      </span>
    ) : (
      <span className="text-xs text-subtle">{t('accounts.noKeys')}</span>
    );
  const balance = (account: TradingAccount) => (
    <span title={t('accounts.balanceUpdated', { time: format.dateTime(account.balanceUpdatedAt) })}>
      {formatMoneyNumber(account.usdtBalance, 'USDT', { locale: format.locale })}{' '}
      <span className="text-xs text-subtle">USDT</span>
    </span>
  );
  const status = (account: TradingAccount) => {
    const error = account.status === 'error' ? accountError(t, account) : '';
    return (
      <span className="flex max-w-72 flex-col items-start gap-0.5">
        <AccountStatusBadge status={account.status} />
        {error ? (
          <span className="truncate text-xs text-loss" title={error}>
            {error}
          </span>
        ) : null}
      </span>
    );
  };
  const actions = (account: TradingAccount) => (
    <span className="flex justify-end gap-1">
      <Button
        variant="ghost"
        size="sm"
        onClick={() => setEditing(account)}
        aria-label={t('accounts.edit.action', { name: account.nickname })}
      >
        {t('accounts.edit.short')}
      </Button>
      <Button
        variant="ghost"
        size="sm"
        className="hover:text-loss"
        onClick={() => setDeleting(account)}
        aria-label={t('accounts.delete.action', { name: account.nickname })}
      >
        {t('accounts.delete.short')}
      </Button>
    </span>
  );

  const columns: Column<TradingAccount>[] = [
    {
      key: 'nickname',
      header: t('accounts.columns.nickname'),
      cell: (account) => <span className="font-medium">{account.nickname}</span>,
    },
    { key: 'venue', header: t('accounts.columns.exchange'), cell: venue },
    { key: 'apiKey', header: t('accounts.columns.apiKey'), cell: apiKey },
    { key: 'balance', header: t('accounts.columns.balance'), numeric: true, cell: balance },
    {
      key: 'bots',
      header: t('accounts.columns.bots'),
      numeric: true,
      cell: (account) => account.botCount,
    },
    { key: 'status', header: t('accounts.columns.status'), cell: status },
    {
      key: 'actions',
      header: <span className="sr-only">{t('accounts.columns.actions')}</span>,
      className: 'w-px text-right',
      cell: actions,
    },
  ];

  return (
    <>
      <TableOrCards
        caption={t('accounts.title')}
        columns={columns}
        rows={accounts.data ?? []}
        rowKey={(account) => account.id}
        loading={accounts.isPending}
        error={accounts.isError ? accounts.error : undefined}
        onRetry={() => void accounts.refetch()}
        // Below 640 px a card an account (issue 21: the seven columns scrolled sideways on a phone).
        card={(account) => (
          <article
            aria-label={account.nickname}
            className="flex flex-col gap-2 rounded-lg border border-line bg-surface p-3 text-sm"
          >
            <span className="flex items-start justify-between gap-2">
              <span className="flex min-w-0 flex-col gap-1">
                <span className="font-medium break-words text-fg">{account.nickname}</span>
                {venue(account)}
              </span>
              {status(account)}
            </span>
            <span className="flex items-end justify-between gap-2">
              <span className="flex flex-col">
                <span className="text-xs text-muted">{t('accounts.columns.balance')}</span>
                <span className="num text-fg">{balance(account)}</span>
              </span>
              <span className="flex flex-col items-end">
                <span className="text-xs text-muted">{t('accounts.columns.bots')}</span>
                <span className="num text-fg">{account.botCount}</span>
              </span>
            </span>
            {apiKey(account)}
            <span className="-mx-1 flex justify-end">{actions(account)}</span>
          </article>
        )}
        empty={
          <EmptyState
            title={t('accounts.empty.title')}
            description={t('accounts.empty.description')}
            actions={
              <Button onClick={onConnect} icon={<PlusIcon />}>
                {t('accounts.empty.connectPaper')}
              </Button>
            }
          />
        }
      />
      {editing ? (
        <EditAccountDialog
          key={editing.id}
          account={editing}
          venue={venueOf(editing)}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {deleting ? (
        <DeleteAccountDialog key={deleting.id} account={deleting} onClose={() => setDeleting(null)} />
      ) : null}
    </>
  );
}
