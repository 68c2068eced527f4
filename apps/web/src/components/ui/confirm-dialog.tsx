import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { create } from 'zustand';
import { useSingleFlight } from '../../lib/use-single-flight';
import { Button } from './button';
import { Dialog } from './dialog';

export interface ConfirmOptions {
  title: ReactNode;
  /** One plain sentence saying what will happen (STYLE "How it looks"). */
  message: ReactNode;
  confirmLabel?: ReactNode;
  cancelLabel?: ReactNode;
  tone?: 'default' | 'danger';
}

export interface ConfirmDialogProps extends ConfirmOptions {
  open: boolean;
  onConfirm: () => void | Promise<unknown>;
  onCancel: () => void;
  /** Below the message: what the action reaches, a field to type before it may run. */
  children?: ReactNode;
  /** The confirm button stays locked (e.g. until a name is typed out). */
  confirmDisabled?: boolean;
}

/** Asks before anything destructive; the confirm button shows progress while the action runs. */
export function ConfirmDialog({
  open,
  onConfirm,
  onCancel,
  title,
  message,
  confirmLabel,
  cancelLabel,
  tone = 'default',
  children,
  confirmDisabled,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  // One action for a double click: the second lands before the busy button is rendered.
  const singleFlight = useSingleFlight();
  const confirm = () =>
    singleFlight(async () => {
      setBusy(true);
      try {
        await onConfirm();
      } finally {
        setBusy(false);
      }
    });
  return (
    <Dialog
      open={open}
      onClose={busy ? () => undefined : onCancel}
      title={title}
      description={message}
      size="sm"
      role="alertdialog"
      footer={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={busy} data-autofocus>
            {cancelLabel ?? t('common.cancel')}
          </Button>
          <Button
            variant={tone === 'danger' ? 'danger' : 'primary'}
            onClick={confirm}
            loading={busy}
            disabled={confirmDisabled}
          >
            {confirmLabel ?? t('common.confirm')}
          </Button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}

interface PendingConfirm extends ConfirmOptions {
  resolve: (confirmed: boolean) => void;
}

const useConfirmQueue = create<{ pending: PendingConfirm | null }>()(() => ({ pending: null }));

/** Imperative confirmation: `if (await confirmAction({...})) doIt()`. Needs <ConfirmDialogHost /> mounted. */
export function confirmAction(options: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    useConfirmQueue.getState().pending?.resolve(false);
    useConfirmQueue.setState({ pending: { ...options, resolve } });
  });
}

export function ConfirmDialogHost() {
  const pending = useConfirmQueue((state) => state.pending);
  if (!pending) return null;
  const settle = (confirmed: boolean) => {
    pending.resolve(confirmed);
    useConfirmQueue.setState({ pending: null });
  };
  const { resolve: _resolve, ...options } = pending;
  return <ConfirmDialog open {...options} onConfirm={() => settle(true)} onCancel={() => settle(false)} />;
}
