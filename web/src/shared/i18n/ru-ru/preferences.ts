import type { Resources } from '../en-gb.ts';

export const preferences: Resources['preferences'] = {
  title: 'Настройки',
  channels: 'Каналы связи',
  roles: 'Роли',
  companies: 'Организации',
  statuses: 'Статусы клиентов',
  templates: 'Шаблоны',
  knowledgeBase: 'База знаний',
  whatsappTemplates: 'Шаблоны WhatsApp',
  chatBots: 'Чат-боты',
  extensions: 'Интеграции',
  blackList: 'Чёрный список',
  mergeContacts: 'Объединение контактов',
  categories: 'Категории чатов',
  plans: 'Тарифы',
  webVitals: 'Веб-метрики',
};
