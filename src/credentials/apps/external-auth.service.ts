import { Injectable } from '@nestjs/common';
import { fromAuth, type AuditOrigin } from '../../delivery/audit/audit-origin.js';
import { AppsErrors } from './apps.errors.js';
import { AccessService } from '../../base/common/auth/access.service.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { intersectCaps, type RightsCap } from '../../base/common/auth/rights.js';
import { sha256Hex } from '../../base/common/crypto/secrets.js';
import { TokensService } from '../tokens/tokens.service.js';
import { CredentialMintService } from '../mint/credential-mint.service.js';
import { Clock } from '../../base/common/clock.js';
import { isUniqueViolation } from '../../base/database/sql-helpers.js';
import type { AppInstanceEntity } from '../../base/model/app-instance.entity.js';
import type { AppEntity } from '../../base/model/app.entity.js';
import { AppsRepository } from './apps.repository.js';
import type {
  ApprovedAppInstanceDto,
  ExternalAuthDto,
  ExternalAuthRequestDto,
  ExternalAuthRequestResponseDto,
} from './dto/external-auth.dto.js';
import { wireDate } from '../../base/common/http/wire-date.js';

/** How long an approval waits to be collected. */
const COLLECT_WINDOW_MS = 10 * 60 * 1000;

/**
 * Hand-over of a token to a program that cannot show a sign-in page itself. The user approves (signed in);
 * the program collects once, with a secret only it and the user's approval know. Tokens are minted at
 * collection, so nothing that could be replayed is stored. Only service-account (PAT) apps: OAuth apps
 * have the authorization code flow for this.
 */
@Injectable()
export class ExternalAuthService {
  constructor(
    private readonly repo: AppsRepository,
    private readonly access: AccessService,
    private readonly tokens: TokensService,
    private readonly mint: CredentialMintService,
    private readonly clock: Clock,
  ) {}

  async approve(auth: AuthContext, body: ExternalAuthRequestDto): Promise<ExternalAuthRequestResponseDto> {
    const app = await this.resolveApp(auth, body.app_id, body.app_name);
    const rightsCap = this.mint.approvalCap(auth, app);
    const redirectInfo = body.redirect_info
      ? { url: body.redirect_info.url ?? null, headers: body.redirect_info.headers ?? null }
      : null;
    try {
      await this.repo.insertExternalAuth({
        secret_hash: sha256Hex(body.secret),
        system_domain_id: auth.systemDomainId,
        app_id: app.id,
        user_id: auth.userId,
        redirect_info: redirectInfo,
        rights_cap: rightsCap,
        expires: new Date(this.clock.now().getTime() + COLLECT_WINDOW_MS),
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw AppsErrors.SECRET_USED();
      throw e;
    }
    return { app_id: app.id, redirect_info: redirectInfo };
  }

  /** One collection per approval: the row is claimed with a conditional update, so two racers get one token. */
  async collect(secret: string, origin?: AuditOrigin): Promise<ExternalAuthDto> {
    return this.repo.transaction(async (em) => {
      const row = await this.repo.pendingExternalAuth(em, sha256Hex(secret), this.clock.now());
      if (!row) throw AppsErrors.PENDING_AUTHORIZATION_NOT_FOUND();
      const issued = await this.mint.externalAuth(em, row, origin);
      if (!(await this.repo.claimExternalAuth(em, row.id, issued.record.id)))
        throw AppsErrors.PENDING_AUTHORIZATION_NOT_FOUND();
      return {
        app_id: row.app_id,
        token: issued.token,
        date_created: wireDate(row.date_created),
        redirect_info: row.redirect_info,
      };
    });
  }

  async approveInstance(auth: AuthContext, body: ApprovedAppInstanceDto): Promise<ApprovedAppInstanceDto> {
    const app = await this.resolveApp(auth, body.app_id, undefined);
    const rightsCap = this.mint.approvalCap(auth, app);
    let row: AppInstanceEntity;
    try {
      row = await this.repo.insertInstance({
        id: body.id,
        app_id: app.id,
        user_id: auth.userId,
        system_domain_id: auth.systemDomainId,
        rights_cap: rightsCap,
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw AppsErrors.INSTANCE_APPROVED();
      throw e;
    }
    return { id: row.id, app_id: row.app_id, date_created: wireDate(row.date_created) };
  }

  /**
   * The approver collects the instance's token, once, within ten minutes, with a credential of the domain the
   * approval was made in. Anyone else (another user, an administrator, the approver signed in to another
   * domain) gets the 404 an unknown id gets: the route tells nobody else whether an id was approved.
   *
   * The token never carries more than the approver gave: its ceiling is the approval's, cut to what the
   * collecting credential carries now and to the app's ceiling now (the rule of the approval, checked again:
   * the app may have been set to act as someone else since).
   */
  async collectInstance(auth: AuthContext, id: string): Promise<ExternalAuthDto> {
    return this.repo.transaction(async (em) => {
      const row = await this.repo.pendingInstance(em, {
        id,
        userId: auth.userId,
        systemDomainId: auth.systemDomainId,
      });
      if (!row || this.clock.now().getTime() - new Date(row.date_created).getTime() > COLLECT_WINDOW_MS) {
        throw AppsErrors.PENDING_APPROVAL_NOT_FOUND();
      }
      const app = await this.repo.byId(row.app_id, em);
      if (!app) throw AppsErrors.PENDING_APPROVAL_NOT_FOUND();
      const rightsCap = intersectCaps(row.rights_cap, this.mint.approvalCap(auth, app)) as RightsCap;
      const issued = await this.mint.externalAuth(em, { ...row, rights_cap: rightsCap }, fromAuth(auth));
      if (!(await this.repo.claimInstance(em, id, issued.record.id)))
        throw AppsErrors.PENDING_APPROVAL_NOT_FOUND();
      return {
        app_id: row.app_id,
        token: issued.token,
        date_created: wireDate(row.date_created),
        redirect_info: null,
      };
    });
  }

  /**
   * Withdraws an approval: the instance's token is revoked. The approving user or an administrator of the
   * domain; to anyone else the instance is as unknown as an id never approved (404, no existence oracle).
   */
  async removeInstance(auth: AuthContext, id: string): Promise<void> {
    const row = await this.repo.instanceInDomain(auth.systemDomainId, id);
    if (!row || (!auth.isAdmin && row.user_id !== auth.userId)) throw AppsErrors.INSTANCE_NOT_FOUND();
    await this.repo.transaction(async (em) => {
      if (row.token_id) await this.tokens.revoke(row.token_id, { em, requestId: auth.requestId });
      await this.repo.removeInstance(em, id);
    });
  }

  private async resolveApp(
    auth: AuthContext,
    appId: string | undefined,
    appName: string | undefined,
  ): Promise<AppEntity> {
    let app: AppEntity | null = null;
    if (appId) {
      await this.access.require(auth, 'app', [appId]);
      app = await this.repo.byId(appId);
    } else if (appName) {
      app = await this.repo.byName(auth.systemDomainId, appName);
      if (!app) throw AppsErrors.NOT_FOUND();
    } else {
      throw AppsErrors.INVALID({ app_id: 'app_id or app_name is required' });
    }
    if (!app) throw AppsErrors.NOT_FOUND();
    if (app.type !== 'PAT')
      throw AppsErrors.INVALID({ app_id: 'OAuth apps use the authorization code flow' });
    return app;
  }
}
