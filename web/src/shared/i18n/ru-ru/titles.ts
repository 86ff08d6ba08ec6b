import type { Resources } from '../en-gb.ts';

export const titles: Resources['titles'] = {
  login: 'Вход',
  restore: 'Восстановление пароля',
  signup: 'Регистрация',
  notFound: 'Страница не найдена',
  serviceUnavailable: 'Сервис недоступен',
  success: 'Спасибо',
  alreadyUsed: 'Ссылка уже использована',
  noRights: 'Нет прав',
  unknownError: 'Неизвестная ошибка',
  linkAction: 'Ссылка',
  notification: 'Новое сообщение!',
};
