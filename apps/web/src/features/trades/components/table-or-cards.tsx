import type { ReactNode } from 'react';
import { type Column, Pager, type Pagination, Table } from '../../../components/ui/table';

/**
 * A paged list as a table from 640 px and as one card a row below (issue 21: phones), both named by `caption`
 * and sharing one pager.
 */
export function TableOrCards<T>({
  caption,
  columns,
  rows,
  rowKey,
  pagination,
  onRowClick,
  card,
}: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  pagination: Pagination;
  onRowClick?: (row: T) => void;
  /** A row's card: the `<li>`'s content. */
  card: (row: T) => ReactNode;
}) {
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
        />
      </div>
      <div className="flex flex-col gap-2 sm:hidden">
        <ul aria-label={caption} className="flex flex-col gap-2">
          {rows.map((row) => (
            <li key={rowKey(row)}>{card(row)}</li>
          ))}
        </ul>
        <div className="overflow-hidden rounded-lg border border-line">
          <Pager {...pagination} />
        </div>
      </div>
    </>
  );
}
