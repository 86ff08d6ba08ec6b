import type { Resources } from '../en-gb.ts';

export const notices: Resources['notices'] = {
  connectionLost: 'Нет соединения с сервером.',
  newVersion: 'Доступна новая версия, обновите страницу',
  problem: 'Обнаружена проблема!',
  newMessage: 'Новое сообщение!',
};
