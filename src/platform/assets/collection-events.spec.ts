import { CollectionEvents } from './collection-events.js';
import { authContext, recordingAudit, recordingEvents } from '../../../test/utils/fakes.js';
import { EM } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { expectAudited, expectEvent } from '../../../test/utils/fakes/expect.js';

function setup() {
  const order: string[] = [];
  const events = recordingEvents(order);
  const audit = recordingAudit(order);
  const service = construct(CollectionEvents, events, audit);
  return { service, events, audit, order };
}

describe('CollectionEvents', () => {
  it('records the webhook event and the audit record in the change’s transaction', async () => {
    const s = setup();
    const auth = authContext();
    await s.service.record(EM as never, auth, 'c1', 'update', {
      id: 'c1',
      title: 't',
      permissions: ['read'],
    });
    expect(s.order).toEqual(['event', 'audit']);
    expect(s.events.record).toHaveBeenCalledWith(EM, {
      systemDomainId: 'd1',
      objectId: 'c1',
      realm: 'collection',
      operation: 'update',
      eventType: 'collections',
      // the caller's permissions describe the caller, not the collection
      data: { id: 'c1', title: 't' },
      requestId: 'r1',
    });
    expectAudited(
      s.audit,
      EM,
      'collection.changed',
      { type: 'collection', id: 'c1' },
      { operation: 'update' },
      auth,
    );
  });

  it('an ACL change keeps the entry’s permissions: they are what changed', async () => {
    const s = setup();
    await s.service.record(EM as never, authContext(), 'c1', 'acl_change', {
      user_id: 'u2',
      permissions: ['read'],
    });
    expectEvent(s.events, EM, { data: { user_id: 'u2', permissions: ['read'] } });
  });
});
