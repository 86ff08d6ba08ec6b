import type { Resources } from '../en-gb.ts';

export const botRuntime: Resources['botRuntime'] = {
  badge: 'Бот',
  simulatorTitle: 'Проверить бота',
  restart: 'Начать заново',
  close: 'Закрыть',
  placeholder: 'Напишите как клиент…',
  send: 'Отправить',
  ended: 'Бот закончил: {{action}}',
  empty: 'В сценарии ещё нет блоков.',
  you: 'Клиент',
  bot: 'Бот',
  finalActions: {
    close: 'закрыть чат',
    last_operator: 'передать последнему оператору',
    operator: 'передать оператору',
    team: 'передать в команду',
    personal_manager: 'передать персональному менеджеру',
    none: 'передать людям',
  },
  transferToBot: 'Чат-бот',
  chooseBot: 'Выберите чат-бота',
  noPublishedBots: 'Нет опубликованных чат-ботов',
  transferredToBot: 'Передан чат-боту {{bot}}',
};
