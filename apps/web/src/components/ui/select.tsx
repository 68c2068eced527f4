import { type ComponentProps, type ReactNode, useId } from 'react';
import { cn } from '../../lib/cn';
import { Field, controlClasses, fieldDescriptionIds } from './field';
import { ChevronDownIcon } from './icons';

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

export interface SelectProps extends Omit<ComponentProps<'select'>, 'size'> {
  label?: ReactNode;
  hint?: ReactNode;
  error?: string;
  options: SelectOption[];
  placeholder?: string;
  fieldClassName?: string;
}

export function Select({
  label,
  hint,
  error,
  options,
  placeholder,
  id,
  className,
  fieldClassName,
  ...props
}: SelectProps) {
  const generatedId = useId();
  const selectId = id ?? generatedId;
  return (
    <Field id={selectId} label={label} hint={hint} error={error} className={fieldClassName}>
      <div className="relative">
        <select
          id={selectId}
          aria-invalid={error ? true : undefined}
          aria-describedby={fieldDescriptionIds(selectId, { hint, error })}
          className={cn(controlClasses, 'cursor-pointer appearance-none pr-8', className)}
          {...props}
        >
          {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
          {options.map((option) => (
            <option key={option.value} value={option.value} disabled={option.disabled}>
              {option.label}
            </option>
          ))}
        </select>
        <ChevronDownIcon className="pointer-events-none absolute top-1/2 right-2.5 -translate-y-1/2 text-subtle" />
      </div>
    </Field>
  );
}
