/**
 * A fixed-window counter per key, in this process's memory: `hit` counts one request of `key` and says
 * whether it is within `max` for the current window, or how long until the next window.
 */
export function createWindowLimiter(options: { max: number; windowMs: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  const windows = new Map<string, { start: number; count: number }>();
  let swept = now();

  return {
    hit(key: string): { allowed: true } | { allowed: false; retryAfterMs: number } {
      const at = now();
      let window = windows.get(key);
      if (at - swept >= options.windowMs) {
        // Once a window: keys not seen for a window are forgotten, so the map holds the keys in use.
        for (const [k, w] of windows) if (at - w.start >= options.windowMs) windows.delete(k);
        swept = at;
      }
      if (!window || at - window.start >= options.windowMs) {
        window = { start: at, count: 0 };
        windows.set(key, window);
      }
      window.count += 1;
      return window.count <= options.max
        ? { allowed: true }
        : { allowed: false, retryAfterMs: window.start + options.windowMs - at };
    },
  };
}
