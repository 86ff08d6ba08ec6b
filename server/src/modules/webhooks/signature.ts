import { createHmac } from 'node:crypto';

/**
 * The signature header of one delivery, Stripe's scheme: `t=<unix seconds>,v1=<hex HMAC-SHA256>` over
 * "<t>.<body>" keyed by the endpoint's secret. The time is inside the signed text, so a captured delivery cannot be
 * replayed later than the receiver's tolerance (README.md "Event webhooks": the verification).
 */
export function signatureHeader(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}
