import type { AdminAlertDetail } from '@kairos/contract';

export interface AlertAttempt {
  number: number;
  /** Who ran it: `worker:<id>`. */
  actor: string;
  startedAt: string;
  /** Unset while the attempt runs. */
  endedAt?: string;
  result?: string;
  error?: string | null;
}

/** The attempts, read from the history: each move into in_progress starts one, the move out ends it. */
export function attemptsFromHistory(history: AdminAlertDetail['history']): AlertAttempt[] {
  const attempts: AlertAttempt[] = [];
  for (const event of history) {
    if (event.toStatus === 'in_progress') {
      attempts.push({ number: attempts.length + 1, actor: event.actor, startedAt: event.at });
      continue;
    }
    const running = attempts[attempts.length - 1];
    if (event.fromStatus === 'in_progress' && running && running.endedAt === undefined) {
      running.endedAt = event.at;
      running.result = event.toStatus;
      running.error = event.note;
    }
  }
  return attempts;
}
