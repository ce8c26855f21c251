import { Inject, Injectable, Logger } from '@nestjs/common';
import { ENUMERATION_FLOOR_MS, withAnswerFloor } from '../../base/common/answer-floor.js';
import { Clock } from '../../base/common/clock.js';
import { normalizeEmail } from '../../base/common/validation/email-rules.js';
import { generateSecret, sha256Hex } from '../../base/common/crypto/secrets.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import { linkMail } from '../../delivery/mail/mail-templates.js';
import { MailService } from '../../delivery/mail/mail.service.js';
import type { LoginTokenDto } from '../../credentials/tokens/dto/token.dto.js';
import type { PageResult } from '../../base/common/html/page-result.js';
import { emailLoginPage } from './email-login-page.js';
import { EmailLoginErrors } from './email-login.errors.js';
import { LoginRepository } from './login.repository.js';
import { SignInAuthority } from './sign-in-authority.js';

/** The request answers no sooner than this, known address or not (as password forgot). */
export const EMAIL_LOGIN_ANSWER_FLOOR_MS = ENUMERATION_FLOOR_MS;
const LINK_MAIL_KIND = 'email login';
/** How long a mailed sign-in link works. */
export const EMAIL_LOGIN_TTL_MS = 15 * 60 * 1000;
/** Used and expired links are kept this long (they answer 419 rather than 404), then dropped. */
const RETENTION_MS = 24 * 3600 * 1000;
/** A link's secret as minted here: 256 bits, base64url (anything else cannot be one). */
const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Email login: a single-use sign-in link by mail. The request answers the same whether or not the address
 * belongs to an active user; only the SHA-256 of the link's secret is stored; a new request retires the
 * user's unused links; the link is consumed by a POST only (mail scanners prefetch GETs), and that POST signs
 * the person in through SignInService (second factor owed where the domain requires one).
 */
@Injectable()
export class EmailLoginService {
  private readonly logger = new Logger('EmailLogin');

  constructor(
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
    private readonly clock: Clock,
    private readonly mail: MailService,
    private readonly signIns: SignInAuthority,
    private readonly repo: LoginRepository,
  ) {}

  /** The page a mailed link opens (`{PUBLIC_BASE_URL}/login/email/{secret}`). */
  linkFor(secret: string): string {
    return `${this.config.http.publicBaseUrl}/login/email/${secret}`;
  }

  /**
   * The page the mailed link opens: consumes nothing and does not look the secret up (mail scanners prefetch
   * links; no oracle for guessers), only a button that POSTs it to `complete`.
   */
  page(secret: string): PageResult {
    const base = this.config.http.publicBaseUrl;
    const action = `${base}/API/auth/v1/auth/email/login/${encodeURIComponent(secret)}/`;
    // the form posts to the service under its public base URL (the page's CSP allows that origin)
    return { status: 200, html: emailLoginPage(action), formTarget: base };
  }

  /**
   * Mails a sign-in link to an active account; the same answer, no sooner than the floor, for an unknown or
   * inactive email (no mail then), so neither answer nor timing tells a registered address.
   */
  request(email: string): Promise<void> {
    return withAnswerFloor(EMAIL_LOGIN_ANSWER_FLOOR_MS, () => this.mailLink(email));
  }

  private async mailLink(email: string): Promise<void> {
    const user = await this.repo.userBy({ email: normalizeEmail(email) });
    if (!user || user.status !== 'ACTIVE') {
      this.logger.debug('email login requested for an address without an active user: nothing sent');
      return;
    }
    await this.repo.transaction(async (em) => {
      // past the recipient's limit nothing changes: the links already mailed keep working
      if (!(await this.mail.recipientAllows(em, LINK_MAIL_KIND, user.email))) return;
      const secret = generateSecret();
      const expires = new Date(this.clock.now().getTime() + EMAIL_LOGIN_TTL_MS);
      // one live link per user: a newer request retires the older ones (kept a day, so they answer 419)
      const now = this.clock.now();
      const dropBefore = new Date(now.getTime() - RETENTION_MS);
      await this.repo.replaceEmailLink(em, user.id, sha256Hex(secret), now, expires, dropBefore);
      await this.mail.queue(em, {
        kind: LINK_MAIL_KIND,
        to: user.email,
        subject: 'Your sign-in link',
        ...linkMail({
          intro: ['Someone (hopefully you) asked to sign in to Portcullis with this address.'],
          action: 'Sign in',
          link: this.linkFor(secret),
          outro: [
            `The link works once and expires on ${expires.toISOString()}. If you did not ask for it, ignore this mail: nobody can sign in without it.`,
          ],
        }),
      });
    });
  }

  /** Consumes the link (once, atomically) and signs its user in. 404 unknown, 419 used/expired/replaced. */
  async complete(secret: string): Promise<LoginTokenDto> {
    if (!SECRET_SHAPE.test(secret)) throw EmailLoginErrors.NOT_FOUND();
    const hash = sha256Hex(secret);
    const now = this.clock.now();
    const used = await this.repo.transaction(async (em) => {
      const usedBy = await this.repo.consumeEmailLink(em, hash, now);
      if (usedBy === undefined) return undefined;
      const user = await this.repo.userBy({ id: usedBy }, em);
      // the link came by mail to the account's address (an email change retires it): its holder receives mail
      // there (OpenID Connect email_verified); a deactivated account's link is used up, and proves nothing
      if (user?.status === 'ACTIVE') await this.repo.markEmailVerified(em, user.id, user.email);
      return { user };
    });
    if (used === undefined) {
      const known = await this.repo.emailLinkKnown(hash);
      throw known ? EmailLoginErrors.LINK_EXPIRED() : EmailLoginErrors.NOT_FOUND();
    }
    const { user } = used;
    // deactivated since the link was mailed: the link is no good any more
    if (!user || user.status !== 'ACTIVE') throw EmailLoginErrors.LINK_EXPIRED();
    return this.signIns.signIn(user, 'email_link', EmailLoginErrors.NO_DOMAIN);
  }
}
