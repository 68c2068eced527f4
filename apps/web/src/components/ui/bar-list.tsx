import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

export interface BarItem {
  key: string;
  label: ReactNode;
  value: number;
  /** The exact value as text, with its currency (STYLE "How it looks"). */
  display: string;
  /** A second line in the tooltip, e.g. "2 open trades". */
  detail?: ReactNode;
}

/**
 * Horizontal bars for "how much where" (balance by account, capital by bot): no chart library,
 * the exact value beside each bar and in its tooltip.
 */
export function BarList({
  items,
  label,
  className,
}: {
  items: BarItem[];
  label: string;
  className?: string;
}) {
  const max = Math.max(...items.map((item) => Math.abs(item.value)), 0);
  return (
    <ul aria-label={label} className={cn('flex h-full flex-col gap-3 overflow-y-auto px-2 pt-1', className)}>
      {items.map((item) => {
        const width = max > 0 ? (Math.abs(item.value) / max) * 100 : 0;
        return (
          <li
            key={item.key}
            tabIndex={0}
            className="group relative rounded text-xs focus-visible:outline-offset-4"
          >
            <div className="flex items-baseline justify-between gap-3">
              <span className="truncate text-muted">{item.label}</span>
              <span className="num shrink-0 font-medium text-fg">{item.display}</span>
            </div>
            <div className="mt-1 h-2 rounded-full bg-surface-3">
              <div
                className="h-full rounded-full bg-accent transition-[width] duration-300"
                // A non-zero amount stays visible next to a much larger one.
                style={{ width: `${item.value !== 0 ? Math.max(width, 1.5) : 0}%` }}
              />
            </div>
            <div
              role="tooltip"
              className="pointer-events-none absolute top-full right-0 z-10 mt-1 hidden rounded border border-line-strong bg-surface-2 px-2 py-1 shadow-lg group-hover:block group-focus-visible:block"
            >
              <p className="text-subtle">{item.label}</p>
              <p className="num font-medium text-fg">{item.display}</p>
              {item.detail ? <p className="text-subtle">{item.detail}</p> : null}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
