import type { ConfigOf } from '../../base/config/namespace.js';
import { WEBHOOK_CONFIG } from './webhook-config.js';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Clock } from '../../base/common/clock.js';
import type { ListEnvelope } from '../../base/common/http/list-envelope.js';
import { pageList } from '../../base/common/http/page-list.js';
import type {
  CreateWebhookDto,
  DeliveryListQueryDto,
  UpdateWebhookDto,
  WebhookDeliveryDto,
  WebhookDto,
  WebhookListQueryDto,
  WebhookWithSecretDto,
} from './dto/webhook.dto.js';
import type { WebhookEventEntity } from '../../base/model/webhook-event.entity.js';
import { WebhookEventsService } from '../events/webhook-events.service.js';
import { REDACTED, WebhookSecrets } from './webhook-secrets.js';
import { deliveryView, webhookView } from './webhook-view.js';
import { WebhookWorker } from './webhook-worker.service.js';
import type { WebhookEntity, WebhookStatus } from '../../base/model/webhook.entity.js';
import { WebhooksErrors } from './webhooks.errors.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { urlProblem } from './target-address.js';
import { AuditService } from '../audit/audit.service.js';

const SORTABLE = ['date_created', 'date_modified', 'name', 'event_type', 'status', 'url'] as const;
const DELIVERY_SORTABLE = ['date_created', 'status', 'last_attempt_at'] as const;

/** What a webhook change tells other webhooks of the domain (event_type `webhooks`). */
export const WEBHOOK_EVENT_TYPE = 'webhooks';

/**
 * Webhooks of the caller's domain (every query filters by it): registration with the SSRF rule, the signing
 * secret shown once, soft deletion, the delivery log and replay. Changes to webhooks are themselves events
 * (event_type `webhooks`, operation create, update, delete), recorded in the change's transaction.
 */
@Injectable()
export class WebhooksService {
  constructor(
    @Inject(WEBHOOK_CONFIG.token) private readonly webhooksConfig: ConfigOf<typeof WEBHOOK_CONFIG>,
    private readonly clock: Clock,
    private readonly secrets: WebhookSecrets,
    private readonly events: WebhookEventsService,
    private readonly audit: AuditService,
    private readonly worker: WebhookWorker,
    private readonly repo: WebhooksRepository,
  ) {}

  async list(auth: AuthContext, q: WebhookListQueryDto, path: string): Promise<ListEnvelope<WebhookDto>> {
    return pageList({
      qb: this.repo.search(auth.systemDomainId, { status: q.status, eventType: q.event_type }),
      alias: 'w',
      q,
      sortable: SORTABLE,
      defaultSort: [{ field: 'date_created', order: 'DESC' }],
      path,
      query: { status: q.status, event_type: q.event_type },
      view: (rows) => rows.map((w) => this.view(w)),
    });
  }

  async get(auth: AuthContext, id: string): Promise<WebhookDto> {
    return this.view(await this.find(this.repo.manager, auth, id));
  }

  async create(auth: AuthContext, body: CreateWebhookDto): Promise<WebhookWithSecretDto> {
    this.checkUrl(body.url);
    const status = this.requestedStatus(body.status, 'ENABLED');
    const secret = this.secrets.newSecret();
    return this.repo.transaction(async (em) => {
      const webhook = await this.repo.insertWebhook(em, {
        system_domain_id: auth.systemDomainId,
        url: body.url,
        event_type: body.event_type,
        operation: body.operation ?? null,
        realm: body.realm ?? null,
        object_id: body.object_id ?? null,
        status,
        name: body.name ?? null,
        description: body.description ?? null,
        query: body.query ?? null,
        headers_sealed: this.secrets.sealHeaders(body.headers ?? {}),
        secret_sealed: this.secrets.seal(secret),
      });
      const view = this.view(await this.find(em, auth, webhook.id));
      await this.emit(em, auth, view, 'create');
      return { ...view, secret };
    });
  }

  async update(auth: AuthContext, id: string, body: UpdateWebhookDto): Promise<WebhookDto> {
    if (body.url !== undefined) this.checkUrl(body.url);
    return this.repo.transaction(async (em) => {
      const current = await this.find(em, auth, id);
      const changes: Partial<WebhookEntity> = {};
      for (const k of [
        'url',
        'event_type',
        'operation',
        'realm',
        'object_id',
        'name',
        'description',
      ] as const) {
        if (body[k] !== undefined) (changes as Record<string, unknown>)[k] = body[k];
      }
      if (body.query !== undefined) changes.query = body.query;
      if (body.headers !== undefined)
        changes.headers_sealed = this.secrets.sealHeaders(this.mergeHeaders(current, body.headers));
      if (body.status !== undefined) {
        const status = this.requestedStatus(body.status, current.status);
        if (status !== current.status || body.status === 'ENABLED') {
          changes.status = status;
          if (status === 'ENABLED')
            Object.assign(changes, { consecutive_failures: 0, first_failed_at: null });
        }
        if (status === 'DISABLED' && current.status !== 'DISABLED')
          await this.repo.giveUpPending(em, id, 'disabled');
      }
      if (Object.keys(changes).length > 0) await this.repo.updateWebhook(em, id, changes);
      const view = this.view(await this.find(em, auth, id));
      await this.emit(em, auth, view, 'update');
      return view;
    });
  }

  /** Soft: status DELETED and deleted_at; pending deliveries are given up, and the webhook answers 404 from now on. */
  async remove(auth: AuthContext, id: string): Promise<void> {
    await this.repo.transaction(async (em) => {
      const current = await this.find(em, auth, id);
      await this.repo.updateWebhook(em, id, { status: 'DELETED', deleted_at: this.clock.now() });
      await this.repo.giveUpPending(em, id, 'deleted');
      await this.emit(em, auth, { ...this.view(current), status: 'DELETED' }, 'delete');
    });
  }

  /** A new signing secret, shown once; the old one stops signing at once. */
  async rotateSecret(auth: AuthContext, id: string): Promise<WebhookWithSecretDto> {
    const secret = this.secrets.newSecret();
    return this.repo.transaction(async (em) => {
      await this.find(em, auth, id);
      await this.repo.updateWebhook(em, id, { secret_sealed: this.secrets.seal(secret) });
      return { ...this.view(await this.find(em, auth, id)), secret };
    });
  }

  async deliveries(
    auth: AuthContext,
    id: string,
    q: DeliveryListQueryDto,
    path: string,
  ): Promise<ListEnvelope<WebhookDeliveryDto>> {
    await this.find(this.repo.manager, auth, id);
    return pageList({
      qb: this.repo.deliveriesOf(id, q.status),
      alias: 'd',
      q,
      sortable: DELIVERY_SORTABLE,
      defaultSort: [{ field: 'date_created', order: 'DESC' }],
      path,
      query: { status: q.status },
      view: async (rows) => {
        const events = await this.eventsOf(rows.map((r) => r.event_id));
        return rows.map((d) => deliveryView(d, events.get(d.event_id) as WebhookEventEntity));
      },
    });
  }

  /** Queues one delivery again (whatever its state), due now; answers it as queued. */
  async replay(auth: AuthContext, id: string, deliveryId: string): Promise<WebhookDeliveryDto> {
    const view = await this.repo.transaction(async (em) => {
      const webhook = await this.find(em, auth, id);
      if (webhook.status === 'DISABLED') throw WebhooksErrors.REPLAY_INACTIVE();
      const delivery = await this.repo.delivery(em, id, deliveryId);
      if (!delivery) throw WebhooksErrors.DELIVERY_NOT_FOUND();
      const updated = await this.repo.requeueDelivery(em, deliveryId, this.clock.now());
      const events = await this.eventsOf([updated.event_id], em);
      return deliveryView(updated, events.get(updated.event_id) as WebhookEventEntity);
    });
    this.worker.nudge();
    return view;
  }

  private async find(em: EntityManager, auth: AuthContext, id: string): Promise<WebhookEntity> {
    const webhook = await this.repo.inDomain(auth.systemDomainId, id, em);
    if (!webhook || webhook.status === 'DELETED') throw WebhooksErrors.NOT_FOUND();
    return webhook;
  }

  private view(w: WebhookEntity): WebhookDto {
    return webhookView(w, WebhookSecrets.redact(this.secrets.openHeaders(w.headers_sealed)));
  }

  private checkUrl(url: string): void {
    const problem = urlProblem(url, this.webhooksConfig.allowPrivate);
    if (problem) throw WebhooksErrors.INVALID({ url: `url ${problem}` });
  }

  /** ENABLED and DISABLED as sent; FAILING means "active" (a failing webhook stays FAILING); DELETED only by DELETE. */
  private requestedStatus(requested: string, current: WebhookStatus): WebhookStatus {
    if (requested === 'DELETED') {
      throw WebhooksErrors.INVALID({ status: 'status DELETED is set by DELETE, not in a body' });
    }
    if (requested === 'FAILING') return current === 'FAILING' ? 'FAILING' : 'ENABLED';
    return requested as WebhookStatus;
  }

  /** "[redacted]" sent back for a credential header keeps its stored value (a GET-then-PUT round trip). */
  private mergeHeaders(current: WebhookEntity, next: Record<string, string>): Record<string, string> {
    const stored = this.secrets.openHeaders(current.headers_sealed);
    const byName = new Map(Object.entries(stored).map(([k, v]) => [k.toLowerCase(), v]));
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(next)) {
      if (value !== REDACTED) {
        out[name] = value;
        continue;
      }
      const kept = byName.get(name.toLowerCase());
      if (kept === undefined) {
        throw WebhooksErrors.INVALID({ headers: `headers "${name}" has no stored value to keep` });
      }
      out[name] = kept;
    }
    return out;
  }

  private async emit(
    em: EntityManager,
    auth: AuthContext,
    view: WebhookDto,
    operation: string,
  ): Promise<void> {
    await this.audit.change(em, auth, 'webhook.changed', { type: 'webhook', id: view.id }, { operation });
    await this.events.record(em, {
      systemDomainId: auth.systemDomainId,
      objectId: view.id,
      realm: null,
      operation,
      eventType: WEBHOOK_EVENT_TYPE,
      data: { ...view },
      requestId: auth.requestId,
    });
  }

  private async eventsOf(ids: string[], em?: EntityManager): Promise<Map<string, WebhookEventEntity>> {
    if (ids.length === 0) return new Map();
    const rows = await this.repo.eventsByIds(ids, em);
    return new Map(rows.map((e) => [e.id, e]));
  }
}
