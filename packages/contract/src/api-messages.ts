/**
 * Every code the API answers with (`error` in the error envelope, `code` in the push answer, a trade's
 * `errorCode` for the notes the server writes on it, a trading account's `lastErrorCode`), with its English
 * template. The server builds each `message` from its template and the `params` it sends; the web says the
 * same thing in the user's language from the code and the params alone, never by reading the English text
 * back. English lives here only.
 *
 * - `{{name}}` is a value from `params`.
 * - `variants`: one code, several sentences; `params.variant` names the sentence (none: `message`).
 * - `{ one, other }`: a sentence whose words follow `params.count`.
 * - `{{reason}}` alone is a text that is not ours (a venue's refusal, a validation detail): shown as sent.
 * - A param `error` with `error.code` beside it is a nested refusal (`error.*` holds its params).
 */
type Template = string | { readonly one: string; readonly other: string };
interface CatalogEntry {
  readonly message: Template;
  readonly variants?: Readonly<Record<string, Template>>;
}

const REASON = '{{reason}}';

/** A venue's minimums (core's orderMinimumViolation): for a manual order and for a bot's sizing alike. */
const BELOW_MINIMUMS = {
  zeroQuantity: 'Order quantity rounds down to zero',
  belowMinAmount: 'Order quantity {{amount}} is below the minimum amount {{min}}',
  belowMinNotional: 'Order value {{value}} is below the minimum notional {{min}}',
} as const;

export const API_MESSAGES = {
  // ─── requests ───────────────────────────────────────────────────────────────────────────────────
  VALIDATION_ERROR: {
    message: REASON,
    variants: {
      invalidRequest: 'Invalid request',
      price: 'Please enter a valid price',
      botMismatch: 'botId does not match the trade',
      strategyKeyRequired: 'strategyKey is required',
      strategyKeyMismatch: 'strategyKey in the body does not match the URL',
      timestamp: 'timestamp is not a date',
      commonPassword: 'This password is too common. Please choose another one.',
      nulCharacter: 'Text cannot contain the NUL character (U+0000)',
      alertReasonRequired: 'A reason is required to mark an alert dead',
      idempotencyKey: 'Idempotency-Key must be 1 to 200 printable characters',
    },
  },
  MALFORMED_JSON: {
    message: 'Request body is not valid JSON',
    variants: {
      empty: "Body cannot be empty when content-type is set to 'application/json'",
      alertBody: 'Alert body must be JSON',
    },
  },
  PAYLOAD_TOO_LARGE: { message: 'Request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { message: 'Unsupported content type' },
  BAD_REQUEST: {
    message: REASON,
    variants: {
      malformedUrl: 'Malformed URL',
      contentLength: 'Request body size did not match Content-Length',
    },
  },
  /** Without params: a path parameter the schema refused, in the schema's words. */
  NOT_FOUND: {
    message: REASON,
    variants: {
      nothing: 'Not found',
      route: 'Route {{method}} {{path}} not found',
      market: 'Market {{symbol}} not found',
      account: 'Trading account not found',
      alert: 'Alert not found',
      bot: 'Bot not found',
      invoice: 'Invoice not found',
      record: 'Billing record not found',
      strategy: 'Strategy not found',
      trade: 'Trade not found',
      user: 'User not found',
      session: 'Session not found',
      invite: 'Invite not found',
    },
  },
  RATE_LIMITED: {
    message: REASON,
    variants: {
      tooManyRequests: 'Too many requests',
      failedAttempts: 'Too many failed attempts. Try again later.',
      userBudget: 'Too many requests from your account. Try again in {{seconds}} s.',
    },
  },
  /** A user holds as many of something as the operator allows (issue 20: the operator sets the caps, PUT /admin/settings/quotas). */
  QUOTA_REACHED: {
    message: 'You have reached a limit of your account. Ask your administrator to raise it.',
    variants: {
      strategies: 'You have reached the limit of {{max}} strategies. Ask your administrator to raise it.',
      tradingAccounts:
        'You have reached the limit of {{max}} trading accounts. Ask your administrator to raise it.',
      bots: 'You have reached the limit of {{max}} bots. Ask your administrator to raise it.',
      eventStreams:
        'Your account already has {{max}} live connections open. Close a tab or window and try again.',
    },
  },
  INTERNAL: { message: 'Internal server error' },
  /** The same Idempotency-Key while its first request is still being answered: retry in a moment. */
  IDEMPOTENCY_IN_FLIGHT: {
    message: 'A request with this Idempotency-Key is still being processed: try again in a moment',
  },
  /** The same Idempotency-Key on another request (method, path or body): a key names one request. */
  IDEMPOTENCY_KEY_REUSED: {
    message: 'This Idempotency-Key was already used for a different request',
  },

  // ─── sessions and accounts ──────────────────────────────────────────────────────────────────────
  UNAUTHORIZED: {
    message: 'Unauthorized',
    variants: {
      authenticationRequired: 'Authentication required',
      signInOrReset: 'Sign in, or use the link from the reset mail',
    },
  },
  INVALID_TOKEN: { message: 'Session expired or revoked. Please log in again.' },
  INVALID_CREDENTIALS: {
    message: 'Invalid email or password',
    variants: { currentPassword: 'Current password is incorrect' },
  },
  INVALID_2FA_CODE: { message: 'Invalid 2FA code' },
  INVALID_REFRESH_TOKEN: { message: 'Invalid refresh token' },
  REFRESH_REUSED: { message: 'Refresh token already used; all sessions of this sign-in were revoked' },
  REFRESH_EXPIRED: { message: 'Refresh token expired' },
  INVALID_RESET_TOKEN: { message: 'This reset link is invalid or has expired' },
  INVALID_WEBHOOK_SECRET: { message: 'Invalid strategy key or secret' },
  FORBIDDEN: {
    message: 'Forbidden',
    variants: {
      adminRequired: 'Admin role required',
      ownAccountOnly: 'You can only change your own account',
      userMismatch: 'userId does not match the signed-in user',
      suspended: 'This account is suspended. Contact your administrator.',
      strategyOwnerOnly: 'Only the owner can change this strategy',
    },
  },
  EMAIL_TAKEN: { message: 'An account with this email already exists' },
  SETUP_TOKEN_INVALID: {
    message: 'This email is kept for the first admin: enter the setup token the server printed in its log',
  },
  /** Issue 20: KAIROS_REGISTRATION=invite — only an admin's invite link lets someone register. */
  REGISTRATION_CLOSED: {
    message: 'Registration is by invitation only: ask the administrator for an invite link',
  },
  INVITE_INVALID: {
    message:
      'This invite link does not work any more: it was used, revoked or has expired. Ask the administrator for a new one.',
  },
  INVITE_NOT_PENDING: {
    message: 'This invite can no longer be revoked',
    variants: {
      used: 'This invite was already used',
      expired: 'This invite has already expired',
      revoked: 'This invite was already revoked',
    },
  },
  TWO_FA_ENABLED: { message: '2FA is already enabled' },
  TWO_FA_DISABLED: { message: '2FA is not enabled' },
  TWO_FA_NOT_STARTED: { message: 'Start 2FA setup first' },

  // ─── trading accounts and venues ────────────────────────────────────────────────────────────────
  /** The gateway's refusal (UNSUPPORTED) nested under `error`. */
  UNSUPPORTED_EXCHANGE: {
    message: '{{error}}',
    variants: {
      unknown: 'Unknown exchange',
      notOffered:
        '{{exchange}} is not offered yet: Kairos connects only the venues its test suite proves (Binance, Bybit, OKX)',
    },
  },
  PASSPHRASE_REQUIRED: { message: '{{exchange}} needs the API passphrase too' },
  KEY_CAN_WITHDRAW: {
    message:
      'This API key can withdraw funds. Create a key with trading permission only, without withdrawals.',
  },
  WITHDRAW_PERMISSION_UNKNOWN: {
    message:
      '{{exchange}} does not say, and Kairos cannot tell whether this API key can withdraw funds. Make sure withdrawals are off for the key, then confirm that you accept the risk.',
  },
  KEY_CANNOT_TRADE: {
    message:
      'This API key cannot trade {{marketType}} on {{exchange}}. Enable {{marketType}} trading for the key, then connect again.',
  },
  MARGIN_MODE_SHARED: {
    message:
      'On {{exchange}} the margin mode is the whole account’s: the bot "{{bot}}" on this account trades {{marginMode}}. Use the same margin mode, or another account.',
  },
  HEDGE_MODE: {
    message:
      '{{exchange}} is in hedge mode (separate long and short positions). Kairos trades one-way positions: switch the futures account to one-way mode, then connect again.',
    variants: {
      binance:
        'Binance Futures is in hedge mode (separate long and short positions). Kairos trades one-way positions: in Binance Futures open Preferences → Position Mode, choose One-way Mode, then connect again.',
      bybit:
        'Bybit is in hedge mode (both sides) for USDT perpetuals. Kairos trades one-way positions: in Bybit Derivatives open Settings → Position Mode, choose One-Way Mode for USDT perpetuals, then connect again.',
      okx: 'OKX is in long/short mode. Kairos trades one-way positions: in OKX open Trading settings → Position mode, choose One-way mode (net), then connect again.',
    },
  },
  KEY_PAIR_REQUIRED: { message: 'Rotate the API key and secret together' },
  EXCHANGE_AUTH_FAILED: { message: '{{exchange}} refused the API key: {{reason}}' },
  EXCHANGE_UNAVAILABLE: { message: 'Could not connect to {{exchange}}: {{reason}}' },
  // An account's balance refresh (`lastError`, with `lastErrorCode` and `lastErrorParams`) also says the two
  // above when the venue refuses the key or cannot be reached, and the gateway's own refusals (UNSUPPORTED).
  /** The venue (or its throttle in Kairos) asked for a pause; `wait`: it said how long. */
  EXCHANGE_RATE_LIMITED: {
    message: '{{exchange}} is limiting requests for now: Kairos reads the balance again later',
    variants: { wait: '{{exchange}} asked Kairos to wait {{seconds}} s before calling it again' },
  },
  /** The venue answered the balance read with a refusal of its own (not the key's, not a rate limit). */
  EXCHANGE_REFUSED: { message: '{{exchange}} refused to give the balance: {{reason}}' },
  /** The account's sealed keys do not open on this server (moved from another row, another master key). */
  ACCOUNT_KEYS_UNREADABLE: {
    message: 'The API keys stored for this account cannot be opened: enter them again',
  },
  /** Anything else that stopped a balance refresh (not the venue's answer): its text as it came. */
  BALANCE_REFRESH_FAILED: { message: 'Kairos could not read the balance: {{reason}}' },
  ACCOUNT_HAS_OPEN_TRADES: {
    message: {
      one: 'This account has {{count}} open trade: close it before deleting the account',
      other: 'This account has {{count}} open trades: close them before deleting the account',
    },
  },
  ACCOUNT_HAS_BOTS: {
    message: {
      one: '{{count}} bot trades on this account. Delete it with the account (bots=delete) or move it first.',
      other:
        '{{count}} bots trade on this account. Delete them with the account (bots=delete) or move them first.',
    },
  },

  // ─── strategies, bots and signals ───────────────────────────────────────────────────────────────
  STRATEGY_RETIRED: { message: 'This strategy is retired' },
  STRATEGY_KEY_TAKEN: { message: 'This strategy key is already taken' },
  /** Issue 20: a key held by another user's strategy; says nothing of who holds it. */
  STRATEGY_KEY_UNAVAILABLE: { message: 'This strategy key cannot be used. Please choose another one.' },
  STRATEGY_IN_USE: {
    message: {
      one: '{{count}} bot uses this strategy. Delete or move it first, or set the strategy to retired.',
      other: '{{count}} bots use this strategy. Delete or move them first, or set the strategy to retired.',
    },
  },
  LEVERAGE_NEEDS_FUTURES: { message: 'Leverage above 100% needs a futures account' },
  OVER_ALLOCATED: {
    message: 'This account is already {{taken}}% allocated to other bots: at most {{left}}% is left',
  },
  FUTURES_PAIR_TAKEN: {
    message:
      'The bot "{{bot}}" already trades {{pair}} on this futures account, which holds one position per symbol: stop it first or use another account',
  },
  BOT_NAME_TAKEN: { message: 'A bot named "{{name}}" already exists on this account' },
  POSITION_TAKEN: {
    message:
      'This futures account already holds a position on {{symbol}} for another trade, and a futures account holds one position per symbol: close that trade first or use another account',
  },
  NO_SIZING: { message: 'Set a fixed amount or a portfolio percentage' },
  BOT_HAS_OPEN_TRADE: {
    message: 'This bot has an open trade: stop it with "close position" first',
    variants: { move: 'Close the open trade before moving this bot to another account or strategy' },
  },
  STALE_SIGNAL: {
    message: 'Stale signal: sent {{lag}} s ago, the strategy accepts {{max}} s',
    variants: { future: 'Signal timestamp is in the future' },
  },

  // ─── trades ─────────────────────────────────────────────────────────────────────────────────────
  SHORT_NEEDS_FUTURES: { message: 'Short trades need a futures account' },
  ORDER_TOO_SMALL: {
    message: 'Please enter a valid amount',
    variants: BELOW_MINIMUMS,
  },
  INVALID_STOP_LOSS: {
    message: REASON,
    variants: {
      long: 'The stop-loss of a long trade must be below the current price ({{price}})',
      short: 'The stop-loss of a short trade must be above the current price ({{price}})',
    },
  },
  INVALID_TAKE_PROFITS: {
    message: REASON,
    variants: {
      fee: 'Fee percent must be between 0 and 100',
      unknownRole: 'Unknown take-profit role {{role}}',
      twice: '{{name}} is configured twice',
      negativeSize: '{{name}} size must not be negative',
      allZero: 'Take-profit sizes must not all be zero',
    },
  },
  TRADE_NOT_OPEN: {
    message: 'Only an open trade can be changed',
    variants: { complete: 'Only an open trade can be completed' },
  },
  TRADE_NOT_CLOSED: { message: 'Close the trade before deleting it' },
  TRADE_HAS_LIVE_ORDERS: { message: 'This trade still has orders at the venue' },
  TRADE_ALREADY_OPEN: { message: 'This bot already holds an open trade' },
  COMPLETE_FAILED: { message: 'Could not complete the trade: {{error}}' },
  NO_PRICE: { message: 'No price for {{symbol}}' },
  SIZING_REFUSED: {
    message: REASON,
    variants: {
      noRule: 'No quantity and no sizing rule',
      tooSmallForStop:
        'Too small for its stop: at the stop price {{stop}} the exit would be refused ({{error}})',
      price: 'Price must be greater than zero',
      leverage: 'Leverage must be greater than zero',
      noBalance: 'No stable balance available',
      zeroSize: 'The bot order size is zero',
      insufficientBalance: 'Insufficient balance: the order needs {{needed}} and {{available}} is available',
      ...BELOW_MINIMUMS,
    },
  },
  ORDER_REJECTED: { message: REASON, variants: { rejected: 'Order rejected' } },
  /** Futures: the bot's leverage and margin mode could not be set on the symbol; no entry was sent. */
  MARGIN_NOT_SET: {
    message: 'Could not set {{leverage}}× {{marginMode}} margin on {{symbol}}: {{reason}}',
  },
  INVALID_SYMBOL: { message: 'Not a valid market symbol: {{symbol}}' },
  INVALID_DECIMAL: { message: 'Not a valid decimal amount: {{input}}' },
  INVALID_FILLS: { message: REASON },
  INVALID_ORDER_TRANSITION: { message: 'An order cannot move from {{from}} to {{to}}' },
  INVALID_TRADE_TRANSITION: { message: 'A trade cannot move from {{from}} to {{to}}' },

  // ─── push to take profit (spec §8) ──────────────────────────────────────────────────────────────
  TAKE_PROFIT_NOT_PUSHABLE: {
    message: '{{name}} is not available to push',
    variants: { waiting: 'Waiting for {{previousName}} to be filled first' },
  },
  PUSH_FAILED: { message: 'Failed to push {{name}}: {{error}}' },
  /** Success: the level was sent to market. */
  TAKE_PROFIT_PUSHED: { message: 'Successfully pushed {{name}} to market! Order ID: {{orderId}}' },
  /** Success of a test push (`test: true`): nothing was sent. */
  TAKE_PROFIT_PUSHABLE: { message: '{{name}} can be pushed to market' },

  // ─── trade control: an admin action's outcome for one bot (`code` and `params` of a bot's outcome) ──────
  NO_OPEN_POSITION: { message: 'No open position' },
  NO_OPEN_ORDERS: { message: 'No open orders' },
  /** Push without a role: the trade has no level left to push, or none at all. */
  NO_TAKE_PROFIT_TO_PUSH: {
    message: 'No take profit left to push',
    variants: { noLevels: 'No take-profit levels to push' },
  },
  TAKE_PROFIT_ALREADY_PUSHED: { message: '{{name}} was already pushed to market' },
  /** The level filled while it was being pushed: nothing left to send. */
  TAKE_PROFIT_FILLED_BEFORE_PUSH: { message: '{{name}} filled before it could be pushed' },
  POSITION_CLOSED: {
    message: 'Position closed at market',
    variants: { pending: 'Exit order sent; waiting for it to fill' },
  },
  /** Cancel orders: how many were cancelled, and of the rest, filled meanwhile or still pending. */
  ORDERS_CANCELLED: {
    message: '{{cancelled}} cancelled',
    variants: {
      filled: '{{cancelled}} cancelled, {{filled}} filled before the cancel',
      pending: '{{cancelled}} cancelled, {{pending}} still pending at the venue',
      filledPending:
        '{{cancelled}} cancelled, {{filled}} filled before the cancel, {{pending}} still pending at the venue',
    },
  },
  BOT_PAUSED: { message: 'Bot paused' },
  BOT_ALREADY_PAUSED: { message: 'Bot already paused' },
  /** A bot's action that failed on something without a code of its own: its text as it came. */
  BOT_ACTION_FAILED: { message: REASON },

  // ─── venue refusals (the venue's own words, or the paper venue's) ───────────────────────────────
  RETRYABLE: { message: REASON },
  UNKNOWN_OUTCOME: { message: REASON },
  AUTHENTICATION: { message: REASON },
  INVALID_ORDER: { message: REASON },
  UNKNOWN_SYMBOL: {
    message: REASON,
    variants: {
      notTraded: '{{symbol}} is not traded on {{exchange}}',
      noMarket: '{{exchange}} has no {{marketType}} market {{symbol}}',
    },
  },
  INSUFFICIENT_FUNDS: {
    message: REASON,
    variants: {
      balance: 'Insufficient {{asset}}: {{needed}} needed, {{available}} available',
      margin: 'Insufficient margin: {{needed}} {{asset}} needed, {{available}} available',
    },
  },
  ORDER_NOT_FOUND: { message: REASON },
  UNSUPPORTED: {
    message: REASON,
    variants: {
      unknownExchange: 'Unknown exchange: {{exchange}}',
      marketType: '{{exchange}} does not support {{marketType}} trading',
      noSandbox: '{{exchange}} has no sandbox for {{marketType}}',
    },
  },
  VENUE_ERROR: { message: REASON },

  // ─── an order's or a venue stop's `lastError` (with `lastErrorCode` and `lastErrorParams`) ───────────────
  // A venue's refusal of the call is stored with its code above (its own words as `reason`, or the params of
  // the paper venue's); what the server decides itself is one of these.
  /** An order that may have left and that the venue still does not show after the lookups: never arrived. */
  ORDER_LOST: { message: 'The venue never received this order' },
  /** An order the venue no longer finds (cancel and lookup), long after it was last seen: taken as cancelled. */
  ORDER_FORGOTTEN: { message: 'The venue no longer knows this order' },
  /** Anything else that failed an order's call (not a venue's answer): its text as it came. */
  ORDER_FAILED: { message: REASON },
  /** A stop placement never acknowledged that the venue still does not show after the lookups. */
  STOP_LOST: { message: 'The venue never received this stop' },
  /** The venue said once that it has no such stop: not believed yet, asked again after a grace period. */
  STOP_NOT_FOUND_ONCE: { message: 'The venue said it has no such stop (once)' },
  /** The venue still says it has no such stop after the grace period: taken as gone. */
  STOP_GONE: { message: 'The venue no longer has this stop' },

  // ─── trade notes: what the server writes on a trade (`error`, with `errorCode` and `errorParams`) ────────
  /** The venue holds more on the symbol than the account's trades (opened by hand, a duplicate): left alone. */
  POSITION_EXCESS: {
    message:
      'The venue holds more than its trades hold: {{atVenue}} {{symbol}} {{side}} at the venue, {{inKairos}} in Kairos. Left as it is: Kairos never trades away what it did not open.',
    variants: {
      net: "The venue holds more than its trades hold, or less: the venue's net position on {{symbol}} is {{atVenue}}, Kairos's trades net {{inKairos}}. Left as it is.",
    },
  },
  /** The venue holds less and lists no fill that explains it: nothing booked on a guess. */
  POSITION_SHORTFALL_UNEXPLAINED: {
    message:
      'The venue holds less than this trade: {{atVenue}} {{symbol}} {{side}} at the venue, {{inKairos}} in Kairos, and the venue lists no fill that closed the rest. Kairos books nothing on a guess and leaves the stop and take-profits in place: check the position on the venue.',
  },
  /** Part of the position was closed on the venue outside Kairos, booked from the venue's fills. */
  PARTLY_CLOSED_ON_VENUE: {
    message:
      "{{amount}} {{symbol}} of this position was closed on the venue outside Kairos: booked from the venue's fills. Its stop follows the smaller size; its take-profits keep theirs (reduce-only, they close no more than the venue holds).",
  },

  // ─── admin ──────────────────────────────────────────────────────────────────────────────────────
  INVALID_ALERT_TRANSITION: {
    message: REASON,
    variants: {
      markDead_in_progress: 'Cannot mark dead an alert that is in progress',
      markDead_succeeded: 'Cannot mark dead an alert that is succeeded',
      markDead_dead: 'Cannot mark dead an alert that is dead',
      resume_queued: 'Cannot resume an alert that is queued',
      resume_in_progress: 'Cannot resume an alert that is in progress',
      resume_succeeded: 'Cannot resume an alert that is succeeded',
    },
  },
  ALERT_REASON_REQUIRED: { message: 'A reason is required to mark an alert dead' },
  ALERT_CHANGED: { message: 'The alert changed while you acted on it; reload and try again' },
  PERIOD_NOT_OVER: { message: '{{period}} is not over yet' },
  PLAN_PERCENT_REQUIRED: { message: 'Set a plan percent to create the plan' },
  INVALID_BILLING_INPUT: { message: 'Plan percent must be between 0 and 100' },
  BILLING_PERIOD_NOT_PROCESSED: { message: '{{period}} is not processed yet for this user' },
  NO_FEE_DUE: { message: 'Nothing to invoice for {{period}}: no fee is due' },
  INVALID_INVOICE_TRANSITION: {
    message: 'Cannot {{move}} an invoice that is {{status}}',
    variants: {
      alreadyPaid: 'This invoice is already paid',
      voidNotPayable: 'A void invoice cannot be paid',
      paidNotVoidable: 'A paid invoice cannot be voided',
      alreadyVoid: 'This invoice is already void',
    },
  },
  INVOICE_CHANGED: { message: 'The invoice changed meanwhile; reload and try again' },
} as const satisfies Record<string, CatalogEntry>;

type Catalog = typeof API_MESSAGES;
export type ApiMessageCode = keyof Catalog;
export type ApiMessageValue = string | number;

/** The `{{name}}`s of a template. */
type Placeholders<T> = T extends `${string}{{${infer P}}}${infer Rest}`
  ? P | Placeholders<Rest>
  : T extends { one: infer One; other: infer Other }
    ? Placeholders<One> | Placeholders<Other> | 'count'
    : never;
type ValuesOf<T> = { [K in Placeholders<T>]: K extends 'count' ? number : ApiMessageValue };
/** A nested refusal's params, `error.code` and `error.<param>` (see `nestedParams`). */
type Nested = { readonly [key: `${string}.${string}`]: ApiMessageValue };

type Variants<C extends ApiMessageCode> = Catalog[C] extends { variants: infer V } ? V : Record<never, never>;
/** The params a code takes: its values, and `variant` when the sentence is not the code's `message`. */
export type ApiMessageParams<C extends ApiMessageCode> = (
  | ({ variant?: undefined } & ValuesOf<Catalog[C]['message']>)
  | { [V in keyof Variants<C>]: { variant: V } & ValuesOf<Variants<C>[V]> }[keyof Variants<C>]
) &
  Nested;

type NeedsNoParams<C extends ApiMessageCode> =
  Record<never, never> extends ApiMessageParams<C> ? true : false;
/** The arguments after the code: the params, optional when the code needs none. */
export type ApiMessageArgs<C extends ApiMessageCode> =
  NeedsNoParams<C> extends true ? [params?: ApiMessageParams<C>] : [params: ApiMessageParams<C>];

/** What an envelope carries: the values a message was built from. */
export type ApiParams = Readonly<Record<string, ApiMessageValue>>;

function isPlural(template: Template): template is Exclude<Template, string> {
  return typeof template !== 'string';
}

/** The sentence `params` pick for `code` (its variant, its plural form), or undefined if the catalog has none. */
export function apiMessageTemplate(code: string, params: ApiParams = {}): string | undefined {
  const entry = (API_MESSAGES as Record<string, CatalogEntry>)[code];
  if (!entry) return undefined;
  const variant = params.variant;
  const template = variant === undefined ? entry.message : entry.variants?.[String(variant)];
  if (template === undefined) return undefined;
  if (!isPlural(template)) return template;
  return params.count === 1 ? template.one : template.other;
}

/** The names of the values a template needs, in order. */
export function templateParams(template: string): string[] {
  const names: string[] = [];
  for (let at = template.indexOf('{{'); at !== -1; at = template.indexOf('{{', at + 2)) {
    const end = template.indexOf('}}', at);
    if (end === -1) break;
    names.push(template.slice(at + 2, end));
  }
  return names;
}

function fill(template: string, params: ApiParams): string {
  return templateParams(template).reduce(
    (text, name) => text.replace(`{{${name}}}`, () => String(params[name] ?? '')),
    template,
  );
}

/** The English message for `code` with `params`: what the server sends as `message`. */
export function apiMessage<C extends ApiMessageCode>(code: C, ...[params]: ApiMessageArgs<C>): string {
  const values = (params ?? {}) as ApiParams;
  const template = apiMessageTemplate(code, values);
  if (template === undefined) throw new Error(`No template for ${code} (${String(values.variant)})`);
  return fill(template, values);
}

/**
 * `[code, message, params]`, the arguments of every coded error (`new ConflictError(...apiError(...))`):
 * the message from the catalog, and the params the web translates it from (none when there are none).
 */
export function apiError<C extends ApiMessageCode>(
  code: C,
  ...[params]: ApiMessageArgs<C>
): [code: C, message: string, params?: ApiParams] {
  const values = params as ApiParams | undefined;
  const message = apiMessage(code, ...([params] as ApiMessageArgs<C>));
  return values && Object.keys(values).length > 0 ? [code, message, values] : [code, message];
}

/**
 * A refusal inside another one ('Failed to push TP1: Insufficient BTC…'): its text under `key`, its code
 * under `key.code` and its params under `key.<param>`, so the web can say the inner one in its language too.
 */
export function nestedParams<Key extends string>(
  key: Key,
  inner: { message: string; code?: string; params?: ApiParams },
): { [K in Key]: string } & { [K in `${Key}.${string}`]: ApiMessageValue } {
  const nested: Record<string, ApiMessageValue> = { [key]: inner.message };
  if (inner.code) nested[`${key}.code`] = inner.code;
  for (const [name, value] of Object.entries(inner.params ?? {})) nested[`${key}.${name}`] = value;
  return nested as { [K in Key]: string } & { [K in `${Key}.${string}`]: ApiMessageValue };
}

/** The inner refusal that `nestedParams` folded under `key`, if any. */
export function readNestedParams(
  params: ApiParams,
  key: string,
): { message: string; code: string; params: ApiParams } | undefined {
  const code = params[`${key}.code`];
  const message = params[key];
  if (code === undefined || message === undefined) return undefined;
  const prefix = `${key}.`;
  const inner = Object.fromEntries(
    Object.entries(params)
      .filter(([name]) => name.startsWith(prefix) && name !== `${key}.code`)
      .map(([name, value]) => [name.slice(prefix.length), value]),
  );
  return { message: String(message), code: String(code), params: inner };
}

type TextKeys<Key extends string, T> = T extends string ? Key : `${Key}_one` | `${Key}_other`;
/** The translation keys of the catalog: `CODE`, `CODE_variant`, and `_one`/`_other` for plurals. */
export type ApiMessageTextKey = {
  [C in ApiMessageCode]:
    | TextKeys<C, Catalog[C]['message']>
    | { [V in keyof Variants<C> & string]: TextKeys<`${C}_${V}`, Variants<C>[V]> }[keyof Variants<C> &
        string];
}[ApiMessageCode];

/** Every English template by translation key (i18next's context and plural suffixes). */
export function apiMessageTexts(): Record<ApiMessageTextKey, string> {
  const texts: Record<string, string> = {};
  const add = (key: string, template: Template) => {
    if (isPlural(template)) {
      texts[`${key}_one`] = template.one;
      texts[`${key}_other`] = template.other;
    } else texts[key] = template;
  };
  for (const [code, entry] of Object.entries(API_MESSAGES as Record<string, CatalogEntry>)) {
    add(code, entry.message);
    for (const [variant, template] of Object.entries(entry.variants ?? {}))
      add(`${code}_${variant}`, template);
  }
  return texts as Record<ApiMessageTextKey, string>;
}
