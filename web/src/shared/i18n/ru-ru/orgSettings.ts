import type { Resources } from '../en-gb.ts';

export const orgSettings: Resources['orgSettings'] = {
  menu: 'Организация',
  title: 'Настройки организации',
  hint: 'Настройки, общие для всех сотрудников организации.',
  timeZone: 'Часовой пояс',
  timeZoneHint: 'Отчёты считают дни и часы в этом поясе.',
  timeZoneSearch: 'Поиск по городу или региону',
  nothingFound: 'Такого часового пояса нет',
  saved: 'Настройки организации сохранены',
};
