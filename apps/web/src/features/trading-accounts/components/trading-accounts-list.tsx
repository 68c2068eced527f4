import { useTranslation } from 'react-i18next';
import { Badge } from '../../../components/ui/status-badge';
import { EmptyState } from '../../../components/ui/states';
import { type Column, Table } from '../../../components/ui/table';
import { type Row, numeric, text } from '../../../lib/fields';
import { useFormatters } from '../../../lib/use-formatters';
import { useTradingAccounts } from '../api/get-trading-accounts';

export function TradingAccountsList() {
  const { t } = useTranslation();
  const format = useFormatters();
  const accounts = useTradingAccounts();
  const columns: Column<Row>[] = [
    {
      key: 'nickname',
      header: t('accounts.columns.nickname'),
      cell: (account) => <span className="font-medium">{text(account, 'nickname') ?? '—'}</span>,
    },
    {
      key: 'exchange',
      header: t('accounts.columns.exchange'),
      cell: (account) => {
        const exchange = text(account, 'exchange') ?? '—';
        return exchange === 'paper' ? (
          <Badge tone="info" glyph="◇">
            {t('accounts.paper')}
          </Badge>
        ) : (
          <span className="capitalize">{exchange}</span>
        );
      },
    },
    {
      key: 'balance',
      header: t('accounts.columns.balance'),
      numeric: true,
      cell: (account) => `${format.decimal(numeric(account, 'usdtBalance', 'usdt_balance'))} USDT`,
    },
  ];
  return (
    <Table
      caption={t('accounts.title')}
      columns={columns}
      rows={accounts.data}
      rowKey={(account) => text(account, 'id') ?? JSON.stringify(account)}
      loading={accounts.isPending}
      error={accounts.isError ? accounts.error : undefined}
      onRetry={() => void accounts.refetch()}
      empty={<EmptyState title={t('accounts.empty.title')} description={t('accounts.empty.description')} />}
    />
  );
}
