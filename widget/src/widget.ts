import type { WidgetConfigDto, WidgetMessageDto } from '@smartconnect/contracts';
import { CallError, ChatApi, Live, type Profile, type Rating } from './api.ts';
import { beep, h, ICONS, icon, randomId } from './dom.ts';
import { pageLanguage, type Texts, textsFor } from './i18n.ts';
import { STYLES } from './styles.ts';

export type WidgetOptions = {
  base: string;
  channelId: string;
  /** A visitor token given by the page (the support chat of a signed-in user); otherwise kept in localStorage. */
  token?: string;
  /** Rendered inside this element, always open, without a launcher. */
  inline?: HTMLElement;
};

type Shown = WidgetMessageDto & { pending?: boolean; failed?: boolean; clientMessageId?: string };

/** One widget on the page: a launcher and a panel in a shadow root. */
export class Widget {
  readonly host: HTMLElement;
  private readonly root: ShadowRoot;
  private readonly api: ChatApi;
  private t: Texts = textsFor(pageLanguage());
  private config: WidgetConfigDto | null = null;
  private messages = new Map<string, Shown>();
  private open = false;
  private unread = 0;
  private rating: Rating = null;
  private ratingNote = '';
  private live: Live | null = null;
  private files: File[] = [];
  /** When the visitor last told the operators they were typing, and until when the operator's typing shows. */
  private typedAt = 0;
  private typingTimer: ReturnType<typeof setTimeout> | undefined;
  /** The introduction the visitor gave; `pending` until the server has it (they had not written yet). */
  private profile: Profile & { pending?: boolean } = {};
  private els!: {
    launcher: HTMLButtonElement;
    badge: HTMLSpanElement;
    teaser: HTMLButtonElement;
    panel: HTMLDivElement;
    log: HTMLDivElement;
    textarea: HTMLTextAreaElement;
    err: HTMLDivElement;
    state: HTMLDivElement;
    head: HTMLDivElement;
    links: HTMLDivElement;
    file: HTMLInputElement;
    typing: HTMLDivElement;
    intro: HTMLDivElement;
  };
  private readonly storeKey: string;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly opts: WidgetOptions) {
    this.api = new ChatApi(opts.base, opts.channelId);
    this.storeKey = `sc-widget:${opts.channelId}`;
    this.host = document.createElement('smartconnect-chat');
    if (opts.inline) this.host.setAttribute('data-inline', '');
    this.root = this.host.attachShadow({ mode: 'open' });
    this.root.append(h('style', {}, STYLES));
    this.build();
    (opts.inline ?? document.body).append(this.host);
  }

  private build(): void {
    const t = this.t;
    const badge = h('span', { class: 'badge', hidden: true });
    const launcher = h(
      'button',
      { class: 'launcher', type: 'button', 'aria-label': t.open, 'aria-expanded': 'false' },
      icon(ICONS.chat),
      badge,
    );
    launcher.onclick = () => this.toggle(!this.open);
    const teaser = h('button', { class: 'teaser', type: 'button', hidden: true });
    teaser.onclick = () => this.toggle(true);
    const head = h('div', { class: 'head' });
    const links = h('div', { class: 'links', hidden: true });
    const log = h('div', {
      class: 'log',
      role: 'log',
      'aria-live': 'polite',
      'aria-label': t.messages,
      tabindex: '0',
    });
    const state = h('div', { class: 'state', role: 'status' });
    const err = h('div', { class: 'err', role: 'alert' });
    const textarea = h('textarea', { rows: '1', 'aria-label': t.message, placeholder: t.placeholder });
    textarea.onkeydown = (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        void this.submit();
      }
    };
    textarea.oninput = () => {
      textarea.style.height = 'auto';
      textarea.style.height = `${Math.min(textarea.scrollHeight, 120)}px`;
      this.checkLength();
      // At most every 3 s; a keystroke while the socket is down does not count, so the next one tries again.
      if (Date.now() - this.typedAt > 3_000 && this.live?.typing()) this.typedAt = Date.now();
    };
    const file = h('input', { type: 'file', tabindex: '-1', 'aria-hidden': 'true' });
    file.onchange = () => {
      this.files = [...(file.files ?? [])].slice(0, 5);
      file.value = '';
      if (this.files.length) void this.submit();
    };
    const attach = h(
      'button',
      { class: 'icon', type: 'button', 'aria-label': t.attach, title: t.attach },
      icon(ICONS.clip),
    );
    attach.onclick = () => file.click();
    const send = h(
      'button',
      { class: 'icon send', type: 'submit', 'aria-label': t.send, title: t.send },
      icon(ICONS.send),
    );
    const form = h('form', {}, attach, file, textarea, send);
    form.onsubmit = (e) => {
      e.preventDefault();
      void this.submit();
    };
    const typing = h('div', { class: 'typing', role: 'status' });
    const intro = h('div', { class: 'intro', hidden: true });
    const panel = h(
      'div',
      { class: 'panel', role: 'dialog', 'aria-label': t.title, hidden: true },
      head,
      links,
      intro,
      log,
      typing,
      state,
      err,
      form,
    );
    this.root.append(panel, teaser);
    if (!this.opts.inline) this.root.append(launcher);
    this.els = {
      launcher,
      badge,
      teaser,
      panel,
      log,
      textarea,
      err,
      state,
      head,
      links,
      file,
      typing,
      intro,
    };
  }

  async start(): Promise<void> {
    try {
      this.config = await this.api.config();
    } catch {
      return;
    }
    this.profile = this.storedProfile();
    this.applyConfig();
    this.api.token = this.opts.token ?? this.stored();
    if (this.opts.inline || this.config.display === 'open') this.toggle(true);
    if (this.api.token) await this.connect();
    // Settings changed by the organisation reach an open widget without a reload.
    this.timer = setInterval(() => {
      this.api
        .config()
        .then((c) => {
          this.config = c;
          this.applyConfig();
        })
        .catch(() => undefined);
    }, 60_000);
    // Another tab of the same visitor wrote: its messages show here too.
    window.addEventListener('storage', (e) => {
      if (e.key === this.storeKey && !this.api.token && this.stored()) {
        this.api.token = this.stored();
        void this.connect();
      }
    });
  }

  private stored(): string | null {
    try {
      return localStorage.getItem(this.storeKey);
    } catch {
      return null;
    }
  }

  private storedProfile(): Profile & { pending?: boolean } {
    try {
      return JSON.parse(localStorage.getItem(`${this.storeKey}:profile`) ?? '{}') ?? {};
    } catch {
      return {};
    }
  }

  private keepProfile(): void {
    try {
      localStorage.setItem(`${this.storeKey}:profile`, JSON.stringify(this.profile));
    } catch {}
  }

  /** The optional introduction (name, e-mail, phone): a toggle that opens a small form; not for support visitors. */
  private renderIntro(): void {
    const t = this.t;
    const box = this.els.intro;
    box.hidden = !this.config || this.config.support || !!this.opts.token;
    if (box.hidden) return;
    const given = !!(this.profile.name || this.profile.email || this.profile.phone);
    const toggle = h(
      'button',
      { class: 'link', type: 'button', 'aria-expanded': 'false' },
      given ? `✓ ${t.saved}` : t.introduce,
    );
    const field = (name: keyof Profile, label: string, type: string, auto: string) => {
      const input = h('input', {
        name,
        type,
        autocomplete: auto,
        maxlength: name === 'email' ? '254' : name === 'phone' ? '32' : '64',
      });
      input.value = this.profile[name] ?? '';
      return { input, row: h('label', {}, h('span', {}, label), input) };
    };
    const name = field('name', t.name, 'text', 'name');
    const email = field('email', t.email, 'email', 'email');
    const phone = field('phone', t.phone, 'tel', 'tel');
    const note = h('p', { class: 'hint' }, t.introHint);
    const problem = h('p', { class: 'bad', role: 'alert' });
    const save = h('button', { type: 'submit', class: 'save' }, t.save);
    const form = h(
      'form',
      { class: 'introform', hidden: true, novalidate: true },
      note,
      name.row,
      email.row,
      phone.row,
      problem,
      save,
    );
    toggle.onclick = () => {
      form.hidden = !form.hidden;
      toggle.setAttribute('aria-expanded', String(!form.hidden));
      if (!form.hidden) name.input.focus();
    };
    form.onsubmit = (e) => {
      e.preventDefault();
      const p = {
        name: name.input.value.trim(),
        email: email.input.value.trim(),
        phone: phone.input.value.trim(),
      };
      if (p.email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(p.email)) problem.textContent = t.badEmail;
      else if (p.phone && !/^\+?[0-9 ()-]{5,32}$/.test(p.phone)) problem.textContent = t.badPhone;
      else {
        this.profile = { ...p, pending: true };
        this.keepProfile();
        void this.sendProfile();
        this.renderIntro();
        this.els.textarea.focus();
      }
    };
    box.replaceChildren(toggle, form);
  }

  /** Hands the introduction to the server once the visitor has written (before that there is no one to attach it to). */
  private async sendProfile(): Promise<void> {
    if (!this.profile.pending || !this.api.token) return;
    const { pending: _, ...p } = this.profile;
    try {
      await this.api.profile(p);
      this.profile = p;
      this.keepProfile();
    } catch {}
  }

  private showTyping(name: string | null): void {
    this.els.typing.textContent = this.t.typing(name);
    clearTimeout(this.typingTimer);
    this.typingTimer = setTimeout(() => {
      this.els.typing.textContent = '';
    }, 6_000);
  }

  private applyConfig(): void {
    const c = this.config;
    if (!c) return;
    const t = this.t;
    const title = c.title || t.title;
    this.els.panel.setAttribute('aria-label', title);
    const close = h('button', { class: 'x', type: 'button', 'aria-label': t.close }, '×');
    close.onclick = () => this.toggle(false);
    this.els.head.replaceChildren(
      c.logo ? h('img', { src: c.logo, alt: '' }) : '',
      h('div', { class: 't' }, h('h2', {}, title), c.subtitle ? h('p', {}, c.subtitle) : ''),
      this.opts.inline ? '' : close,
    );
    this.els.links.hidden = !c.channelList.length;
    this.els.links.replaceChildren(
      h('span', {}, t.otherChannels),
      ...c.channelList.map((l) =>
        h('a', { href: l.url, target: '_blank', rel: 'noopener noreferrer' }, l.name),
      ),
    );
    this.els.teaser.textContent = c.initialTitle || title;
    this.els.teaser.hidden = !(c.display === 'initial' && !this.open && !this.opts.inline);
    this.els.textarea.maxLength = c.limits.textMax;
    this.els.textarea.disabled = !c.active;
    this.els.state.textContent = c.active ? '' : t.inactive;
    this.renderIntro();
    this.render();
  }

  private toggle(open: boolean): void {
    this.open = open;
    this.els.panel.hidden = !open;
    this.els.teaser.hidden = true;
    this.els.launcher.setAttribute('aria-expanded', String(open));
    this.els.launcher.setAttribute('aria-label', open ? this.t.close : this.t.open);
    if (open) {
      this.unread = 0;
      this.badge();
      this.markRead();
      if (!this.opts.inline) this.els.textarea.focus();
      this.scroll();
    }
  }

  private async ensureVisitor(): Promise<void> {
    if (this.api.token) return;
    const v = await this.api.visitor();
    this.api.token = v.token;
    try {
      localStorage.setItem(this.storeKey, v.token);
    } catch {}
    await this.connect();
  }

  private async connect(): Promise<void> {
    this.live?.stop();
    this.live = new Live(
      this.api,
      () => this.lastId(),
      (f) => {
        if (f.type === 'history') for (const m of f.items) this.receive(m, true);
        else if (f.type === 'message') {
          if (f.message.direction === 'out') this.els.typing.textContent = '';
          this.receive(f.message, false);
        } else if (f.type === 'typing') this.showTyping(f.name);
        else if (f.type === 'rating') {
          this.rating = f.rating;
          this.render();
        }
      },
      (up) => {
        this.els.state.textContent =
          up || !this.config?.active ? (this.config?.active ? '' : this.t.inactive) : this.t.offline;
      },
    );
    this.live.start();
  }

  /** Removes the widget from the page (a single-page app leaving the page that showed it). */
  destroy(): void {
    clearInterval(this.timer);
    this.live?.stop();
    this.host.remove();
  }

  /** The widget's handle for tests and host pages: drop the socket (it resumes by itself). */
  dropConnection(): void {
    this.live?.drop();
  }

  private lastId(): string | undefined {
    let last: Shown | undefined;
    for (const m of this.messages.values())
      if (!m.pending && (!last || m.createdAt >= last.createdAt)) last = m;
    return last?.id;
  }

  private receive(m: WidgetMessageDto, fromHistory: boolean): void {
    const known = this.messages.has(m.id);
    this.messages.set(m.id, m);
    if (!known && m.direction === 'out') {
      if (this.open && document.visibilityState === 'visible') this.markRead();
      else {
        void this.api.mark([m.id], 'delivered').catch(() => undefined);
        if (!fromHistory || m.status !== 'read') {
          this.unread++;
          if (!fromHistory) beep();
        }
      }
    }
    this.badge();
    this.render();
  }

  private markRead(): void {
    const ids = [...this.messages.values()]
      .filter((m) => m.direction === 'out' && m.status !== 'read')
      .map((m) => m.id);
    if (!ids.length || !this.api.token) return;
    for (const id of ids) {
      const m = this.messages.get(id);
      if (m) m.status = 'read';
    }
    void this.api.mark(ids.slice(-100), 'read').catch(() => undefined);
  }

  private badge(): void {
    const n = this.open ? 0 : this.unread;
    this.els.badge.hidden = n === 0;
    this.els.badge.textContent = n ? String(n) : '';
    this.els.launcher.setAttribute(
      'aria-label',
      n ? `${this.t.open} (${this.t.unread(n)})` : this.open ? this.t.close : this.t.open,
    );
  }

  private checkLength(): boolean {
    const max = this.config?.limits.textMax ?? 2000;
    const over = this.els.textarea.value.length >= max;
    this.els.err.textContent = over ? this.t.tooLong(max) : '';
    return this.els.textarea.value.length <= max;
  }

  private async submit(): Promise<void> {
    const text = this.els.textarea.value;
    const files = this.files;
    this.files = [];
    if (!text.trim() && !files.length) return;
    if (!this.checkLength()) return;
    await this.post(text, files);
  }

  /** A bot's button pressed: its label is the visitor's message, its payload tells the bot which one. */
  private async press(text: string, payload: string): Promise<void> {
    await this.post(text, [], payload);
  }

  private async post(text: string, files: File[], payload?: string): Promise<void> {
    this.els.err.textContent = '';
    const clientMessageId = randomId();
    const temp: Shown = {
      id: `pending-${clientMessageId}`,
      clientMessageId,
      direction: 'in',
      text,
      attachments: files.map((f) => ({ url: '', name: f.name })),
      status: null,
      author: null,
      buttons: null,
      bot: false,
      createdAt: new Date().toISOString(),
      pending: true,
    };
    this.messages.set(temp.id, temp);
    if (!payload) this.els.textarea.value = '';
    this.render();
    try {
      await this.ensureVisitor();
      const keys: string[] = [];
      for (const f of files) {
        const max = this.config?.limits.fileMaxBytes ?? 5e6;
        if (f.size > max) throw new Error(this.t.fileTooBig(Math.round(max / 1048576)));
        keys.push((await this.api.upload(f, f.name)).key);
      }
      const sent = await this.api.send({
        clientMessageId,
        text,
        files: keys,
        name: this.profile.name || undefined,
        ...(payload ? { payload } : {}),
      });
      this.messages.delete(temp.id);
      this.messages.set(sent.id, sent);
      void this.sendProfile();
    } catch (e) {
      this.messages.delete(temp.id);
      if (!payload && !this.els.textarea.value) this.els.textarea.value = text;
      this.els.err.textContent = this.errorText(e);
    }
    this.render();
  }

  private errorText(e: unknown): string {
    const t = this.t;
    if (e instanceof CallError) {
      if (e.status === 429) return t.tooMany;
      if (e.status === 413)
        return t.fileTooBig(Math.round((this.config?.limits.fileMaxBytes ?? 5e6) / 1048576));
      if (e.code === 'fileUploadException') return t.fileRefused;
      if (e.code === 'deactivatedChannelException') return t.inactive;
      return t.failed;
    }
    return e instanceof Error && e.message ? e.message : t.failed;
  }

  private async rate(score: number): Promise<void> {
    if (!this.rating) return;
    const status = await this.api.rate(this.rating.uuid, score).catch(() => 0);
    this.ratingNote = status === 200 ? this.t.rated : status === 409 ? this.t.rateUsed : this.t.failed;
    if (status === 200 || status === 409 || status === 404) this.rating = null;
    this.render();
  }

  private render(): void {
    const t = this.t;
    const items: Node[] = [];
    if (this.config?.welcomeMessage)
      items.push(h('div', { class: 'm out welcome' }, this.config.welcomeMessage));
    const list = [...this.messages.values()].sort((a, b) =>
      a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0,
    );
    for (const m of list) items.push(this.bubble(m));
    // The latest message's bot buttons: a visitor answers the question in front of them (older ones are history).
    const last = list[list.length - 1];
    if (last?.direction === 'out' && last.buttons?.length) items.push(this.botButtons(last.buttons));
    if (this.rating) {
      const opts = t.rates.map((label, i) => {
        const b = h('button', { type: 'button' }, `${i + 1} · ${label}`);
        b.onclick = () => void this.rate(i + 1);
        return b;
      });
      items.push(
        h(
          'div',
          { class: 'rate', role: 'group', 'aria-label': t.rateAsk },
          h('p', {}, this.rating.text || t.rateAsk),
          h('div', { class: 'opts' }, ...opts),
        ),
      );
    } else if (this.ratingNote)
      items.push(h('div', { class: 'm out welcome', role: 'status' }, this.ratingNote));
    this.els.log.replaceChildren(...items);
    this.scroll();
  }

  private botButtons(rows: NonNullable<WidgetMessageDto['buttons']>): HTMLElement {
    const opts = rows.flat().map((b) => {
      if ('url' in b)
        return h('a', { class: 'btn', href: b.url, target: '_blank', rel: 'noopener noreferrer' }, b.text);
      const el = h('button', { type: 'button', class: 'btn' }, b.text);
      el.onclick = () => void this.press(b.text, b.payload);
      return el;
    });
    return h('div', { class: 'bot-buttons', role: 'group', 'aria-label': this.t.botButtons }, ...opts);
  }

  private bubble(m: Shown): HTMLElement {
    const t = this.t;
    const who =
      m.direction === 'out'
        ? h(
            'div',
            { class: 'who' },
            m.author?.avatarUrl ? h('img', { src: m.author.avatarUrl, alt: '' }) : '',
            m.bot ? t.bot : m.author?.name || t.operator,
          )
        : h('span', { class: 'sr' }, `${t.you}: `);
    const atts = m.attachments.map((a) =>
      a.url && a.contentType?.startsWith('image/')
        ? h(
            'a',
            { href: a.url, target: '_blank', rel: 'noopener noreferrer' },
            h('img', { class: 'att', src: a.url, alt: a.name ?? '' }),
          )
        : a.url
          ? h('a', { href: a.url, target: '_blank', rel: 'noopener noreferrer' }, `📎 ${a.name ?? 'file'}`)
          : h('span', {}, `📎 ${a.name ?? ''}`),
    );
    const time = new Date(m.createdAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    const mark =
      m.direction === 'in' && m.status
        ? ` · ${m.status === 'read' ? t.read : m.status === 'delivered' ? t.delivered : t.sent}`
        : '';
    return h(
      'div',
      { class: `m ${m.direction}${m.pending ? ' pending' : ''}` },
      who,
      m.text ? h('div', {}, m.text) : '',
      ...atts,
      h('div', { class: 'meta' }, `${time}${mark}`),
    );
  }

  private scroll(): void {
    const log = this.els.log;
    requestAnimationFrame(() => {
      log.scrollTop = log.scrollHeight;
    });
  }
}
