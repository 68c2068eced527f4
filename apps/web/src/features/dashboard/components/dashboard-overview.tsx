import { type ReactNode, memo, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CurrencyConversionNote, useCurrencyUnits } from '../../../components/ui/currency-note';
import { BotIcon, LinkIcon } from '../../../components/ui/icons';
import { PnlText } from '../../../components/ui/pnl-text';
import { Skeleton } from '../../../components/ui/skeleton';
import { TestnetNote } from '../../../components/ui/testnet-badge';
import { EmptyState, ErrorState } from '../../../components/ui/states';
import { paths } from '../../../config/paths';
import { usePreferences } from '../../../lib/preferences-store';
import { useFormatters } from '../../../lib/use-formatters';
import {
  DASHBOARD_TOP_N,
  type Dashboard,
  isDashboardEmpty,
  useDashboard,
  useDashboardEquity,
} from '../api/get-dashboard';
import { EquityFigures } from '../../portfolio/components/equity-figures';
import { useDashboardFilters } from '../hooks/use-dashboard-filters';
import {
  type DashboardFilters,
  isNarrowed,
  resolveRange,
  toDashboardParams,
  todayIn,
} from '../utils/dashboard-filters';
import { formatCount } from '../../../lib/format';
import { useDeferredAnswer } from '../../../lib/use-deferred-answer';
import { formatDay } from '../../../lib/format-time';
import { DashboardCharts } from './dashboard-charts';
import { DashboardFiltersBar, type FilterAccount, type FilterBot } from './dashboard-filters-bar';
import { OpenPositionsPanel } from './open-positions-panel';
import { ProtectionBanner } from './protection-banner';

export function DashboardEmptyState() {
  const { t } = useTranslation();
  return (
    <Card>
      <EmptyState
        title={t('dashboard.empty.title')}
        description={t('dashboard.empty.description')}
        actions={
          <>
            <Link to={paths.accounts} className={buttonClasses({ className: 'gap-2' })}>
              <LinkIcon size={14} />
              {t('dashboard.empty.connectAccount')}
            </Link>
            <Link to={paths.bots} className={buttonClasses({ variant: 'secondary', className: 'gap-2' })}>
              <BotIcon size={14} />
              {t('dashboard.empty.createBot')}
            </Link>
          </>
        }
        className="py-16"
      />
    </Card>
  );
}

/** An account but no bot yet: the next step, above the figures the account already has. */
function CreateFirstBotPrompt() {
  const { t } = useTranslation();
  return (
    <Card className="flex flex-wrap items-center justify-between gap-3 border-accent/40 px-4 py-3">
      <div className="flex min-w-0 items-start gap-3">
        <span className="mt-0.5 text-accent">
          <BotIcon size={18} />
        </span>
        <div>
          <p className="text-sm font-medium text-fg">{t('dashboard.noBot.title')}</p>
          <p className="text-sm text-muted">{t('dashboard.noBot.description')}</p>
        </div>
      </div>
      <Link to={paths.bots} className={buttonClasses({ className: 'gap-2' })}>
        <BotIcon size={14} />
        {t('dashboard.empty.createBot')}
      </Link>
    </Card>
  );
}

/** A figure with its name: a labelled region, so it reads (and is found) as "Net PnL: +12.30". */
function Metric({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) {
  const id = useId();
  return (
    <Card aria-labelledby={id} className="px-4 py-3">
      <h3 id={id} className="text-xs text-muted">
        {label}
      </h3>
      <p className="num mt-1 text-xl font-semibold text-fg">{value}</p>
      {/* Wraps rather than cuts: the French hints are longer than a quarter of 1280 px. */}
      {hint ? <p className="mt-0.5 text-xs text-subtle">{hint}</p> : null}
    </Card>
  );
}

const DashboardMetrics = memo(function DashboardMetrics({
  dashboard,
  range,
}: {
  dashboard: Dashboard;
  range: { from: string; to: string };
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const metrics = dashboard.metrics;
  const code = dashboard.currency?.currency ?? format.currency;
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      <Metric
        label={t('dashboard.metrics.netPnl')}
        value={<PnlText value={metrics.netPnl} currency={code} />}
        hint={t('dashboard.metrics.netPnlHint')}
      />
      <Metric
        label={t('dashboard.metrics.pnlPercent')}
        value={<PnlText value={metrics.pnlPercent} kind="percent" />}
        hint={t('dashboard.metrics.pnlPercentHint')}
      />
      <Metric
        label={t('dashboard.metrics.winRate')}
        value={format.percent(metrics.winRate)}
        hint={t('dashboard.metrics.winRateHint')}
      />
      <Metric
        label={t('dashboard.metrics.closedTrades')}
        value={formatCount(metrics.closedTrades ?? 0, format.locale)}
        hint={t('dashboard.metrics.closedTradesHint', {
          from: formatDay(range.from, format.locale),
          to: formatDay(range.to, format.locale),
        })}
      />
    </div>
  );
});

/**
 * The figures below are a testnet account's (an account, or a bot's, picked in the filters), or include some
 * (every account): said above them, so a demo profit never reads as a real one.
 */
function TestnetScope({
  filters,
  accounts,
  bots,
}: {
  filters: DashboardFilters;
  accounts: FilterAccount[];
  bots: FilterBot[];
}) {
  const { t } = useTranslation();
  const scopeAccountId = filters.accountId ?? bots.find((bot) => bot.id === filters.botId)?.accountId;
  if (scopeAccountId) {
    const account = accounts.find((candidate) => candidate.id === scopeAccountId);
    return account?.sandbox ? <TestnetNote>{t('dashboard.testnet.only')}</TestnetNote> : null;
  }
  const testnets = accounts.filter((account) => account.sandbox);
  if (testnets.length === 0) return null;
  // Only testnet accounts: every figure is a testnet's.
  if (testnets.length === accounts.length) return <TestnetNote>{t('dashboard.testnet.all')}</TestnetNote>;
  return (
    <TestnetNote>
      {t('dashboard.testnet.includes', { names: testnets.map((account) => account.nickname).join(', ') })}
    </TestnetNote>
  );
}

/** The one "Total equity (est.)" with "Available" (Portfolio's figures); for the whole or one account, not a bot. */
const DashboardEquity = memo(function DashboardEquity({ filters }: { filters: DashboardFilters }) {
  const forBot = Boolean(filters.botId);
  const { data, pending } = useDeferredAnswer(
    useDashboardEquity(filters.accountId ? { accountId: filters.accountId } : {}, !forBot),
  );
  if (forBot) return null;
  // Its place is kept while it is read; a failed read leaves it out.
  if (pending) return <EquityFigures currency={undefined} />;
  const equity = data?.equity;
  if (!equity) return null;
  return (
    <EquityFigures
      total={equity.total}
      available={equity.available}
      currency={data?.currency?.currency}
      unread={equity.unread}
    />
  );
});

function DashboardSkeleton() {
  return (
    <div className="flex flex-col gap-4" aria-hidden="true">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {Array.from({ length: 4 }, (_, index) => (
          <Skeleton key={index} className="h-[88px] rounded-lg" />
        ))}
      </div>
      <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
        {Array.from({ length: 4 }, (_, index) => (
          <Skeleton key={index} className="h-72 rounded-lg" />
        ))}
      </div>
    </div>
  );
}

/**
 * Dashboard (spec §2): four metrics, four charts and the filters in the URL. Accounts and bots
 * for the filters come from the route, which composes the features.
 */
export const DashboardOverview = memo(function DashboardOverview({
  accounts,
  bots,
}: {
  accounts: FilterAccount[];
  bots: FilterBot[];
}) {
  const { t } = useTranslation();
  const timeZone = usePreferences((state) => state.timezone) ?? undefined;
  const [filters, setFilters] = useDashboardFilters();
  const today = todayIn(timeZone);
  // Stable while the filters and the day stand: the memoised sections below render again only when their
  // own inputs change, not on every answer of the first load (issue 21).
  const range = useMemo(() => resolveRange(filters, today), [filters, today]);
  const positionParams = useMemo(
    () => ({
      ...(filters.accountId ? { accountId: filters.accountId } : {}),
      ...(filters.botId ? { botId: filters.botId } : {}),
    }),
    [filters.accountId, filters.botId],
  );
  const query = useDashboard(toDashboardParams(filters, today, DASHBOARD_TOP_N));
  const { data: dashboard, pending } = useDeferredAnswer(query);
  const units = useCurrencyUnits(dashboard?.currency);

  if (pending) {
    return (
      <div role="status" aria-label={t('common.loading')}>
        <DashboardSkeleton />
      </div>
    );
  }
  const narrowed = isNarrowed(filters);
  // Only the whole picture can say "nothing yet"; a narrowed view shows its empty charts.
  if (dashboard && !narrowed && isDashboardEmpty(dashboard)) return <DashboardEmptyState />;

  const noBot = dashboard !== undefined && !narrowed && dashboard.capitalByBot.length === 0;

  return (
    <div className="flex flex-col gap-4">
      {/* Every open trade's, whatever the filters: above them. */}
      {dashboard ? <ProtectionBanner protection={dashboard.protection} /> : null}
      <DashboardFiltersBar
        filters={filters}
        range={range}
        today={today}
        accounts={accounts}
        bots={bots}
        updating={query.isFetching && query.isPlaceholderData}
        onChange={setFilters}
      />
      {!dashboard ? (
        // A filter naming a deleted account or bot fails: the bar above offers to reset it.
        <Card>
          <ErrorState error={query.error} onRetry={() => void query.refetch()} />
        </Card>
      ) : (
        <>
          {noBot ? <CreateFirstBotPrompt /> : null}
          <TestnetScope filters={filters} accounts={accounts} bots={bots} />
          <CurrencyConversionNote currency={dashboard.currency} />
          <DashboardEquity filters={filters} />
          <DashboardMetrics dashboard={dashboard} range={range} />
          <OpenPositionsPanel params={positionParams} />
          <DashboardCharts dashboard={dashboard} range={range} units={units} topN={DASHBOARD_TOP_N} />
        </>
      )}
    </div>
  );
});
