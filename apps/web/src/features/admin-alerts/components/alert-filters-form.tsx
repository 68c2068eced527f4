import { ALERT_STATUSES } from '@kairos/contract';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { type AlertFilterName, type AlertFilters, hasFilters } from '../api/alert-filters';

/** Typing in the key field waits this long before the URL (and the query) follow. */
const KEY_DEBOUNCE_MS = 350;

/** Status, from, to and strategy key (spec §2); every change lands in the URL at once. */
export function AlertFiltersForm({
  filters,
  onChange,
  onClear,
}: {
  filters: AlertFilters;
  onChange: (name: AlertFilterName, value: string, options?: { replace?: boolean }) => void;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  const [key, setKey] = useState(filters.strategyKey ?? '');
  const [shownKey, setShownKey] = useState(filters.strategyKey);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  // The URL changed from elsewhere (back button, "clear filters"): the field follows it.
  if (shownKey !== filters.strategyKey) {
    setShownKey(filters.strategyKey);
    if ((key.trim() || undefined) !== filters.strategyKey) setKey(filters.strategyKey ?? '');
  }

  const changeKey = (value: string) => {
    setKey(value);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(
      () => onChange('strategyKey', value, { replace: true }),
      KEY_DEBOUNCE_MS,
    );
  };

  return (
    <form
      aria-label={t('alerts.filters')}
      onSubmit={(event) => {
        event.preventDefault();
        window.clearTimeout(timer.current);
        onChange('strategyKey', key, { replace: true });
      }}
      className="grid gap-3 rounded-lg border border-line bg-surface p-3 sm:grid-cols-2 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto] lg:items-end"
    >
      <Select
        label={t('alerts.columns.status')}
        value={filters.status ?? ''}
        placeholder={t('alerts.anyStatus')}
        onChange={(event) => onChange('status', event.target.value)}
        options={ALERT_STATUSES.map((status) => ({ value: status, label: t(`status.${status}`) }))}
      />
      <Input
        label={t('alerts.from')}
        type="date"
        value={filters.from ?? ''}
        max={filters.to}
        onChange={(event) => onChange('from', event.target.value)}
      />
      <Input
        label={t('alerts.to')}
        type="date"
        value={filters.to ?? ''}
        min={filters.from}
        onChange={(event) => onChange('to', event.target.value)}
      />
      <Input
        label={t('alerts.columns.strategyKey')}
        value={key}
        maxLength={64}
        spellCheck={false}
        autoComplete="off"
        placeholder={t('alerts.keyPlaceholder')}
        onChange={(event) => changeKey(event.target.value)}
        onBlur={() => {
          window.clearTimeout(timer.current);
          if ((key.trim() || undefined) !== filters.strategyKey)
            onChange('strategyKey', key, { replace: true });
        }}
        className="font-mono text-xs"
      />
      <Button
        variant="ghost"
        disabled={!hasFilters(filters)}
        onClick={() => {
          window.clearTimeout(timer.current);
          setKey('');
          onClear();
        }}
      >
        {t('alerts.clearFilters')}
      </Button>
    </form>
  );
}
