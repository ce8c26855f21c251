import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { DataSource } from 'typeorm';
import { InjectDataSource } from '@nestjs/typeorm';
import type { AuthContext } from '../../common/auth/auth-context.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { SystemDomainsService } from '../../system-domains/system-domains.service.js';
import { TokensService } from '../../tokens/tokens.service.js';
import type { UserEntity } from '../../users/user.entity.js';
import { JwtVerifier } from '../jwt-verifier.service.js';

const SESSION = 'portcullis_session';
const CSRF = 'portcullis_csrf';

export function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) {
      try {
        return decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * The consent page's browser session: an HttpOnly cookie holding a login token (looked up like any other
 * token, so signing out or revoking it ends the session) and a double-submit CSRF cookie (SameSite=Strict).
 */
@Injectable()
export class ConsentSessionService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jwt: JwtVerifier,
    private readonly tokens: TokensService,
    private readonly domains: SystemDomainsService,
  ) {}

  private get secure(): boolean {
    return this.config.http.publicBaseUrl.startsWith('https:');
  }

  async current(req: Request): Promise<AuthContext | null> {
    const raw = readCookie(req, SESSION);
    if (!raw) return null;
    const claims = await this.jwt.verify(raw);
    if (!claims) return null;
    try {
      const auth = await this.tokens.authenticate(claims, raw);
      return auth.kind === 'LOGIN' ? auth : null;
    } catch {
      return null;
    }
  }

  /** Signs the user in for the app's domain when they belong to it (else their home domain). */
  async start(res: Response, user: UserEntity, preferredDomainId: string): Promise<void> {
    const domains = await this.tokens.userDomainIds(user.id);
    const domainId = domains.includes(preferredDomainId) ? preferredDomainId : user.system_domain_id;
    const appId = await this.domains.builtinAppId(this.ds.manager, domainId);
    const { token } = await this.tokens.issue({
      userId: user.id,
      appId,
      systemDomainId: domainId,
      kind: 'LOGIN',
      expires: this.tokens.loginExpiry(),
    });
    res.cookie(SESSION, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secure,
      path: '/oauth',
      maxAge: this.config.auth.loginTokenTtlSeconds * 1000,
    });
  }

  csrfToken(req: Request, res: Response): string {
    const existing = readCookie(req, CSRF);
    if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
    const token = randomBytes(32).toString('base64url');
    res.cookie(CSRF, token, { httpOnly: true, sameSite: 'strict', secure: this.secure, path: '/oauth' });
    return token;
  }

  csrfValid(req: Request, submitted: unknown): boolean {
    const cookie = readCookie(req, CSRF);
    if (!cookie || typeof submitted !== 'string') return false;
    const a = Buffer.from(cookie);
    const b = Buffer.from(submitted);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}
