import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { CorsRepository } from './cors.repository.js';

const ALLOWED_HEADERS = 'Authorization, Content-Type, App-ID, Auth-Token, X-Request-Id';
const EXPOSED_HEADERS = 'RateLimit-Remaining, Retry-After, X-Request-Id, WWW-Authenticate';

/** Answers a cross-origin request only when `origin` is one the app behind it lists (public apps only). */
export function allowOrigin(
  req: Request,
  res: Response,
  app: { oauth_client_type: string | null; allowed_origins: string[] },
) {
  const origin = req.headers.origin;
  if (!origin) return;
  res.vary('Origin');
  if (app.oauth_client_type === 'public' && app.allowed_origins.includes(origin)) {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  }
}

/**
 * Preflights. Before the body is sent the app is unknown, so a preflight passes when some public app lists
 * the origin; the real response then carries Access-Control-Allow-Origin only for that app's own origins
 * (token endpoint: the client; API calls: the token's app). The origin list is cached for 30 s; an origin
 * missing from it is looked up, so new apps work at once and removals reach preflights within 30 s.
 */
@Injectable()
export class CorsPreflightMiddleware implements NestMiddleware {
  private cache: { origins: Set<string>; at: number } | null = null;

  // provided by OAuthModule (its repository by the core module, for every module); createApp mounts it as the
  // second Express middleware
  constructor(private readonly repo: CorsRepository) {}

  use(req: Request, res: Response, next: NextFunction): void | Promise<void> {
    const origin = req.headers.origin;
    // every other request passes straight on (synchronously: createApp mounts this before every route)
    if (req.method !== 'OPTIONS' || !origin || !req.headers['access-control-request-method']) return next();
    return this.preflight(origin, res);
  }

  private async preflight(origin: string, res: Response): Promise<void> {
    res.vary('Origin');
    if (!(await this.isKnown(origin))) {
      res.status(403).json({ errors: ['Origin not allowed'] });
      return;
    }
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE');
    res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
  }

  /**
   * The cached list answers at once; a miss is checked against the database, so an app registered a moment
   * ago works at once (a stale positive is harmless: the real response only allows the app's current origins).
   */
  private async isKnown(origin: string): Promise<boolean> {
    const known = await this.knownOrigins();
    if (known.has(origin)) return true;
    if (!(await this.repo.isAllowedOrigin(origin))) return false;
    known.add(origin);
    return true;
  }

  private async knownOrigins(): Promise<Set<string>> {
    if (this.cache && Date.now() - this.cache.at < 30_000) return this.cache.origins;
    this.cache = { origins: new Set(await this.repo.allowedOrigins()), at: Date.now() };
    return this.cache.origins;
  }
}
