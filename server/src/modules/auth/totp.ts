import { TOTP_PATTERN } from '@smartconnect/contracts';
import { authenticator } from 'otplib';
import QRCode from 'qrcode';
import { AppError } from '../../http/errors.ts';

// RFC 6238 defaults (SHA-1, 30 s, 6 digits); one step of drift either way for clocks that are a little off.
const totp = authenticator.clone({ window: 1 });

export const newTotpSecret = (): string => totp.generateSecret(20);

export async function totpEnrolment(secret: string, account: string) {
  const otpauthUri = totp.keyuri(account, 'SmartConnect', secret);
  const qr = await QRCode.toDataURL(otpauthUri, { margin: 1, width: 240 });
  return { secret, otpauthUri, qr };
}

/** Checks a submitted code: a missing one, a malformed one and a wrong one each have their own §8 error. */
export function assertTotp(secret: string, code: string | undefined): void {
  if (!code) throw new AppError('totpMandatoryException');
  if (!TOTP_PATTERN.test(code)) throw new AppError('totpBadFormatException');
  if (!totp.check(code, secret)) throw new AppError('totpInvalidException');
}

/** For tests and tools: the code valid now. */
export const currentTotp = (secret: string): string => totp.generate(secret);
