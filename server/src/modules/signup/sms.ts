import { AppError } from '../../http/errors.ts';

/** An SMS gateway: sends one text to one number. Refuses a number the provider calls wrong with invalidPhoneException. */
export type SmsGateway = { name: string; send(phone: string, text: string): Promise<void> };

type Log = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

/** No gateway set: the text is written to the server log (like mails without SMTP), so a newcomer can finish. */
export function logGateway(log: Log): SmsGateway {
  return {
    name: 'log',
    async send(phone, text) {
      log.info({ sms: { to: phone } }, `SMS to ${phone}: ${text}`);
    },
  };
}

/** SMS.ru's per-number status codes that mean the number itself is wrong or unreachable. */
const BAD_NUMBER = new Set([202, 207, 208, 230]);

type SmsRuAnswer = {
  status?: string;
  status_code?: number;
  status_text?: string;
  sms?: Record<string, { status?: string; status_code?: number; status_text?: string }>;
};

/**
 * SMS.ru's HTTP API (`POST {base}/sms/send`, form fields api_id, to, msg, json=1, from): an answer with status OK
 * for the number is sent; a per-number code of a wrong number is invalidPhoneException; anything else (a wrong
 * key, no balance, no answer) is providerUnavailableException and is logged.
 */
export function smsRuGateway(opts: { baseUrl: string; apiKey: string; from?: string; log: Log }): SmsGateway {
  const url = `${opts.baseUrl.replace(/\/$/, '')}/sms/send`;
  return {
    name: 'smsru',
    async send(phone, text) {
      const to = phone.replace(/^\+/, '');
      const form = new URLSearchParams({ api_id: opts.apiKey, to, msg: text, json: '1' });
      if (opts.from) form.set('from', opts.from);
      let answer: SmsRuAnswer;
      try {
        const res = await fetch(url, { method: 'POST', body: form, signal: AbortSignal.timeout(10_000) });
        answer = (await res.json()) as SmsRuAnswer;
      } catch (err) {
        opts.log.warn({ err: String(err) }, 'SMS gateway unreachable');
        throw new AppError('providerUnavailableException');
      }
      const one = answer.sms?.[to];
      if (answer.status === 'OK' && one?.status === 'OK') return;
      if (one?.status_code !== undefined && BAD_NUMBER.has(one.status_code))
        throw new AppError('invalidPhoneException');
      opts.log.warn(
        { status: answer.status_code ?? one?.status_code, text: answer.status_text ?? one?.status_text },
        'SMS gateway refused the message',
      );
      throw new AppError('providerUnavailableException');
    },
  };
}

/** The gateway the environment names: SMS_PROVIDER=smsru with SMS_API_KEY (and SMS_API_URL, SMS_FROM), else the log. */
export function smsGatewayFromEnv(env: Readonly<Record<string, string | undefined>>, log: Log): SmsGateway {
  if (env.SMS_PROVIDER === 'smsru' && env.SMS_API_KEY) {
    return smsRuGateway({
      baseUrl: env.SMS_API_URL || 'https://sms.ru',
      apiKey: env.SMS_API_KEY,
      from: env.SMS_FROM || undefined,
      log,
    });
  }
  return logGateway(log);
}
