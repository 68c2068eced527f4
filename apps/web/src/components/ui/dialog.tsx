import { type ReactNode, useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';
import { CloseIcon } from './icons';

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  /** alertdialog for confirmations: screen readers announce it as needing an answer. */
  role?: 'dialog' | 'alertdialog';
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

const FIELDS = 'input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled])';

const widths = { sm: 'max-w-sm', md: 'max-w-lg', lg: 'max-w-2xl' };

/** A radio stands for its group: the checked one of its name when there is one (as Tab would land). */
function groupFocus(field: HTMLElement, within: HTMLElement): HTMLElement {
  if (!(field instanceof HTMLInputElement) || field.type !== 'radio' || !field.name) return field;
  const checked = [...within.querySelectorAll<HTMLInputElement>('input[type="radio"]')].find(
    (radio) => radio.name === field.name && radio.checked && !radio.disabled,
  );
  return checked ?? field;
}

/** The first field in `root` (of a radio group, its checked one); null when it has none. */
export function firstFieldIn(root: HTMLElement): HTMLElement | null {
  const field = root.querySelector<HTMLElement>(FIELDS);
  return field ? groupFocus(field, root) : null;
}

function firstControlIn(root: HTMLElement): HTMLElement | null {
  return firstFieldIn(root) ?? root.querySelector<HTMLElement>(FOCUSABLE);
}

/**
 * Where focus lands when a dialog opens: what the dialog marks `data-autofocus` (a confirmation's
 * safe answer), else its content's first field or control, else its footer's; Close only when the
 * dialog holds nothing else.
 */
export function initialFocus(panel: HTMLElement): HTMLElement {
  const marked = panel.querySelector<HTMLElement>('[data-autofocus]');
  if (marked) return marked;
  for (const part of ['[data-dialog-body]', '[data-dialog-footer]']) {
    const root = panel.querySelector<HTMLElement>(part);
    const control = root ? firstControlIn(root) : null;
    if (control) return control;
  }
  return panel.querySelector<HTMLElement>(FOCUSABLE) ?? panel;
}

/**
 * The last elements that had the focus, newest last. A field with `autoFocus` inside a dialog takes the
 * focus as the dialog mounts, before the dialog can note its trigger: the trigger is then the newest of
 * these outside the dialog.
 */
const recentFocus: HTMLElement[] = [];
if (typeof document !== 'undefined') {
  document.addEventListener('focusin', (event) => {
    if (!(event.target instanceof HTMLElement)) return;
    recentFocus.push(event.target);
    if (recentFocus.length > 8) recentFocus.shift();
  });
}

/** Where focus goes back when the dialog closes: what opened it. */
function triggerOf(panel: HTMLElement | null): HTMLElement | null {
  const active = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  if (!panel || !active || !panel.contains(active)) return active;
  return recentFocus.findLast((element) => element.isConnected && !panel.contains(element)) ?? null;
}

/** A modal: focus moves in and stays in, Escape and the backdrop close it, focus returns on close. */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  size = 'md',
  role = 'dialog',
}: DialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const descriptionId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    if (!open) return;
    const panel = panelRef.current;
    const previouslyFocused = triggerOf(panel);
    if (panel) initialFocus(panel).focus();

    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        onCloseRef.current();
        return;
      }
      if (event.key !== 'Tab' || !panel) return;
      const focusable = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)];
      const firstEl = focusable[0];
      const lastEl = focusable[focusable.length - 1];
      if (!firstEl || !lastEl) return;
      if (event.shiftKey && document.activeElement === firstEl) {
        event.preventDefault();
        lastEl.focus();
      } else if (!event.shiftKey && document.activeElement === lastEl) {
        event.preventDefault();
        firstEl.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.body.style.overflow = overflow;
      previouslyFocused?.focus?.();
    };
  }, [open]);

  if (!open) return null;

  return createPortal(
    <div className="fixed inset-0 z-50 flex items-end justify-center p-0 sm:items-center sm:p-4">
      <div className="absolute inset-0 bg-overlay backdrop-blur-[1px]" aria-hidden="true" onClick={onClose} />
      <div
        ref={panelRef}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        className={cn(
          'relative flex max-h-[90dvh] w-full flex-col rounded-t-xl border border-line-strong bg-surface shadow-2xl sm:rounded-xl',
          widths[size],
        )}
      >
        <div className="flex items-start justify-between gap-4 px-5 pt-4 pb-2">
          <div>
            <h2 id={titleId} className="text-base font-semibold text-fg">
              {title}
            </h2>
            {description ? (
              <p id={descriptionId} className="mt-1 text-sm text-muted">
                {description}
              </p>
            ) : null}
          </div>
          <button
            type="button"
            onClick={onClose}
            aria-label={t('common.close')}
            className="-mr-1 rounded p-1 text-subtle hover:bg-surface-3 hover:text-fg"
          >
            <CloseIcon />
          </button>
        </div>
        {children ? (
          <div data-dialog-body className="overflow-y-auto px-5 py-2">
            {children}
          </div>
        ) : null}
        {footer ? (
          <div data-dialog-footer className="flex justify-end gap-2 border-t border-line px-5 py-3">
            {footer}
          </div>
        ) : null}
      </div>
    </div>,
    document.body,
  );
}
