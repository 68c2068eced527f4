import { describe, expect, it } from 'vitest';
import {
  ALERT_STATUSES,
  AlertReasonRequiredError,
  AlertTransitionError,
  applyAlertAdminAction,
  canApplyAlertAdminAction,
  canTransitionAlert,
  isAlertStatus,
  markAlertDead,
  resumeAlert,
  retryDelayMs,
  statusAfterFailure,
  transitionAlert,
  type AlertActor,
  type AlertAdminAction,
  type AlertStatus,
} from './alert-state';

const ALLOWED: Record<AlertActor, Set<string>> = {
  system: new Set([
    'queued>in_progress',
    'in_progress>succeeded',
    'in_progress>failed',
    'in_progress>dead',
    'failed>queued',
    'failed>dead',
  ]),
  admin: new Set(['queued>dead', 'failed>dead', 'dead>queued', 'failed>queued']),
};

const ACTORS: AlertActor[] = ['system', 'admin'];
const TRIPLES = ACTORS.flatMap((actor) =>
  ALERT_STATUSES.flatMap((from) =>
    ALERT_STATUSES.map((to) => ({ actor, from, to, allowed: ALLOWED[actor].has(`${from}>${to}`) })),
  ),
);

describe('alert transitions', () => {
  it('covers every actor × from × to', () => {
    expect(TRIPLES).toHaveLength(50);
  });

  it.each(TRIPLES)('$actor: $from → $to allowed: $allowed', ({ actor, from, to, allowed }) => {
    expect(canTransitionAlert(from, to, actor)).toBe(allowed);
    if (allowed) expect(transitionAlert(from, to, actor)).toBe(to);
    else expect(() => transitionAlert(from, to, actor)).toThrow(AlertTransitionError);
  });

  it.each([
    {
      from: 'succeeded',
      to: 'queued',
      actor: 'system',
      message: 'Cannot move an alert from succeeded to queued',
    },
    {
      from: 'in_progress',
      to: 'dead',
      actor: 'admin',
      message: 'An admin cannot move an alert from in progress to dead',
    },
  ] as const)('refuses $actor $from → $to with "$message"', ({ from, to, actor, message }) => {
    expect(() => transitionAlert(from, to, actor)).toThrow(message);
  });
});

describe('admin actions', () => {
  const cases: { action: AlertAdminAction; from: AlertStatus; result: AlertStatus | string }[] = [
    { action: 'markDead', from: 'queued', result: 'dead' },
    { action: 'markDead', from: 'failed', result: 'dead' },
    { action: 'markDead', from: 'in_progress', result: 'Cannot mark dead an alert that is in progress' },
    { action: 'markDead', from: 'succeeded', result: 'Cannot mark dead an alert that is succeeded' },
    { action: 'markDead', from: 'dead', result: 'Cannot mark dead an alert that is dead' },
    { action: 'resume', from: 'dead', result: 'queued' },
    { action: 'resume', from: 'failed', result: 'queued' },
    { action: 'resume', from: 'queued', result: 'Cannot resume an alert that is queued' },
    { action: 'resume', from: 'in_progress', result: 'Cannot resume an alert that is in progress' },
    { action: 'resume', from: 'succeeded', result: 'Cannot resume an alert that is succeeded' },
  ];

  it.each(cases)('$action from $from → $result', ({ action, from, result }) => {
    const allowed = isAlertStatus(result);
    expect(canApplyAlertAdminAction(action, from)).toBe(allowed);
    if (allowed) {
      expect(applyAlertAdminAction(action, from)).toBe(result);
      // The action and the admin row of the table agree.
      expect(canTransitionAlert(from, result, 'admin')).toBe(true);
    } else {
      expect(() => applyAlertAdminAction(action, from)).toThrow(result);
    }
  });

  it('marks dead only with a reason', () => {
    expect(markAlertDead('failed', 'venue delisted the pair')).toBe('dead');
    expect(() => markAlertDead('failed', '   ')).toThrow(AlertReasonRequiredError);
    expect(() => markAlertDead('failed', '')).toThrow('A reason is required to mark an alert dead');
    expect(() => markAlertDead('succeeded', 'why')).toThrow('Cannot mark dead an alert that is succeeded');
  });

  it('resumes dead and failed alerts', () => {
    expect(resumeAlert('dead')).toBe('queued');
    expect(resumeAlert('failed')).toBe('queued');
    expect(() => resumeAlert('succeeded')).toThrow('Cannot resume an alert that is succeeded');
  });

  it('gives refused actions a code for the error mapper', () => {
    expect(() => resumeAlert('succeeded')).toThrow(
      expect.objectContaining({
        code: 'INVALID_ALERT_TRANSITION',
        from: 'succeeded',
        to: 'queued',
        actor: 'admin',
      }),
    );
  });
});

describe('retries', () => {
  it.each([
    { attemptsMade: 1, maxAttempts: 5, next: 'queued' },
    { attemptsMade: 4, maxAttempts: 5, next: 'queued' },
    { attemptsMade: 5, maxAttempts: 5, next: 'dead' },
    { attemptsMade: 6, maxAttempts: 5, next: 'dead' },
  ] as const)(
    'after attempt $attemptsMade of $maxAttempts → $next',
    ({ attemptsMade, maxAttempts, next }) => {
      expect(statusAfterFailure(attemptsMade, maxAttempts)).toBe(next);
    },
  );

  it.each([
    [0, 1_000],
    [1, 1_000],
    [2, 2_000],
    [3, 4_000],
    [6, 32_000],
    [7, 60_000],
    [50, 60_000],
    [10_000, 60_000],
  ])('retry %i waits %i ms', (attempt, delay) => {
    expect(retryDelayMs(attempt)).toBe(delay);
  });

  it('honours a custom backoff', () => {
    expect(retryDelayMs(3, { baseMs: 500, factor: 3, maxMs: 10_000 })).toBe(4_500);
    expect(retryDelayMs(5, { baseMs: 500, factor: 3, maxMs: 10_000 })).toBe(10_000);
  });

  it.each([
    [0, 2_000],
    [0.5, 3_000],
    [0.999999, 4_000],
  ])('jitter with random %d spreads over half to full delay', (random, delay) => {
    expect(retryDelayMs(3, undefined, () => random)).toBe(delay);
  });
});
