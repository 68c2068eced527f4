import { PORTFOLIO_PERIODS } from '@kairos/contract';
import { Fragment, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TimeSeriesChart } from '../../../components/ui/chart';
import { ChartFrame } from '../../../components/ui/chart-frame';
import { CurrencyConversionNote, useCurrencyUnits } from '../../../components/ui/currency-note';
import { DonutChart, type DonutSlice } from '../../../components/ui/donut-chart';
import { AlertIcon, LinkIcon, WalletIcon } from '../../../components/ui/icons';
import { SegmentedControl } from '../../../components/ui/segmented-control';
import { Skeleton } from '../../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../../components/ui/states';
import { type Column } from '../../../components/ui/table';
import { CardFigure, RowCard, TableOrCards } from '../../../components/ui/table-or-cards';
import { TestnetBadge, TestnetNote } from '../../../components/ui/testnet-badge';
import { paths } from '../../../config/paths';
import { formatPercent } from '../../../lib/format';
import { formatDay, formatWallClock } from '../../../lib/format-time';
import { usePreferences } from '../../../lib/preferences-store';
import { formatMoney } from '../../../lib/money';
import { useFormatters } from '../../../lib/use-formatters';
import { type Holding, type Portfolio, usePortfolio } from '../api/get-portfolio';
import {
  DEFAULT_PORTFOLIO_PERIOD,
  type PortfolioPeriod,
  isPortfolioPeriod,
  usePortfolioHistory,
} from '../api/get-portfolio-history';
import { historyPoints, isIntraday } from '../utils/history-points';
import { EquityFigures } from './equity-figures';

/** The allocation donut names this many assets; the rest are summed as "Other". */
const DONUT_SLICES = 5;
/** History and allocation side by side, one height. */
const CHART_HEIGHT = 320;

type CurrencyInfo = Portfolio['currency'];

/** Accounts the server could not read: said plainly, above the rest of the portfolio. */
function AccountErrors({ errors }: { errors: Portfolio['errors'] }) {
  const { t } = useTranslation();
  if (errors.length === 0) return null;
  return (
    <Card role="alert" className="flex gap-3 border-warn/40 bg-warn/5 px-4 py-3">
      <AlertIcon size={18} className="mt-0.5 shrink-0 text-warn" />
      <div className="min-w-0 text-sm">
        <p className="font-medium text-fg">{t('portfolio.errors.title', { count: errors.length })}</p>
        <ul className="mt-1 flex flex-col gap-0.5 text-muted">
          {errors.map((error) => (
            <li key={error.accountId} className="break-words">
              <span className="font-medium text-fg">{error.nickname}</span>
              {error.sandbox ? <TestnetBadge className="ml-1.5 align-middle" /> : null}: {error.message}
            </li>
          ))}
        </ul>
        <p className="mt-1 text-xs text-subtle">{t('portfolio.errors.hint')}</p>
      </div>
    </Card>
  );
}

/** The total adds testnet balances to real ones: said above it, with the accounts named. */
function TestnetAccounts({ portfolio }: { portfolio: Portfolio }) {
  const { t } = useTranslation();
  const names = new Map<string, string>();
  for (const account of [...portfolio.holdings.flatMap((holding) => holding.accounts), ...portfolio.errors]) {
    if (account.sandbox) names.set(account.accountId, account.nickname);
  }
  if (names.size === 0) return null;
  return <TestnetNote>{t('portfolio.testnet', { names: [...names.values()].join(', ') })}</TestnetNote>;
}

function Summary({ portfolio }: { portfolio: Portfolio }) {
  const { t } = useTranslation();
  const accounts = new Set(portfolio.holdings.flatMap((holding) => holding.accounts.map((a) => a.accountId)));
  return (
    <EquityFigures
      total={portfolio.totalValue}
      available={portfolio.available}
      currency={portfolio.currency?.currency}
      aside={
        <p>
          {t('portfolio.assets', { count: portfolio.holdings.length })}{' '}
          {t('portfolio.accounts', { count: accounts.size })}
        </p>
      }
    />
  );
}

function HistoryChart({ currency }: { currency: CurrencyInfo | undefined }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const timeZone = usePreferences((state) => state.timezone) ?? undefined;
  const [search, setSearch] = useSearchParams();
  const requested = search.get('period');
  const period: PortfolioPeriod = isPortfolioPeriod(requested) ? requested : DEFAULT_PORTFOLIO_PERIOD;
  const history = usePortfolioHistory(period);
  const intraday = isIntraday(period);
  const points = useMemo(
    () => historyPoints(history.data?.points ?? [], period, timeZone),
    [history.data, period, timeZone],
  );
  const code = history.data?.currency?.currency ?? currency?.currency;
  const units = useCurrencyUnits(history.data?.currency ?? currency);

  return (
    <ChartFrame
      title={t('portfolio.history')}
      description={t('portfolio.historyDescription')}
      units={units}
      loading={history.isPending}
      error={history.data ? undefined : history.error}
      onRetry={() => void history.refetch()}
      empty={points.length === 0}
      emptyMessage={t('portfolio.historyEmpty')}
      height={CHART_HEIGHT}
      actions={
        <SegmentedControl<PortfolioPeriod>
          label={t('portfolio.period')}
          value={period}
          options={PORTFOLIO_PERIODS.map((value) => ({
            value,
            label: t(`portfolio.periods.${value}`),
            title: t(`portfolio.periodNames.${value}`),
          }))}
          onChange={(value) =>
            setSearch(value === DEFAULT_PORTFOLIO_PERIOD ? {} : { period: value }, { replace: true })
          }
          className="h-7"
        />
      }
    >
      <TimeSeriesChart
        data={points}
        formatValue={(value) => format.currencyValue(value, code)}
        formatTime={(time) =>
          typeof time === 'number' ? formatWallClock(time, format.locale) : formatDay(time, format.locale)
        }
        locale={format.locale}
        timeVisible={intraday}
        label={t('portfolio.history')}
      />
    </ChartFrame>
  );
}

function allocationSlices(
  portfolio: Portfolio,
  money: (value: string) => string,
  locale: string,
  otherLabel: string,
): DonutSlice[] {
  const slices = portfolio.holdings.slice(0, DONUT_SLICES).map((holding) => ({
    key: holding.asset,
    label: holding.asset,
    value: Number(holding.value),
    display: money(holding.value),
    share: formatPercent(holding.share, { locale }),
  }));
  const rest = portfolio.holdings.slice(DONUT_SLICES);
  if (rest.length > 0) {
    // Sums in cents: exact for amounts with two decimals.
    const cents = rest.reduce((sum, holding) => sum + Math.round(Number(holding.value) * 100), 0);
    const share = rest.reduce((sum, holding) => sum + Number(holding.share), 0);
    slices.push({
      key: '__other',
      label: otherLabel,
      value: cents / 100,
      display: money((cents / 100).toFixed(2)),
      share: formatPercent(share, { locale }),
    });
  }
  return slices;
}

function HoldingsTable({ portfolio }: { portfolio: Portfolio }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const code = portfolio.currency?.currency;
  const columns: Column<Holding>[] = [
    {
      key: 'asset',
      header: t('portfolio.columns.asset'),
      cell: (holding) => <span className="font-medium">{holding.asset}</span>,
    },
    {
      key: 'amount',
      header: t('portfolio.columns.amount'),
      numeric: true,
      // In the asset's usual decimals, with its unit (lib/money).
      cell: (holding) => formatMoney(holding.amount, holding.asset, { locale: format.locale }),
    },
    {
      key: 'value',
      header: t('portfolio.columns.value'),
      numeric: true,
      cell: (holding) => format.currencyValue(holding.value, code),
    },
    {
      key: 'share',
      header: t('portfolio.columns.share'),
      numeric: true,
      cell: (holding) => (
        <span className="inline-flex items-center justify-end gap-2">
          <span aria-hidden="true" className="hidden h-1.5 w-16 rounded-full bg-surface-3 sm:inline-block">
            <span
              className="block h-full rounded-full bg-accent"
              style={{ width: `${Math.min(100, Math.max(0, Number(holding.share)))}%` }}
            />
          </span>
          {format.percent(holding.share)}
        </span>
      ),
    },
    {
      key: 'accounts',
      header: t('portfolio.columns.accounts'),
      cell: (holding) => (
        <span
          className="block max-w-[16rem] text-muted"
          title={holding.accounts
            .map(
              (account) =>
                `${account.nickname}: ${formatMoney(account.amount, holding.asset, { locale: format.locale })}`,
            )
            .join('\n')}
        >
          {holding.accounts.map((account, index) => (
            <Fragment key={account.accountId}>
              {index > 0 ? ', ' : null}
              {account.nickname}
              {account.sandbox ? <TestnetBadge className="ml-1 align-middle" /> : null}
            </Fragment>
          ))}
        </span>
      ),
    },
  ];
  return (
    <section className="flex flex-col gap-2">
      <h2 className="text-sm font-semibold text-fg">{t('portfolio.holdings')}</h2>
      <TableOrCards
        caption={t('portfolio.holdings')}
        columns={columns}
        rows={portfolio.holdings}
        rowKey={(h) => h.asset}
        // Below 640 px a card an asset (issue 21: the five columns scrolled sideways on a phone).
        card={(holding, cell) => (
          <RowCard title={cell('asset')} corner={<span className="num text-fg">{cell('share')}</span>}>
            <span className="flex justify-between gap-3">
              <CardFigure label={t('portfolio.columns.amount')}>{cell('amount')}</CardFigure>
              <CardFigure label={t('portfolio.columns.value')} end>
                {cell('value')}
              </CardFigure>
            </span>
            <span className="text-xs">{cell('accounts')}</span>
          </RowCard>
        )}
        empty={
          <Card>
            <EmptyState title={t('table.empty')} className="py-6" />
          </Card>
        }
      />
    </section>
  );
}

function PortfolioSkeleton() {
  const { t } = useTranslation();
  return (
    <div role="status" aria-label={t('common.loading')} className="flex flex-col gap-4">
      <Skeleton className="h-[74px] rounded-lg" />
      <div className="grid grid-cols-1 gap-4 xl:grid-cols-3">
        <Skeleton className="h-96 rounded-lg xl:col-span-2" />
        <Skeleton className="h-96 rounded-lg" />
      </div>
      <Skeleton className="h-40 rounded-lg" />
    </div>
  );
}

/** Portfolio: total value, history with its period, allocation and holdings; unread accounts said. */
export function PortfolioOverview() {
  const { t } = useTranslation();
  const format = useFormatters();
  const query = usePortfolio();
  const units = useCurrencyUnits(query.data?.currency);

  if (query.isPending) return <PortfolioSkeleton />;
  if (!query.data) {
    return (
      <Card>
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      </Card>
    );
  }
  const portfolio = query.data;
  if (portfolio.holdings.length === 0 && portfolio.errors.length === 0) {
    return (
      <Card>
        <EmptyState
          icon={<WalletIcon size={20} />}
          title={t('portfolio.empty.title')}
          description={t('portfolio.empty.description')}
          actions={
            <Link to={paths.accounts} className={buttonClasses({ className: 'gap-2' })}>
              <LinkIcon size={14} />
              {t('portfolio.empty.connectAccount')}
            </Link>
          }
          className="py-16"
        />
      </Card>
    );
  }

  return (
    <div className="flex flex-col gap-4">
      <AccountErrors errors={portfolio.errors} />
      <CurrencyConversionNote currency={portfolio.currency} />
      <TestnetAccounts portfolio={portfolio} />
      <Summary portfolio={portfolio} />
      <div className="grid grid-cols-1 gap-4 xl:grid-cols-3">
        <div className="min-w-0 xl:col-span-2">
          <HistoryChart currency={portfolio.currency} />
        </div>
        <ChartFrame
          title={t('portfolio.allocation')}
          description={t('portfolio.allocationDescription')}
          units={units}
          empty={portfolio.holdings.length === 0}
          height={CHART_HEIGHT}
        >
          <DonutChart
            label={t('portfolio.allocation')}
            totalLabel={t('portfolio.equity.total')}
            total={format.currencyValue(portfolio.totalValue, portfolio.currency?.currency)}
            slices={allocationSlices(
              portfolio,
              (value) => format.currencyValue(value, portfolio.currency?.currency),
              format.locale,
              t('portfolio.other'),
            )}
            layout="stacked-xl"
          />
        </ChartFrame>
      </div>
      <HoldingsTable portfolio={portfolio} />
    </div>
  );
}
