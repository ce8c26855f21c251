/** The operations of an OpenAPI 3.0 document, with their parameters and body schema ($refs resolved). */
export interface Schema {
  type?: string;
  format?: string;
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  $ref?: string;
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  additionalProperties?: boolean | Schema;
}

export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  pathParams: string[];
  query: { name: string; schema: Schema }[];
  body: { contentType: string; schema: Schema } | null;
  /** Whether the document declares a security requirement (the route needs a credential). */
  secured: boolean;
}

type Doc = {
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, Schema> };
};
type OperationObject = {
  parameters?: { in: string; name: string; schema?: Schema }[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
  security?: unknown[];
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export function operationsOf(doc: Doc): Operation[] {
  const resolve = (s: Schema | undefined, depth = 0): Schema => {
    if (!s || depth > 8) return {};
    if (s.$ref) return resolve(doc.components?.schemas?.[s.$ref.split('/').pop() as string], depth + 1);
    const out: Schema = { ...s };
    if (s.allOf) {
      const parts = s.allOf.map((p) => resolve(p, depth + 1));
      out.properties = Object.assign({}, ...parts.map((p) => p.properties ?? {}), s.properties ?? {});
      out.required = parts.flatMap((p) => p.required ?? []).concat(s.required ?? []);
      out.type = 'object';
      delete out.allOf;
    }
    if (out.properties) {
      out.properties = Object.fromEntries(
        Object.entries(out.properties).map(([k, v]) => [k, resolve(v, depth + 1)]),
      );
    }
    if (out.items) out.items = resolve(out.items, depth + 1);
    return out;
  };
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const params = op.parameters ?? [];
      const content = op.requestBody?.content ?? {};
      const contentType = Object.keys(content)[0];
      ops.push({
        method,
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        query: params
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, schema: resolve(p.schema) })),
        body: contentType ? { contentType, schema: resolve(content[contentType].schema) } : null,
        secured: (op.security ?? []).length > 0,
      });
    }
  }
  return ops;
}
