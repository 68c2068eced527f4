import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/ui/states';
import { type Column, Table } from '../../../components/ui/table';
import { type Row, numeric, text } from '../../../lib/fields';
import { useFormatters } from '../../../lib/use-formatters';
import { useMarketPairs } from '../api/get-market-pairs';

export function MarketPairs() {
  const { t } = useTranslation();
  const format = useFormatters();
  const pairs = useMarketPairs();
  const columns: Column<Row>[] = [
    {
      key: 'symbol',
      header: t('trading.columns.symbol'),
      cell: (pair) => <span className="font-medium">{text(pair, 'symbol') ?? '—'}</span>,
    },
    {
      key: 'last',
      header: t('trading.columns.last'),
      numeric: true,
      cell: (pair) => format.decimal(numeric(pair, 'last', 'price', 'lastPrice')),
    },
    {
      key: 'change',
      header: t('trading.columns.change'),
      numeric: true,
      cell: (pair) => format.percent(numeric(pair, 'change24h', 'percentage', 'changePercent')),
    },
  ];
  return (
    <Table
      caption={t('trading.pairs')}
      columns={columns}
      rows={pairs.data}
      rowKey={(pair) => text(pair, 'symbol') ?? JSON.stringify(pair)}
      loading={pairs.isPending}
      error={pairs.isError ? pairs.error : undefined}
      onRetry={() => void pairs.refetch()}
      empty={<EmptyState title={t('trading.empty.title')} description={t('trading.empty.description')} />}
    />
  );
}
