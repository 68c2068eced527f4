import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { Button } from './button';
import { EmptyState, ErrorState, LoadingState } from './states';
import { type Column, Pager, type Pagination, Table } from './table';

/**
 * A paged list read from the server: loading, its error with a retry, `empty` when it has no rows, else a table
 * from 640 px and one card a row below (issue 21: phones), both named by `caption` and sharing one pager.
 */
export function TableOrCards<T>({
  caption,
  columns,
  rows,
  rowKey,
  pagination,
  onRowClick,
  card,
  loading,
  error,
  onRetry,
  empty,
  maxHeight,
  flush = false,
}: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  /** None: every row is shown, no pager. */
  pagination?: Pagination;
  onRowClick?: (row: T) => void;
  /** A row's card: the `<li>`'s content; `cell` renders one of the table's own cells for it, by column key. */
  card: (row: T, cell: (key: string) => ReactNode) => ReactNode;
  /** A list read with the screen (no query of its own) leaves these three out. */
  loading?: boolean;
  error?: unknown;
  onRetry?: () => void;
  empty: ReactNode;
  /** The table's own height limit (Table's `maxHeight`); the cards are not limited. */
  maxHeight?: number | string;
  /** Inside a card already: the table without its own border and corners, the cards off the card's edges. */
  flush?: boolean;
}) {
  if (loading) return <LoadingState />;
  if (error) return <ErrorState error={error} onRetry={onRetry} />;
  if (rows.length === 0) return empty;
  return (
    <>
      <div className="hidden sm:block">
        <Table
          caption={caption}
          columns={columns}
          rows={rows}
          rowKey={rowKey}
          onRowClick={onRowClick}
          pagination={pagination}
          maxHeight={maxHeight}
          flush={flush}
        />
      </div>
      <div className={cn('flex flex-col gap-2 sm:hidden', flush && 'p-3')}>
        <ul aria-label={caption} className="flex flex-col gap-2">
          {rows.map((row) => (
            <li key={rowKey(row)}>
              {card(row, (key) => columns.find((column) => column.key === key)?.cell(row))}
            </li>
          ))}
        </ul>
        {pagination ? (
          <div className="overflow-hidden rounded-lg border border-line">
            <Pager {...pagination} />
          </div>
        ) : null}
      </div>
    </>
  );
}

/**
 * A row's card below 640 px: its title with `corner` beside it (a status, a figure), then the rest. `raised`: on a
 * card already, one surface up.
 */
export function RowCard({
  title,
  corner,
  children,
  raised = false,
}: {
  title: ReactNode;
  corner?: ReactNode;
  children: ReactNode;
  raised?: boolean;
}) {
  return (
    <div
      className={cn(
        'flex flex-col gap-2 rounded-lg border border-line p-3 text-sm',
        raised ? 'bg-surface-2' : 'bg-surface',
      )}
    >
      <span className="flex items-start justify-between gap-3">
        <span className="min-w-0 break-words">{title}</span>
        {corner}
      </span>
      {children}
    </div>
  );
}

/** A labelled figure of a row's card: the label over its value (`end`: both to the right). */
export function CardFigure({
  label,
  children,
  end,
  className,
}: {
  label: ReactNode;
  children: ReactNode;
  end?: boolean;
  className?: string;
}) {
  return (
    <span className={cn('flex flex-col', end && 'items-end text-right', className)}>
      <span className="text-xs text-muted">{label}</span>
      <span className="num text-fg">{children}</span>
    </span>
  );
}

/** A filtered list with no rows: says so, with the button that clears the filters. */
export function NoMatch({
  title,
  description,
  clearLabel,
  onClear,
}: {
  title: string;
  description: string;
  clearLabel: string;
  onClear: () => void;
}) {
  return (
    <EmptyState
      title={title}
      description={description}
      actions={
        <Button variant="secondary" onClick={onClear}>
          {clearLabel}
        </Button>
      }
    />
  );
}
