import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Card } from './card';
import { ChartIcon } from './icons';
import { Skeleton } from './skeleton';
import { EmptyState, ErrorState } from './states';

export interface ChartFrameProps {
  title: ReactNode;
  /** Axis units, e.g. "USD" or "%": every chart says what it measures. */
  units?: ReactNode;
  description?: ReactNode;
  height?: number;
  loading?: boolean;
  error?: unknown;
  onRetry?: () => void;
  empty?: boolean;
  emptyMessage?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
}

/** Title, units and the loading, error and empty states around any chart. */
export function ChartFrame({
  title,
  units,
  description,
  height = 240,
  loading,
  error,
  onRetry,
  empty,
  emptyMessage,
  actions,
  children,
}: ChartFrameProps) {
  const { t } = useTranslation();
  let body: ReactNode = children;
  if (loading) body = <Skeleton className="h-full w-full" />;
  else if (error !== undefined && error !== null)
    body = <ErrorState error={error} onRetry={onRetry} className="h-full py-4" />;
  else if (empty)
    body = (
      <EmptyState
        icon={<ChartIcon size={20} />}
        title={t('chart.emptyTitle')}
        description={emptyMessage ?? t('chart.emptyDescription')}
        className="h-full py-4"
      />
    );
  return (
    <Card className="flex flex-col">
      {/* The actions go under the title when both do not fit (issue 21: at 390 px the title wrapped a word a line). */}
      <header className="flex flex-wrap items-start justify-between gap-3 px-4 pt-3 pb-2">
        <div className="min-w-40 flex-1">
          <h3 className="text-sm font-semibold text-fg">{title}</h3>
          {description ? <p className="text-xs text-muted">{description}</p> : null}
        </div>
        <div className="flex shrink-0 items-center gap-2">
          {actions}
          {units ? (
            <span className="rounded border border-line px-1.5 py-0.5 text-[11px] text-subtle">
              <span className="sr-only">{t('chart.units')} </span>
              {units}
            </span>
          ) : null}
        </div>
      </header>
      <div className="px-2 pb-3" style={{ height }} aria-busy={loading || undefined}>
        {body}
      </div>
    </Card>
  );
}
