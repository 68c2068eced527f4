import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { PlusIcon } from '../../../components/ui/icons';
import { EmptyState } from '../../../components/ui/states';
import { type Column, Table } from '../../../components/ui/table';
import { translateMessage } from '../../../i18n/translate-message';
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

/** Spec §2 TradingAccounts: venue, market type, balance, bots, status; edit and delete per row. */
export function TradingAccountsList({ onConnect }: { onConnect: () => void }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const accounts = useTradingAccounts();
  const venues = useExchanges();
  const [editing, setEditing] = useState<TradingAccount | null>(null);
  const [deleting, setDeleting] = useState<TradingAccount | null>(null);
  const venueOf = (account: TradingAccount) => venues.data?.find((venue) => venue.id === account.exchange);

  const columns: Column<TradingAccount>[] = [
    {
      key: 'nickname',
      header: t('accounts.columns.nickname'),
      cell: (account) => <span className="font-medium">{account.nickname}</span>,
    },
    {
      key: 'venue',
      header: t('accounts.columns.exchange'),
      cell: (account) => <VenueLabel account={account} venueName={venueOf(account)?.name} />,
    },
    {
      key: 'apiKey',
      header: t('accounts.columns.apiKey'),
      cell: (account) =>
        account.apiKeyMask ? (
          <span className="flex flex-col items-start gap-0.5">
            <span className="font-mono text-xs text-muted">{account.apiKeyMask}</span>
            {account.withdrawRiskAcknowledgedAt ? (
              <WithdrawRiskNote at={account.withdrawRiskAcknowledgedAt} />
            ) : null}
          </span>
        ) : (
          <span className="text-xs text-subtle">{t('accounts.noKeys')}</span>
        ),
    },
    {
      key: 'balance',
      header: t('accounts.columns.balance'),
      numeric: true,
      cell: (account) => (
        <span title={t('accounts.balanceUpdated', { time: format.dateTime(account.balanceUpdatedAt) })}>
          {formatMoneyNumber(account.usdtBalance, 'USDT', { locale: format.locale })}{' '}
          <span className="text-xs text-subtle">USDT</span>
        </span>
      ),
    },
    {
      key: 'bots',
      header: t('accounts.columns.bots'),
      numeric: true,
      cell: (account) => account.botCount,
    },
    {
      key: 'status',
      header: t('accounts.columns.status'),
      cell: (account) => (
        <span className="flex max-w-72 flex-col items-start gap-0.5">
          <AccountStatusBadge status={account.status} />
          {account.status === 'error' && account.lastError ? (
            <span className="truncate text-xs text-loss" title={account.lastError}>
              {translateMessage(t, account.lastError)}
            </span>
          ) : null}
        </span>
      ),
    },
    {
      key: 'actions',
      header: <span className="sr-only">{t('accounts.columns.actions')}</span>,
      className: 'w-px text-right',
      cell: (account) => (
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
      ),
    },
  ];

  return (
    <>
      <Table
        caption={t('accounts.title')}
        columns={columns}
        rows={accounts.data}
        rowKey={(account) => account.id}
        loading={accounts.isPending}
        error={accounts.isError ? accounts.error : undefined}
        onRetry={() => void accounts.refetch()}
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
