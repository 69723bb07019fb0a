// Sign-in links by email over SMTP (nodemailer), for a hosted instance; loaded only when SMTP is configured.
import type { Config } from '../../config.js';
import { serviceUnavailable } from '../../http/errors.js';
import type { Logger } from '../../log.js';

export type Mailer = { sendSignInLink(to: string, url: string, minutes: number): Promise<void> };

export function createMailer(smtp: NonNullable<Config['smtp']>, log: Logger): Mailer {
  let transport: Promise<import('nodemailer').Transporter> | undefined;
  const open = async () => (await import('nodemailer')).createTransport(smtp.url);

  return {
    async sendSignInLink(to, url, minutes) {
      transport ??= open();
      try {
        await (await transport).sendMail({
          from: smtp.from,
          to,
          subject: 'Your Folio sign-in link',
          text: `Open this link to sign in to Folio:\n\n${url}\n\nIt works once, for ${minutes} minutes. If you did not ask for it, ignore this email.\n`,
        });
      } catch (error) {
        log.warn(`Sign-in email to ${to} could not be sent: ${(error as Error).message}`);
        throw serviceUnavailable('The sign-in email could not be sent; try again in a moment');
      }
    },
  };
}
