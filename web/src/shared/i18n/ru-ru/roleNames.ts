import type { Resources } from '../en-gb.ts';

export const roleNames: Resources['roleNames'] = {
  OPERATOR: 'Оператор',
  SUPERVISOR: 'Супервизор',
  ADMINISTRATOR: 'Администратор',
};
