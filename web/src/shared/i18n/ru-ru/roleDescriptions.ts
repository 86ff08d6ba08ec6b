import type { Resources } from '../en-gb.ts';

export const roleDescriptions: Resources['roleDescriptions'] = {
  OPERATOR: 'Обрабатывает поток обращений',
  SUPERVISOR: 'Управляет командой операторов и видит все обращения',
  ADMINISTRATOR: 'Настраивает платформу',
};
