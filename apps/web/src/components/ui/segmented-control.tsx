import { cn } from '../../lib/cn';

export interface SegmentOption<T extends string> {
  value: T;
  label: string;
  /** Longer name in the tooltip, e.g. "Last 7 days" for "7D". */
  title?: string;
}

/** A row of pressed/unpressed buttons for one choice among a few (chart periods). */
export function SegmentedControl<T extends string>({
  label,
  options,
  value,
  onChange,
  className,
}: {
  label: string;
  options: SegmentOption<T>[];
  /** Nothing pressed when the value is none of the options (e.g. a custom range). */
  value: T | undefined;
  onChange: (value: T) => void;
  className?: string;
}) {
  return (
    <div
      role="group"
      aria-label={label}
      className={cn(
        'inline-flex h-9 items-center rounded-md border border-line-strong bg-surface-2 p-0.5',
        className,
      )}
    >
      {options.map((option) => {
        const pressed = option.value === value;
        return (
          <button
            key={option.value}
            type="button"
            aria-pressed={pressed}
            title={option.title}
            onClick={() => onChange(option.value)}
            className={cn(
              'num h-full rounded px-2.5 text-xs font-medium whitespace-nowrap transition-colors',
              pressed ? 'bg-accent text-on-accent' : 'text-muted hover:bg-surface-3 hover:text-fg',
            )}
          >
            {option.label}
          </button>
        );
      })}
    </div>
  );
}
