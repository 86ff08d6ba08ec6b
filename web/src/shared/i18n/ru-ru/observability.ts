import type { Resources } from '../en-gb.ts';

export const observability: Resources['observability'] = {
  title: 'Веб-метрики',
  hint: '75-й перцентиль по страницам из измерений в браузерах пользователей, цветом — оценка (пороги спецификации).',
  period: 'Период',
  day: 'Последние 24 часа',
  week: 'Последние 7 дней',
  page: 'Страница',
  empty: 'Нет данных за период',
  thresholds: 'Хорошо до {{good}}, плохо выше {{poor}}',
  samples_one: '{{count}} измерение',
  samples_few: '{{count}} измерения',
  samples_many: '{{count}} измерений',
  samples_other: '{{count}} измерения',
  rating: { good: 'хорошо', 'needs-improvement': 'требует улучшения', poor: 'плохо' },
};
