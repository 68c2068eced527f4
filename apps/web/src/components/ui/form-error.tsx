import { useTranslation } from 'react-i18next';
import { errorMessage, translateMessage } from '../../i18n/translate-message';
import { AlertIcon } from './icons';

/**
 * A form's failure: what failed (the spec's message, e.g. 'Failed to enable 2FA') and, below it,
 * why (the server's reason), each translated when known.
 */
export function FormError({ title, error }: { title?: string; error: unknown }) {
  const { t } = useTranslation();
  const heading = title ? translateMessage(t, title) : undefined;
  const reason = error === undefined || error === null ? '' : errorMessage(t, error);
  return (
    <div
      role="alert"
      className="flex items-start gap-2 rounded-md border border-loss/30 bg-loss/10 px-3 py-2 text-sm"
    >
      <AlertIcon className="mt-0.5 shrink-0 text-loss" />
      <div className="min-w-0">
        {heading ? <p className="font-medium text-loss">{heading}</p> : null}
        {reason && reason !== heading ? (
          <p className={heading ? 'mt-0.5 text-xs break-words text-fg' : 'break-words text-loss'}>{reason}</p>
        ) : null}
      </div>
    </div>
  );
}
