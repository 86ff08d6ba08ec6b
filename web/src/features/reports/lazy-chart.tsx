import { Skeleton } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { ChartProps } from './chart.tsx';

const Chart = lazy(() => import('./chart.tsx'));

/** A report chart whose code (ECharts) loads after the report's table: a placeholder of its height meanwhile. */
export function LazyChart(props: ChartProps) {
  return (
    <Suspense fallback={<Skeleton h={props.height} aria-hidden="true" />}>
      <Chart {...props} />
    </Suspense>
  );
}
