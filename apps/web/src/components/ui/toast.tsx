import { type ReactNode, useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { create } from 'zustand';
import { cn } from '../../lib/cn';
import { AlertIcon, CheckIcon, CloseIcon, InfoIcon } from './icons';

export type ToastTone = 'info' | 'success' | 'error' | 'warning';

export interface Toast {
  id: number;
  tone: ToastTone;
  title: ReactNode;
  description?: ReactNode;
  /** Milliseconds; 0 keeps it until dismissed. */
  duration: number;
}

interface ToastState {
  toasts: Toast[];
  dismiss: (id: number) => void;
}

let nextId = 1;

export const useToasts = create<ToastState>()((set) => ({
  toasts: [],
  dismiss: (id) => set((state) => ({ toasts: state.toasts.filter((toast) => toast.id !== id) })),
}));

function push(
  tone: ToastTone,
  title: ReactNode,
  options: { description?: ReactNode; duration?: number } = {},
) {
  const id = nextId++;
  const duration = options.duration ?? (tone === 'error' ? 8000 : 5000);
  useToasts.setState((state) => ({
    // Five at most: the oldest go first.
    toasts: [...state.toasts, { id, tone, title, description: options.description, duration }].slice(-5),
  }));
  return id;
}

export const toast = {
  info: (title: ReactNode, options?: { description?: ReactNode; duration?: number }) =>
    push('info', title, options),
  success: (title: ReactNode, options?: { description?: ReactNode; duration?: number }) =>
    push('success', title, options),
  warning: (title: ReactNode, options?: { description?: ReactNode; duration?: number }) =>
    push('warning', title, options),
  error: (title: ReactNode, options?: { description?: ReactNode; duration?: number }) =>
    push('error', title, options),
  dismiss: (id: number) => useToasts.getState().dismiss(id),
};

const toneStyles: Record<ToastTone, { icon: ReactNode; className: string }> = {
  info: { icon: <InfoIcon />, className: 'text-info' },
  success: { icon: <CheckIcon />, className: 'text-gain' },
  warning: { icon: <AlertIcon />, className: 'text-warn' },
  error: { icon: <AlertIcon />, className: 'text-loss' },
};

export function ToastCard({ toast: item, onDismiss }: { toast: Toast; onDismiss?: () => void }) {
  const { t } = useTranslation();
  const tone = toneStyles[item.tone];
  useEffect(() => {
    if (!item.duration || !onDismiss) return;
    const timer = window.setTimeout(onDismiss, item.duration);
    return () => window.clearTimeout(timer);
  }, [item.duration, onDismiss]);
  return (
    <div
      role={item.tone === 'error' ? 'alert' : 'status'}
      className="pointer-events-auto flex w-full items-start gap-3 rounded-lg border border-line-strong bg-surface-2 px-3.5 py-3 shadow-xl"
    >
      <span className={cn('mt-0.5 shrink-0', tone.className)}>{tone.icon}</span>
      <div className="min-w-0 flex-1">
        <p className="text-sm font-medium text-fg">{item.title}</p>
        {item.description ? (
          <p className="mt-0.5 text-xs break-words text-muted">{item.description}</p>
        ) : null}
      </div>
      {onDismiss ? (
        <button
          type="button"
          onClick={onDismiss}
          aria-label={t('common.dismiss')}
          className="-mr-1 shrink-0 rounded p-0.5 text-subtle hover:text-fg"
        >
          <CloseIcon size={14} />
        </button>
      ) : null}
    </div>
  );
}

function ToastItem({ item }: { item: Toast }) {
  const dismiss = useToasts((state) => state.dismiss);
  const onDismiss = useCallback(() => dismiss(item.id), [dismiss, item.id]);
  return <ToastCard toast={item} onDismiss={onDismiss} />;
}

export function Toaster() {
  const toasts = useToasts((state) => state.toasts);
  return (
    <div
      aria-live="polite"
      className="pointer-events-none fixed right-4 bottom-4 z-[60] flex w-[min(24rem,calc(100vw-2rem))] flex-col gap-2"
    >
      {toasts.map((item) => (
        <ToastItem key={item.id} item={item} />
      ))}
    </div>
  );
}
