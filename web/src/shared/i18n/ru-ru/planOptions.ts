import type { Resources } from '../en-gb.ts';

export const planOptions: Resources['planOptions'] = {
  OPTION_ROUTING: 'Правила маршрутизации',
  OPTION_EXPIRING: 'Контроль просрочки (SLA)',
  OPTION_QUALITY_ASSESSMENT: 'Оценка качества обслуживания',
  OPTION_AUTO_REPLY: 'Автоответы',
  OPTION_API: 'Открытый API',
  OPTION_CHAT_BOT: 'Чат-боты',
  OPTION_PROFILE_SESSION_HISTORY: 'История обращений клиента',
  OPTION_ONLINE_MONITORING: 'Онлайн-мониторинг',
  OPTION_PROFILE: 'Профили клиентов',
  OPTION_TEMPLATE: 'Шаблоны ответов',
  OPTION_CATEGORY: 'Категории обращений',
  OPTION_COMMENT: 'Комментарии',
  OPTION_EXTENDED_SEARCH: 'Расширенный поиск',
  OPTION_PROFILE_STATUS: 'Управление статусами клиентов',
  OPTION_STATISTIC: 'Расширенная статистика',
  OPTION_MAILING: 'Рассылки',
};
