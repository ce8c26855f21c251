// The shared assertions of test/utils/fakes/ fail when they should: one that could not fail would let every
// spec that uses it pass whatever the code under test does.
import { jest } from '@jest/globals';
import { configProblems, expectConfigRefused } from './config.js';
import { construct } from './construct.js';
import { err, expectAudited, expectEvent, expectRethrown, expectUncalled } from './expect.js';
import { EM } from './fixtures.js';
import { expectPage } from './pages.js';

describe('the shared assertions of the unit specs', () => {
  it('expectUncalled passes while the methods are uncalled, and names the one that was called', () => {
    const fake = { insert: jest.fn(), remove: jest.fn() };
    expectUncalled(fake, 'insert', 'remove');
    fake.remove('g1');
    expect(() => expectUncalled(fake, 'insert', 'remove')).toThrow(/"remove"/);
    expectUncalled(fake, 'insert');
  });

  it('err matches the status and the code, and the wording when it is given', () => {
    const refusal = { status: 404, code: 'groups.NOT_FOUND', errors: ['Group not found'] };
    expect(refusal).toEqual(err(404, 'groups.NOT_FOUND'));
    expect(refusal).toEqual(err(404, 'groups.NOT_FOUND', ['Group not found']));
    expect(refusal).not.toEqual(err(403, 'groups.NOT_FOUND'));
    expect(refusal).not.toEqual(err(404, 'groups.NAME_TAKEN'));
    expect(refusal).not.toEqual(err(404, 'groups.NOT_FOUND', ['Other']));
  });

  it('expectEvent and expectAudited fail for another transaction, other fields or another caller', () => {
    const events = { record: jest.fn() };
    const audit = { change: jest.fn() };
    events.record(EM, { realm: 'group', operation: 'create', objectId: 'g1' });
    audit.change(EM, 'caller', 'group.changed', { type: 'group', id: 'g1' }, { operation: 'create' });
    expectEvent(events, EM, { operation: 'create' });
    expect(() => expectEvent(events, { em: 'other' }, { operation: 'create' })).toThrow();
    expect(() => expectEvent(events, EM, { operation: 'delete' })).toThrow();
    expectAudited(audit, EM, 'group.changed', { type: 'group', id: 'g1' }, { operation: 'create' });
    expectAudited(audit, EM, 'group.changed', { type: 'group', id: 'g1' }, { operation: 'create' }, 'caller');
    expect(() =>
      expectAudited(audit, EM, 'group.changed', { type: 'group', id: 'g2' }, { operation: 'create' }),
    ).toThrow();
    expect(() =>
      expectAudited(audit, EM, 'group.changed', { type: 'group', id: 'g1' }, { operation: 'create' }, 'x'),
    ).toThrow();
  });

  it('expectRethrown fails when the error is swallowed or answered with another', async () => {
    const fake = jest.fn(async () => 'ok');
    await expectRethrown(fake, () => fake());
    await expect(expectRethrown(fake, () => fake().catch(() => 'swallowed'))).rejects.toThrow();
    await expect(
      expectRethrown(fake, () => fake().catch(() => Promise.reject(new Error('another')))),
    ).rejects.toThrow();
  });

  it('expectPage fails for another status, or a page that does not say it', () => {
    const page = { status: 403, html: '<p>Request expired</p>' };
    expectPage(page, 403, 'Request expired');
    expect(() => expectPage(page, 400, 'Request expired')).toThrow();
    expect(() => expectPage(page, 403, 'Request expired', 'Sign out?')).toThrow();
  });

  it('configProblems and expectConfigRefused fail when the variables load, or are not named', () => {
    expect(configProblems({ PORT: 'abc' }).join('\n')).toContain('PORT');
    expectConfigRefused({ PORT: 'abc' }, 'PORT');
    expect(() => configProblems({})).toThrow('not refused');
    expect(() => expectConfigRefused({ PORT: 'abc' }, 'LOG_LEVEL')).toThrow();
  });

  it('construct hands the fakes to the constructor in their order', () => {
    class Service {
      constructor(
        readonly repo: { name: string },
        readonly clock: { now(): Date },
      ) {}
    }
    const clock = { now: () => new Date(0) };
    const service = construct(Service, { name: 'repo' }, clock);
    expect(service).toBeInstanceOf(Service);
    expect([service.repo, service.clock]).toEqual([{ name: 'repo' }, clock]);
  });
});
