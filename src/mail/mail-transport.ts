import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { MailConfig } from '../config/config.js';

export interface Envelope {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
}

/** What one attempt came to: sent, or an error that is worth retrying (or not). */
export type SendOutcome = { ok: true; where?: string } | { ok: false; permanent: boolean; error: string };

export interface MailTransport {
  send(mail: Envelope): Promise<SendOutcome>;
  close(): void;
}

/** At most this much of an SMTP answer or error is recorded (it names the server's reason, never the mail). */
const ERROR_MAX = 500;

function message(mail: Envelope, from: string, host: string) {
  return {
    from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    ...(mail.html !== null ? { html: mail.html } : {}),
    // the outbox row's id: the same on every retry, so a receiving server can drop a duplicate
    messageId: `<${mail.id}@${host}>`,
  };
}

/** Sends through SMTP_URL (nodemailer). A 5xx answer is permanent; 4xx and connection errors are retried. */
export class SmtpTransport implements MailTransport {
  private readonly transporter: Transporter;
  private readonly host: string;

  constructor(private readonly config: MailConfig) {
    this.transporter = nodemailer.createTransport({
      url: config.smtpUrl as string,
      connectionTimeout: config.timeoutMs,
      greetingTimeout: config.timeoutMs,
      socketTimeout: config.timeoutMs,
    });
    this.host = new URL(config.smtpUrl as string).hostname || 'portcullis';
  }

  async send(mail: Envelope): Promise<SendOutcome> {
    try {
      await this.transporter.sendMail(message(mail, this.config.from, this.host));
      return { ok: true };
    } catch (err) {
      const e = err as Error & { responseCode?: number; response?: string; code?: string };
      const code = typeof e.responseCode === 'number' ? e.responseCode : null;
      const text =
        code !== null ? `SMTP ${code}: ${e.response ?? e.message}` : `${e.code ?? 'error'}: ${e.message}`;
      return { ok: false, permanent: code !== null && code >= 500, error: text.slice(0, ERROR_MAX) };
    }
  }

  close(): void {
    this.transporter.close();
  }
}

/**
 * No SMTP_URL: each mail becomes `DATA_DIR/mail/<date>-<id>.eml` (the whole message, as it would have been
 * sent), so a person trying the service can open it in a mail reader and follow the link.
 */
export class EmlFileTransport implements MailTransport {
  private readonly composer = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });

  constructor(
    private readonly dir: string,
    private readonly from: string,
  ) {}

  async send(mail: Envelope): Promise<SendOutcome> {
    try {
      const info = (await this.composer.sendMail(
        message(mail, this.from, 'portcullis.local'),
      )) as unknown as {
        message: Buffer;
      };
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      const file = join(this.dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.id}.eml`);
      await writeFile(file, info.message, { mode: 0o600 });
      return { ok: true, where: file };
    } catch (err) {
      return { ok: false, permanent: false, error: `file: ${(err as Error).message}`.slice(0, ERROR_MAX) };
    }
  }

  close(): void {
    this.composer.close();
  }
}
