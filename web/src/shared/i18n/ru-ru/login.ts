import type { Resources } from '../en-gb.ts';

export const login: Resources['login'] = {
  title: 'С возвращением',
  subtitle: 'Войдите в рабочее пространство SmartConnect',
  email: 'Электронная почта',
  password: 'Пароль',
  submit: 'Войти',
  trouble: 'Проблемы со входом?',
  twoFactorTitle: 'Двухфакторная аутентификация',
  twoFactorHint: 'Введите 6-значный код из приложения-аутентификатора',
  code: 'Код аутентификатора',
  confirm: 'Подтвердить',
  wrongCode: 'Введён неверный код. <again>Ввести заново?</again>',
  captchaNeeded:
    'По этой учётной записи было много неудачных входов. Подтвердите, что вы не робот, и войдите снова.',
  otherAccount: 'Войти с другой учётной записью',
  noAccount:
    'Впервые в SmartConnect? <trial>Попробуйте бесплатно 7 дней</trial> · <landing>О SmartConnect</landing>',
};
