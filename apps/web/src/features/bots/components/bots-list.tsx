import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { buttonClasses } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/states';
import { type Column, Table } from '../../../components/ui/table';
import { paths } from '../../../config/paths';
import { type Row, field, flag, numeric, text } from '../../../lib/fields';
import { useFormatters } from '../../../lib/use-formatters';
import { useBots } from '../api/get-bots';
import { ActiveBadge, PositionBadge } from './position-badge';

export function BotsList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const format = useFormatters();
  const bots = useBots();

  const columns: Column<Row>[] = [
    {
      key: 'nickname',
      header: t('bots.columns.name'),
      cell: (bot) => <span className="font-medium">{text(bot, 'nickname') ?? t('bots.defaultName')}</span>,
    },
    {
      key: 'strategy',
      header: t('bots.columns.strategy'),
      cell: (bot) => text(field(bot, 'strategy'), 'nickname', 'strategyKey', 'strategy_key') ?? '—',
    },
    {
      key: 'account',
      header: t('bots.columns.account'),
      cell: (bot) => text(field(bot, 'tradingAccount', 'trading_account'), 'nickname', 'exchange') ?? '—',
    },
    {
      key: 'currency',
      header: t('bots.columns.pair'),
      cell: (bot) =>
        [text(bot, 'tradeCurrency', 'trade_currency'), text(bot, 'stableCoin', 'stable_coin')]
          .filter(Boolean)
          .join('/') || '—',
    },
    {
      key: 'goal',
      header: t('bots.columns.monthlyGoal'),
      numeric: true,
      cell: (bot) => format.percent(numeric(bot, 'monthlyGoalPercent', 'monthly_goal_percent')),
    },
    {
      key: 'position',
      header: t('bots.columns.position'),
      cell: (bot) => <PositionBadge position={field(bot, 'position')} />,
    },
    {
      key: 'active',
      header: t('bots.columns.status'),
      cell: (bot) => <ActiveBadge active={flag(bot, 'isActive', 'is_active')} />,
    },
  ];

  return (
    <Table
      caption={t('bots.title')}
      columns={columns}
      rows={bots.data}
      rowKey={(bot) => text(bot, 'id') ?? JSON.stringify(bot)}
      loading={bots.isPending}
      error={bots.isError ? bots.error : undefined}
      onRetry={() => void bots.refetch()}
      onRowClick={(bot) => {
        const id = text(bot, 'id');
        if (id) void navigate(paths.bot(id));
      }}
      empty={
        <EmptyState
          title={t('bots.empty.title')}
          description={t('bots.empty.description')}
          actions={
            <Link to={paths.accounts} className={buttonClasses({ variant: 'secondary' })}>
              {t('dashboard.empty.connectAccount')}
            </Link>
          }
        />
      }
    />
  );
}
