import { DomainRuleError, type ErrorParams } from './errors';

export const ALERT_STATUSES = ['queued', 'in_progress', 'succeeded', 'failed', 'dead'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

/** Who moves an alert: the worker (`system`) or an admin from the alerts screen. */
export type AlertActor = 'system' | 'admin';

/** The two things an admin may do to an alert (spec §2 "Admin alerts"). */
export type AlertAdminAction = 'markDead' | 'resume';

/**
 * Worker moves (DESIGN §5). A worker whose lease expires mid-run is recorded as `in_progress → failed`
 * and retried like any failure, so an alert that keeps crashing workers ends `dead` instead of looping.
 */
const SYSTEM_TRANSITIONS: { readonly [S in AlertStatus]: readonly AlertStatus[] } = {
  queued: ['in_progress'],
  // → dead: a signal claimed past its strategy's max lag is not acted on (issue 20; an admin may resume it).
  in_progress: ['succeeded', 'failed', 'dead'],
  failed: ['queued', 'dead'],
  succeeded: [],
  dead: [],
};

/**
 * Admin moves: mark dead from queued/failed (never while a worker holds it, never once it succeeded),
 * resume from dead/failed back to queued.
 */
const ADMIN_ACTIONS: { readonly [A in AlertAdminAction]: { from: readonly AlertStatus[]; to: AlertStatus } } =
  {
    markDead: { from: ['queued', 'failed'], to: 'dead' },
    resume: { from: ['dead', 'failed'], to: 'queued' },
  };

const ACTION_VERB: Record<AlertAdminAction, string> = { markDead: 'mark dead', resume: 'resume' };

/** Human label for a status in messages: `in_progress` reads "in progress". */
export function alertStatusLabel(status: AlertStatus): string {
  return status.replace('_', ' ');
}

export class AlertTransitionError extends DomainRuleError {
  constructor(
    readonly from: AlertStatus,
    readonly to: AlertStatus,
    readonly actor: AlertActor,
    message: string,
    params?: ErrorParams,
  ) {
    super('INVALID_ALERT_TRANSITION', message, params);
  }
}

/** Thrown when an admin marks an alert dead without saying why. */
export class AlertReasonRequiredError extends DomainRuleError {
  constructor() {
    super('ALERT_REASON_REQUIRED', 'A reason is required to mark an alert dead');
  }
}

export function isAlertStatus(value: string): value is AlertStatus {
  return (ALERT_STATUSES as readonly string[]).includes(value);
}

function adminActionFor(from: AlertStatus, to: AlertStatus): AlertAdminAction | undefined {
  return (Object.keys(ADMIN_ACTIONS) as AlertAdminAction[]).find(
    (action) => ADMIN_ACTIONS[action].to === to && ADMIN_ACTIONS[action].from.includes(from),
  );
}

export function canTransitionAlert(from: AlertStatus, to: AlertStatus, actor: AlertActor): boolean {
  return actor === 'system' ? SYSTEM_TRANSITIONS[from].includes(to) : adminActionFor(from, to) !== undefined;
}

/** Returns the new status, or throws `AlertTransitionError` with a message fit to show. */
export function transitionAlert(from: AlertStatus, to: AlertStatus, actor: AlertActor): AlertStatus {
  if (canTransitionAlert(from, to, actor)) return to;
  const message =
    actor === 'admin'
      ? `An admin cannot move an alert from ${alertStatusLabel(from)} to ${alertStatusLabel(to)}`
      : `Cannot move an alert from ${alertStatusLabel(from)} to ${alertStatusLabel(to)}`;
  throw new AlertTransitionError(from, to, actor, message);
}

/**
 * A worker's move, checked against the table when the statement that writes it is built (a move the
 * table forbids fails at start-up, not in production data).
 */
export function systemAlertMove<F extends AlertStatus, T extends AlertStatus>(
  from: F,
  to: T,
): { from: F; to: T } {
  transitionAlert(from, to, 'system');
  return { from, to };
}

/** Whether the admin action is offered for an alert in this status (drives the buttons). */
export function canApplyAlertAdminAction(action: AlertAdminAction, from: AlertStatus): boolean {
  return ADMIN_ACTIONS[action].from.includes(from);
}

/**
 * Applies an admin action, returning the new status, or throws e.g.
 * "Cannot resume an alert that is succeeded".
 */
export function applyAlertAdminAction(action: AlertAdminAction, from: AlertStatus): AlertStatus {
  const { to } = ADMIN_ACTIONS[action];
  if (!canApplyAlertAdminAction(action, from)) {
    throw new AlertTransitionError(
      from,
      to,
      'admin',
      `Cannot ${ACTION_VERB[action]} an alert that is ${alertStatusLabel(from)}`,
      { variant: `${action}_${from}` },
    );
  }
  return to;
}

/** Admin "mark dead": needs a non-blank reason, which is recorded with the transition. */
export function markAlertDead(from: AlertStatus, reason: string): AlertStatus {
  if (reason.trim() === '') throw new AlertReasonRequiredError();
  return applyAlertAdminAction('markDead', from);
}

/** Admin "resume": back to the queue for another run. */
export function resumeAlert(from: AlertStatus): AlertStatus {
  return applyAlertAdminAction('resume', from);
}

/** After a failed attempt: retry while attempts remain, otherwise the alert is dead. */
export function statusAfterFailure(attemptsMade: number, maxAttempts: number): 'queued' | 'dead' {
  return attemptsMade < maxAttempts ? 'queued' : 'dead';
}

export interface RetryBackoff {
  /** Delay before the first retry. */
  baseMs: number;
  /** Growth per attempt. */
  factor: number;
  /** Upper bound so a long outage still retries at a useful rate. */
  maxMs: number;
}

export const DEFAULT_RETRY_BACKOFF: RetryBackoff = { baseMs: 1_000, factor: 2, maxMs: 60_000 };

/**
 * Exponential backoff before retry number `attempt` (1 = first retry): base × factor^(attempt−1),
 * capped. Pass `random` (e.g. `Math.random`) to spread retries over [50%, 100%] of the delay so
 * alerts that failed together do not retry together; without it the delay is deterministic.
 */
export function retryDelayMs(
  attempt: number,
  backoff: RetryBackoff = DEFAULT_RETRY_BACKOFF,
  random?: () => number,
): number {
  const exponent = Math.max(0, Math.floor(attempt) - 1);
  const delay = Math.min(backoff.maxMs, backoff.baseMs * backoff.factor ** exponent);
  if (random === undefined) return delay;
  return Math.round(delay * (0.5 + 0.5 * Math.min(1, Math.max(0, random()))));
}
