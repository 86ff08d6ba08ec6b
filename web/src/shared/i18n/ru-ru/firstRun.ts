import type { Resources } from '../en-gb.ts';

export const firstRun: Resources['firstRun'] = {
  title: 'С чего начать',
  hint: 'Три шага до первого чата с клиентом.',
  channel: 'Подключите канал',
  colleague: 'Пригласите коллегу',
  widget: 'Напишите в чат на сайте как посетитель',
  done: 'сделано',
  todo: 'ещё не сделано',
  dismiss: 'Скрыть список',
};
