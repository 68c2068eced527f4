/** Storage access that never throws (private mode, quota, disabled storage). */
export const browserStorage = {
  get(key: string): string | null {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string | null): void {
    try {
      if (value === null) window.localStorage.removeItem(key);
      else window.localStorage.setItem(key, value);
    } catch {
      // Storage unavailable: the session simply lives in memory.
    }
  },
  /** Logout and 401 clear ALL browser storage (spec §4). */
  clearAll(): void {
    for (const storage of [() => window.localStorage, () => window.sessionStorage]) {
      try {
        storage().clear();
      } catch {
        // Nothing to clear.
      }
    }
  },
};
