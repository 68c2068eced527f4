import { useTranslation } from 'react-i18next';
import { Card, Stat } from '../../../components/ui/card';
import { EmptyState, QueryView } from '../../../components/ui/states';
import { type Column, Table } from '../../../components/ui/table';
import { type Row, numeric, text } from '../../../lib/fields';
import { useFormatters } from '../../../lib/use-formatters';
import { usePortfolio } from '../api/get-portfolio';

export function PortfolioOverview() {
  const { t } = useTranslation();
  const format = useFormatters();
  const portfolio = usePortfolio();
  const columns: Column<Row>[] = [
    {
      key: 'asset',
      header: t('portfolio.columns.asset'),
      cell: (row) => (
        <span className="font-medium">{text(row, 'asset', 'currency', 'symbol', 'nickname')}</span>
      ),
    },
    {
      key: 'amount',
      header: t('portfolio.columns.amount'),
      numeric: true,
      cell: (row) => format.decimal(numeric(row, 'amount', 'total', 'free', 'balance')),
    },
    {
      key: 'value',
      header: t('portfolio.columns.value'),
      numeric: true,
      cell: (row) => format.currencyValue(numeric(row, 'value', 'usdValue', 'valueUsd')),
    },
  ];
  return (
    <QueryView
      query={portfolio}
      loading={
        <Table caption={t('portfolio.title')} columns={columns} rows={undefined} rowKey={() => ''} loading />
      }
      isEmpty={(data) =>
        data.holdings.length === 0 && numeric(data.summary, 'totalValue', 'total') === undefined
      }
      empty={
        <Card>
          <EmptyState title={t('portfolio.empty.title')} description={t('portfolio.empty.description')} />
        </Card>
      }
    >
      {(data) => (
        <div className="flex flex-col gap-4">
          <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
            <Stat
              label={t('portfolio.totalValue')}
              value={format.currencyValue(numeric(data.summary, 'totalValue', 'total'))}
            />
          </div>
          <Table
            caption={t('portfolio.title')}
            columns={columns}
            rows={data.holdings}
            rowKey={(row) => text(row, 'asset', 'currency', 'symbol', 'id') ?? JSON.stringify(row)}
          />
        </div>
      )}
    </QueryView>
  );
}
