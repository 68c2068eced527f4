import { type ReactNode, useState } from 'react';
import { cn } from '../../lib/cn';

export interface DonutSlice {
  key: string;
  label: string;
  value: number;
  /** The exact value as text, with its currency. */
  display: string;
  /** Its share as text, e.g. "42.10%". */
  share: string;
  /** Under the label in the legend, beside the share, e.g. a "Testnet" badge. */
  badge?: ReactNode;
}

/** Categorical colours that read on both themes; gain and loss colours stay for gains and losses. */
const PALETTE = ['var(--k-accent)', '#22b8cf', '#e0a93b', '#a78bfa', '#f472b6', '#94a3b8'];

export function sliceColor(index: number): string {
  return PALETTE[index % PALETTE.length] ?? PALETTE[0]!;
}

/**
 * A donut of shares (allocation) drawn in SVG, with its legend: no chart library. Hovering a slice
 * or its legend row shows the exact value and share in the centre.
 */
export function DonutChart({
  slices,
  label,
  total,
  totalLabel,
  layout = 'row',
  className,
}: {
  slices: DonutSlice[];
  label: string;
  /** Shown in the centre when nothing is hovered. */
  total: string;
  totalLabel: ReactNode;
  /** Legend beside the donut (wide cards), under it (narrow ones), or under it only from xl (a side column there). */
  layout?: 'row' | 'stacked' | 'stacked-xl';
  className?: string;
}) {
  const [active, setActive] = useState<string | null>(null);
  const sum = slices.reduce((acc, slice) => acc + Math.max(0, slice.value), 0);
  const radius = 15.9155; // circumference 100: dash lengths are percentages
  const gap = slices.length > 1 ? 0.6 : 0;
  const lengths = slices.map((slice) => (sum > 0 ? (Math.max(0, slice.value) / sum) * 100 : 0));
  const arcs = slices.map((slice, index) => ({
    slice,
    index,
    start: lengths.slice(0, index).reduce((acc, length) => acc + length, 0),
    length: lengths[index] ?? 0,
  }));
  const shown = slices.find((slice) => slice.key === active);

  return (
    <div
      className={cn(
        'flex h-full px-2',
        {
          row: 'items-center gap-5',
          stacked: 'flex-col items-stretch gap-3',
          'stacked-xl': 'items-center gap-5 xl:flex-col xl:items-stretch xl:gap-3',
        }[layout],
        className,
      )}
    >
      <div
        className={cn(
          'relative aspect-square shrink-0',
          {
            row: 'h-full max-h-52 max-sm:max-h-40',
            stacked: 'mx-auto h-32',
            'stacked-xl': 'h-full max-h-52 max-sm:max-h-40 xl:mx-auto xl:h-32',
          }[layout],
        )}
      >
        <svg viewBox="0 0 42 42" className="h-full w-full -rotate-90" role="img" aria-label={label}>
          <circle cx="21" cy="21" r={radius} fill="none" stroke="var(--k-surface-3)" strokeWidth="5" />
          {arcs.map(({ slice, index, start, length }) =>
            length > 0 ? (
              <circle
                key={slice.key}
                cx="21"
                cy="21"
                r={radius}
                fill="none"
                stroke={sliceColor(index)}
                strokeWidth={active === slice.key ? 6.5 : 5}
                strokeDasharray={`${Math.max(length - gap, 0.4)} ${100 - Math.max(length - gap, 0.4)}`}
                strokeDashoffset={-start}
                onMouseEnter={() => setActive(slice.key)}
                onMouseLeave={() => setActive(null)}
                className="transition-[stroke-width] duration-150"
              >
                <title>{`${slice.label}: ${slice.display} (${slice.share})`}</title>
              </circle>
            ) : null,
          )}
        </svg>
        <div className="pointer-events-none absolute inset-0 flex flex-col items-center justify-center text-center">
          {/* Inside the hole (64% of the donut): a phone's smaller donut gets smaller figures, not cut ones. */}
          <span className="max-w-[75%] text-[11px] leading-tight text-muted max-sm:max-w-[62%] max-sm:text-[10px]">
            {shown ? shown.label : totalLabel}
          </span>
          <span className="num max-w-[80%] truncate text-sm font-semibold text-fg max-sm:max-w-[66%] max-sm:text-xs">
            {shown ? shown.display : total}
          </span>
          {shown ? <span className="num text-[11px] text-subtle">{shown.share}</span> : null}
        </div>
      </div>
      <ul
        className={cn(
          'flex max-h-full min-w-0 flex-col gap-0.5 overflow-y-auto text-xs',
          layout === 'row' && 'max-w-md flex-1 self-center',
          layout === 'stacked-xl' && 'max-w-md flex-1 self-center xl:max-w-none xl:flex-none xl:self-stretch',
        )}
      >
        {slices.map((slice, index) => (
          <li
            key={slice.key}
            tabIndex={0}
            onMouseEnter={() => setActive(slice.key)}
            onMouseLeave={() => setActive(null)}
            onFocus={() => setActive(slice.key)}
            onBlur={() => setActive(null)}
            className={cn(
              // A phone puts the amount under the name: the name keeps the legend's width.
              'grid grid-cols-[auto_minmax(0,1fr)_auto] items-center gap-x-2 rounded px-1.5 py-1 max-sm:grid-cols-[auto_minmax(0,1fr)]',
              active === slice.key && 'bg-surface-2',
            )}
          >
            <span
              aria-hidden="true"
              className="h-2.5 w-2.5 rounded-sm"
              style={{ backgroundColor: sliceColor(index) }}
            />
            <span className="truncate text-fg" title={slice.label}>
              {slice.label}
            </span>
            <span className="num text-right text-fg max-sm:col-start-2 max-sm:text-left">
              {slice.display}
            </span>
            {/* The badge under the name, beside the share: the name keeps the whole width. */}
            <span className="col-start-2 flex items-center gap-1.5">
              <span className="num text-subtle">{slice.share}</span>
              {slice.badge}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
