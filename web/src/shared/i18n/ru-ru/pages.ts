import type { Resources } from '../en-gb.ts';

export const pages: Resources['pages'] = {
  notFoundTitle: 'Страница не найдена',
  notFoundText: 'Страница, которую вы ищете, не существует или была перемещена.',
  serviceUnavailableTitle: 'Сервис недоступен',
  serviceUnavailableText: 'SmartConnect временно недоступен. Попробуйте ещё раз через несколько минут.',
  successTitle: 'Спасибо за оценку!',
  successText: 'Ваш отзыв помогает нам работать лучше.',
  alreadyUsedTitle: 'Оценка уже отправлена',
  alreadyUsedText: 'Эта ссылка для оценки уже была использована.',
  noRightsTitle: 'Нет прав',
  noRightsText: 'У вас нет прав для открытия этой страницы. Обратитесь к администратору.',
  unknownErrorTitle: 'Неизвестная ошибка',
  unknownErrorText: 'Что-то пошло не так. Обновите страницу или попробуйте позже.',
  linkActionTitle: 'Ссылка обработана',
  linkActionText: 'Эту страницу можно закрыть.',
  signupTitle: 'Регистрация скоро откроется',
  signupText:
    'Самостоятельная регистрация с подтверждением по почте и SMS пока недоступна. Свяжитесь с нами, чтобы начать 7-дневный пробный период.',
  optionsTitle: 'Функционал недоступен',
  optionsFeature: '«{{name}}» не входит в ваш тариф.',
  optionsGeneric: 'Эта возможность не входит в ваш тариф.',
  optionsChangeHint: 'Смените тариф в разделе «Финансы», чтобы пользоваться ею.',
  optionsAskAdmin: 'Чтобы пользоваться ею, попросите администратора сменить тариф.',
  changePlan: 'Сменить тариф',
  comingSoonTitle: 'Скоро',
  comingSoonText: '«{{name}}» в разработке и появится здесь в одном из ближайших выпусков.',
};
