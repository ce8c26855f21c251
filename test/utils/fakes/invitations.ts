/** The invitation specs' fakes: the users' seat rules (a mocked module), the mail and events in order. */
import { jest } from '@jest/globals';
import { sha256Hex } from '../../../src/base/common/crypto/secrets.js';
import { NOW } from './fixtures.js';

/**
 * The seat rules of seat-limits.ts for `jest.unstable_mockModule` (`module`): `arm(order)` makes lockDomain and
 * assertSeat push 'lock' and 'seat' into the order, their calls forgotten.
 */
export function seatRules() {
  const seats = {
    lockDomain: jest.fn(async (_em: unknown, _d: string) => undefined),
    assertSeat: jest.fn(
      async (_em: unknown, _d: string, _type: string, _o: Record<string, unknown>) => undefined,
    ),
  };
  const module = {
    SEAT_LIMIT: { STANDARD: 'standard_users', POWER: 'power_users', BROWSE: 'browse_users' },
    ...seats,
  };
  const arm = (order: string[]) => {
    seats.lockDomain.mockReset().mockImplementation(async () => void order.push('lock'));
    seats.assertSeat.mockReset().mockImplementation(async () => void order.push('seat'));
  };
  return { ...seats, module, arm };
}

/** That the first seat asked for was of `type` in d1, pending invitations counted, with the options `more`. */
export const expectSeatAsked = (seats: ReturnType<typeof seatRules>, type: string, more: object = {}) =>
  expect(seats.assertSeat.mock.calls[0].slice(1)).toEqual([
    'd1',
    type,
    { now: NOW, countPending: true, ...more },
  ]);

/** A MailService fake whose queue pushes 'mail:<to>' into the order. */
const orderedMail = (order: string[]) => ({
  queue: jest.fn(async (_em: unknown, m: { to: string; body: string }) => void order.push(`mail:${m.to}`)),
});

/**
 * The mail and the webhook events an invitation flow writes, pushed into the order as they are written:
 * 'mail:<to>' and 'event:<realm>:<operation>:<objectId>'.
 */
export const mailAndEvents = (order: string[]) => ({
  mail: orderedMail(order),
  events: {
    record: jest.fn(async (_em: unknown, e: { realm: string; operation: string; objectId: string }) => {
      order.push(`event:${e.realm}:${e.operation}:${e.objectId}`);
    }),
  },
});

/** The secret of the invitation link the first mail queued carries. */
export const mailedSecret = (mail: ReturnType<typeof orderedMail>) =>
  /\/invitation\/([\w-]+)/.exec(mail.queue.mock.calls[0][1].body)![1];

/**
 * That one invitation of `type` was stored for d1 by u1, holding a seat of its type, and that its link's secret
 * was mailed with only the secret's hash stored: the row and the secret, for what a spec checks further.
 */
export function expectInvitationMailed(
  s: { repo: { insertInvitation: jest.Mock<any> }; mail: ReturnType<typeof orderedMail> },
  seats: ReturnType<typeof seatRules>,
  type: string,
) {
  expectSeatAsked(seats, type);
  const row = s.repo.insertInvitation.mock.calls[0][1];
  const secret = mailedSecret(s.mail);
  expect(row).toMatchObject({
    system_domain_id: 'd1',
    type,
    inviter_user_id: 'u1',
    reset_hash_sha256: sha256Hex(secret),
  });
  return { row, secret };
}
