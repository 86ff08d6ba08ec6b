import {
  createTheme,
  darken,
  defaultVariantColorsResolver,
  type MantineColorsTuple,
  parseThemeColor,
  type VariantColorsResolver,
} from '@mantine/core';
import { i18n } from '../shared/i18n/index.ts';

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

/**
 * Red with a darker filled shade (6): error texts (`--mantine-color-error`) and red buttons with white text reach
 * 4.98:1 on white (the library's #fa5252 gives 3.28:1, under WCAG AA's 4.5).
 */
const red: MantineColorsTuple = [
  '#fff5f5',
  '#ffe3e3',
  '#ffc9c9',
  '#ffa8a8',
  '#ff8787',
  '#f03e3e',
  '#d32f2f',
  '#c92a2a',
  '#b02525',
  '#962020',
];

/** Palettes whose darkest shade is still light (yellow, orange, lime): their text is darkened further. */
const PALE = new Set(['yellow', 'orange', 'lime', 'green', 'teal', 'cyan']);

/**
 * Text on tinted and plain backgrounds (light, subtle, outline, transparent, default variants: badges, avatars'
 * initials, active menu entries) in the palette's darkest shade, darkened: at least 4.5:1 on white and on the tint
 * (WCAG AA; the library's default, shade 6, gives 2.3–4.5:1). Filled surfaces pick black or white text (autoContrast).
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const base = defaultVariantColorsResolver(input);
  if (!['light', 'subtle', 'outline', 'transparent'].includes(input.variant)) return base;
  const parsed = parseThemeColor({ color: input.color || input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor || !input.theme.colors[parsed.color]) return base;
  const text = darken(input.theme.colors[parsed.color][9], PALE.has(parsed.color) ? 0.35 : 0.1);
  return {
    ...base,
    color: text,
    hoverColor: text,
    ...(input.variant === 'outline' ? { border: `1px solid ${text}` } : {}),
  };
};

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: 6,
  autoContrast: true,
  variantColorResolver,
  colors: { brand, red },
  defaultRadius: 'md',
  fontFamily:
    'Inter, -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, "DejaVu Sans", sans-serif',
  headings: { fontWeight: '650' },
  cursorType: 'pointer',
  components: {
    Paper: { defaultProps: { withBorder: true, radius: 'lg' } },
    Card: { defaultProps: { withBorder: true, radius: 'lg' } },
    TextInput: { defaultProps: { size: 'sm' } },
    Drawer: {
      defaultProps: {
        position: 'right',
        size: 'lg',
        padding: 'xl',
        // The panels' close (X) is named too (axe: button-name): team, role, rule and client panels.
        closeButtonProps: {
          get 'aria-label'() {
            return i18n.t('common.close');
          },
        },
      },
    },
    Modal: {
      defaultProps: {
        centered: true,
        radius: 'lg',
        // A dialog's close button is named too (axe: button-name), like the toasts' below.
        closeButtonProps: {
          get 'aria-label'() {
            return i18n.t('common.close');
          },
        },
      },
    },
    Tooltip: { defaultProps: { withArrow: true } },
    // Every toast's close button is named (axe: button-name), in the language of the moment it is drawn.
    Notification: {
      defaultProps: {
        closeButtonProps: {
          get 'aria-label'() {
            return i18n.t('common.close');
          },
        },
      },
    },
  },
});
