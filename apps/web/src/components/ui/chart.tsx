import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import type { TimeSeriesChartProps } from './time-series-chart';
import { Skeleton } from './skeleton';

const TimeSeriesChartImpl = lazy(() => import('./time-series-chart'));

/**
 * A deferred chart loads as soon as any of it is on screen. No margin ahead: the Dashboard's figures above the
 * charts arrive after them and push them down, so a chart 300 px below the fold at first was often reached
 * before the page had settled.
 */
const NEAR_VIEWPORT = '0px';

/**
 * Whether the element has been on screen (once true, stays true). Without IntersectionObserver it is
 * true from the start.
 */
function useNearViewport(enabled: boolean) {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(() => !enabled || typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: NEAR_VIEWPORT },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return [ref, near] as const;
}

/**
 * The chart library stays out of the first load: it arrives with the first chart on screen. With `deferred`,
 * the chart (and the library) wait until it scrolls into view — a chart below the fold costs the
 * first load nothing (issue 21: on a phone the Dashboard's charts are all below it).
 */
export function TimeSeriesChart({
  deferred = false,
  ...props
}: TimeSeriesChartProps & { deferred?: boolean }) {
  const [ref, near] = useNearViewport(deferred);
  if (!near)
    // A still box, not the shimmering skeleton: a chart below the fold may wait there for good, and an endless
    // animation would keep the main thread drawing it.
    return (
      <div ref={ref} className="h-full w-full" role="figure" aria-label={props.label}>
        <div aria-hidden="true" className="h-full w-full rounded bg-surface-3" />
      </div>
    );
  return (
    <Suspense fallback={<Skeleton className="h-full w-full" />}>
      <TimeSeriesChartImpl {...props} />
    </Suspense>
  );
}

export type { TimeGap, TimePoint, TimeSeriesChartProps } from './time-series-chart';
