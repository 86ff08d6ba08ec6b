/**
 * The public landing page (§2.2): its own light entry, no React, no UI library, so it is interactive after a few
 * kilobytes of script. It renders every section in the `sc-lang` language, sends the short form, the long form and
 * the trial modal to POST /api/landing-requests and shows the spec's field errors.
 */
import './landing.css';
import {
  FIELD_MESSAGES,
  isLandingPhone,
  LANDING_LIMITS,
  type LandingForm,
} from '@smartconnect/contracts/constants';
import { LANDING_TEXTS, type LandingLanguage, type LandingTexts } from './texts.ts';

const LANG_KEY = 'sc-lang';
type Attrs = Record<string, string | boolean | undefined>;
type Child = Node | string | null | undefined | false;

/** A small element builder: tag, attributes (false/undefined omitted), children. */
function h(tag: string, attrs: Attrs = {}, ...children: (Child | Child[])[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === undefined) continue;
    el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c) el.append(c);
  return el;
}

function storedLanguage(): LandingLanguage {
  try {
    return localStorage.getItem(LANG_KEY) === 'rus' ? 'rus' : 'eng';
  } catch {
    return 'eng';
  }
}

let lang = storedLanguage();
let t: LandingTexts = LANDING_TEXTS[lang];
/** Which control opened the modal, to give the focus back when it closes. */
let opener: HTMLElement | null = null;

const FIELD_KEYS: Record<string, keyof LandingTexts['errors']> = {
  [FIELD_MESSAGES.phoneIncorrect]: 'phoneIncorrect',
  [FIELD_MESSAGES.nameIncorrect]: 'nameIncorrect',
  [FIELD_MESSAGES.organisationNameIncorrect]: 'organisationNameIncorrect',
};

type FieldName = 'name' | 'phone' | 'company';
const fieldLabel = (f: FieldName) =>
  f === 'name' ? t.long.name : f === 'phone' ? t.long.phone : t.long.company;

/** One labelled input with its error line (aria-describedby, aria-invalid). */
function field(form: string, name: FieldName, label = fieldLabel(name)): HTMLElement {
  const id = `${form}-${name}`;
  const input = h('input', {
    id,
    name,
    type: name === 'phone' ? 'tel' : 'text',
    autocomplete: name === 'phone' ? 'tel' : name === 'name' ? 'name' : 'organization',
    inputmode: name === 'phone' ? 'tel' : undefined,
    placeholder: name === 'phone' ? t.short.placeholder : undefined,
    maxlength:
      name === 'phone' ? '40' : String(name === 'name' ? LANDING_LIMITS.name : LANDING_LIMITS.company),
    required: true,
    'aria-required': 'true',
    'aria-describedby': `${id}-error`,
  });
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label, h('span', { class: 'req', 'aria-hidden': 'true' }, ' *')),
    input,
    h('p', { class: 'error', id: `${id}-error`, 'aria-live': 'polite' }),
  );
}

/** The honeypot: off-screen, out of the tab order and hidden from assistive technology; people leave it empty. */
const honeypot = (form: string) =>
  h(
    'div',
    { class: 'hp', 'aria-hidden': 'true' },
    h('label', { for: `${form}-website` }, 'Website'),
    h('input', { id: `${form}-website`, name: 'website', type: 'text', tabindex: '-1', autocomplete: 'off' }),
  );

function setError(form: HTMLFormElement, name: string, message: string | null) {
  const input = form.elements.namedItem(name) as HTMLInputElement | null;
  if (!input) return;
  const line = document.getElementById(`${input.id}-error`);
  if (line) line.textContent = message ?? '';
  if (message) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
}

function validate(form: HTMLFormElement, kind: LandingForm): Record<string, string> {
  const value = (n: string) => ((form.elements.namedItem(n) as HTMLInputElement | null)?.value ?? '').trim();
  const errors: Record<string, string> = {};
  if (kind !== 'short') {
    if (!value('name') || value('name').length > LANDING_LIMITS.name) errors.name = t.errors.nameIncorrect;
  }
  if (!isLandingPhone(value('phone'))) errors.phone = t.errors.phoneIncorrect;
  if (kind !== 'short') {
    if (!value('company') || value('company').length > LANDING_LIMITS.company)
      errors.company = t.errors.organisationNameIncorrect;
  }
  return errors;
}

/** Sends a form; on success calls done, on field errors shows them, else a form-level message. */
function wire(form: HTMLFormElement, kind: LandingForm, done: () => void) {
  form.noValidate = true;
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const status = form.querySelector<HTMLElement>('.form-status');
    const button = form.querySelector<HTMLButtonElement>('button[type=submit]');
    if (!status || !button) return;
    status.textContent = '';
    for (const n of ['name', 'phone', 'company']) setError(form, n, null);
    const errors = validate(form, kind);
    const first = Object.keys(errors)[0];
    if (first) {
      for (const [n, m] of Object.entries(errors)) setError(form, n, m);
      (form.elements.namedItem(first) as HTMLInputElement).focus();
      return;
    }
    const data = new FormData(form);
    const body: Record<string, string> = {
      form: kind,
      language: lang,
      phone: String(data.get('phone') ?? ''),
    };
    if (kind !== 'short') {
      body.name = String(data.get('name') ?? '');
      body.company = String(data.get('company') ?? '');
    }
    const website = String(data.get('website') ?? '');
    if (website) body.website = website;
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
    const label = button.textContent;
    button.textContent = t.errors.sending;
    try {
      const res = await fetch('/api/landing-requests', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.ok) {
        form.reset();
        done();
        return;
      }
      const answer = (await res.json().catch(() => null)) as {
        code?: string;
        error?: { fields?: Record<string, string> };
      } | null;
      const fields = answer?.error?.fields ?? {};
      const named = Object.entries(fields).filter(([n]) => form.elements.namedItem(n));
      if (res.status === 400 && named.length) {
        for (const [n, m] of named) setError(form, n, t.errors[FIELD_KEYS[m] ?? 'phoneIncorrect']);
        (form.elements.namedItem(named[0]?.[0] ?? 'phone') as HTMLInputElement).focus();
      } else {
        status.textContent = res.status === 429 ? t.errors.tooMany : t.errors.unknown;
      }
    } catch {
      status.textContent = t.errors.unknown;
    } finally {
      button.disabled = false;
      button.removeAttribute('aria-busy');
      button.textContent = label;
    }
  });
}

const section = (id: string, title: string, ...body: (Child | Child[])[]) =>
  h(
    'section',
    { id, class: 'section', 'aria-labelledby': `${id}-title` },
    h('div', { class: 'wrap' }, h('h2', { id: `${id}-title` }, title), ...body),
  );
const cards = (items: { title: string; text: string }[], cls = 'cards') =>
  h(
    'ul',
    { class: cls },
    items.map((i) => h('li', { class: 'card' }, h('h3', {}, i.title), h('p', {}, i.text))),
  );

function openModal(from: HTMLElement) {
  opener = from;
  const dialog = document.getElementById('trial') as HTMLDialogElement;
  dialog.querySelector('.modal-form')?.removeAttribute('hidden');
  dialog.querySelector('.modal-success')?.setAttribute('hidden', '');
  dialog.showModal();
  dialog.querySelector<HTMLInputElement>('input[name=name]')?.focus();
}

function render() {
  document.documentElement.lang = lang === 'rus' ? 'ru' : 'en';
  document.title = t.meta.title;
  document.querySelector('meta[name=description]')?.setAttribute('content', t.meta.description);
  const tryButton = (text: string, cls: string) => {
    const b = h('button', { type: 'button', class: cls }, text);
    b.addEventListener('click', () => openModal(b));
    return b;
  };
  const langButton = h('button', { type: 'button', class: 'link lang', lang: lang === 'rus' ? 'en' : 'ru' });
  langButton.append(
    h('span', { 'aria-hidden': 'true' }, t.nav.language),
    h('span', { class: 'sr' }, t.nav.languageLabel),
  );
  langButton.addEventListener('click', () => {
    lang = lang === 'rus' ? 'eng' : 'rus';
    t = LANDING_TEXTS[lang];
    try {
      localStorage.setItem(LANG_KEY, lang);
    } catch {}
    render();
    document.querySelector<HTMLElement>('.lang')?.focus();
  });

  const nav: [string, string][] = [
    ['about', t.nav.about],
    ['benefits', t.nav.benefits],
    ['dialogs', t.nav.features],
    ['routing', t.nav.routing],
    ['roles', t.nav.roles],
    ['advantages', t.nav.more],
  ];
  const header = h(
    'header',
    { class: 'top' },
    h(
      'div',
      { class: 'wrap top-row' },
      h(
        'a',
        { class: 'brand', href: '#main' },
        h('span', { class: 'logo', 'aria-hidden': 'true' }),
        'SmartConnect',
      ),
      h(
        'nav',
        { 'aria-label': t.nav.label, class: 'nav' },
        h(
          'ul',
          {},
          nav.map(([id, text]) => h('li', {}, h('a', { href: `#${id}` }, text))),
        ),
      ),
      h(
        'div',
        { class: 'actions' },
        langButton,
        h('a', { class: 'button ghost', href: '/' }, t.nav.signIn),
        tryButton(t.nav.try, 'button'),
      ),
    ),
  );

  const shortForm = h('form', { class: 'short', 'aria-labelledby': 'short-title' }) as HTMLFormElement;
  shortForm.append(
    h('p', { id: 'short-title', class: 'short-title' }, t.short.title),
    h(
      'div',
      { class: 'short-row' },
      field('short', 'phone', t.short.label),
      h('button', { type: 'submit', class: 'button' }, t.short.submit),
    ),
    honeypot('short'),
    h('p', { class: 'form-status', role: 'status' }),
  );

  const p = t.hero.preview;
  const hero = h(
    'section',
    { class: 'hero', 'aria-labelledby': 'hero-title' },
    h(
      'div',
      { class: 'wrap hero-grid' },
      h(
        'div',
        {},
        h('h1', { id: 'hero-title' }, t.hero.title),
        h('p', { class: 'lead' }, t.hero.lead),
        h(
          'div',
          { class: 'cta' },
          tryButton(t.hero.cta, 'button big'),
          h('span', { class: 'note' }, t.hero.note),
          h('a', { href: '/signup', 'data-testid': 'landing-signup' }, t.hero.signup),
        ),
        shortForm,
      ),
      h(
        'figure',
        { class: 'preview' },
        h('figcaption', { class: 'sr' }, p.label),
        h('div', { class: 'bubble client' }, p.client),
        h('div', { class: 'bubble operator' }, p.operator),
        h('p', { class: 'meta' }, p.channel),
        h(
          'ul',
          { class: 'chips' },
          t.hero.channels.map((c) => h('li', {}, c)),
        ),
      ),
    ),
  );

  const longForm = h('form', { class: 'long', 'aria-labelledby': 'request-title' }) as HTMLFormElement;
  longForm.append(
    h('p', { class: 'hint' }, t.long.required),
    field('long', 'name'),
    field('long', 'phone'),
    field('long', 'company'),
    honeypot('long'),
    h('button', { type: 'submit', class: 'button big' }, t.long.submit),
    h('p', { class: 'form-status', role: 'status' }),
  );

  const main = h(
    'main',
    { id: 'main', tabindex: '-1' },
    hero,
    section(
      'about',
      t.about.title,
      t.about.text.map((x) => h('p', { class: 'text' }, x)),
    ),
    section('benefits', t.benefits.title, cards(t.benefits.items)),
    section(
      'dialogs',
      t.dialog.title,
      h(
        'div',
        { class: 'two' },
        [t.dialog.marketing, t.dialog.service].map((g) =>
          h(
            'div',
            { class: 'card' },
            h('h3', {}, g.title),
            h(
              'ul',
              { class: 'ticks' },
              g.items.map((i) => h('li', {}, i)),
            ),
          ),
        ),
      ),
      cards(t.dialog.features),
    ),
    section(
      'routing',
      t.routing.title,
      h('p', { class: 'text' }, t.routing.text),
      h(
        'ol',
        { class: 'steps' },
        t.routing.steps.map((s) => h('li', {}, s)),
      ),
    ),
    section('roles', t.roles.title, cards(t.roles.items), h('p', { class: 'text' }, t.roles.custom)),
    section('advantages', t.other.title, cards(t.other.items)),
    section('request', t.long.title, h('p', { class: 'text' }, t.long.lead), longForm),
  );

  const footer = h(
    'footer',
    { class: 'foot' },
    h(
      'div',
      { class: 'wrap' },
      h('p', { class: 'brand' }, h('span', { class: 'logo', 'aria-hidden': 'true' }), 'SmartConnect'),
      h('p', {}, t.footer.rights),
      h(
        'address',
        {},
        h('span', { class: 'sr' }, `${t.footer.addressLabel}: `),
        t.footer.address,
        h('br'),
        h('a', { href: `mailto:${t.footer.email}` }, t.footer.email),
      ),
      h('p', {}, `© ${new Date().getFullYear()} SmartConnect`),
    ),
  );

  const modalForm = h('form', {
    class: 'modal-form long',
    method: 'dialog',
    'aria-describedby': 'trial-lead',
  }) as HTMLFormElement;
  modalForm.append(
    h('p', { id: 'trial-lead', class: 'text' }, t.modal.lead),
    h('p', { class: 'text' }, h('a', { href: '/signup' }, t.modal.signup)),
    h('p', { class: 'hint' }, t.long.required),
    field('modal', 'name'),
    field('modal', 'phone'),
    field('modal', 'company'),
    honeypot('modal'),
    h('button', { type: 'submit', class: 'button big' }, t.long.submit),
    h('p', { class: 'form-status', role: 'status' }),
  );
  const closeButton = h('button', { type: 'button', class: 'close', 'aria-label': t.modal.close }, '×');
  const doneButton = h('button', { type: 'button', class: 'button' }, t.modal.close);
  const success = h(
    'div',
    { class: 'modal-success', hidden: true, role: 'status' },
    h('div', { class: 'tick', 'aria-hidden': 'true' }, '✓'),
    h('p', { class: 'success-title' }, t.modal.successTitle),
    h('p', {}, t.modal.successText),
    doneButton,
  );
  const dialog = h(
    'dialog',
    { id: 'trial', class: 'modal', 'aria-labelledby': 'trial-title' },
    h('div', { class: 'modal-head' }, h('h2', { id: 'trial-title' }, t.modal.title), closeButton),
    modalForm,
    success,
  ) as HTMLDialogElement;
  // The focus goes back at once on a button's close; Escape closes through the dialog's own (queued) close event.
  const close = () => {
    dialog.close();
    opener?.focus();
  };
  closeButton.addEventListener('click', close);
  doneButton.addEventListener('click', close);
  dialog.addEventListener('close', () => opener?.focus());
  dialog.addEventListener('click', (e) => {
    if (e.target === dialog) close();
  });
  wire(modalForm, 'modal', () => {
    modalForm.setAttribute('hidden', '');
    success.removeAttribute('hidden');
    doneButton.focus();
  });
  // The short and the long form end in the modal's success state too (§4: a landing request goes to success).
  for (const [form, kind] of [
    [shortForm, 'short'],
    [longForm, 'long'],
  ] as const)
    wire(form, kind, () => {
      opener = form.querySelector('button[type=submit]');
      modalForm.setAttribute('hidden', '');
      success.removeAttribute('hidden');
      dialog.showModal();
      doneButton.focus();
    });

  const skip = h('a', { class: 'skip', href: '#main' }, t.nav.skip);
  const root = document.getElementById('landing');
  root?.replaceChildren(skip, header, main, footer, dialog);
}

render();
