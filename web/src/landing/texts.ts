/**
 * Every text of the landing page (§1 claims, §2.2 sections) in both languages. The page is its own light entry
 * (landing.html), so its texts live here, not in the app's i18n resources; `texts.test.ts` checks both languages
 * have the same keys and lists.
 */
const en = {
  meta: {
    title: 'SmartConnect — omnichannel customer chat for business',
    description:
      'All customer conversations from messengers, social networks, site chat, e-mail and voice in one window. 7-day free trial.',
  },
  nav: {
    label: 'Sections',
    skip: 'Skip to content',
    about: 'About',
    benefits: 'Benefits',
    features: 'Dialogs',
    routing: 'Routing',
    roles: 'Roles',
    more: 'Advantages',
    language: 'Русский',
    languageLabel: 'Переключить язык на русский',
    try: 'Try',
    signIn: 'Sign In',
  },
  hero: {
    title: 'Every customer conversation in one window',
    lead: 'Viber, WhatsApp, Telegram, VK, Odnoklassniki, Instagram, site chat, e-mail and voice: your operators answer them all from SmartConnect, and nothing gets lost.',
    cta: 'Try for Free',
    note: '7-day trial period',
    signup: 'or sign up yourself and start now',
    channels: [
      'Telegram',
      'WhatsApp',
      'Viber',
      'VK',
      'Odnoklassniki',
      'Instagram',
      'Site chat',
      'E-mail',
      'VOIP',
    ],
    preview: {
      label: 'What an operator sees',
      client: 'Hello! Is my order ready?',
      operator: 'Good afternoon! Yes, you can pick it up today until 8 pm.',
      channel: 'Telegram · waiting 12 s',
    },
  },
  short: {
    title: 'Leave your phone number, we will call you back',
    label: 'Phone number',
    placeholder: '+7 900 000-00-00',
    submit: 'Submit request',
  },
  about: {
    title: 'About SmartConnect',
    text: [
      'SmartConnect is an omnichannel chat platform for businesses. Operators handle inquiries from messengers and social networks, from site chat, e-mail and voice, and from mailings, in one interface.',
      'Supervisors control the team and see every inquiry; administrators configure channels, routing, chat bots, templates and reports. The interface works in Russian and English.',
    ],
  },
  benefits: {
    title: 'What your business gets',
    items: [
      {
        title: 'No lost inquiries',
        text: 'Every message from every channel lands in one queue and is assigned to an operator.',
      },
      {
        title: 'Faster answers',
        text: 'Quick-reply templates, chat bots and automatic routing shorten the time to the first reply.',
      },
      {
        title: 'Control and reports',
        text: 'Online monitoring, reports on dialogs, channels, employees, teams and time, and service ratings from customers.',
      },
      {
        title: 'Your accounts stay yours',
        text: 'Employees never receive the passwords of the official messenger or social accounts: all dialogs stay in the platform.',
      },
    ],
  },
  dialog: {
    title: 'Dialog advantages',
    marketing: {
      title: 'For marketing and sales',
      items: [
        'Replies to mailings come back as dialogs your managers can continue',
        'Client profiles with contacts, tags, statuses and the whole history',
        'One customer across channels: merge contacts into one profile',
      ],
    },
    service: {
      title: 'For customer service',
      items: [
        'Queues per team, with waiting and overdue times in sight',
        'Transfers to a colleague, a team or a chat bot without losing context',
        'Request categories and service ratings after each dialog',
      ],
    },
    features: [
      {
        title: 'Replies to mailings',
        text: 'Answers to your mass mailings arrive as ordinary conversations.',
      },
      {
        title: 'Sending and storing files',
        text: 'Documents are sent from the chat and kept with the dialog.',
      },
      {
        title: 'Operator convenience',
        text: 'One window, hot keys, drafts and notifications: less switching, more answers.',
      },
      {
        title: 'SMS-system import',
        text: 'Messages from your SMS mailing system are imported into the platform.',
      },
      {
        title: 'Image and file exchange',
        text: 'Customers send photos and files; operators answer with their own.',
      },
      { title: 'Quick-reply templates', text: 'Ready answers per team, inserted in one click.' },
    ],
  },
  routing: {
    title: 'Automatic inquiry routing',
    text: 'Inquiries are routed into team queues by channel, time and rules, and given to a free operator.',
    steps: [
      'A customer writes to any channel',
      'A rule or a chat bot picks the team',
      'The inquiry goes to a free operator of the team',
      'If nobody answers in time, it is redistributed',
    ],
  },
  roles: {
    title: 'Roles',
    items: [
      { title: 'Operator', text: 'Handles the flow of inquiries and sees own statistics.' },
      {
        title: 'Supervisor',
        text: "Controls the operator team, sees all operators' inquiries and manages teams.",
      },
      {
        title: 'Administrator',
        text: 'Configures the platform: channels, users, roles, routing, bots and integrations.',
      },
    ],
    custom: 'Add your own roles with exactly the rights they need.',
  },
  other: {
    title: 'Other advantages',
    items: [
      {
        title: 'Data in Russia',
        text: 'Customer data is hosted and stored in Russia; hosting on your own server is offered.',
      },
      { title: 'Open API and mobile SDK', text: 'Connect your systems and apps to the platform.' },
      { title: 'Unlimited users', text: 'Add as many employees as your team needs.' },
      {
        title: 'Unlimited storage',
        text: 'Conversations and statistics are kept with no time limit.',
      },
    ],
  },
  long: {
    title: 'Request a trial',
    lead: 'Fill in the form and we will set up SmartConnect for your organisation. The first 7 days are free.',
    name: 'Name',
    phone: 'Phone number',
    company: 'Organisation name',
    submit: 'Submit request',
    required: 'Required fields are marked with an asterisk',
  },
  modal: {
    title: 'Try SmartConnect for free',
    lead: 'Leave your details and we will contact you to start the 7-day trial.',
    close: 'Close',
    successTitle: 'Request successfully created!',
    successText: 'We will contact you shortly',
    signup: 'Prefer to start at once? Sign up yourself',
  },
  footer: {
    address: 'SmartConnect LLC, 12 Presnenskaya Embankment, Moscow, 123112, Russia',
    addressLabel: 'Address',
    email: 'sales@smartconnect.example',
    rights: 'SmartConnect. Omnichannel customer chat for business.',
  },
  errors: {
    phoneIncorrect: 'Phone number specified incorrectly',
    nameIncorrect: 'Name specified incorrectly',
    organisationNameIncorrect: 'Organisation name specified incorrectly',
    tooMany: 'Too many requests. Please try again later',
    unknown: 'Unknown error. Please try again',
    sending: 'Sending…',
  },
};

export type LandingTexts = typeof en;

const ru: LandingTexts = {
  meta: {
    title: 'SmartConnect — омниканальный чат с клиентами для бизнеса',
    description:
      'Все обращения клиентов из мессенджеров, социальных сетей, чата на сайте, почты и телефонии в одном окне. 7 дней бесплатно.',
  },
  nav: {
    label: 'Разделы',
    skip: 'Перейти к содержанию',
    about: 'О сервисе',
    benefits: 'Выгоды',
    features: 'Диалоги',
    routing: 'Маршрутизация',
    roles: 'Роли',
    more: 'Преимущества',
    language: 'English',
    languageLabel: 'Switch the language to English',
    try: 'Попробовать',
    signIn: 'Войти',
  },
  hero: {
    title: 'Все разговоры с клиентами в одном окне',
    lead: 'Viber, WhatsApp, Telegram, ВКонтакте, Одноклассники, Instagram, чат на сайте, почта и телефония: операторы отвечают всем из SmartConnect, и ничего не теряется.',
    cta: 'Попробовать бесплатно',
    note: 'Пробный период 7 дней',
    signup: 'или зарегистрируйтесь сами и начните сразу',
    channels: [
      'Telegram',
      'WhatsApp',
      'Viber',
      'ВКонтакте',
      'Одноклассники',
      'Instagram',
      'Чат на сайте',
      'Почта',
      'Телефония',
    ],
    preview: {
      label: 'Что видит оператор',
      client: 'Здравствуйте! Мой заказ готов?',
      operator: 'Добрый день! Да, забрать его можно сегодня до 20:00.',
      channel: 'Telegram · ожидает 12 с',
    },
  },
  short: {
    title: 'Оставьте номер телефона, мы перезвоним',
    label: 'Номер телефона',
    placeholder: '+7 900 000-00-00',
    submit: 'Отправить заявку',
  },
  about: {
    title: 'О SmartConnect',
    text: [
      'SmartConnect — омниканальная чат-платформа для бизнеса. Операторы обрабатывают обращения из мессенджеров и социальных сетей, чата на сайте, почты, телефонии и рассылок в одном интерфейсе.',
      'Супервизоры управляют командой и видят все обращения; администраторы настраивают каналы, маршрутизацию, чат-ботов, шаблоны и отчёты. Интерфейс работает на русском и английском языках.',
    ],
  },
  benefits: {
    title: 'Что получает ваш бизнес',
    items: [
      {
        title: 'Ни одного потерянного обращения',
        text: 'Каждое сообщение из любого канала попадает в общую очередь и назначается оператору.',
      },
      {
        title: 'Быстрые ответы',
        text: 'Шаблоны быстрых ответов, чат-боты и автоматическая маршрутизация сокращают время до первого ответа.',
      },
      {
        title: 'Контроль и отчёты',
        text: 'Онлайн-мониторинг, отчёты по диалогам, каналам, сотрудникам, командам и времени, оценки качества от клиентов.',
      },
      {
        title: 'Аккаунты остаются вашими',
        text: 'Сотрудники не получают паролей от официальных аккаунтов мессенджеров и соцсетей: все диалоги остаются в платформе.',
      },
    ],
  },
  dialog: {
    title: 'Преимущества диалогов',
    marketing: {
      title: 'Для маркетинга и продаж',
      items: [
        'Ответы на рассылки приходят диалогами, которые менеджеры могут продолжить',
        'Профили клиентов с контактами, тегами, статусами и всей историей',
        'Один клиент во всех каналах: объединение контактов в один профиль',
      ],
    },
    service: {
      title: 'Для клиентского сервиса',
      items: [
        'Очереди по командам со временем ожидания и просрочкой на виду',
        'Передача коллеге, команде или чат-боту без потери контекста',
        'Категории обращений и оценка качества после каждого диалога',
      ],
    },
    features: [
      { title: 'Ответы на рассылки', text: 'Ответы на массовые рассылки приходят обычными диалогами.' },
      {
        title: 'Отправка и хранение файлов',
        text: 'Документы отправляются из чата и хранятся вместе с диалогом.',
      },
      {
        title: 'Удобство оператора',
        text: 'Одно окно, горячие клавиши, черновики и уведомления: меньше переключений, больше ответов.',
      },
      {
        title: 'Импорт из SMS-системы',
        text: 'Сообщения из вашей системы SMS-рассылок импортируются в платформу.',
      },
      {
        title: 'Обмен изображениями и файлами',
        text: 'Клиенты присылают фото и файлы, операторы отвечают своими.',
      },
      {
        title: 'Шаблоны быстрых ответов',
        text: 'Готовые ответы для каждой команды вставляются в один клик.',
      },
    ],
  },
  routing: {
    title: 'Автоматическая маршрутизация обращений',
    text: 'Обращения распределяются по очередям команд в зависимости от канала, времени и правил и передаются свободному оператору.',
    steps: [
      'Клиент пишет в любой канал',
      'Правило или чат-бот выбирает команду',
      'Обращение получает свободный оператор команды',
      'Если никто не ответил вовремя, оно перераспределяется',
    ],
  },
  roles: {
    title: 'Роли',
    items: [
      { title: 'Оператор', text: 'Обрабатывает поток обращений и видит свою статистику.' },
      {
        title: 'Супервизор',
        text: 'Контролирует команду операторов, видит обращения всех операторов и управляет командами.',
      },
      {
        title: 'Администратор',
        text: 'Настраивает платформу: каналы, пользователей, роли, маршрутизацию, ботов и интеграции.',
      },
    ],
    custom: 'Добавляйте свои роли ровно с теми правами, которые нужны.',
  },
  other: {
    title: 'Другие преимущества',
    items: [
      {
        title: 'Данные в России',
        text: 'Данные клиентов размещаются и хранятся в России; возможно размещение на вашем сервере.',
      },
      { title: 'Открытый API и мобильный SDK', text: 'Подключайте к платформе свои системы и приложения.' },
      {
        title: 'Неограниченное число пользователей',
        text: 'Добавляйте столько сотрудников, сколько нужно команде.',
      },
      {
        title: 'Неограниченное хранение',
        text: 'Переписка и статистика хранятся без ограничения срока.',
      },
    ],
  },
  long: {
    title: 'Заявка на пробный период',
    lead: 'Заполните форму, и мы подключим SmartConnect для вашей организации. Первые 7 дней бесплатно.',
    name: 'Имя',
    phone: 'Номер телефона',
    company: 'Название организации',
    submit: 'Отправить заявку',
    required: 'Обязательные поля отмечены звёздочкой',
  },
  modal: {
    title: 'Попробуйте SmartConnect бесплатно',
    lead: 'Оставьте свои данные, и мы свяжемся с вами, чтобы начать 7-дневный пробный период.',
    close: 'Закрыть',
    successTitle: 'Заявка успешно создана!',
    successText: 'Мы скоро с вами свяжемся',
    signup: 'Хотите начать сразу? Зарегистрируйтесь сами',
  },
  footer: {
    address: 'ООО «СмартКоннект», 123112, Россия, Москва, Пресненская набережная, 12',
    addressLabel: 'Адрес',
    email: 'sales@smartconnect.example',
    rights: 'SmartConnect. Омниканальный чат с клиентами для бизнеса.',
  },
  errors: {
    phoneIncorrect: 'Номер телефона указан некорректно',
    nameIncorrect: 'Имя указано некорректно',
    organisationNameIncorrect: 'Название организации указано некорректно',
    tooMany: 'Слишком много запросов. Попробуйте позже',
    unknown: 'Неизвестная ошибка. Попробуйте ещё раз',
    sending: 'Отправка…',
  },
};

export type LandingLanguage = 'eng' | 'rus';
export const LANDING_TEXTS: Record<LandingLanguage, LandingTexts> = { eng: en, rus: ru };
