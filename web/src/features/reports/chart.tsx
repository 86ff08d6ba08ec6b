import { Box, useMantineColorScheme } from '@mantine/core';
import type { EChartsCoreOption } from 'echarts';
import { BarChart, CustomChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

// Only the parts the reports draw: bars, lines and the working-time custom series on a canvas, with grid, legend and
// tooltip. This module is loaded on its own (lazy-chart.tsx), so tables show before the charts' code arrives.
echarts.use([
  BarChart,
  CustomChart,
  LineChart,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  CanvasRenderer,
]);

export { echarts };

export type ChartProps = {
  /** The chart's option; built anew when its inputs change (memoise it in the caller). */
  option: EChartsCoreOption;
  height: number;
  /** What the chart shows, for screen readers (the table beside it has the figures). */
  label: string;
  testId: string;
};

/** One ECharts chart on a canvas, in the colour scheme of the app, resized with its box. */
export default function Chart({ option, height, label, testId }: ChartProps) {
  const { colorScheme } = useMantineColorScheme();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!ref.current) return;
    const chart = echarts.init(ref.current, colorScheme === 'dark' ? 'dark' : undefined, {
      renderer: 'canvas',
    });
    chart.setOption({ animation: false, backgroundColor: 'transparent', ...option });
    const resize = new ResizeObserver(() => chart.resize());
    resize.observe(ref.current);
    return () => {
      resize.disconnect();
      chart.dispose();
    };
  }, [option, colorScheme]);
  return <Box ref={ref} h={height} role="img" aria-label={label} data-testid={testId} />;
}
