import { Inject, Injectable } from '@nestjs/common';
import { AppsErrors } from './apps.errors.js';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { excess, rightsOfCap, type RightsCap } from '../../base/common/auth/rights.js';
import { cursorPage } from '../../base/common/http/cursor-page.js';
import type { ListEnvelope } from '../../base/common/http/list-envelope.js';
import type { CursorQueryDto } from '../../base/common/http/pagination.dto.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import type { TokenDto } from '../tokens/dto/token.dto.js';
import { TokenQueriesService } from '../tokens/token-queries.service.js';
import { CredentialMintService } from '../mint/credential-mint.service.js';
import { ActingRightsService } from '../tokens/acting-rights.service.js';
import { type AppShape, checkScenario, normalizeOrigins, normalizeRedirectUris } from './app-rules.js';
import { appView } from './app-view.js';
import { ClientRegistry } from './client-registry.js';
import { Clock } from '../../base/common/clock.js';
import type { AppEntity } from '../../base/model/app.entity.js';
import { AppsRepository } from './apps.repository.js';
import { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import type { AppDto, CreateAppDto, CreatedAppDto, UpdateAppDto } from './dto/app.dto.js';
import { AuditService } from '../../delivery/audit/audit.service.js';

const APP_ACTIONS = { create: 'app.created', update: 'app.changed', delete: 'app.deleted' } as const;

@Injectable()
export class AppsService {
  constructor(
    private readonly repo: AppsRepository,
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
    private readonly rights: ActingRightsService,
    private readonly mint: CredentialMintService,
    private readonly tokenQueries: TokenQueriesService,
    private readonly clients: ClientRegistry,
    private readonly clock: Clock,
    private readonly events: WebhookEventsService,
    private readonly audit: AuditService,
  ) {}

  list(auth: AuthContext, q: CursorQueryDto, path: string): Promise<ListEnvelope<AppDto>> {
    const base = () => this.repo.inDomain(auth.systemDomainId);
    return cursorPage(base, 'a', q, path, (rows) => rows.map(appView));
  }

  async get(auth: AuthContext, id: string): Promise<AppEntity> {
    const app = await this.repo.findInDomain(auth.systemDomainId, id);
    if (!app) throw AppsErrors.NOT_FOUND();
    return app;
  }

  async create(auth: AuthContext, body: CreateAppDto): Promise<CreatedAppDto> {
    const shape = this.shape(body, { type: body.type ?? 'PAT' });
    const cap = await this.actingCap(auth, shape.default_user_id);
    const secret =
      shape.type === 'OAUTH' && shape.oauth_client_type === 'confidential'
        ? await this.mint.clientSecret(auth, {
            default_user_id: shape.default_user_id,
            acting_rights_cap: cap,
          })
        : null;
    const name = this.checkName(body.name);
    const url = this.checkUrl(body.url);
    const saved = await this.repo.transaction(async (em) => {
      const app = await this.repo.create(em, {
        ...shape,
        system_domain_id: auth.systemDomainId,
        name,
        description: body.description ?? null,
        url,
        client_secret_hash: secret?.hash ?? null,
        acting_rights_cap: cap,
        created_by_user_id: auth.userId,
      });
      await this.emit(em, auth, app, 'create');
      return app;
    });
    return { ...appView(saved), ...(secret ? { client_secret: secret.secret } : {}) };
  }

  /**
   * PUT and PATCH: the given fields change; `type` never does. Moving a client from public to confidential
   * generates its first secret, and a confidential client whose acting user or ceiling changes to more gets a
   * new one (the old one stops), shown in this response; moving to public drops the secret.
   */
  async update(auth: AuthContext, id: string, body: UpdateAppDto): Promise<CreatedAppDto> {
    const app = await this.get(auth, id);
    await this.requireNotOutranked(auth, app);
    const shape = this.shape(body, app);
    // who the app acts as and how it authenticates are set by administrators, like creation itself:
    // otherwise can_write_apps could point a backend service at an administrator and mint its secret
    if (
      !auth.isAdmin &&
      (shape.default_user_id !== app.default_user_id || shape.oauth_client_type !== app.oauth_client_type)
    ) {
      throw AppsErrors.ACTING_USER_ADMIN_ONLY();
    }
    // naming the acting user again (even the same one) records a new ceiling: how an administrator who
    // holds the rights lets an app follow its user's promotion
    const cap =
      body.default_user_id !== undefined ? await this.actingCap(auth, shape.default_user_id) : undefined;
    // A secret is minted, for the app as it will be and for a caller who holds all its credentials can carry,
    // on a move to confidential, and when a confidential client comes to act as someone else or under a wider
    // ceiling: whoever held the old secret did not necessarily hold the new rights, so it stops working. A
    // move away from confidential drops the secret.
    let secret: { secret: string; hash: string } | null = null;
    let secretHash: string | null | undefined;
    const nextCap = cap !== undefined ? cap : app.acting_rights_cap;
    const widened =
      shape.default_user_id !== app.default_user_id ||
      excess(rightsOfCap(nextCap ?? []), rightsOfCap(app.acting_rights_cap ?? [])).length > 0;
    if (
      app.oauth_client_type !== shape.oauth_client_type ||
      (shape.oauth_client_type === 'confidential' && shape.default_user_id && widened)
    ) {
      secret =
        shape.oauth_client_type === 'confidential'
          ? await this.mint.clientSecret(auth, {
              default_user_id: shape.default_user_id,
              acting_rights_cap: nextCap,
            })
          : null;
      secretHash = secret?.hash ?? null;
    }
    Object.assign(app, shape, {
      ...(body.name !== undefined ? { name: this.checkName(body.name) } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.url !== undefined ? { url: this.checkUrl(body.url) } : {}),
      ...(secretHash !== undefined ? { client_secret_hash: secretHash } : {}),
      ...(cap !== undefined ? { acting_rights_cap: cap } : {}),
    });
    const saved = await this.repo.transaction(async (em) => {
      const row = await this.repo.save(em, app);
      await this.emit(em, auth, row, 'update');
      if (secret) await this.audit.change(em, auth, 'app.secret_rotated', { type: 'app', id: row.id });
      return row;
    });
    await this.clients.changed(app.id);
    return { ...appView(saved), ...(secret ? { client_secret: secret.secret } : {}) };
  }

  /**
   * A new client secret for a confidential OAuth client; the old one stops working at once (on every
   * instance: the client registry is told). The secret is shown in this response only.
   */
  async rotateSecret(auth: AuthContext, id: string): Promise<CreatedAppDto> {
    const app = await this.get(auth, id);
    await this.requireNotOutranked(auth, app);
    if (app.type !== 'OAUTH' || app.oauth_client_type !== 'confidential') throw AppsErrors.NO_CLIENT_SECRET();
    const secret = await this.mint.clientSecret(auth, app);
    const saved = await this.repo.transaction(async (em) => {
      const row = await this.repo.save(em, Object.assign(app, { client_secret_hash: secret.hash }));
      await this.emit(em, auth, row, 'update');
      await this.audit.change(em, auth, 'app.secret_rotated', { type: 'app', id: row.id });
      return row;
    });
    await this.clients.changed(app.id);
    return { ...appView(saved), client_secret: secret.secret };
  }

  async remove(auth: AuthContext, id: string): Promise<void> {
    const app = await this.get(auth, id);
    await this.requireNotOutranked(auth, app);
    // its tokens go with it (ON DELETE CASCADE), so they stop working on the next request
    await this.repo.transaction(async (em) => {
      await this.repo.remove(em, app.id);
      await this.emit(em, auth, app, 'delete');
    });
    await this.clients.changed(app.id);
  }

  /** The webhook event of a change to an app, in the change's transaction: the app as the API shows it. */
  private async emit(
    em: EntityManager,
    auth: AuthContext,
    app: AppEntity,
    operation: 'create' | 'update' | 'delete',
  ): Promise<void> {
    await this.audit.change(
      em,
      auth,
      APP_ACTIONS[operation],
      { type: 'app', id: app.id },
      { type: app.type },
    );
    await this.events.record(em, {
      systemDomainId: app.system_domain_id,
      objectId: app.id,
      realm: 'app',
      operation,
      eventType: 'apps',
      data: operation === 'delete' ? { id: app.id } : { ...appView(app) },
      requestId: auth.requestId,
    });
  }

  /** A personal access token for a service account (CredentialMintService.pat decides who may). */
  async issuePat(auth: AuthContext, appId: string, expiresIn: number | undefined): Promise<TokenDto> {
    const app = await this.get(auth, appId);
    if (app.type !== 'PAT') throw AppsErrors.PAT_FOR_OAUTH_APP();
    const issued = await this.mint.pat(auth, app, expiresIn);
    return { ...(await this.tokenQueries.view(issued.record)), token: issued.token };
  }

  /** A token of this app for the caller themself, within their own rights (CredentialMintService.currentUser). */
  async issueCurrentUserToken(auth: AuthContext, appId: string): Promise<TokenDto> {
    const app = await this.get(auth, appId);
    const issued = await this.mint.currentUser(auth, app);
    return { ...(await this.tokenQueries.view(issued.record)), token: issued.token };
  }

  private shape(body: UpdateAppDto, current: Partial<AppShape> & { type: AppShape['type'] }): AppShape {
    const redirect = normalizeRedirectUris(body.redirect_uris ?? current.redirect_uris ?? []);
    const origins = normalizeOrigins(body.allowed_origins ?? current.allowed_origins ?? []);
    const postLogout = normalizeRedirectUris(
      body.post_logout_redirect_uris ?? current.post_logout_redirect_uris ?? [],
    );
    const errors: Record<string, string> = {};
    if (redirect.error) errors.redirect_uris = redirect.error;
    if (postLogout.error) errors.post_logout_redirect_uris = postLogout.error;
    if (origins.error) errors.allowed_origins = origins.error;
    if (Object.keys(errors).length) throw AppsErrors.INVALID(errors);
    const shape: AppShape = {
      type: current.type,
      oauth_client_type:
        body.oauth_client_type !== undefined ? body.oauth_client_type : (current.oauth_client_type ?? null),
      default_user_id:
        body.default_user_id !== undefined ? body.default_user_id : (current.default_user_id ?? null),
      allowed_scopes: [...new Set(body.allowed_scopes ?? current.allowed_scopes ?? [])],
      redirect_uris: redirect.uris,
      allowed_origins: origins.origins,
      post_logout_redirect_uris: postLogout.uris,
    };
    checkScenario(shape);
    return shape;
  }

  /** The name is required and shown on the consent screen: blank after trimming is no name. */
  private checkName(name: string): string {
    const trimmed = name.trim();
    if (trimmed === '') throw AppsErrors.INVALID({ name: 'must not be blank' });
    return trimmed;
  }

  private checkUrl(url: string | null | undefined): string | null {
    if (url === undefined || url === null || url.trim() === '') return null;
    try {
      const u = new URL(url.trim());
      if (u.protocol === 'http:' || u.protocol === 'https:') return u.toString();
    } catch {
      /* fall through */
    }
    throw AppsErrors.INVALID({ url: 'must be an http(s) URL' });
  }

  /**
   * Every change to an app (PUT, PATCH, DELETE, a secret rotation) is refused (403) when its acting user
   * outranks the caller, judged as for issuing its PAT: rights in this domain the caller's credential does
   * not hold, or a domain the caller does not administer. Otherwise a domain administrator could open a super
   * administrator's backend service to their own redirect URI, point it elsewhere or delete it.
   */
  private async requireNotOutranked(auth: AuthContext, app: AppEntity): Promise<void> {
    if (!app.default_user_id) return;
    const acting = await this.rights.rightsOf(app.default_user_id, auth.systemDomainId);
    if (!acting) return;
    const beyond = await this.rights.beyondCaller(auth, app.default_user_id, acting);
    if (beyond.length) throw AppsErrors.ACTING_USER_OUTRANKS_CALLER(beyond);
  }

  /**
   * The ceiling an app acting as `userId` gets: that user's rights, which must be within the caller's
   * (otherwise 403). Null when the app acts as nobody.
   */
  private async actingCap(auth: AuthContext, userId: string | null): Promise<RightsCap | null> {
    if (!userId) return null;
    return this.rights.requireWithinCaller(auth, userId, 'make an app act as this user');
  }
}
