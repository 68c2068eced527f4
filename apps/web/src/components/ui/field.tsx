import type { ReactNode } from 'react';
import { useTranslateMessage } from '../../i18n/translate-message';
import { cn } from '../../lib/cn';

export interface FieldProps {
  id: string;
  label?: ReactNode;
  hint?: ReactNode;
  /** A validation message key (spec §5) or any text; translated when known. */
  error?: string;
  className?: string;
  children: ReactNode;
}

export function fieldDescriptionIds(id: string, { hint, error }: { hint?: ReactNode; error?: string }) {
  return [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
}

/** Label, control, hint and error, wired for screen readers. */
export function Field({ id, label, hint, error, className, children }: FieldProps) {
  const translate = useTranslateMessage();
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      {label ? (
        <label htmlFor={id} className="text-xs font-medium text-muted">
          {label}
        </label>
      ) : null}
      {children}
      {error ? (
        <p id={`${id}-error`} role="alert" className="flex items-center gap-1 text-xs text-loss">
          <span aria-hidden="true">!</span>
          {translate(error)}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="text-xs text-subtle">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export const controlClasses = cn(
  'h-9 w-full rounded-md border border-line-strong bg-surface-2 px-3 text-sm text-fg placeholder:text-subtle',
  'transition-colors hover:border-subtle focus:border-accent focus:outline-none focus-visible:outline-2 focus-visible:outline-offset-0',
  'disabled:cursor-not-allowed disabled:opacity-50 read-only:text-muted aria-invalid:border-loss',
);
