import type { Resources } from '../en-gb.ts';

export const rights: Resources['rights'] = {
  AUTHORITY_ALL_STAT: 'Просмотр всей статистики',
  RIGHT_ACCOUNT_CONTROL: 'Управление пользователями и ролями',
  AUTHORITY_TEAMS_UPDATE: 'Управление командами, смена команды пользователя',
  RIGHT_OBSERVER: 'Данные всех компаний',
  AUTHORITY_ALL_CHATS: 'Управление чатами',
  AUTHORITY_SERVICE_ACCOUNT: 'Сервисные аккаунты',
  AUTHORITY_TEAM_TEMPLATE: 'Шаблоны команд',
  AUTHORITY_ROLE_MODIFY: 'Создание и изменение ролей',
  AUTHORITY_CHAT_DISTRIBUTION: 'Получение входящих диалогов',
  AUTHORITY_PROFILE_UPDATE: 'Редактирование профиля клиента',
  AUTHORITY_PROFILE_STATUS: 'Статусы клиентов',
  AUTHORITY_INTEGRATION: 'Настройки интеграции для разработчиков',
  AUTHORITY_CHAT_SESSION_CATEGORY: 'Категории обращений',
  AUTHORITY_FINANCE: 'Финансы',
  AUTHORITY_MAILING: 'Рассылки',
};
