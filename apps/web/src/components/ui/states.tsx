import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../i18n/translate-message';
import { cn } from '../../lib/cn';
import { Button } from './button';
import { AlertIcon, InboxIcon } from './icons';
import { Spinner } from './spinner';

export function LoadingState({ label, className }: { label?: ReactNode; className?: string }) {
  const { t } = useTranslation();
  return (
    <div
      role="status"
      className={cn('flex items-center justify-center gap-2 py-10 text-sm text-muted', className)}
    >
      <Spinner />
      <span>{label ?? t('common.loading')}</span>
    </div>
  );
}

/** Says what is missing and offers the button that fixes it (STYLE "How it looks"). */
export function EmptyState({
  title,
  description,
  actions,
  icon,
  className,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  icon?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn('flex flex-col items-center justify-center gap-2 px-6 py-10 text-center', className)}>
      <span className="mb-1 rounded-full border border-line bg-surface-2 p-2.5 text-subtle">
        {icon ?? <InboxIcon size={20} />}
      </span>
      <p className="text-sm font-medium text-fg">{title}</p>
      {description ? <p className="max-w-md text-sm text-muted">{description}</p> : null}
      {actions ? (
        <div className="mt-2 flex flex-wrap items-center justify-center gap-2">{actions}</div>
      ) : null}
    </div>
  );
}

export function ErrorState({
  error,
  title,
  onRetry,
  className,
}: {
  error?: unknown;
  title?: ReactNode;
  onRetry?: () => void;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <div
      role="alert"
      className={cn('flex flex-col items-center justify-center gap-2 px-6 py-10 text-center', className)}
    >
      <span className="mb-1 rounded-full border border-loss/30 bg-loss/10 p-2.5 text-loss">
        <AlertIcon size={20} />
      </span>
      <p className="text-sm font-medium text-fg">{title ?? t('common.errorTitle')}</p>
      {error !== undefined ? (
        <p className="max-w-md text-sm break-words text-muted">{errorMessage(t, error)}</p>
      ) : null}
      {onRetry ? (
        <Button variant="secondary" size="sm" className="mt-2" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      ) : null}
    </div>
  );
}

interface QueryLike<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  isError: boolean;
  refetch: () => unknown;
}

/**
 * A list, table or chart's `loading`, `error` and `onRetry` props from one TanStack query, to spread:
 * `<TableOrCards {...queryState(trades)} … />`. It reads `error` only when the query failed and `refetch`
 * only on a retry, as the props written out did, so TanStack re-renders on the same changes (it tracks
 * the properties a component reads; spreading the query itself would read them all).
 */
export function queryState(query: Omit<QueryLike<unknown>, 'data'>): {
  loading: boolean;
  error: unknown;
  onRetry: () => void;
} {
  return {
    loading: query.isPending,
    error: query.isError ? query.error : undefined,
    onRetry: () => void query.refetch(),
  };
}

/**
 * The three states every screen has (DESIGN §9), for one TanStack query:
 * loading, error with retry, empty with a next step, then the content.
 */
export function QueryView<T>({
  query,
  isEmpty,
  loading,
  empty,
  children,
}: {
  query: QueryLike<T>;
  isEmpty?: (data: T) => boolean;
  loading?: ReactNode;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <>{loading ?? <LoadingState />}</>;
  if (query.isError || query.data === undefined) {
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  }
  if (empty !== undefined && isEmpty?.(query.data)) return <>{empty}</>;
  return <>{children(query.data)}</>;
}
