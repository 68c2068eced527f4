import i18next, { type TFunction } from 'i18next';
import { apiMessageTemplate, readNestedParams, templateParams, type ApiParams } from '@kairos/contract';
import { useTranslation } from 'react-i18next';
import { ApiError, isBareHttpError } from '../lib/api-error';

/**
 * The web's own messages and the contract's validation messages (spec §5) are English sentences; they
 * are the keys of the `messages` namespace. Unknown messages are shown as they are.
 */
export function translateMessage(t: TFunction, message: string | undefined | null): string {
  if (!message) return '';
  return t(message, { ns: 'messages', keySeparator: false, defaultValue: message });
}

/** The catalogue's params that are numbers (`count` aside: it picks the plural form as a number). */
const NUMBER_PARAMS =
  /^(amount|min|max|value|price|stop|needed|available|taken|left|lag|leverage|seconds|atVenue|inKairos)$/;

/** A number the server sent as a decimal string, written the user's way ("0,57" in French, issue 21). */
function localNumber(value: string | number): string | number {
  const text = String(value);
  if (!/^-?\d+(\.\d+)?$/.test(text)) return value;
  // As many decimals as the server sent ("80.00" stays "80.00", "80,00" in French).
  const decimals = text.split('.')[1]?.length ?? 0;
  return new Intl.NumberFormat(i18next.language || 'en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(text as Intl.StringNumericLiteral);
}

/**
 * What the server said, in the user's language, from its code and params alone (`API_MESSAGES`): never
 * by reading its English back. A nested refusal (`error` with `error.code`) is said the same way, and a
 * text that is not ours (`reason`: a venue's words, a validation message) goes through the message
 * catalogue. A code or sentence this build does not know, or params it lacks, shows `fallback` (the
 * server's own message).
 */
export function translateApiMessage(
  t: TFunction,
  code: string,
  params: ApiParams | undefined,
  fallback: string,
): string {
  const values: Record<string, string | number> = { ...params };
  const template = apiMessageTemplate(code, values);
  const names = template === undefined ? [] : templateParams(template);
  if (template === undefined || names.some((name) => values[name] === undefined)) {
    return translateMessage(t, fallback);
  }
  for (const name of names) {
    const inner = readNestedParams(values, name);
    if (inner) values[name] = translateApiMessage(t, inner.code, inner.params, inner.message);
    else if (name === 'reason') values[name] = translateMessage(t, String(values[name]));
    else if (NUMBER_PARAMS.test(name)) values[name] = localNumber(values[name]!);
  }
  const variant = values.variant === undefined ? undefined : String(values.variant);
  return t(`apiMessages.${code}`, { ...values, context: variant, defaultValue: fallback });
}

/**
 * A message the server stored with what it is about (a trade's note, an order's or an account's last error), in
 * the user's language: from its code and params (issue 21); one stored before messages carried them is shown as
 * the server wrote it, translated when it is one of the web's known sentences.
 */
export function translateStoredMessage(
  t: TFunction,
  text: string | null | undefined,
  code: string | null | undefined,
  params: ApiParams | null | undefined,
): string | undefined {
  if (!text) return undefined;
  return code ? translateApiMessage(t, code, params ?? undefined, text) : translateMessage(t, text);
}

export function useTranslateMessage(): (message: string | undefined | null) => string {
  const { t } = useTranslation();
  return (message) => translateMessage(t, message);
}

/** "15 min" or "40 s" (a no-break space: the unit never starts a line), how long a rate limit lasts. */
function waitTime(seconds: number): string {
  return seconds < 60 ? `${Math.max(1, Math.round(seconds))}\u00a0s` : `${Math.ceil(seconds / 60)}\u00a0min`;
}

/** The text of any thrown value, translated when it is a known message. */
export function errorMessage(t: TFunction, error: unknown): string {
  if (error instanceof ApiError) {
    const said = apiErrorText(t, error);
    if (error.status !== 429 || error.retryAfterSeconds === undefined) return said;
    return `${said} ${t('common.retryIn', { time: waitTime(error.retryAfterSeconds) })}`;
  }
  if (error instanceof Error) return translateMessage(t, error.message);
  if (typeof error === 'string') return translateMessage(t, error);
  return t('common.unexpectedError');
}

/** An HTTP failure's text: the server's message by its code, or 'HTTP error! status: …' when it gave none. */
function apiErrorText(t: TFunction, error: ApiError): string {
  if (isBareHttpError(error))
    return t('HTTP error! status: {{status}}', { ns: 'messages', status: error.status });
  if (error.code) return translateApiMessage(t, error.code, error.params, error.message);
  return translateMessage(t, error.message);
}
