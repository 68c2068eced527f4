import { type ReactNode, useId } from 'react';
import { cn } from '../../lib/cn';

export interface ToggleProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: ReactNode;
  /** Hide the label visually (it stays for screen readers). */
  hideLabel?: boolean;
  description?: ReactNode;
  disabled?: boolean;
  id?: string;
}

export function Toggle({ checked, onChange, label, hideLabel, description, disabled, id }: ToggleProps) {
  const generatedId = useId();
  const toggleId = id ?? generatedId;
  return (
    <div className="flex items-center justify-between gap-3">
      <div className={cn('flex flex-col', hideLabel && 'sr-only')}>
        <label htmlFor={toggleId} className="text-sm text-fg">
          {label}
        </label>
        {description ? <span className="text-xs text-subtle">{description}</span> : null}
      </div>
      <button
        id={toggleId}
        type="button"
        role="switch"
        aria-checked={checked}
        disabled={disabled}
        onClick={() => onChange(!checked)}
        className={cn(
          'relative inline-flex h-5 w-9 shrink-0 items-center rounded-full border transition-colors',
          'disabled:cursor-not-allowed disabled:opacity-50',
          checked ? 'border-accent bg-accent' : 'border-line-strong bg-surface-3',
        )}
      >
        <span
          aria-hidden="true"
          className={cn(
            'inline-block h-3.5 w-3.5 rounded-full shadow transition-transform',
            checked ? 'translate-x-[18px] bg-on-accent' : 'translate-x-[2px] bg-muted',
          )}
        />
      </button>
    </div>
  );
}
