import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useDeferredAnswer } from './use-deferred-answer';

interface Query {
  data: string | undefined;
  isPending: boolean;
}

describe('useDeferredAnswer', () => {
  it('says pending until the first answer is drawn, never "no answer" once there is one', async () => {
    const seen: Array<{ data: string | undefined; pending: boolean }> = [];
    const { result, rerender } = renderHook(
      (query: Query) => {
        const answer = useDeferredAnswer(query);
        seen.push(answer);
        return answer;
      },
      { initialProps: { data: undefined, isPending: true } as Query },
    );
    expect(result.current).toEqual({ data: undefined, pending: true });

    rerender({ data: 'figures', isPending: false });
    await waitFor(() => expect(result.current).toEqual({ data: 'figures', pending: false }));
    // A screen reads "not pending and no data" as a failed read: no render may say so while the answer is in.
    expect(seen.filter((answer) => !answer.pending && answer.data === undefined)).toEqual([]);
  });

  it('keeps the answer on screen while the next one is drawn', async () => {
    const { result, rerender } = renderHook((query: Query) => useDeferredAnswer(query), {
      initialProps: { data: 'first', isPending: false } as Query,
    });
    expect(result.current).toEqual({ data: 'first', pending: false });
    rerender({ data: 'second', isPending: false });
    await waitFor(() => expect(result.current.data).toBe('second'));
    expect(result.current.pending).toBe(false);
  });
});
