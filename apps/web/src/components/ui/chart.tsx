import { Suspense, lazy } from 'react';
import type { TimeSeriesChartProps } from './time-series-chart';
import { Skeleton } from './skeleton';

const TimeSeriesChartImpl = lazy(() => import('./time-series-chart'));

/** The chart library stays out of the first load: it arrives with the first chart on screen. */
export function TimeSeriesChart(props: TimeSeriesChartProps) {
  return (
    <Suspense fallback={<Skeleton className="h-full w-full" />}>
      <TimeSeriesChartImpl {...props} />
    </Suspense>
  );
}

export type { TimeGap, TimePoint, TimeSeriesChartProps } from './time-series-chart';
