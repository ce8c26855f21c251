import { jest } from '@jest/globals';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { WebhookDeliveryEntity } from '../../base/model/webhook-delivery.entity.js';
import type { WebhookEventEntity } from '../../base/model/webhook-event.entity.js';
import type { WebhookEntity } from '../../base/model/webhook.entity.js';
import type { CreateWebhookDto } from './dto/webhook.dto.js';
import { WebhooksService } from './webhooks.service.js';
import {
  authContext,
  fixedClock,
  recordingAudit,
  recordingEvents,
  repoWithTransaction,
} from '../../../test/utils/fakes.js';
import { EM, NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { expectAudited, expectEvent } from '../../../test/utils/fakes/expect.js';

const webhook = (over: Partial<WebhookEntity> = {}): WebhookEntity =>
  ({
    id: 'w1',
    system_domain_id: 'd1',
    url: 'https://hooks.example.com/in',
    event_type: 'assets',
    operation: null,
    realm: null,
    object_id: null,
    status: 'ENABLED',
    name: null,
    description: null,
    query: null,
    headers_sealed: null,
    secret_sealed: 'sealed(whsec_old)',
    consecutive_failures: 0,
    first_failed_at: null,
    last_error: null,
    last_payload: null,
    deleted_at: null,
    date_created: NOW,
    date_modified: NOW,
    ...over,
  }) as WebhookEntity;

const delivery = (over: Partial<WebhookDeliveryEntity> = {}): WebhookDeliveryEntity =>
  ({
    id: 'dl1',
    webhook_id: 'w1',
    event_id: 'ev1',
    status: 'FAILED',
    attempts: 3,
    response_code: 500,
    duration_ms: 12,
    error: 'boom',
    next_attempt_at: NOW,
    last_attempt_at: NOW,
    delivered_at: null,
    date_created: NOW,
    ...over,
  }) as WebhookDeliveryEntity;

const caller = (over: Partial<AuthContext> = {}) => authContext({ isAdmin: true, ...over });

const body = (over: Partial<CreateWebhookDto> = {}): CreateWebhookDto =>
  ({
    url: 'https://hooks.example.com/in',
    event_type: 'assets',
    status: 'ENABLED',
    ...over,
  }) as CreateWebhookDto;

function setup(stored: WebhookEntity | null = webhook(), { allowPrivate = false } = {}) {
  let row = stored;
  const repo = repoWithTransaction(EM, {
    manager: { default: true },
    inDomain: jest.fn(async (domain: string, id: string, _em?: unknown) =>
      row && row.id === id && row.system_domain_id === domain ? row : null,
    ),
    insertWebhook: jest.fn(async (_em: unknown, values: Partial<WebhookEntity>) => {
      row = webhook({ ...values, id: 'w-new' });
      return row;
    }),
    updateWebhook: jest.fn(async (_em: unknown, _id: string, changes: Partial<WebhookEntity>) => {
      row = { ...row!, ...changes } as WebhookEntity;
    }),
    giveUpPending: jest.fn(async () => undefined),
    delivery: jest.fn(async (): Promise<WebhookDeliveryEntity | null> => delivery()),
    requeueDelivery: jest.fn(async (_em: unknown, id: string, now: Date) =>
      delivery({ id, status: 'PENDING', next_attempt_at: now, delivered_at: null }),
    ),
    eventsByIds: jest.fn(async (ids: string[]) =>
      ids.map(
        (id) =>
          ({
            id,
            event_type: 'assets',
            realm: null,
            operation: 'create',
            object_id: 'o1',
            request_id: 'r0',
          }) as WebhookEventEntity,
      ),
    ),
  });
  const secrets = {
    newSecret: jest.fn(() => 'whsec_new'),
    seal: jest.fn((s: string) => `sealed(${s})`),
    sealHeaders: jest.fn((h: Record<string, string>) => (Object.keys(h).length ? JSON.stringify(h) : null)),
    openHeaders: jest.fn((s: string | null) => (s ? (JSON.parse(s) as Record<string, string>) : {})),
  };
  const events = recordingEvents();
  const audit = recordingAudit();
  const worker = { nudge: jest.fn() };
  const service = construct(
    WebhooksService,
    { allowPrivate } as never,
    fixedClock(NOW),
    secrets,
    events,
    audit,
    worker,
    repo,
  );
  return { service, repo, secrets, events, audit, worker, row: () => row };
}

const invalid = (field: string, message: string) =>
  expect.objectContaining({ status: 400, code: 'webhooks.INVALID', errors: { [field]: message } });
const notFound = expect.objectContaining({ status: 404, code: 'webhooks.NOT_FOUND' });

describe('WebhooksService.create', () => {
  it('stores the sealed secret and headers, answers the secret once, and tells the domain in the same transaction', async () => {
    const s = setup(null);
    const out = await s.service.create(caller(), body({ headers: { 'X-Team': 'a' } }));
    expect(s.repo.insertWebhook).toHaveBeenCalledWith(
      EM,
      expect.objectContaining({
        system_domain_id: 'd1',
        status: 'ENABLED',
        secret_sealed: 'sealed(whsec_new)',
        headers_sealed: JSON.stringify({ 'X-Team': 'a' }),
      }),
    );
    expect(out).toMatchObject({ id: 'w-new', secret: 'whsec_new', headers: { 'X-Team': 'a' } });
    expect(out).not.toHaveProperty('secret_sealed');
    expectAudited(s.audit, EM, 'webhook.changed', { type: 'webhook', id: 'w-new' }, { operation: 'create' });
    expectEvent(s.events, EM, {
      eventType: 'webhooks',
      operation: 'create',
      objectId: 'w-new',
      requestId: 'r1',
    });
    expect((s.events.record.mock.calls[0] as unknown[])[1]).not.toHaveProperty('data.secret');
  });

  it('FAILING on creation means ENABLED; DISABLED is taken as sent', async () => {
    let s = setup(null);
    await s.service.create(caller(), body({ status: 'FAILING' }));
    expect(s.repo.insertWebhook).toHaveBeenCalledWith(EM, expect.objectContaining({ status: 'ENABLED' }));
    s = setup(null);
    await s.service.create(caller(), body({ status: 'DISABLED' }));
    expect(s.repo.insertWebhook).toHaveBeenCalledWith(EM, expect.objectContaining({ status: 'DISABLED' }));
  });

  it('refuses status DELETED in a body (DELETE deletes), writing nothing', async () => {
    const s = setup(null);
    await expect(s.service.create(caller(), body({ status: 'DELETED' }))).rejects.toEqual(
      invalid('status', 'status DELETED is set by DELETE, not in a body'),
    );
    expect(s.repo.transaction).not.toHaveBeenCalled();
  });

  it.each([
    ['ftp://files.example.com/', 'url must use http or https'],
    ['not a url', 'url must be an absolute http or https URL'],
    ['https://user:pass@hooks.example.com/', 'url must not carry credentials (use headers)'],
    ['javascript:alert(1)', 'url must use http or https'],
    [
      'http://10.0.0.5/hook',
      'url must not target a private, loopback, link-local or otherwise non-public address',
    ],
  ])('refuses the url %s (400 naming url), writing nothing', async (url, message) => {
    const s = setup(null);
    await expect(s.service.create(caller(), body({ url }))).rejects.toEqual(invalid('url', message));
    expect(s.repo.transaction).not.toHaveBeenCalled();
  });

  it('a private address is allowed where the configuration allows it', async () => {
    const s = setup(null, { allowPrivate: true });
    await s.service.create(caller(), body({ url: 'http://10.0.0.5/hook' }));
    expect(s.repo.insertWebhook).toHaveBeenCalled();
  });
});

describe('WebhooksService.update', () => {
  it('changes only the fields given; nulls clear', async () => {
    const s = setup(webhook({ realm: 'metadata', name: 'n' }));
    const out = await s.service.update(caller(), 'w1', { realm: null, query: 'q' });
    expect(s.repo.updateWebhook).toHaveBeenCalledWith(EM, 'w1', { realm: null, query: 'q' });
    expect(out).toMatchObject({ realm: null, query: 'q', name: 'n' });
    expectEvent(s.events, EM, { operation: 'update' });
  });

  it('DISABLED gives up the pending deliveries, in the same transaction; back to ENABLED clears the failures', async () => {
    const s = setup(webhook({ status: 'FAILING', consecutive_failures: 4, first_failed_at: NOW }));
    const off = await s.service.update(caller(), 'w1', { status: 'DISABLED' });
    expect(off.status).toBe('DISABLED');
    expect(s.repo.giveUpPending).toHaveBeenCalledWith(EM, 'w1', 'disabled');
    const on = await s.service.update(caller(), 'w1', { status: 'ENABLED' });
    expect(on.status).toBe('ENABLED');
    expect(s.repo.updateWebhook).toHaveBeenLastCalledWith(EM, 'w1', {
      status: 'ENABLED',
      consecutive_failures: 0,
      first_failed_at: null,
    });
    expect(s.repo.giveUpPending).toHaveBeenCalledTimes(1);
  });

  it('a failing webhook asked to be FAILING (or active) stays FAILING, its failures kept', async () => {
    const s = setup(webhook({ status: 'FAILING', consecutive_failures: 4 }));
    await s.service.update(caller(), 'w1', { status: 'FAILING' });
    expect(s.repo.updateWebhook).not.toHaveBeenCalled();
    expect(s.row()?.status).toBe('FAILING');
  });

  it('DISABLED again gives up nothing more', async () => {
    const s = setup(webhook({ status: 'DISABLED' }));
    await s.service.update(caller(), 'w1', { status: 'DISABLED' });
    expect(s.repo.giveUpPending).not.toHaveBeenCalled();
  });

  it('validates like create: the url rule and status DELETED, before the transaction', async () => {
    const s = setup();
    await expect(s.service.update(caller(), 'w1', { url: 'gopher://x/' })).rejects.toEqual(
      invalid('url', 'url must use http or https'),
    );
    expect(s.repo.transaction).not.toHaveBeenCalled();
    await expect(s.service.update(caller(), 'w1', { status: 'DELETED' })).rejects.toEqual(
      invalid('status', 'status DELETED is set by DELETE, not in a body'),
    );
    expect(s.repo.updateWebhook).not.toHaveBeenCalled();
  });

  it('"[redacted]" sent back keeps the stored value (any case); for a header with none it is refused', async () => {
    const s = setup(
      webhook({ headers_sealed: JSON.stringify({ Authorization: 'Bearer keep-me', 'X-Team': 'a' }) }),
    );
    const out = await s.service.update(caller(), 'w1', {
      headers: { authorization: '[redacted]', 'X-Team': 'b' },
    });
    expect(s.secrets.sealHeaders).toHaveBeenLastCalledWith({
      authorization: 'Bearer keep-me',
      'X-Team': 'b',
    });
    expect(out.headers).toEqual({ authorization: '[redacted]', 'X-Team': 'b' });
    s.repo.updateWebhook.mockClear();
    await expect(
      s.service.update(caller(), 'w1', { headers: { 'X-Api-Key': '[redacted]' } }),
    ).rejects.toEqual(invalid('headers', 'headers "X-Api-Key" has no stored value to keep'));
    expect(s.repo.updateWebhook).not.toHaveBeenCalled();
  });

  it('another domain’s webhook, or a deleted one, is not found', async () => {
    let s = setup(webhook({ system_domain_id: 'd2' }));
    await expect(s.service.update(caller(), 'w1', { name: 'x' })).rejects.toEqual(notFound);
    s = setup(webhook({ status: 'DELETED' }));
    await expect(s.service.update(caller(), 'w1', { name: 'x' })).rejects.toEqual(notFound);
    expect(s.repo.updateWebhook).not.toHaveBeenCalled();
  });
});

describe('WebhooksService.remove and rotateSecret', () => {
  it('remove is soft: DELETED with deleted_at, pending deliveries given up, the event says DELETED', async () => {
    const s = setup();
    await s.service.remove(caller(), 'w1');
    expect(s.repo.updateWebhook).toHaveBeenCalledWith(EM, 'w1', { status: 'DELETED', deleted_at: NOW });
    expect(s.repo.giveUpPending).toHaveBeenCalledWith(EM, 'w1', 'deleted');
    expectEvent(s.events, EM, { operation: 'delete', data: expect.objectContaining({ status: 'DELETED' }) });
    // from then on it is not found
    await expect(s.service.get(caller(), 'w1')).rejects.toEqual(notFound);
  });

  it('a deleted webhook cannot be deleted again', async () => {
    const s = setup(webhook({ status: 'DELETED' }));
    await expect(s.service.remove(caller(), 'w1')).rejects.toEqual(notFound);
    expect(s.repo.giveUpPending).not.toHaveBeenCalled();
  });

  it('rotateSecret stores a new sealed secret and answers it once', async () => {
    const s = setup();
    const out = await s.service.rotateSecret(caller(), 'w1');
    expect(s.repo.updateWebhook).toHaveBeenCalledWith(EM, 'w1', { secret_sealed: 'sealed(whsec_new)' });
    expect(out).toMatchObject({ id: 'w1', secret: 'whsec_new' });
  });
});

describe('WebhooksService.replay', () => {
  it('queues the delivery again, due now, and nudges the worker after the transaction', async () => {
    const s = setup();
    const out = await s.service.replay(caller(), 'w1', 'dl1');
    expect(s.repo.delivery).toHaveBeenCalledWith(EM, 'w1', 'dl1');
    expect(s.repo.requeueDelivery).toHaveBeenCalledWith(EM, 'dl1', NOW);
    expect(out).toMatchObject({ id: 'dl1', status: 'PENDING', event_type: 'assets', delivered_at: null });
    expect(s.worker.nudge).toHaveBeenCalledTimes(1);
  });

  it('a disabled webhook replays nothing (409); an unknown delivery is a 404', async () => {
    let s = setup(webhook({ status: 'DISABLED' }));
    await expect(s.service.replay(caller(), 'w1', 'dl1')).rejects.toEqual(
      expect.objectContaining({ status: 409, code: 'webhooks.REPLAY_INACTIVE' }),
    );
    s = setup();
    s.repo.delivery.mockResolvedValueOnce(null);
    await expect(s.service.replay(caller(), 'w1', 'nope')).rejects.toEqual(
      expect.objectContaining({ status: 404, code: 'webhooks.DELIVERY_NOT_FOUND' }),
    );
    expect(s.repo.requeueDelivery).not.toHaveBeenCalled();
    expect(s.worker.nudge).not.toHaveBeenCalled();
  });
});
