import type { Resources } from '../en-gb.ts';

export const landing: Resources['landing'] = {
  title: 'Заявки с лендинга',
  hint: 'Заявки на пробный период, оставленные на лендинге (/landing): перезвоните и подключите пробную организацию.',
  total_one: '{{count}} заявка',
  total_few: '{{count}} заявки',
  total_many: '{{count}} заявок',
  total_other: '{{count}} заявки',
  empty: 'Заявок с лендинга пока нет',
  createdAt: 'Получена',
  name: 'Имя',
  phone: 'Телефон',
  company: 'Организация',
  form: 'Форма',
  language: 'Язык',
  more: 'Показать ещё',
  forms: { short: 'Короткая форма', long: 'Полная форма', modal: 'Окно пробного периода' },
  languages: { eng: 'Английский', rus: 'Русский' },
};
