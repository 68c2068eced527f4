import { type ComponentProps, type ReactNode, useId } from 'react';
import { cn } from '../../lib/cn';
import { Field, controlClasses, fieldDescriptionIds } from './field';

export interface InputProps extends Omit<ComponentProps<'input'>, 'size'> {
  label?: ReactNode;
  hint?: ReactNode;
  error?: string;
  /** Right-aligned tabular figures for amounts and prices. */
  numeric?: boolean;
  suffix?: ReactNode;
  fieldClassName?: string;
}

export function Input({
  label,
  hint,
  error,
  numeric,
  suffix,
  id,
  className,
  fieldClassName,
  ...props
}: InputProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  return (
    <Field id={inputId} label={label} hint={hint} error={error} className={fieldClassName}>
      <div className="relative">
        <input
          id={inputId}
          aria-invalid={error ? true : undefined}
          aria-describedby={fieldDescriptionIds(inputId, { hint, error })}
          className={cn(controlClasses, numeric && 'num text-right', suffix ? 'pr-14' : undefined, className)}
          {...props}
        />
        {suffix ? (
          <span className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-xs text-subtle">
            {suffix}
          </span>
        ) : null}
      </div>
    </Field>
  );
}
