import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { ApiError } from '../../base/common/errors/api-error.js';
import { pageList } from '../../base/common/http/page-list.js';
import type { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import type {
  AuthenticatorRepository,
  AuthenticatorRow,
} from '../../base/database/authenticator-repository.js';
import type { AuditService } from '../../delivery/audit/audit.service.js';
import { auditedChange } from './authenticator-change.js';

/**
 * The administration every tenant-configured authenticator shares (a domain's directories, its OpenID
 * providers): the page list, one, delete, and the save with its audit record (`<kind>.changed`, which fans out
 * to webhooks, never with the values), all in the caller's own domain. A subclass builds and judges its rows
 * and says how one is shown (`view`, with the email domains bound to it).
 */
export abstract class AuthenticatorAdmin<E extends AuthenticatorRow, D> {
  protected abstract readonly repo: AuthenticatorRepository<E>;
  protected abstract readonly audit: AuditService;
  protected abstract readonly kind: 'directory' | 'oidc_provider';
  protected abstract readonly sortable: readonly string[];
  protected abstract notFound(): ApiError;
  protected abstract view(row: E, domains: string[]): D;

  async list(auth: AuthContext, q: PageQueryDto, path: string): Promise<unknown> {
    return pageList({
      qb: this.repo.listQuery(auth.systemDomainId),
      alias: this.repo.alias,
      q,
      sortable: this.sortable,
      defaultSort: [{ field: 'date_created', order: 'ASC' }],
      path,
      view: (rows) => this.views(rows),
    });
  }

  async get(auth: AuthContext, id: string): Promise<D> {
    return (await this.views([await this.find(auth, id)]))[0];
  }

  async remove(auth: AuthContext, id: string): Promise<void> {
    const row = await this.find(auth, id);
    await auditedChange(this.repo, this.audit, auth, this.kind, 'delete', async (em) => {
      await this.repo.remove(em, row.id);
      return row;
    });
  }

  protected async find(auth: AuthContext, id: string): Promise<E> {
    const row = await this.repo.inDomain(id, auth.systemDomainId);
    if (!row) throw this.notFound();
    return row;
  }

  /** Saves the row and its audit record in one transaction; the answer is the row as now stored. */
  protected async saved(auth: AuthContext, row: E, operation: 'create' | 'update'): Promise<D> {
    const saved = await auditedChange(this.repo, this.audit, auth, this.kind, operation, (em) =>
      this.repo.save(em, row),
    );
    return this.get(auth, saved.id);
  }

  private async views(rows: E[]): Promise<D[]> {
    const bound = await this.repo.domainsOf(rows.map((r) => r.id));
    return rows.map((r) =>
      this.view(
        r,
        bound.filter((b) => b.id === r.id).map((b) => b.domain),
      ),
    );
  }
}
