import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { useFormatters } from '../../../lib/use-formatters';

/**
 * "Total equity (est.)" with "Available" beside it (issue 21): the one total of the user's money, shown alike on
 * the dashboard and Portfolio — every asset at its last price, and the dollars free to spend. Its texts are
 * Portfolio's (the dashboard route loads them too). Without figures yet, the same card with placeholders, so the
 * screen below does not move when they come (Lighthouse measured the Dashboard's metrics shifting down).
 */
export function EquityFigures({
  total,
  available,
  currency,
  unread = 0,
  aside,
}: {
  /** Absent while they are read. */
  total?: string;
  available?: string;
  currency: string | undefined;
  /** Accounts whose venue could not answer: left out of both figures. */
  unread?: number;
  aside?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const totalId = useId();
  const availableId = useId();
  return (
    <Card className="flex flex-wrap items-end justify-between gap-x-8 gap-y-3 px-4 py-3">
      <div className="flex flex-wrap items-end gap-x-8 gap-y-3">
        <section aria-labelledby={totalId}>
          <h2 id={totalId} className="text-xs text-muted">
            {t('portfolio.equity.total')}
          </h2>
          {total === undefined ? (
            <Skeleton className="mt-1 h-8 w-36" />
          ) : (
            <p className="num mt-1 text-2xl font-semibold text-fg" data-testid="equity-total">
              {format.currencyValue(total, currency)}
            </p>
          )}
        </section>
        <section aria-labelledby={availableId}>
          <h2 id={availableId} className="text-xs text-muted">
            {t('portfolio.equity.available')}
          </h2>
          {available === undefined ? (
            <Skeleton className="mt-1 h-7 w-28" />
          ) : (
            <p className="num mt-1 text-lg font-medium text-fg" data-testid="equity-available">
              {format.currencyValue(available, currency)}
            </p>
          )}
        </section>
      </div>
      <div className="flex flex-col items-end gap-1 text-right text-xs text-subtle">
        {aside}
        <p>{t('portfolio.equity.hint')}</p>
        {unread > 0 ? <p className="text-warn">{t('portfolio.equity.unread', { count: unread })}</p> : null}
      </div>
    </Card>
  );
}
