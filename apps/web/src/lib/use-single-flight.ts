import { useCallback, useRef } from 'react';

/**
 * Runs a user action one at a time: a second start while the first still runs is dropped. A button shows
 * it is busy only once React has rendered the mutation's `isPending`; a double click lands before that
 * (issue 21: two live bots 24 ms apart), so every action that creates or acts goes through this as well.
 */
export function useSingleFlight() {
  const running = useRef(false);
  return useCallback(async (action: () => Promise<unknown>): Promise<void> => {
    if (running.current) return;
    running.current = true;
    try {
      await action();
    } finally {
      running.current = false;
    }
  }, []);
}

/**
 * The `catch` of a mutation's `mutateAsync` run through useSingleFlight: the refusal stays on the mutation
 * (its `error`, which the form shows), so the action just ends.
 */
export function ignoreRefusal(): undefined {
  return undefined;
}
