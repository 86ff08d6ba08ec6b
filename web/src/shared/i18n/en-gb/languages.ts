export const languages = { eng: 'English', rus: 'Русский' };
