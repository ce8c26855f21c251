/** The passkey specs' relying party and the WebAuthn challenges of a passkeys repository fake. */
import { jest } from '@jest/globals';
import type { WebauthnChallengeEntity } from '../../../src/base/model/passkey.entity.js';
import type { PasskeysConfig } from '../../../src/sign-in/passkeys/passkeys-config.js';
import type { ClaimedChallenge } from '../../../src/sign-in/passkeys/passkeys.repository.js';

/** The origin the software authenticators answer from. */
export const ORIGIN = 'http://localhost:3000';

/** The relying party: localhost, Portcullis, accepting ORIGIN. */
export const PASSKEYS_CONFIG: PasskeysConfig = { rpId: 'localhost', rpName: 'Portcullis', origins: [ORIGIN] };

/** A challenge as the repository issues it. */
type Row = Omit<WebauthnChallengeEntity, 'used_at' | 'user'>;

/**
 * The challenge methods of a passkeys repository fake, behaving as the table does: `issueChallenge` keeps a
 * row, `claimChallenge` hands it out once, for its ceremony, until it expires. `challenges` holds the rows.
 */
export function challengeStore() {
  const challenges = new Map<string, Row & { used: boolean }>();
  const claim = async (sha: string, kind: string, now: Date): Promise<ClaimedChallenge | null> => {
    const c = challenges.get(sha);
    if (!c || c.used || c.ceremony !== kind || c.expires <= now) return null;
    c.used = true;
    return { user_id: c.user_id, temp_token_id: c.temp_token_id, require_uv: c.require_uv };
  };
  const issue = async (r: Row, _now: Date) => void challenges.set(r.challenge_sha256, { ...r, used: false });
  return { challenges, issueChallenge: jest.fn(issue), claimChallenge: jest.fn(claim) };
}
