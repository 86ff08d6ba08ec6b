import type { Resources } from '../en-gb.ts';

export const chats: Resources['chats'] = {
  emptyAssigned: 'Нет диалогов в работе',
  emptyWaiting: 'Никто не ожидает',
  emptyClosed: 'Закрытых диалогов пока нет',
  emptyHint: 'Новые диалоги из всех подключённых каналов появятся здесь.',
  selectHint: 'Выберите диалог, чтобы начать отвечать',
  backToList: 'Все чаты',
};
