import nodemailer from 'nodemailer';

export type Mail = { to: string; subject: string; text: string; html?: string };
export type Mailer = { send(mail: Mail): Promise<void> };

type Log = { info(obj: object, msg: string): void };

/** Sends through SMTP_URL; without one, writes the mail to the server log so a newcomer can still follow links. */
export function createMailer(smtpUrl: string | undefined, from: string, log: Log): Mailer {
  if (!smtpUrl) {
    return {
      async send(mail) {
        log.info(
          { mail: { to: mail.to, subject: mail.subject } },
          `MAIL to ${mail.to}: ${mail.subject}\n${mail.text}`,
        );
      },
    };
  }
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
  };
}
