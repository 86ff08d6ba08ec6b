/** The widget's texts: English and Russian, chosen from the host page's language, else the browser's. */
const en = {
  open: 'Open chat',
  close: 'Close chat',
  unread: (n: number) => `${n} unread`,
  title: 'Chat with us',
  message: 'Message',
  placeholder: 'Write a message…',
  send: 'Send',
  attach: 'Attach a file',
  tooLong: (max: number) => `Message is too long: at most ${max} characters`,
  tooMany: 'Too many messages. Please wait a minute and try again.',
  fileRefused: 'This file cannot be sent: JPEG, PNG, GIF, WebP or PDF only',
  fileTooBig: (mb: number) => `The file is too large: at most ${mb} MB`,
  failed: 'The message was not sent. Try again.',
  offline: 'Connection lost, reconnecting…',
  inactive: 'The chat is not available now',
  you: 'You',
  operator: 'Operator',
  sent: 'Sent',
  delivered: 'Delivered',
  read: 'Read',
  rateAsk: 'Please rate our service',
  botButtons: 'Answers to choose from',
  bot: 'Bot',
  rates: ['Very bad', 'Bad', 'Normal', 'Good', 'Excellent'],
  rated: 'Thank you for your rating!',
  rateUsed: 'Rating already sent',
  otherChannels: 'Also write to us in',
  messages: 'Messages',
  typing: (name: string | null) => `${name || 'The operator'} is typing…`,
  introduce: 'Introduce yourself',
  introHint: 'Optional: so that we can reach you if the chat is interrupted.',
  name: 'Name',
  email: 'E-mail',
  phone: 'Phone',
  save: 'Save',
  saved: 'Thank you, we will know how to reach you.',
  badEmail: 'E-mail specified incorrectly',
  badPhone: 'Phone specified incorrectly',
};
export type Texts = typeof en;
const ru: Texts = {
  open: 'Открыть чат',
  close: 'Закрыть чат',
  unread: (n) => `Непрочитанных: ${n}`,
  title: 'Напишите нам',
  message: 'Сообщение',
  placeholder: 'Введите сообщение…',
  send: 'Отправить',
  attach: 'Прикрепить файл',
  tooLong: (max) => `Сообщение слишком длинное: не более ${max} символов`,
  tooMany: 'Слишком много сообщений. Подождите минуту и попробуйте снова.',
  fileRefused: 'Этот файл нельзя отправить: только JPEG, PNG, GIF, WebP или PDF',
  fileTooBig: (mb) => `Файл слишком большой: не более ${mb} МБ`,
  failed: 'Сообщение не отправлено. Попробуйте ещё раз.',
  offline: 'Нет связи, переподключаемся…',
  inactive: 'Чат сейчас недоступен',
  you: 'Вы',
  operator: 'Оператор',
  sent: 'Отправлено',
  delivered: 'Доставлено',
  read: 'Прочитано',
  rateAsk: 'Пожалуйста, оцените наше обслуживание',
  botButtons: 'Варианты ответа',
  bot: 'Бот',
  rates: ['Очень плохо', 'Плохо', 'Нормально', 'Хорошо', 'Отлично'],
  rated: 'Спасибо за оценку!',
  rateUsed: 'Оценка уже отправлена',
  otherChannels: 'Пишите нам также в',
  messages: 'Сообщения',
  typing: (name) => `${name || 'Оператор'} печатает…`,
  introduce: 'Представьтесь',
  introHint: 'Необязательно: чтобы мы могли связаться с вами, если чат прервётся.',
  name: 'Имя',
  email: 'E-mail',
  phone: 'Телефон',
  save: 'Сохранить',
  saved: 'Спасибо, теперь мы знаем, как с вами связаться.',
  badEmail: 'E-mail указан неверно',
  badPhone: 'Телефон указан неверно',
};

export function textsFor(lang: string): Texts {
  return /^ru/i.test(lang) ? ru : en;
}

/** The host page's language (`<html lang>`), else the browser's; the SmartConnect app's own choice (sc-lang) first. */
export function pageLanguage(): string {
  try {
    const sc = localStorage.getItem('sc-lang');
    if (sc === 'rus') return 'ru';
    if (sc === 'eng') return 'en';
  } catch {}
  return document.documentElement.lang || navigator.language || 'en';
}
