// Sign-in links by email (FOLIO_SMTP_URL): a real SMTP server (smtp-server) receives them; with a mailer they are
// neither printed nor listed (without one they are both), and a mailer that is down answers 503 instead of
// pretending the link went out.
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';

type Mail = { to: string; text: string };

describe('sign-in links by email', () => {
  const inbox: Mail[] = [];
  let smtp: SMTPServer;
  let srv: TestServer;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, done) {
        simpleParser(stream)
          .then((mail) =>
            inbox.push({ to: session.envelope.rcptTo[0]?.address ?? '', text: mail.text ?? '' }),
          )
          .then(() => done(), done);
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    srv = await startTestServer({
      smtp: { url: `smtp://127.0.0.1:${port}`, from: 'Folio <folio@example.com>' },
    });
  });
  afterAll(async () => {
    await srv?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('mails a working link, and neither prints nor lists it', async () => {
    await srv.deps.identity.invite('mailed@example.com');
    const res = await fetch(`${srv.url}/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: srv.url },
      body: JSON.stringify({ email: 'mailed@example.com' }),
    });
    expect(res.status).toBe(202);
    const mail = inbox.find((m) => m.to === 'mailed@example.com');
    expect(mail?.text).toMatch(/\/auth\/callback\?token=/);
    const link = /(http:\/\/\S+\/auth\/callback\?token=\S+)/.exec(mail!.text)![1];
    const signedIn = await fetch(link, { redirect: 'manual' });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.getSetCookie().some((c) => c.startsWith('folio_session='))).toBe(true);
    expect(srv.logs.join('\n')).not.toContain(link);
    const listed = (await (await srv.as(srv.owner)('/api/v1/sign-in-links')).json()) as { data: unknown[] };
    expect(JSON.stringify(listed.data)).not.toContain('mailed@example.com');
  });

  it('without a mailer prints the link and lists it for the owner only', async () => {
    const plain = await startTestServer();
    try {
      const res = await fetch(`${plain.url}/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: plain.url },
        body: JSON.stringify({ email: 'listed@example.com' }),
      });
      expect(res.status).toBe(202);
      const printed = plain.logs.find((l) => l.startsWith('Sign-in link for listed@example.com: '));
      const url = printed?.slice('Sign-in link for listed@example.com: '.length);
      const listed = (await (await plain.as(plain.owner)('/api/v1/sign-in-links')).json()) as {
        data: { email: string; url: string }[];
      };
      expect(listed.data).toContainEqual(expect.objectContaining({ email: 'listed@example.com', url }));
      const stranger = await plain.signInApproved('stranger@example.com');
      expect((await plain.as(stranger)('/api/v1/sign-in-links')).status).toBe(403);
    } finally {
      await plain.close();
    }
  });

  it('answers 503 when the mail server is down', async () => {
    const down = await startTestServer({ smtp: { url: 'smtp://127.0.0.1:1', from: 'folio@example.com' } });
    try {
      const res = await fetch(`${down.url}/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: down.url },
        body: JSON.stringify({ email: 'nobody@example.com' }),
      });
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: string }).error).toMatch(/could not be sent/);
    } finally {
      await down.close();
    }
  });
});
