import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { SegmentedControl } from '../../../components/ui/segmented-control';
import { Select } from '../../../components/ui/select';
import { Spinner } from '../../../components/ui/spinner';
import type { FiltersUpdate } from '../hooks/use-dashboard-filters';
import {
  DEFAULT_FILTERS,
  type DashboardFilters,
  RANGE_PRESETS,
  type RangePreset,
  isDay,
  isDefaultFilters,
  resolveRange,
} from '../utils/dashboard-filters';

export interface FilterAccount {
  id: string;
  nickname: string;
  /** A testnet or demo-trading account: its figures are not real funds. */
  sandbox: boolean;
}

export interface FilterBot {
  id: string;
  nickname: string;
  accountId: string;
}

export const DashboardFiltersBar = memo(function DashboardFiltersBar({
  filters,
  range,
  today,
  accounts,
  bots,
  updating,
  onChange,
}: {
  filters: DashboardFilters;
  /** The days the filters resolve to, shown in the date fields. */
  range: { from: string; to: string };
  today: string;
  accounts: FilterAccount[];
  bots: FilterBot[];
  updating: boolean;
  onChange: (update: FiltersUpdate) => void;
}) {
  const { t } = useTranslation();
  const visibleBots = filters.accountId ? bots.filter((bot) => bot.accountId === filters.accountId) : bots;

  const setDay = (end: 'from' | 'to', value: string) => {
    if (!isDay(value)) return;
    onChange((current) => ({ ...current, ...resolveRange(current, today), range: 'custom', [end]: value }));
  };
  const setAccount = (accountId: string) =>
    onChange((current) => {
      // A bot of another account would leave nothing to show.
      const keepsBot = bots.some(
        (bot) => bot.id === current.botId && (!accountId || bot.accountId === accountId),
      );
      return { ...current, accountId: accountId || undefined, botId: keepsBot ? current.botId : undefined };
    });

  return (
    <section
      aria-label={t('dashboard.filters.label')}
      className="flex flex-wrap items-end gap-x-3 gap-y-2 rounded-lg border border-line bg-surface px-3 py-2.5"
    >
      <div className="flex flex-col gap-1.5">
        <span className="text-xs font-medium text-muted">{t('dashboard.filters.period')}</span>
        <SegmentedControl<RangePreset>
          label={t('dashboard.filters.period')}
          value={filters.range === 'custom' ? undefined : filters.range}
          options={RANGE_PRESETS.map((preset) => ({
            value: preset,
            label: t(`dashboard.filters.presets.${preset}`),
            title: t(`dashboard.filters.presetNames.${preset}`),
          }))}
          onChange={(preset) =>
            onChange((current) => ({ ...current, range: preset, from: undefined, to: undefined }))
          }
        />
      </div>
      <Input
        type="date"
        label={t('dashboard.filters.from')}
        value={range.from}
        max={range.to}
        onChange={(event) => setDay('from', event.target.value)}
        fieldClassName="w-[9.5rem]"
        className="num"
      />
      <Input
        type="date"
        label={t('dashboard.filters.to')}
        value={range.to}
        min={range.from}
        max={today}
        onChange={(event) => setDay('to', event.target.value)}
        fieldClassName="w-[9.5rem]"
        className="num"
      />
      <Select
        label={t('dashboard.filters.account')}
        value={filters.accountId ?? ''}
        onChange={(event) => setAccount(event.target.value)}
        options={[
          { value: '', label: t('dashboard.filters.allAccounts') },
          ...accounts.map((account) => ({
            value: account.id,
            label: account.sandbox ? `${account.nickname} · ${t('common.testnet')}` : account.nickname,
          })),
        ]}
        fieldClassName="w-44"
      />
      <Select
        label={t('dashboard.filters.bot')}
        value={filters.botId ?? ''}
        onChange={(event) => {
          const botId = event.target.value || undefined;
          onChange((current) => ({ ...current, botId }));
        }}
        options={[
          { value: '', label: t('dashboard.filters.allBots') },
          ...visibleBots.map((bot) => ({ value: bot.id, label: bot.nickname })),
        ]}
        fieldClassName="w-44"
      />
      <div className="flex h-9 items-center gap-2">
        {isDefaultFilters(filters) ? null : (
          <Button variant="ghost" size="sm" onClick={() => onChange(() => DEFAULT_FILTERS)}>
            {t('dashboard.filters.reset')}
          </Button>
        )}
        {updating ? <Spinner size={14} label={t('dashboard.updating')} /> : null}
      </div>
    </section>
  );
});
