import { type ReactNode, useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';
import { formatCount } from '../../lib/format';
import { Button } from './button';
import { ChevronLeftIcon, ChevronRightIcon } from './icons';
import { SkeletonTable } from './skeleton';
import { ErrorState } from './states';

export interface Column<T> {
  key: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** Numbers are right-aligned with tabular figures (STYLE "How it looks"). */
  numeric?: boolean;
  className?: string;
}

export interface Pagination {
  page: number;
  pageSize: number;
  total: number;
  onPageChange: (page: number) => void;
}

export interface TableProps<T> {
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string;
  caption: string;
  loading?: boolean;
  error?: unknown;
  onRetry?: () => void;
  /** Shown when there are no rows: say what to do next. */
  empty?: ReactNode;
  pagination?: Pagination;
  onRowClick?: (row: T) => void;
  /** Height of the scrolling area; the header sticks while rows scroll. */
  maxHeight?: number | string;
  /** Inside a card already: no border or corners of its own. */
  flush?: boolean;
}

/**
 * Whether an element scrolls (its content wider or taller than its box), watched as either resizes. A scrolling
 * table is a tab stop so the keyboard can scroll it (WCAG 2.1.1); one that fits is not.
 */
function useScrolls<T extends HTMLElement>(): [(element: T | null) => void, boolean] {
  const [scrolls, setScrolls] = useState(false);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback((element: T | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const measure = () =>
      setScrolls(element.scrollWidth > element.clientWidth || element.scrollHeight > element.clientHeight);
    // The observer's first report (as soon as the table is laid out) measures it: measuring here, while React
    // commits, would force a layout of the whole page (issue 21: about 20 ms on the Dashboard, 4× CPU).
    observer.current = new ResizeObserver(measure);
    observer.current.observe(element);
    if (element.firstElementChild) observer.current.observe(element.firstElementChild);
  }, []);
  return [ref, scrolls];
}

export function Table<T>({
  columns,
  rows,
  rowKey,
  caption,
  loading,
  error,
  onRetry,
  empty,
  pagination,
  onRowClick,
  maxHeight = '70dvh',
  flush = false,
}: TableProps<T>) {
  const { t } = useTranslation();
  const [scrollerRef, scrolls] = useScrolls<HTMLDivElement>();
  let body: ReactNode;
  if (loading) body = <SkeletonTable columns={Math.min(columns.length, 6)} />;
  else if (error !== undefined && error !== null) body = <ErrorState error={error} onRetry={onRetry} />;
  else if (!rows || rows.length === 0)
    body = empty ?? <p className="px-4 py-8 text-center text-sm text-muted">{t('table.empty')}</p>;

  return (
    <div className={cn('overflow-hidden bg-surface', !flush && 'rounded-lg border border-line')}>
      {body ?? (
        // `relative`: screen-reader-only text (absolutely positioned) stays in the scroller instead of
        // widening the page on phones.
        <div
          ref={scrollerRef}
          className="relative overflow-auto"
          style={{ maxHeight }}
          {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-label': caption } : {})}
        >
          <table className="w-full border-collapse text-sm">
            <caption className="sr-only">{caption}</caption>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th
                    key={column.key}
                    scope="col"
                    className={cn(
                      'sticky top-0 z-[1] border-b border-line bg-surface-2 px-3 py-2 text-xs font-medium whitespace-nowrap text-muted',
                      column.numeric ? 'text-right' : 'text-left',
                      column.className,
                    )}
                  >
                    {column.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows?.map((row) => (
                <tr
                  key={rowKey(row)}
                  onClick={onRowClick ? () => onRowClick(row) : undefined}
                  className={cn(
                    'border-b border-line last:border-b-0 hover:bg-surface-2',
                    onRowClick && 'cursor-pointer',
                  )}
                >
                  {columns.map((column) => (
                    <td
                      key={column.key}
                      className={cn(
                        'px-3 py-1.5 whitespace-nowrap text-fg',
                        column.numeric ? 'num text-right' : 'text-left',
                        column.className,
                      )}
                    >
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pagination && !loading && !error && pagination.total > 0 ? <Pager {...pagination} /> : null}
    </div>
  );
}

export function Pager({ page, pageSize, total, onPageChange }: Pagination) {
  const { t, i18n } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  const count = (value: number) => formatCount(value, i18n.resolvedLanguage);
  return (
    <nav
      aria-label={t('table.pagination')}
      className="flex items-center justify-between gap-3 border-t border-line bg-surface px-3 py-2 text-xs text-muted"
    >
      <span className="num">
        {t('table.range', { from: count(from), to: count(to), total: count(total) })}
      </span>
      <div className="flex items-center gap-1">
        <Button
          variant="ghost"
          size="sm"
          onClick={() => onPageChange(page - 1)}
          disabled={page <= 1}
          aria-label={t('table.previous')}
          icon={<ChevronLeftIcon size={14} />}
        />
        <span className="num px-1">{t('table.page', { page: count(page), pages: count(pages) })}</span>
        <Button
          variant="ghost"
          size="sm"
          onClick={() => onPageChange(page + 1)}
          disabled={page >= pages}
          aria-label={t('table.next')}
          icon={<ChevronRightIcon size={14} />}
        />
      </div>
    </nav>
  );
}
