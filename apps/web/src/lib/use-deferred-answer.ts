import { useDeferredValue } from 'react';

/**
 * A query's answer for a screen's heavy sections, drawn in a render React can slice (issue 21). TanStack Query
 * updates a subscriber through `useSyncExternalStore`, whose renders React never time-slices: each answer of the
 * Dashboard's first load drew its charts and tables in one long task, 200 ms and more on a phone. With this, the
 * subscriber renders at once with the answer it had (its memoised sections do nothing), and the new answer follows
 * in a deferred render that yields to the browser every few milliseconds.
 *
 * `pending` stays true until the first answer is drawn. Only `data` and `isPending` are read from the query, so
 * TanStack's tracked properties do not grow (spreading it would render again on every fetch state).
 */
export function useDeferredAnswer<T>(query: { data: T | undefined; isPending: boolean }): {
  data: T | undefined;
  pending: boolean;
} {
  const answer = query.data;
  const data = useDeferredValue(answer);
  return { data, pending: query.isPending || (data === undefined && answer !== undefined) };
}
