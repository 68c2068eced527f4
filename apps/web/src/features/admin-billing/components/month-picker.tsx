import { useTranslation } from 'react-i18next';
import { Select } from '../../../components/ui/select';
import type { Period } from '../api/process-month';
import { isPeriodOver, recentYears } from '../utils/periods';

/** Year and month; months not over yet cannot be picked (the server would refuse them). */
export function MonthPicker({
  value,
  onChange,
  now,
}: {
  value: Period;
  onChange: (period: Period) => void;
  now: Date;
}) {
  const { t, i18n } = useTranslation();
  const monthName = new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en-US', {
    month: 'long',
    timeZone: 'UTC',
  });
  const months = Array.from({ length: 12 }, (_, index) => {
    const month = index + 1;
    const label = monthName.format(Date.UTC(value.year, index, 1));
    return {
      value: String(month),
      label: label.charAt(0).toLocaleUpperCase() + label.slice(1),
      disabled: !isPeriodOver({ year: value.year, month }, now),
    };
  });
  const pickYear = (year: number) => {
    // A month still running in the newly picked year falls back to the last one that is over.
    let month = value.month;
    while (month > 1 && !isPeriodOver({ year, month }, now)) month -= 1;
    onChange({ year, month });
  };
  return (
    <div className="grid grid-cols-2 gap-3">
      <Select
        label={t('billing.period.month')}
        value={String(value.month)}
        onChange={(event) => onChange({ ...value, month: Number(event.target.value) })}
        options={months}
      />
      <Select
        label={t('billing.period.year')}
        value={String(value.year)}
        onChange={(event) => pickYear(Number(event.target.value))}
        options={recentYears(now)
          .filter((year) => isPeriodOver({ year, month: 1 }, now))
          .map((year) => ({ value: String(year), label: String(year) }))}
      />
    </div>
  );
}
