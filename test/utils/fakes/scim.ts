/** The SCIM specs' service base, Ada's account and the Analysts group, as the SCIM repository reads them. */
import type { ScimUserRow } from '../../../src/sign-in/scim/scim.repository.js';
import { NOW } from './fixtures.js';

/** The SCIM endpoint's base URL the resources' locations start with. */
export const SCIM_BASE = 'https://id.example.test/API/scim/v2';
/** Ada's account. */
export const ADA_ID = '3f1c2a7e-9b4d-4c8e-a1f0-5d6e7b8c9a01';
/** The Analysts group. */
export const ANALYSTS_ID = '6a0e2b1c-1111-4222-8333-444455556666';

/** Ada's account: active, external id okta-00A1, no display name nor enterprise fields, stamped NOW. */
export const scimUserRow = (over: Partial<ScimUserRow> = {}): ScimUserRow => ({
  id: ADA_ID,
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  status: 'ACTIVE',
  date_created: NOW,
  date_modified: NOW,
  external_id: 'okta-00A1',
  display_name: null,
  enterprise: null,
  ...over,
});
