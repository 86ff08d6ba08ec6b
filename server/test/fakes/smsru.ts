import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake of SMS.ru's HTTP API (https://sms.ru/api/send), following its documents: POST /sms/send with form fields
 * api_id, to, msg, json=1 (and optional from). A wrong api_id is status ERROR, status_code 200 ("Неправильный
 * api_id"); a number that is not a mobile number (not 11 digits starting with 7, or listed in `badNumbers`) gets the
 * per-number status_code 202; a sent message is status OK, status_code 100, with its sms_id. Any other path is 404.
 */
export type FakeSmsRu = {
  baseUrl: string;
  apiKey: string;
  sent: { to: string; msg: string; from?: string }[];
  badNumbers: Set<string>;
  close(): Promise<void>;
};

export async function startFakeSmsRu(): Promise<FakeSmsRu> {
  const apiKey = randomBytes(16).toString('hex').toUpperCase();
  const sent: FakeSmsRu['sent'] = [];
  const badNumbers = new Set<string>();
  let id = 0;
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      const answer = (body: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || req.url !== '/sms/send') {
        res.writeHead(404).end();
        return;
      }
      const form = new URLSearchParams(raw);
      if (form.get('api_id') !== apiKey)
        return answer({ status: 'ERROR', status_code: 200, status_text: 'Неправильный api_id' });
      const to = form.get('to') ?? '';
      const msg = form.get('msg') ?? '';
      if (!msg) return answer({ status: 'ERROR', status_code: 204, status_text: 'Пустое сообщение' });
      if (!/^7\d{10}$/.test(to) || badNumbers.has(to)) {
        return answer({
          status: 'OK',
          status_code: 100,
          sms: {
            [to]: {
              status: 'ERROR',
              status_code: 202,
              status_text: 'Неправильно указан номер телефона получателя, либо на него нет маршрута',
            },
          },
          balance: 100,
        });
      }
      sent.push({ to, msg, from: form.get('from') ?? undefined });
      answer({
        status: 'OK',
        status_code: 100,
        sms: { [to]: { status: 'OK', status_code: 100, sms_id: `000000-${++id}` } },
        balance: 99.5,
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey,
    sent,
    badNumbers,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
