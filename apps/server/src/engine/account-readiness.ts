import { RetryableExchangeError } from '../exchange/errors';

/**
 * DESIGN §6: no new order for an account until its orders have been reconciled once by this process.
 * The executor asks `awaitReady` before placing; the first ask runs the account's reconciliation (once,
 * shared by concurrent callers) unless the reconciliation loop got there first.
 */
export type AccountReadiness = ReturnType<typeof createAccountReadiness>;

export function createAccountReadiness() {
  const ready = new Set<string>();
  const pending = new Map<string, Promise<void>>();
  let reconcile: ((accountId: string) => Promise<void>) | undefined;

  return {
    /** The reconciliation that opens the gate (bound once the reconciler exists). */
    bind(fn: (accountId: string) => Promise<void>) {
      reconcile = fn;
    },
    isReady(accountId: string) {
      return ready.has(accountId);
    },
    markReady(accountId: string) {
      ready.add(accountId);
    },
    async awaitReady(accountId: string): Promise<void> {
      if (ready.has(accountId) || !reconcile) return;
      let run = pending.get(accountId);
      if (!run) {
        run = reconcile(accountId)
          .then(() => void ready.add(accountId))
          .finally(() => pending.delete(accountId));
        pending.set(accountId, run);
      }
      try {
        await run;
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        throw new RetryableExchangeError(`Orders of this account are not reconciled yet: ${why}`, {
          cause: e,
        });
      }
    },
  };
}
