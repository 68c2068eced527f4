/**
 * Runs `work` now and then every `intervalMs` after each pass ends (passes never overlap); a failed
 * pass is reported and the loop carries on. `stop()` waits for the pass in hand.
 */
export function startIntervalLoop(
  work: (pass: number) => Promise<void>,
  intervalMs: number,
  onError: (error: unknown) => void,
) {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wake: (() => void) | undefined;

  const running = (async () => {
    for (let pass = 0; !stopped; pass++) {
      try {
        await work(pass);
      } catch (e) {
        if (!stopped) onError(e);
      }
      if (stopped) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, intervalMs);
      });
    }
  })();

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      wake?.();
      await running;
    },
  };
}
