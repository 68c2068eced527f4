import { type ReactNode, useId } from 'react';
import { useTranslateMessage } from '../../../i18n/translate-message';
import { cn } from '../../../lib/cn';

export interface ChoiceOption {
  value: string;
  title: ReactNode;
  description?: ReactNode;
  /** Right-hand detail: a balance, a badge. */
  meta?: ReactNode;
  disabled?: boolean;
}

/** A radio group drawn as cards: native radios, so arrows, Tab and screen readers work as usual. */
export function ChoiceCards({
  label,
  name,
  value,
  onChange,
  options,
  error,
  columns = 1,
}: {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  options: ChoiceOption[];
  error?: string;
  columns?: 1 | 2;
}) {
  const translate = useTranslateMessage();
  const errorId = useId();
  return (
    <fieldset aria-describedby={error ? errorId : undefined} className="flex flex-col gap-2">
      <legend className="sr-only">{label}</legend>
      <div className={cn('grid gap-2', columns === 2 && 'sm:grid-cols-2')}>
        {options.map((option) => {
          const checked = option.value === value;
          return (
            <label
              key={option.value}
              className={cn(
                'flex cursor-pointer items-start gap-3 rounded-md border px-3 py-2.5 transition-colors',
                checked ? 'border-accent bg-accent/10' : 'border-line bg-surface-2 hover:border-line-strong',
                option.disabled && 'cursor-not-allowed opacity-50',
              )}
            >
              <input
                type="radio"
                name={name}
                value={option.value}
                checked={checked}
                disabled={option.disabled}
                onChange={() => onChange(option.value)}
                className="mt-1 accent-[var(--k-accent)]"
              />
              <span className="flex min-w-0 flex-1 flex-col gap-0.5">
                <span className="text-sm font-medium text-fg">{option.title}</span>
                {option.description ? <span className="text-xs text-muted">{option.description}</span> : null}
              </span>
              {option.meta ? (
                <span className="shrink-0 text-right text-xs text-muted">{option.meta}</span>
              ) : null}
            </label>
          );
        })}
      </div>
      {error ? (
        <p id={errorId} role="alert" className="flex items-center gap-1 text-xs text-loss">
          <span aria-hidden="true">!</span>
          {translate(error)}
        </p>
      ) : null}
    </fieldset>
  );
}
