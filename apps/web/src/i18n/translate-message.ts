import type { TFunction } from 'i18next';
import { readTemplatedMessage } from '@kairos/contract';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../lib/api-error';

const HTTP_ERROR = /^HTTP error! status: (\d{3})$/;

/**
 * Messages from validation (spec §5) and from the server (spec §8) are English sentences;
 * they are the keys of the `messages` namespace. Unknown messages are shown as they are.
 */
export function translateMessage(t: TFunction, message: string | undefined | null): string {
  if (!message) return '';
  const httpError = HTTP_ERROR.exec(message);
  if (httpError) return t('HTTP error! status: {{status}}', { ns: 'messages', status: httpError[1] });
  return t(message, { ns: 'messages', keySeparator: false, defaultValue: message });
}

export function useTranslateMessage(): (message: string | undefined | null) => string {
  const { t } = useTranslation();
  return (message) => translateMessage(t, message);
}

/** "15 min" or "40 s": how long a rate limit lasts, from Retry-After. */
function waitTime(seconds: number): string {
  return seconds < 60 ? `${Math.max(1, Math.round(seconds))} s` : `${Math.ceil(seconds / 60)} min`;
}

/** The text of any thrown value, translated when it is a known message. */
export function errorMessage(t: TFunction, error: unknown): string {
  if (error instanceof ApiError && error.status === 429 && error.retryAfterSeconds !== undefined) {
    return `${translateMessage(t, error.message)} ${t('common.retryIn', { time: waitTime(error.retryAfterSeconds) })}`;
  }
  if (error instanceof ApiError && error.code) {
    // A message built with values (a bot's name, a share): said again in the user's language with them.
    const values = readTemplatedMessage(error.code, error.message);
    if (values) return t(`apiErrors.${error.code}`, { ...values, defaultValue: error.message });
  }
  if (error instanceof Error) return translateMessage(t, error.message);
  if (typeof error === 'string') return translateMessage(t, error);
  return t('common.unexpectedError');
}
