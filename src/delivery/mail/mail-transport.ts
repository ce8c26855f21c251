import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';
import type { MailConfig } from './mail-config.js';

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

/**
 * nodemailer, imported on the first mail: it holds about 3 MB of heap, which a process that sends no mail
 * (most instances, most of the time) need not carry.
 */
const loadNodemailer = () => import('nodemailer').then((m) => m.default);

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
  private transporter: Promise<Transporter> | null = null;
  private readonly host: string;

  constructor(private readonly config: MailConfig) {
    this.host = new URL(config.smtpUrl as string).hostname || 'portcullis';
  }

  private connect(): Promise<Transporter> {
    const { smtpUrl, timeoutMs } = this.config;
    return (this.transporter ??= loadNodemailer().then((nodemailer) =>
      nodemailer.createTransport({
        url: smtpUrl as string,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
      }),
    ));
  }

  async send(mail: Envelope): Promise<SendOutcome> {
    try {
      await (await this.connect()).sendMail(message(mail, this.config.from, this.host));
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
    void this.transporter?.then((t) => t.close());
  }
}

/**
 * No SMTP_URL: each mail becomes `DATA_DIR/mail/<date>-<id>.eml` (the whole message, as it would have been
 * sent), so a person trying the service can open it in a mail reader and follow the link.
 */
export class EmlFileTransport implements MailTransport {
  private composer: Promise<Transporter> | null = null;

  constructor(
    private readonly dir: string,
    private readonly from: string,
  ) {}

  async send(mail: Envelope): Promise<SendOutcome> {
    try {
      this.composer ??= loadNodemailer().then((nodemailer) =>
        nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
      );
      const info = (await (
        await this.composer
      ).sendMail(message(mail, this.from, 'portcullis.local'))) as unknown as {
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
    void this.composer?.then((t) => t.close());
  }
}
