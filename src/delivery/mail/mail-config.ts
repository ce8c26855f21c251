import { envReader } from '../../base/config/env-reader.js';
import { configNamespace } from '../../base/config/namespace.js';

/** Mail delivery (src/mail): where mail goes, the sender, the worker's pace and the retry schedule. */
export interface MailConfig {
  /** smtp:// or smtps://; null: every mail is written as an .eml file under DATA_DIR/mail/ instead. */
  smtpUrl: string | null;
  /** The From address of every mail. */
  from: string;
  pollIntervalMs: number;
  timeoutMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** Attempts after which a mail is given up (FAILED); a 5xx answer gives it up at once. */
  maxAttempts: number;
  /** Link mails of one kind to one recipient at most, per window (MailService.recipientAllows). */
  recipientLimit: number;
  recipientWindowSeconds: number;
}

export const MAIL_CONFIG = configNamespace('mail', (env, problems, base): MailConfig => {
  const { str, int, url } = envReader(env, problems);
  // a bad PUBLIC_BASE_URL is the base settings' problem (already named): this default only must not throw
  const host = URL.canParse(base.http.publicBaseUrl)
    ? new URL(base.http.publicBaseUrl).hostname
    : 'localhost';
  const mailFrom = str('MAIL_FROM') ?? `Portcullis <no-reply@${host}>`;
  if (!/^[^@\s<>]+@[^@\s<>]+$|^[^<>]*<[^@\s<>]+@[^@\s<>]+>$/.test(mailFrom.trim()))
    problems.push('MAIL_FROM must be an address, or "Name <address>"');
  const mail: MailConfig = {
    smtpUrl: url('SMTP_URL', ['smtp:', 'smtps:']),
    from: mailFrom.trim(),
    pollIntervalMs: int('MAIL_POLL_INTERVAL_MS', 1_000, 10, 60_000),
    timeoutMs: int('MAIL_TIMEOUT_MS', 30_000, 100, 300_000),
    retryBaseMs: int('MAIL_RETRY_BASE_MS', 30_000, 10, 3_600_000),
    retryMaxMs: int('MAIL_RETRY_MAX_MS', 3_600_000, 10, 86_400_000),
    maxAttempts: int('MAIL_MAX_ATTEMPTS', 10, 1, 100),
    recipientLimit: int('MAIL_RECIPIENT_LIMIT', 5, 1, 1000),
    recipientWindowSeconds: int('MAIL_RECIPIENT_WINDOW_SECONDS', 900, 1, 86_400),
  };
  if (mail.retryMaxMs < mail.retryBaseMs)
    problems.push('MAIL_RETRY_MAX_MS must not be below MAIL_RETRY_BASE_MS');
  return mail;
});
