import { createTheme, type MantineColorsTuple } from '@mantine/core';

/** SmartConnect brand blue (#4263eb at shade 6). */
const brand: MantineColorsTuple = [
  '#edf2ff',
  '#dbe4ff',
  '#bac8ff',
  '#91a7ff',
  '#748ffc',
  '#5c7cfa',
  '#4263eb',
  '#3b5bdb',
  '#364fc7',
  '#2f44ad',
];

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: 6,
  colors: { brand },
  defaultRadius: 'md',
  fontFamily:
    'Inter, -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, "DejaVu Sans", sans-serif',
  headings: { fontWeight: '650' },
  cursorType: 'pointer',
  components: {
    Paper: { defaultProps: { withBorder: true, radius: 'lg' } },
    Card: { defaultProps: { withBorder: true, radius: 'lg' } },
    TextInput: { defaultProps: { size: 'sm' } },
    Drawer: { defaultProps: { position: 'right', size: 'lg', padding: 'xl' } },
    Modal: { defaultProps: { centered: true, radius: 'lg' } },
    Tooltip: { defaultProps: { withArrow: true } },
  },
});
