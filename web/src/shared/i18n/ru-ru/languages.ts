import type { Resources } from '../en-gb.ts';

export const languages: Resources['languages'] = { eng: 'English', rus: 'Русский' };
