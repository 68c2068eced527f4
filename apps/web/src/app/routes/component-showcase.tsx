import { ALERT_STATUSES } from '@kairos/contract';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button';
import { Card, CardBody, CardHeader, Stat } from '../../components/ui/card';
import { TimeSeriesChart, type TimePoint } from '../../components/ui/chart';
import { ChartFrame } from '../../components/ui/chart-frame';
import { ConfirmDialog, confirmAction } from '../../components/ui/confirm-dialog';
import { Dialog } from '../../components/ui/dialog';
import { PlusIcon, RefreshIcon } from '../../components/ui/icons';
import { Input } from '../../components/ui/input';
import { PageHeader } from '../../components/ui/page-header';
import { PnlText } from '../../components/ui/pnl-text';
import { Select } from '../../components/ui/select';
import { Skeleton, SkeletonTable, SkeletonText } from '../../components/ui/skeleton';
import { EmptyState, ErrorState, LoadingState } from '../../components/ui/states';
import { STATUSES, StatusBadge } from '../../components/ui/status-badge';
import { TestnetBadge } from '../../components/ui/testnet-badge';
import { type Column, Table } from '../../components/ui/table';
import { Tabs } from '../../components/ui/tabs';
import { ToastCard, toast } from '../../components/ui/toast';
import { Toggle } from '../../components/ui/toggle';
import { useFormatters } from '../../lib/use-formatters';
import { PublicHeader } from '../layout/public-header';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="scroll-mt-20">
      <h2 id={id} className="mb-3 text-xs font-semibold tracking-wider text-subtle uppercase">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-2 border-b border-line py-3 last:border-b-0 sm:flex-row sm:items-center">
      <p className="w-32 shrink-0 text-xs text-muted">{label}</p>
      <div className="flex flex-wrap items-center gap-2">{children}</div>
    </div>
  );
}

interface SampleTrade {
  id: string;
  time: string;
  symbol: string;
  side: 'long' | 'short';
  qty: string;
  entry: string;
  pnl: string;
  pnlPercent: string;
  status: string;
}

const SYMBOLS = ['BTC/USDT', 'ETH/USDT', 'SOL/USDT', 'BNB/USDT', 'XRP/USDT'];
const SAMPLE_STATUSES = ['open', 'closed', 'placed', 'filled', 'cancelled', 'waiting'];

// Deterministic sample rows: the showcase looks the same on every load (and in screenshots).
const SAMPLE_TRADES: SampleTrade[] = Array.from({ length: 23 }, (_, index) => {
  const pnl = ((index * 37) % 19) - 8.5;
  return {
    id: String(1000 + index),
    time: new Date(Date.UTC(2025, 0, 1 + index, 9 + (index % 8), (index * 7) % 60)).toISOString(),
    symbol: SYMBOLS[index % SYMBOLS.length] ?? 'BTC/USDT',
    side: index % 3 === 0 ? 'short' : 'long',
    qty: (0.015 * (index + 1)).toFixed(4),
    entry: (42000 + index * 311.25).toFixed(2),
    pnl: (pnl * 12.5).toFixed(2),
    pnlPercent: (pnl / 3).toFixed(2),
    status: SAMPLE_STATUSES[index % SAMPLE_STATUSES.length] ?? 'open',
  };
});

const EQUITY: TimePoint[] = Array.from({ length: 60 }, (_, index) => {
  const date = new Date(Date.UTC(2025, 0, 1 + index));
  return {
    time: date.toISOString().slice(0, 10),
    value: 10000 + index * 42 + Math.round(Math.sin(index / 4) * 380 + Math.cos(index / 9) * 160),
  };
});

const DAILY_PNL: TimePoint[] = EQUITY.slice(1).map((point, index) => ({
  time: point.time,
  value: point.value - (EQUITY[index]?.value ?? point.value),
}));

/** A compact sample of the look, rendered inside one forced theme. */
function ThemeSample({ theme }: { theme: 'dark' | 'light' }) {
  const { t } = useTranslation();
  return (
    <div
      data-theme={theme}
      className={`${theme === 'dark' ? 'dark' : ''} rounded-lg border border-line bg-bg p-4 text-fg`}
    >
      <p className="mb-3 text-xs font-medium text-muted">
        {theme === 'dark' ? t('theme.dark') : t('theme.light')}
      </p>
      <div className="flex flex-col gap-3">
        <div className="flex flex-wrap gap-2">
          <Button size="sm">{t('showcase.primary')}</Button>
          <Button size="sm" variant="secondary">
            {t('showcase.secondary')}
          </Button>
          <Button size="sm" variant="danger">
            {t('showcase.danger')}
          </Button>
        </div>
        <div className="flex flex-wrap gap-1.5">
          {(['succeeded', 'in_progress', 'failed', 'dead', 'open'] as const).map((status) => (
            <StatusBadge key={status} status={status} />
          ))}
        </div>
        <div className="flex gap-4 text-sm">
          <PnlText value="1234.5" />
          <PnlText value="-87.25" />
          <PnlText value="4.2" kind="percent" />
        </div>
        <Input label={t('showcase.amount')} numeric defaultValue="250.00" suffix="USDT" />
        <Stat label={t('dashboard.metrics.netPnl')} value={<PnlText value="3120.75" />} />
      </div>
    </div>
  );
}

export function ComponentShowcaseRoute() {
  const { t } = useTranslation();
  const format = useFormatters();
  const [page, setPage] = useState(1);
  const [toggleOn, setToggleOn] = useState(true);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [tableState, setTableState] = useState<'data' | 'loading' | 'empty' | 'error'>('data');
  const pageSize = 8;

  const columns: Column<SampleTrade>[] = useMemo(
    () => [
      { key: 'time', header: t('showcase.columns.time'), cell: (row) => format.dateTime(row.time) },
      { key: 'symbol', header: t('showcase.columns.symbol'), cell: (row) => row.symbol },
      {
        key: 'side',
        header: t('showcase.columns.side'),
        cell: (row) => (
          <span className={row.side === 'long' ? 'text-gain' : 'text-loss'}>
            {row.side === 'long' ? t('position.long') : t('position.short')}
          </span>
        ),
      },
      {
        key: 'qty',
        header: t('showcase.columns.qty'),
        numeric: true,
        cell: (row) => format.decimal(row.qty),
      },
      {
        key: 'entry',
        header: t('showcase.columns.entry'),
        numeric: true,
        cell: (row) => format.decimal(row.entry),
      },
      {
        key: 'pnl',
        header: t('showcase.columns.pnl'),
        numeric: true,
        cell: (row) => <PnlText value={row.pnl} />,
      },
      {
        key: 'pnlPercent',
        header: t('showcase.columns.pnlPercent'),
        numeric: true,
        cell: (row) => <PnlText value={row.pnlPercent} kind="percent" />,
      },
      {
        key: 'status',
        header: t('showcase.columns.status'),
        cell: (row) => <StatusBadge status={row.status} />,
      },
    ],
    [t, format],
  );

  const sections = [
    ['buttons', t('showcase.sections.buttons')],
    ['forms', t('showcase.sections.forms')],
    ['badges', t('showcase.sections.badges')],
    ['numbers', t('showcase.sections.numbers')],
    ['cards', t('showcase.sections.cards')],
    ['table', t('showcase.sections.table')],
    ['overlays', t('showcase.sections.overlays')],
    ['states', t('showcase.sections.states')],
    ['charts', t('showcase.sections.charts')],
    ['themes', t('showcase.sections.themes')],
  ] as const;

  return (
    <div className="min-h-dvh bg-bg">
      <PublicHeader />
      <main id="main" className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
        <PageHeader title={t('showcase.title')} description={t('showcase.description')} />
        <nav aria-label={t('showcase.contents')} className="mb-8 flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {sections.map(([id, label]) => (
            <a key={id} href={`#${id}`} className="text-muted hover:text-fg">
              {label}
            </a>
          ))}
        </nav>

        <div className="flex flex-col gap-10">
          <Section id="buttons" title={t('showcase.sections.buttons')}>
            <Card className="px-4">
              <Row label={t('showcase.variants')}>
                <Button>{t('showcase.primary')}</Button>
                <Button variant="secondary">{t('showcase.secondary')}</Button>
                <Button variant="ghost">{t('showcase.ghost')}</Button>
                <Button variant="danger">{t('showcase.danger')}</Button>
              </Row>
              <Row label={t('showcase.sizes')}>
                <Button size="sm">{t('showcase.small')}</Button>
                <Button size="md">{t('showcase.medium')}</Button>
                <Button size="lg">{t('showcase.large')}</Button>
                <Button variant="secondary" icon={<PlusIcon size={14} />}>
                  {t('showcase.withIcon')}
                </Button>
              </Row>
              <Row label={t('showcase.states')}>
                <Button loading>{t('showcase.loading')}</Button>
                <Button disabled>{t('showcase.disabled')}</Button>
                <Button variant="secondary" loading>
                  {t('showcase.loading')}
                </Button>
              </Row>
            </Card>
          </Section>

          <Section id="forms" title={t('showcase.sections.forms')}>
            <Card>
              <CardBody className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
                <Input label={t('auth.email')} placeholder="trader@example.com" hint={t('showcase.hint')} />
                <Input
                  label={t('auth.email')}
                  defaultValue="trader@"
                  error="Please enter a valid email address"
                />
                <Input
                  label={t('showcase.amount')}
                  numeric
                  defaultValue=""
                  error="Please enter a valid amount"
                  suffix="USDT"
                />
                <Input label={t('showcase.price')} numeric defaultValue="64250.50" suffix="USDT" />
                <Input label={t('showcase.disabled')} disabled defaultValue="—" />
                <Select
                  label={t('showcase.exchange')}
                  defaultValue="paper"
                  options={[
                    { value: 'paper', label: t('showcase.paper') },
                    { value: 'binance', label: 'Binance' },
                    { value: 'bybit', label: 'Bybit' },
                  ]}
                />
                <Select
                  label={t('showcase.columns.status')}
                  placeholder={t('showcase.any')}
                  error="This field is required"
                  options={STATUSES.slice(0, 5).map((status) => ({
                    value: status,
                    label: t(`status.${status}`),
                  }))}
                />
                <div className="flex flex-col gap-3 sm:col-span-2 lg:col-span-1">
                  <Toggle
                    checked={toggleOn}
                    onChange={setToggleOn}
                    label={t('showcase.toggle')}
                    description={t('showcase.toggleHint')}
                  />
                  <Toggle
                    checked={false}
                    onChange={() => undefined}
                    label={t('showcase.disabled')}
                    disabled
                  />
                </div>
              </CardBody>
            </Card>
          </Section>

          <Section id="badges" title={t('showcase.sections.badges')}>
            <Card className="px-4">
              <Row label={t('showcase.alerts')}>
                {ALERT_STATUSES.map((status) => (
                  <StatusBadge key={status} status={status} />
                ))}
              </Row>
              <Row label={t('showcase.trades')}>
                <StatusBadge status="open" />
                <StatusBadge status="closed" />
              </Row>
              <Row label={t('showcase.orders')}>
                {(['placed', 'filled', 'cancelled', 'waiting'] as const).map((status) => (
                  <StatusBadge key={status} status={status} />
                ))}
              </Row>
              <Row label={t('showcase.accounts')}>
                <TestnetBadge />
              </Row>
            </Card>
          </Section>

          <Section id="numbers" title={t('showcase.sections.numbers')}>
            <Card className="px-4">
              <Row label={t('showcase.pnl')}>
                <PnlText value="1520.4" />
                <PnlText value="-312.07" />
                <PnlText value="0" />
                <PnlText value="12.5" kind="percent" />
                <PnlText value="-3.333" kind="percent" />
              </Row>
              <Row label={t('showcase.currency')}>
                <span className="num">{format.currencyValue('1234567.891')}</span>
                <span className="num">{format.currencyValue('0.00012345')}</span>
              </Row>
              <Row label={t('showcase.decimal')}>
                <span className="num">{format.decimal('0.123456789')}</span>
                <span className="num">{format.percent('42.1')}</span>
              </Row>
            </Card>
          </Section>

          <Section id="cards" title={t('showcase.sections.cards')}>
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
              <Stat label={t('dashboard.metrics.netPnl')} value={<PnlText value="3120.75" />} />
              <Stat
                label={t('dashboard.metrics.pnlPercent')}
                value={<PnlText value="8.42" kind="percent" />}
              />
              <Stat label={t('dashboard.metrics.winRate')} value={format.percent('61.3')} />
              <Stat label={t('dashboard.metrics.closedTrades')} value="148" />
            </div>
            <Card className="mt-4">
              <CardHeader
                title={t('showcase.cardTitle')}
                description={t('showcase.cardDescription')}
                actions={
                  <Button size="sm" variant="ghost" icon={<RefreshIcon size={14} />}>
                    {t('common.refresh')}
                  </Button>
                }
              />
              <CardBody>
                <Tabs
                  label={t('showcase.sections.cards')}
                  items={[
                    { id: 'one', label: t('settings.tabs.profile'), content: <SkeletonText lines={3} /> },
                    {
                      id: 'two',
                      label: t('settings.tabs.security'),
                      content: <p className="text-sm text-muted">{t('showcase.tabContent')}</p>,
                    },
                    {
                      id: 'three',
                      label: t('settings.tabs.notifications'),
                      content: <p className="text-sm text-muted">{t('showcase.tabContent')}</p>,
                    },
                    { id: 'four', label: t('showcase.disabled'), content: null, disabled: true },
                  ]}
                />
              </CardBody>
            </Card>
          </Section>

          <Section id="table" title={t('showcase.sections.table')}>
            <div className="mb-3 flex flex-wrap gap-1.5">
              {(['data', 'loading', 'empty', 'error'] as const).map((state) => (
                <Button
                  key={state}
                  size="sm"
                  variant={tableState === state ? 'primary' : 'secondary'}
                  aria-pressed={tableState === state}
                  onClick={() => setTableState(state)}
                >
                  {t(`showcase.tableStates.${state}`)}
                </Button>
              ))}
            </div>
            <Table
              caption={t('showcase.tableCaption')}
              columns={columns}
              rows={tableState === 'empty' ? [] : SAMPLE_TRADES.slice((page - 1) * pageSize, page * pageSize)}
              rowKey={(row) => row.id}
              loading={tableState === 'loading'}
              error={tableState === 'error' ? new Error('HTTP error! status: 502') : undefined}
              onRetry={() => setTableState('data')}
              empty={
                <EmptyState title={t('showcase.emptyTitle')} description={t('showcase.emptyDescription')} />
              }
              pagination={{ page, pageSize, total: SAMPLE_TRADES.length, onPageChange: setPage }}
              maxHeight={320}
            />
          </Section>

          <Section id="overlays" title={t('showcase.sections.overlays')}>
            <Card className="px-4">
              <Row label={t('showcase.dialogs')}>
                <Button variant="secondary" onClick={() => setDialogOpen(true)}>
                  {t('showcase.openDialog')}
                </Button>
                <Button variant="danger" onClick={() => setConfirmOpen(true)}>
                  {t('showcase.openConfirm')}
                </Button>
                <Button
                  variant="secondary"
                  onClick={async () => {
                    const confirmed = await confirmAction({
                      title: t('showcase.confirmTitle'),
                      message: t('showcase.confirmMessage'),
                      confirmLabel: t('showcase.confirmLabel'),
                      tone: 'danger',
                    });
                    toast.info(confirmed ? t('showcase.confirmed') : t('showcase.cancelled'));
                  }}
                >
                  {t('showcase.openImperative')}
                </Button>
              </Row>
              <Row label={t('showcase.toasts')}>
                <Button
                  size="sm"
                  variant="secondary"
                  onClick={() => toast.success(t('showcase.toastSuccess'))}
                >
                  {t('showcase.toastTones.success')}
                </Button>
                <Button size="sm" variant="secondary" onClick={() => toast.info(t('showcase.toastInfo'))}>
                  {t('showcase.toastTones.info')}
                </Button>
                <Button
                  size="sm"
                  variant="secondary"
                  onClick={() => toast.warning(t('showcase.toastWarning'))}
                >
                  {t('showcase.toastTones.warning')}
                </Button>
                <Button
                  size="sm"
                  variant="secondary"
                  onClick={() =>
                    toast.error(t('showcase.toastError'), { description: 'HTTP error! status: 503' })
                  }
                >
                  {t('showcase.toastTones.error')}
                </Button>
              </Row>
              <div className="grid gap-2 py-3 sm:grid-cols-2">
                <ToastCard
                  toast={{ id: 1, tone: 'success', title: t('showcase.toastSuccess'), duration: 0 }}
                />
                <ToastCard
                  toast={{
                    id: 2,
                    tone: 'error',
                    title: t('showcase.toastError'),
                    description: t('showcase.toastErrorDetail'),
                    duration: 0,
                  }}
                />
              </div>
            </Card>
            <Dialog
              open={dialogOpen}
              onClose={() => setDialogOpen(false)}
              title={t('showcase.dialogTitle')}
              description={t('showcase.dialogDescription')}
              footer={
                <>
                  <Button variant="secondary" onClick={() => setDialogOpen(false)}>
                    {t('common.cancel')}
                  </Button>
                  <Button onClick={() => setDialogOpen(false)}>{t('common.save')}</Button>
                </>
              }
            >
              <div className="flex flex-col gap-3 pb-2">
                <Input label={t('showcase.nickname')} defaultValue="Trend BTC" />
                <Input label={t('showcase.amount')} numeric defaultValue="500" suffix="USDT" />
              </div>
            </Dialog>
            <ConfirmDialog
              open={confirmOpen}
              tone="danger"
              title={t('showcase.confirmTitle')}
              message={t('showcase.confirmMessage')}
              confirmLabel={t('showcase.confirmLabel')}
              onCancel={() => setConfirmOpen(false)}
              onConfirm={async () => {
                await new Promise((resolve) => setTimeout(resolve, 600));
                setConfirmOpen(false);
                toast.success(t('showcase.confirmed'));
              }}
            />
          </Section>

          <Section id="states" title={t('showcase.sections.states')}>
            <div className="grid gap-4 md:grid-cols-3">
              <Card>
                <LoadingState />
              </Card>
              <Card>
                <EmptyState
                  title={t('showcase.emptyTitle')}
                  description={t('showcase.emptyDescription')}
                  actions={<Button size="sm">{t('showcase.emptyAction')}</Button>}
                />
              </Card>
              <Card>
                <ErrorState
                  error={new Error('Failed to load bots')}
                  onRetry={() => toast.info(t('common.retry'))}
                />
              </Card>
            </div>
            <div className="mt-4 grid gap-4 md:grid-cols-2">
              <Card className="p-4">
                <div className="flex items-center gap-3">
                  <Skeleton className="h-10 w-10 rounded-full" />
                  <div className="flex-1">
                    <SkeletonText lines={2} />
                  </div>
                </div>
              </Card>
              <Card>
                <SkeletonTable rows={3} columns={4} />
              </Card>
            </div>
          </Section>

          <Section id="charts" title={t('showcase.sections.charts')}>
            <div className="grid gap-4 lg:grid-cols-2">
              <ChartFrame title={t('dashboard.charts.equityCurve')} units={format.currency}>
                <TimeSeriesChart
                  data={EQUITY}
                  formatValue={(value) => format.currencyValue(value)}
                  label={t('dashboard.charts.equityCurve')}
                />
              </ChartFrame>
              <ChartFrame title={t('dashboard.charts.dailyPnl')} units={format.currency}>
                <TimeSeriesChart
                  data={DAILY_PNL}
                  variant="histogram"
                  formatValue={(value) => format.pnl(value)}
                  label={t('dashboard.charts.dailyPnl')}
                />
              </ChartFrame>
              <ChartFrame title={t('dashboard.charts.balanceByAccount')} units={format.currency} loading />
              <ChartFrame title={t('dashboard.charts.capitalByBot')} units={format.currency} empty />
              <ChartFrame
                title={t('showcase.chartError')}
                units="%"
                error={new Error('HTTP error! status: 500')}
                onRetry={() => toast.info(t('common.retry'))}
              />
            </div>
          </Section>

          <Section id="themes" title={t('showcase.sections.themes')}>
            <div className="grid gap-4 md:grid-cols-2">
              <ThemeSample theme="dark" />
              <ThemeSample theme="light" />
            </div>
          </Section>
        </div>
      </main>
    </div>
  );
}

export { ComponentShowcaseRoute as Component };
