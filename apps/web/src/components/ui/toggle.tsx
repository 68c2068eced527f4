import { type PointerEvent, type ReactNode, useId, useRef } from 'react';
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

/** How far a finger may move between press and release for it to be a tap, not a swipe (px). */
export const SWIPE_SLOP = 10;

export function Toggle({ checked, onChange, label, hideLabel, description, disabled, id }: ToggleProps) {
  const generatedId = useId();
  const toggleId = id ?? generatedId;
  // A swipe that starts on the switch (a list scrolled sideways on a phone) does not flip it: only a press
  // released where it began is a click (issue 21). The keyboard's Space and Enter are clicks as always.
  const pressedAt = useRef<{ x: number; y: number } | null>(null);
  const swiped = useRef(false);
  const onPointerDown = (event: PointerEvent) => {
    pressedAt.current = { x: event.clientX, y: event.clientY };
    swiped.current = false;
  };
  const onPointerUp = (event: PointerEvent) => {
    const start = pressedAt.current;
    pressedAt.current = null;
    swiped.current =
      start !== null && Math.hypot(event.clientX - start.x, event.clientY - start.y) > SWIPE_SLOP;
  };
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
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        onPointerCancel={() => {
          pressedAt.current = null; // the browser took the gesture (a scroll): no click follows
        }}
        onKeyDown={() => {
          swiped.current = false;
        }}
        onClick={() => {
          const wasSwipe = swiped.current;
          swiped.current = false;
          if (!wasSwipe) onChange(!checked);
        }}
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
