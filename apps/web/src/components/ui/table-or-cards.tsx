import type { ReactNode } from 'react';
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
}: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  /** None: every row is shown, no pager. */
  pagination?: Pagination;
  onRowClick?: (row: T) => void;
  /** A row's card: the `<li>`'s content. */
  card: (row: T) => ReactNode;
  loading: boolean;
  error: unknown;
  onRetry: () => void;
  empty: ReactNode;
  /** The table's own height limit (Table's `maxHeight`); the cards are not limited. */
  maxHeight?: number | string;
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
        />
      </div>
      <div className="flex flex-col gap-2 sm:hidden">
        <ul aria-label={caption} className="flex flex-col gap-2">
          {rows.map((row) => (
            <li key={rowKey(row)}>{card(row)}</li>
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
