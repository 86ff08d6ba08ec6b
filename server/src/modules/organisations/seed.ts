import { randomBytes } from 'node:crypto';
import { PLAN_OPTIONS } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import { hashPassword } from '../../lib/password.ts';
import { createCategory } from '../categories/service.ts';
import { seedChannel } from '../channels/service.ts';
import { addKbArticles } from '../knowledge-base/service.ts';
import { seedSupportChannel } from '../support/service.ts';
import { addTeam } from '../teams/service.ts';
import { addTemplates } from '../templates/service.ts';
import { addUser } from '../users/service.ts';
import { countOrganisations, insertOrganisation } from './queries.ts';

/** A password that meets §5: upper and lower case, a digit and a special character. */
export function generatePassword(): string {
  return `Sc-${randomBytes(9).toString('base64url').replace(/[-_]/g, 'x')}7!`;
}

type SeedCategory = { name: string; teams?: ('sales' | 'support')[]; children?: SeedCategory[] };

/**
 * Request categories of the Demo organisation (DECISIONS.md: seeded in both languages), in the three levels of §3:
 * category -> theme -> subtheme. A category has one name for every user of the organisation, and its users may work
 * in English or Russian, so each name carries both. 'Order' is for Sales only, 'Technical problem' for Support only.
 */
export const DEMO_CATEGORY_TREE: SeedCategory[] = [
  {
    name: 'Question / Вопрос',
    children: [
      {
        name: 'Prices and payment / Цены и оплата',
        children: [{ name: 'Discounts / Скидки' }, { name: 'Payment methods / Способы оплаты' }],
      },
      {
        name: 'Delivery / Доставка',
        children: [
          { name: 'Delivery time / Сроки доставки' },
          { name: 'Delivery cost / Стоимость доставки' },
        ],
      },
    ],
  },
  {
    name: 'Order / Заказ',
    teams: ['sales'],
    children: [
      {
        name: 'New order / Новый заказ',
        children: [{ name: 'Online / На сайте' }, { name: 'By phone / По телефону' }],
      },
      {
        name: 'Change or cancel / Изменение или отмена',
        children: [{ name: 'Change / Изменение' }, { name: 'Cancellation / Отмена' }],
      },
    ],
  },
  {
    name: 'Complaint / Жалоба',
    children: [
      {
        name: 'Product quality / Качество товара',
        children: [{ name: 'Defect / Брак' }, { name: 'Wrong item / Не тот товар' }],
      },
      {
        name: 'Service / Обслуживание',
        children: [{ name: 'Late delivery / Опоздание доставки' }, { name: 'Operator / Работа оператора' }],
      },
    ],
  },
  {
    name: 'Technical problem / Техническая проблема',
    teams: ['support'],
    children: [
      {
        name: 'Website / Сайт',
        children: [{ name: 'Sign-in / Вход' }, { name: 'Payment error / Ошибка оплаты' }],
      },
      {
        name: 'Mobile app / Мобильное приложение',
        children: [{ name: 'Installation / Установка' }, { name: 'Crash / Сбой' }],
      },
    ],
  },
  { name: 'Other / Другое' },
];
/** The top categories' names. */
export const DEMO_CATEGORIES = DEMO_CATEGORY_TREE.map((c) => c.name);

/**
 * Quick-reply templates of the Demo organisation (DECISIONS.md: seeded in both languages): an English and a Russian
 * category for each team, with variables ({client_name}, {operator_name}, {channel}, {date}) filled at insertion.
 */
export const DEMO_TEMPLATES = (teams: { sales: string; support: string }) => [
  {
    name: 'Greetings',
    teamIds: [teams.sales, teams.support],
    templates: [
      'Hello, {client_name}! My name is {operator_name}, how can I help you?',
      'Thank you for contacting us through {channel}. Have a nice day!',
    ],
  },
  {
    name: 'Приветствия',
    teamIds: [teams.sales, teams.support],
    templates: [
      'Здравствуйте, {client_name}! Меня зовут {operator_name}, чем могу помочь?',
      'Спасибо, что написали нам в {channel}. Хорошего дня!',
    ],
  },
  {
    name: 'Orders / Заказы',
    teamIds: [teams.sales],
    templates: [
      'Your order is confirmed on {date}. We will let you know when it ships.',
      'Ваш заказ подтверждён {date}. Мы сообщим, когда он будет отправлен.',
    ],
  },
  {
    name: 'Support / Поддержка',
    teamIds: [teams.support],
    templates: [
      'Could you describe the problem in more detail, {client_name}?',
      'Опишите, пожалуйста, проблему подробнее, {client_name}.',
    ],
  },
];

/**
 * Knowledge-base articles of the Demo organisation, in English and Russian: for both teams, the shop's delivery and
 * payment (public pages, to send as links); for Support, returns (inside only).
 */
export const DEMO_ARTICLES = (teams: { sales: string; support: string }) => [
  {
    name: 'Delivery and payment',
    teamIds: [teams.sales, teams.support],
    articles: [
      {
        title: 'Delivery times',
        body:
          'Orders placed before 14:00 leave the warehouse the same day.\n\n' +
          'Courier delivery in the city takes 1–2 days, to other regions 3–7 days. ' +
          'The client gets a tracking link by SMS when the parcel leaves.',
        public: true,
      },
      {
        title: 'Payment methods',
        body:
          'We accept bank cards, SBP (fast payments) and cash or card to the courier.\n\n' +
          'Companies can pay by invoice: ask the client for their company name and tax number (INN).',
        public: true,
      },
    ],
  },
  {
    name: 'Доставка и оплата',
    teamIds: [teams.sales, teams.support],
    articles: [
      {
        title: 'Сроки доставки',
        body:
          'Заказы, оформленные до 14:00, уходят со склада в тот же день.\n\n' +
          'Курьером по городу — 1–2 дня, в другие регионы — 3–7 дней. ' +
          'Когда посылка отправлена, клиент получает SMS со ссылкой для отслеживания.',
        public: true,
      },
      {
        title: 'Способы оплаты',
        body:
          'Принимаем банковские карты, СБП, а также наличные или карту курьеру.\n\n' +
          'Организации могут оплатить по счёту: уточните у клиента название компании и ИНН.',
        public: true,
      },
    ],
  },
  {
    name: 'Returns / Возвраты',
    teamIds: [teams.support],
    articles: [
      {
        title: 'Returns within 14 days',
        body:
          'A client may return an item within 14 days of receiving it if it was not used and has its packaging.\n\n' +
          'Create a return in the back office, send the client the return label, and refund within 10 days of ' +
          'receiving the item.',
        public: false,
      },
      {
        title: 'Возврат в течение 14 дней',
        body:
          'Клиент может вернуть товар в течение 14 дней после получения, если он не был в использовании и ' +
          'сохранена упаковка.\n\nОформите возврат в бэк-офисе, отправьте клиенту ярлык для возврата и верните ' +
          'деньги в течение 10 дней после получения товара.',
        public: false,
      },
    ],
  },
];

/**
 * First start on an empty database: the "Demo" organisation with an Administrator, a Supervisor,
 * two Operators, two teams, a website chat channel to try (Sales) and the request categories (OPTION_CATEGORY is on, so a chat cannot close
 * without one), and the platform's own organisation with one staff account (RIGHT_OBSERVER).
 * Their passwords are printed once. Later starts change nothing.
 */
export async function seedDemo(app: AppContext): Promise<void> {
  const people = [
    {
      key: 'ADMINISTRATOR',
      name: 'Demo Administrator',
      email: app.config.adminEmail ?? 'admin@demo.local',
      teams: [],
    },
    {
      key: 'SUPERVISOR',
      name: 'Sofia Supervisor',
      email: 'supervisor@demo.local',
      teams: ['sales', 'support'],
    },
    { key: 'OPERATOR', name: 'Oleg Operator', email: 'operator1@demo.local', teams: ['sales'] },
    { key: 'OPERATOR', name: 'Olga Operator', email: 'operator2@demo.local', teams: ['support'] },
  ] as const;
  // An ADMIN_EMAIL that is also one of the demo staff's addresses takes that address: the other person is left out.
  const credentials = people
    .filter((p, i) => i === 0 || p.email !== people[0].email)
    .map((p, i) => ({
      ...p,
      password: i === 0 && app.config.adminPassword ? app.config.adminPassword : generatePassword(),
    }));
  // Platform staff (RIGHT_OBSERVER) in the platform's own organisation, unless ADMIN_EMAIL took the address.
  const staffEmail = 'staff@smartconnect.local';
  const staff =
    credentials[0].email === staffEmail
      ? null
      : { key: 'PLATFORM', email: staffEmail, password: generatePassword() };
  const hashes = await Promise.all(credentials.map((c) => hashPassword(c.password)));
  const staffHash = staff ? await hashPassword(staff.password) : '';
  const seeded = await app.db.tx(async (q) => {
    if (app.db.kind === 'postgres') await q.query('select pg_advisory_xact_lock(4242002)');
    if ((await countOrganisations(q)) > 0) return null;
    const org = await insertOrganisation(q, {
      login: 'demo',
      name: 'Demo',
      adminEmail: credentials[0].email,
      options: [...PLAN_OPTIONS],
      demoPaymentPage: true,
    });
    const sales = await addTeam(q, org.id, {
      name: 'Sales',
      description: 'New customers and orders',
      distributionMethod: 'round_robin',
      dialogLimit: 10,
    });
    const support = await addTeam(q, org.id, {
      name: 'Support',
      description: 'Questions of existing customers',
      distributionMethod: 'least_loaded',
      dialogLimit: 10,
      autoCloseMinutes: 24 * 60,
    });
    const teamIds = { sales, support };
    await addTemplates(q, org.id, DEMO_TEMPLATES(teamIds));
    await addKbArticles(q, org.id, DEMO_ARTICLES(teamIds));
    // A channel to try at once: the website chat of the Demo shop, on a sample page (/widget-preview/{id}).
    const siteChatId = await seedChannel(app, q, {
      organisationId: org.id,
      type: 'site_chat',
      name: 'Website chat',
      teamId: sales,
      settings: {
        title: 'Demo shop',
        subtitle: 'We usually answer within minutes',
        welcomeMessage: 'Hello! Ask us anything about your order.',
        display: 'closed',
      },
    });
    for (const [i, c] of credentials.entries()) {
      await addUser(q, {
        organisationId: org.id,
        roleId: org.roles[c.key],
        name: c.name,
        email: c.email,
        phone: null,
        passwordHash: hashes[i],
        breakTimeoutMinutes: c.key === 'OPERATOR' ? 15 : null,
        language: 'eng',
        active: true,
        teamIds: c.teams.map((t) => teamIds[t]),
      });
    }
    if (staff) {
      // The platform's own organisation: its Administrator holds RIGHT_OBSERVER (plans, licences, companies).
      const platform = await insertOrganisation(q, {
        login: 'platform',
        name: 'SmartConnect',
        adminEmail: staff.email,
        options: [...PLAN_OPTIONS],
        isPlatform: true,
      });
      await addUser(q, {
        organisationId: platform.id,
        roleId: platform.roles.ADMINISTRATOR,
        name: 'Platform Staff',
        email: staff.email,
        phone: null,
        passwordHash: staffHash,
        breakTimeoutMinutes: null,
        language: 'eng',
        active: true,
        teamIds: [],
      });
    }
    return { orgId: org.id, siteChatId, teamIds };
  });
  if (!seeded) return;
  // Through the categories' own command (it opens its own transaction), right after the organisation
  // exists; only the start that created Demo gets here.
  const plant = async (nodes: SeedCategory[], parentId: string | null) => {
    for (const n of nodes) {
      const teamIds = (n.teams ?? []).map((t) => seeded.teamIds[t]);
      const created = await createCategory(app, null, seeded.orgId, { name: n.name, parentId, teamIds });
      await plant(n.children ?? [], created.id);
    }
  };
  await plant(DEMO_CATEGORY_TREE, null);
  await seedSupportChannel(app);
  const lines = [...credentials, ...(staff ? [staff] : [])].map(
    (c) => `  ${c.key.padEnd(13)} ${c.email.padEnd(26)} ${c.password}`,
  );
  // Printed once, on the console, so the person who started the server can log in.
  console.log(
    `\nDemo organisation created. Sign in at ${app.config.publicUrl} with:\n${lines.join('\n')}\n` +
      `Try its website chat as a visitor: ${app.config.publicUrl}/widget-preview/${seeded.siteChatId}\n`,
  );
}
