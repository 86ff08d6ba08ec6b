import type { Resources } from '../en-gb.ts';

export const a11y: Resources['a11y'] = {
  navigation: 'Меню',
  skipToContent: 'Перейти к содержимому',
};
