import SCIMMY from 'scimmy';

/** The URNs of RFC 7643 / 7644 this service speaks. */
export const SCIM = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  enterprise: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  list: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patch: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  config: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
} as const;

/** The most resources one list answer holds (ServiceProviderConfig's filter.maxResults). */
export const MAX_RESULTS = 200;

let extended = false;

/**
 * scimmy's schema classes (they parse, coerce and project resources, and apply PatchOps), the User one with
 * the enterprise extension: scimmy keeps schema definitions process-wide, so the extension is declared once.
 */
export function scimSchemas(): typeof SCIMMY.Schemas {
  if (!extended) {
    // the typings ask for an instance; scimmy takes the schema class (its own Resources.User.extend passes one)
    SCIMMY.Schemas.User.extend(SCIMMY.Schemas.EnterpriseUser as unknown as SCIMMY.Types.Schema, false);
    extended = true;
  }
  return SCIMMY.Schemas;
}

/** RFC 7644 §5: what this service supports, for the provider's discovery. */
export function serviceProviderConfig(base: string) {
  return {
    schemas: [SCIM.config],
    documentationUri: `${base.replace(/\/API\/scim\/v2$/, '')}/API/auth/spec/ui`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Provisioning token',
        description:
          'A bearer token from POST /API/auth/v1/system_domains/current/scim/tokens/ (a domain administrator)',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  };
}

/** RFC 7644 §6: the two resource types, User with the enterprise extension. */
export function resourceTypes(base: string) {
  const type = (id: 'User' | 'Group', schema: string, description: string, extensions: string[]) => ({
    schemas: [SCIM.resourceType],
    id,
    name: id,
    description,
    endpoint: `/${id}s`,
    schema,
    schemaExtensions: extensions.map((s) => ({ schema: s, required: false })),
    meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/${id}` },
  });
  return [
    type('User', SCIM.user, 'The people of the domain whose accounts it owns', [SCIM.enterprise]),
    type('Group', SCIM.group, 'The groups of the domain', []),
  ];
}

/** RFC 7643 §7: the schemas of User, the enterprise extension and Group, as scimmy describes them. */
export function schemaDescriptions(base: string): Record<string, unknown>[] {
  const s = scimSchemas();
  const at = `${base}/Schemas`;
  return [s.User, s.EnterpriseUser, s.Group].map((schema) => {
    // the User schema's description lists its extensions, which belong to the resource type, not the schema
    const { schemaExtensions: _ignored, ...described } = schema.definition.describe(at) as Record<
      string,
      unknown
    >;
    return described;
  });
}
