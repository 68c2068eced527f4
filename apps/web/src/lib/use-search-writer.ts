import { useRef } from 'react';
import { type NavigateOptions, useSearchParams } from 'react-router';

type SearchChange = (current: URLSearchParams) => URLSearchParams;

/**
 * Writes the URL's search parameters so that changes made in a row add up. React Router hands
 * its functional form the parameters of the last render, and a navigation lands only after the
 * route's loaders ran: two changes in one tick (a field's blur, then the next field's change)
 * would each start from the old URL, and the second would undo the first.
 */
export function useSearchWriter(): [
  URLSearchParams,
  (change: SearchChange, options?: NavigateOptions) => void,
] {
  const [search, setSearch] = useSearchParams();
  const written = useRef<{ from: string; to: URLSearchParams } | null>(null);
  const write = (change: SearchChange, options?: NavigateOptions) => {
    const committed = window.location.search.replace(/^\?/, '');
    const pending = written.current;
    // A write that has not landed yet is the base of the next one; once the URL moved, it is the truth.
    const base = pending && pending.from === committed ? pending.to : new URLSearchParams(committed);
    const next = change(new URLSearchParams(base));
    written.current = { from: committed, to: next };
    setSearch(next, options);
  };
  return [search, write];
}

/** A paged list's page in the address (`?page=`, 1 when absent: the first page leaves it out) and its writer. */
export function usePageParam(): [number, (page: number) => void] {
  const [search, setSearch] = useSearchWriter();
  const page = Math.max(1, Number(search.get('page')) || 1);
  const setPage = (next: number) =>
    setSearch((current) => {
      const params = new URLSearchParams(current);
      if (next > 1) params.set('page', String(next));
      else params.delete('page');
      return params;
    });
  return [page, setPage];
}
