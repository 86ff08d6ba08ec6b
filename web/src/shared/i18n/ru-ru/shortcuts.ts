import type { Resources } from '../en-gb.ts';

export const shortcuts: Resources['shortcuts'] = {
  open: 'Горячие клавиши',
  title: 'Горячие клавиши',
  listMove: 'Следующий или предыдущий чат (в списке)',
  anywhereMove: 'Следующий или предыдущий чат (откуда угодно)',
  composer: 'Написать сообщение',
  take: 'Взять чат',
  category: 'Категория обращения',
  transfer: 'Передать чат',
  close: 'Закрыть чат',
  backToList: 'Из поля сообщения обратно к списку',
  send: 'Отправить',
  newLine: 'Новая строка',
  help: 'Этот список',
  key: { Esc: 'Esc', Enter: 'Enter', Shift: 'Shift', Alt: 'Alt' },
};
