import type { Resources } from '../en-gb.ts';

export const rating: Resources['rating'] = {
  title: 'Оцените наше обслуживание',
  text: 'Насколько вы довольны полученной помощью?',
  loading: 'Загрузка',
  failed: 'Оценка не отправлена. Попробуйте ещё раз.',
  values: {
    VERY_BAD: 'Очень плохо',
    BAD: 'Плохо',
    NORMAL: 'Нормально',
    GOOD: 'Хорошо',
    EXCELLENT: 'Отлично',
  },
  ask: 'Запросить оценку',
  asked: 'Клиенту отправлен запрос оценки',
  requested: 'Оценка запрошена',
  badge: 'Оценка: {{value}} ({{score}} из 5)',
};
