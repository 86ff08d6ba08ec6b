import type { Resources } from '../en-gb.ts';

export const attention: Resources['attention'] = {
  newChat: 'Новый чат',
  assigned: 'Чат для вас',
  message: 'Новое сообщение',
  open: 'Открыть чат',
  sound: 'Звук новых сообщений',
  desktop: 'Уведомления на рабочем столе',
  on: 'Вкл.',
  off: 'Выкл.',
  desktopDenied: 'Браузер блокирует уведомления этого сайта: разрешите их в настройках сайта.',
  notInWork: 'Вы не в работе: новые чаты к вам не поступят.',
  onBreak: 'Вы на перерыве: новые чаты к вам не поступят.',
  startWork: 'Начать работу',
  askTitle: 'Узнавайте о новых чатах',
  askText: 'Сообщать о новых чатах, пока эта вкладка в фоне?',
  askAllow: 'Разрешить уведомления',
  askLater: 'Не сейчас',
};
