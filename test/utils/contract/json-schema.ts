/**
 * OpenAPI 3.0 schema objects as JSON Schema (draft-07, what Ajv compiles by default), for checking
 * responses:
 *
 * - `nullable: true` becomes `anyOf: [{type: null}, <the rest>]`, so it also works around `allOf`/`$ref`
 *   and lets `null` through an `enum` (what generated clients do with a nullable enum);
 * - `$ref: '#/components/schemas/X'` points into the components, registered once as one schema;
 * - `writeOnly` properties are never required in a response (OpenAPI 3.0, "Fixed Fields": writeOnly);
 * - an object with `properties` and no `additionalProperties` is closed: a field the service sends but the
 *   document does not declare is a contract gap (clients generated from the document drop it silently).
 *   Not applied next to `allOf`/`oneOf`/`anyOf`, where closing one part would reject the others' fields;
 * - annotations (`description`, `example`, `readOnly`, `default`, …) are dropped, and OpenAPI 3.0's boolean
 *   `exclusiveMinimum`/`exclusiveMaximum` become draft-07 numbers.
 */

export type OpenApiSchema = Record<string, unknown>;
export type JsonSchema = Record<string, unknown> | boolean;

/** The `$id` under which the document's components are registered with Ajv. */
export const COMPONENTS_ID = 'openapi-components';

const REF_PREFIX = '#/components/schemas/';

/** Keywords that validate and mean the same in OpenAPI 3.0 and draft-07; everything else is dropped. */
const PLAIN = [
  'type',
  'format',
  'enum',
  'multipleOf',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
];

/** A `$ref` of the document as a reference into the registered components. */
export function componentRef(ref: string): string {
  if (!ref.startsWith(REF_PREFIX)) throw new Error(`unsupported $ref ${ref} (only ${REF_PREFIX}*)`);
  return `${COMPONENTS_ID}#/definitions/${ref.slice(REF_PREFIX.length)}`;
}

export function toJsonSchema(schema: OpenApiSchema | undefined): JsonSchema {
  if (!schema || typeof schema !== 'object') return true;
  if (typeof schema.$ref === 'string') return { $ref: componentRef(schema.$ref) }; // siblings ignored (3.0)
  const { nullable, ...rest } = schema;
  if (nullable === true) return { anyOf: [{ type: 'null' }, toJsonSchema(rest)] };

  const out: Record<string, unknown> = {};
  for (const k of PLAIN) if (k in schema) out[k] = schema[k];
  if (schema.exclusiveMinimum === true) {
    out.exclusiveMinimum = schema.minimum;
    delete out.minimum;
  }
  if (schema.exclusiveMaximum === true) {
    out.exclusiveMaximum = schema.maximum;
    delete out.maximum;
  }
  if (schema.items) out.items = toJsonSchema(schema.items as OpenApiSchema);
  for (const k of ['allOf', 'oneOf', 'anyOf'] as const) {
    if (Array.isArray(schema[k])) out[k] = (schema[k] as OpenApiSchema[]).map(toJsonSchema);
  }
  if (schema.not) out.not = toJsonSchema(schema.not as OpenApiSchema);

  const properties = schema.properties as Record<string, OpenApiSchema> | undefined;
  if (properties) {
    out.properties = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, toJsonSchema(v)]));
    const writeOnly = new Set(Object.keys(properties).filter((k) => properties[k]?.writeOnly === true));
    const required = ((schema.required as string[] | undefined) ?? []).filter((k) => !writeOnly.has(k));
    if (required.length) out.required = required;
  }
  if (schema.additionalProperties !== undefined) {
    const ap = schema.additionalProperties;
    out.additionalProperties = typeof ap === 'boolean' ? ap : toJsonSchema(ap as OpenApiSchema);
  } else if (properties && !schema.allOf && !schema.oneOf && !schema.anyOf) {
    out.additionalProperties = false;
  }
  return out;
}

/** The document's `components.schemas` as one JSON Schema, registered with Ajv under COMPONENTS_ID. */
export function componentsSchema(schemas: Record<string, OpenApiSchema>): Record<string, unknown> {
  return {
    $id: COMPONENTS_ID,
    definitions: Object.fromEntries(Object.entries(schemas).map(([k, v]) => [k, toJsonSchema(v)])),
  };
}
