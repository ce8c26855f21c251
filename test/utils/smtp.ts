import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { waitFor } from './wait-for.js';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string | null;
  messageId: string | null;
  raw: string;
}

/**
 * A real SMTP server in-process (smtp-server, no TLS, no auth), that the app's SMTP_URL points at. `reject`
 * makes the next messages fail with the given SMTP answer (e.g. 451 then accept, or 550 for good).
 */
export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  /** Answers for the next DATA commands, first one first: e.g. [451, 451] then accept. */
  private readonly refusals: number[] = [];
  private permanent: number | null = null;
  attempts = 0;

  private constructor(private readonly server: SMTPServer) {}

  static async start(): Promise<SmtpSink> {
    const holder: { sink?: SmtpSink } = {};
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(
        stream: SMTPServerDataStream,
        session: SMTPServerSession,
        callback: (err?: Error | null) => void,
      ) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const sink = holder.sink as SmtpSink;
          sink.attempts++;
          const code = sink.refusals.shift() ?? sink.permanent;
          if (code !== null && code !== undefined) {
            const err = Object.assign(new Error(code >= 500 ? 'mailbox unavailable' : 'try again later'), {
              responseCode: code,
            });
            return callback(err);
          }
          const raw = Buffer.concat(chunks).toString('utf8');
          simpleParser(raw)
            .then((m) => {
              sink.received.push({
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                to: session.envelope.rcptTo.map((r) => r.address),
                subject: m.subject ?? '',
                text: m.text ?? '',
                html: typeof m.html === 'string' ? m.html : null,
                messageId: m.messageId ?? null,
                raw,
              });
              callback();
            })
            .catch((e: Error) => callback(e));
        });
      },
    });
    const sink = new SmtpSink(server);
    holder.sink = sink;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return sink;
  }

  get url(): string {
    const port = (this.server.server.address() as AddressInfo).port;
    return `smtp://127.0.0.1:${port}`;
  }

  /** The next `n` messages are answered `code` (4xx: retried; 5xx: given up). */
  refuseNext(code: number, n = 1): void {
    for (let i = 0; i < n; i++) this.refusals.push(code);
  }

  /** Every message from now on is answered `code` (null: accept again). */
  refuseAll(code: number | null): void {
    this.permanent = code;
  }

  /** The mail received for `to` (waits for it); `count` for more than one. */
  async mailFor(to: string, count = 1, ms = 10_000): Promise<ReceivedMail[]> {
    return waitFor(async () => {
      const got = this.received.filter((m) => m.to.includes(to));
      return got.length >= count ? got : undefined;
    }, ms);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The first link in a mail's text that starts with `prefix`. */
export function linkIn(mail: ReceivedMail, prefix: string): string {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`${escaped}[A-Za-z0-9_\\-/]+`).exec(mail.text);
  if (!m) throw new Error(`no link starting with ${prefix} in the mail to ${mail.to.join(', ')}`);
  return m[0];
}
