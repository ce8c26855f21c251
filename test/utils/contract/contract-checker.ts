import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { isEmail } from 'class-validator';
import addFormats from 'ajv-formats';
import { WIRE_DATE_PATTERN } from '../../../src/base/common/http/wire-date.js';
import { componentRef, componentsSchema, type OpenApiSchema, toJsonSchema } from './json-schema.js';

/**
 * Holds what the service answered against what the committed OpenAPI document declares for that
 * operation: the status, the content type, and the JSON body against the response schema (required
 * fields, types, enums, formats, no undeclared fields; date-times in the wire form of
 * `src/base/common/http/wire-date.ts`). Pure: the recorder feeds it exchanges, the contract suite feeds it
 * hand-made ones.
 */

export const COMMITTED_DOCUMENT = new URL('../../../openapi/openapi.json', import.meta.url);

/** One request and its response as the client saw it. */
export interface Exchange {
  method: string;
  /** The request target as sent: path and query. */
  url: string;
  /** Whether it was a CORS preflight (OPTIONS with Origin and Access-Control-Request-Method). */
  preflight?: boolean;
  status: number;
  contentType?: string;
  body: Buffer | string;
  /** The recorder kept only the beginning of a very large body: status and content type are checked. */
  truncated?: boolean;
}

export interface Violation {
  method: string;
  /** The concrete path (no query). */
  path: string;
  /** `operationId METHOD /template` when an operation was found. */
  operation?: string;
  status: number;
  problems: string[];
}

/**
 * Surfaces the document leaves out on purpose: not checked at all. Keep this short; every entry says why.
 * (Everything else not in the document may only answer 404/405 with the `{errors}` body.)
 */
export const NOT_IN_DOCUMENT: { pattern: RegExp; why: string }[] = [
  {
    pattern: /^\/oauth\/authorize(\/|$)/i,
    why: 'the consent pages: HTML for a browser, not an API (@ApiExcludeController); oauth-consent, oauth-browser and fuzz check them',
  },
  {
    pattern: /^\/oauth\/logout\/?$/i,
    why: 'OpenID Connect RP-initiated logout: HTML pages beside the consent page (@ApiExcludeController); oidc and oidc-browser check them',
  },
  {
    pattern: /^(\/.+\/\.well-known\/openid-configuration|\/\.well-known\/oauth-authorization-server\/.+)$/i,
    why: 'the discovery documents under an issuer path (PUBLIC_BASE_URL with a path): the documented ones again, at a path OpenAPI cannot template; the oidc suite checks them',
  },
  {
    pattern: /^\/API\/auth\/spec(\/|$)/i,
    why: 'the OpenAPI document itself (JSON, YAML) and the Swagger UI; openapi.e2e-spec checks them',
  },
];

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface ResponseObject {
  $ref?: string;
  content?: Record<string, { schema?: OpenApiSchema }>;
}

interface OperationObject {
  operationId?: string;
  responses?: Record<string, ResponseObject>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, OpenApiSchema> };
}

export interface ResolvedOperation {
  method: string;
  template: string;
  operationId: string;
  responses: Record<string, ResponseObject>;
  /** Literal segments first: `/apps/instance` before `/apps/{app_id}`, as the routes are declared. */
  rank: number[];
  regex: RegExp;
}

/** `/API/auth/v1/apps/{app_id}` as a regex over request paths: case-insensitive, optional trailing slash (Express's defaults). */
export function compileTemplate(template: string): RegExp {
  const source = template
    .split('/')
    .map((segment) =>
      segment.replace(/\{[^}/]+\}|[^{]+/g, (part) =>
        part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      ),
    )
    .join('/');
  return new RegExp(`^${source.replace(/\/$/, '')}/?$`, 'i');
}

export class ContractChecker {
  private readonly operations: ResolvedOperation[];
  private readonly ajv: Ajv;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly bySchema = new Map<string, ValidateFunction>();

  constructor(readonly document: OpenApiDocument) {
    this.operations = Object.entries(document.paths).flatMap(([template, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, op]) => {
          const o = op as OperationObject;
          return {
            method: method.toUpperCase(),
            template,
            operationId: o.operationId ?? `${method.toUpperCase()} ${template}`,
            responses: o.responses ?? {},
            rank: template.split('/').map((s) => (s.includes('{') ? 0 : 1)),
            regex: compileTemplate(template),
          };
        }),
    );
    this.operations.sort((a, b) => compareRank(b.rank, a.rank));
    this.ajv = new Ajv({
      allErrors: true,
      // unknown keywords and formats are mistakes of the conversion; mismatched types are the document's
      // findings (a date-time declared as an object), reported by validation, not logged by Ajv
      strictSchema: true,
      strictTypes: false,
      strictTuples: false,
      strictRequired: false,
    });
    addFormats.default(this.ajv, ['uuid', 'uri']);
    // `email` as the service validates it (validator's isEmail, single-label domains allowed: the bootstrap
    // administrator is admin@localhost, and RFC 5321 allows it); ajv-formats' own wants a dot in the domain
    this.ajv.addFormat('email', (s: string) => isEmail(s, { require_tld: false }));
    // the wire form of every date the service sends, not just any RFC 3339 date-time
    this.ajv.addFormat('date-time', WIRE_DATE_PATTERN);
    this.ajv.addFormat('int32', {
      type: 'number',
      validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
    });
    this.ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
    this.ajv.addFormat('password', true);
    // a file body (an image the service serves): its bytes are not JSON, only its media type is checked
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema(componentsSchema(document.components?.schemas ?? {}));
  }

  /**
   * The committed document, or the file CONTRACT_DOCUMENT names: a document generated to a scratch file
   * (`node dist/scripts/generate-openapi.js /tmp/openapi.json`) checks decorator changes before
   * openapi/openapi.json is regenerated.
   */
  static fromCommittedDocument(): ContractChecker {
    const file = process.env.CONTRACT_DOCUMENT ?? COMMITTED_DOCUMENT;
    return new ContractChecker(JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument);
  }

  /** Every operation of the document, most specific template first. */
  allOperations(): readonly ResolvedOperation[] {
    return this.operations;
  }

  /** Whether the recorder should look at this request at all (not a surface the document leaves out). */
  isChecked(url: string): boolean {
    const path = pathOf(url);
    return !NOT_IN_DOCUMENT.some((s) => s.pattern.test(path));
  }

  /** The operation Express would route this request to, as far as the document knows. */
  resolve(method: string, url: string): { operation?: ResolvedOperation; pathKnown: boolean } {
    const path = pathOf(url);
    // Express answers HEAD with the GET route
    const m = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
    let pathKnown = false;
    for (const op of this.operations) {
      if (!op.regex.test(path)) continue;
      pathKnown = true;
      if (op.method === m) return { operation: op, pathKnown };
    }
    return { pathKnown };
  }

  /**
   * The compiled validator of a response schema, once per key (operation + status + media type), and once per
   * distinct schema: most responses are the same few `$ref`s (ErrorsDto), compiled a single time.
   */
  validator(key: string, schema: OpenApiSchema | undefined): ValidateFunction {
    let v = this.validators.get(key);
    if (!v) {
      const json = toJsonSchema(schema);
      const same = JSON.stringify(json);
      v = this.bySchema.get(same) ?? this.ajv.compile(json as object);
      this.bySchema.set(same, v);
      this.validators.set(key, v);
    }
    return v;
  }

  check(x: Exchange): Violation[] {
    return this.inspect(x).violations;
  }

  /** `check`, and which declared response (`operationId status`) the exchange exercised, if any. */
  inspect(x: Exchange): { violations: Violation[]; covered?: string } {
    const path = pathOf(x.url);
    const method = x.method.toUpperCase();
    const violation = (problems: string[], op?: ResolvedOperation): Violation[] =>
      problems.length
        ? [
            {
              method,
              path,
              ...(op ? { operation: `${op.operationId} ${op.method} ${op.template}` } : {}),
              status: x.status,
              problems,
            },
          ]
        : [];
    if (!this.isChecked(x.url)) return { violations: [] };

    // CORS preflights are answered by the CORS layer for any path, and OpenAPI has no way to describe
    // them: a 204 without a body, or a 403 in the platform's error shape (common/http/cors.ts)
    if (x.preflight && method === 'OPTIONS') {
      if (x.status === 204)
        return { violations: violation(hasBody(x) ? ['a preflight 204 with a body'] : []) };
      if (x.status === 403) return { violations: violation(this.errorsBody(x)) };
      return { violations: violation([`a CORS preflight answered ${x.status} (expected 204 or 403)`]) };
    }

    // a path whose percent-encoding is not UTF-8 names no resource at all, whether or not a {param} template
    // would match it: the router refuses it with a 400 before any route runs, so no operation declares it;
    // the body parsers run before the router, so a body they refuse (unreadable 400, over 100 kB 413, a
    // charset they do not read 415) is answered first, in the platform's form too (isScimRequest)
    if (PRE_ROUTER_STATUSES.has(x.status) && !decodable(x.url)) {
      return { violations: violation(this.errorsBody(x)) };
    }

    const { operation, pathKnown } = this.resolve(method, x.url);
    if (!operation) {
      // a route the document does not have: only "no such route" / "no such method" may come back
      if (x.status === 404 || (x.status === 405 && pathKnown)) {
        return { violations: violation(this.errorsBody(x)) };
      }
      return {
        violations: violation([
          pathKnown
            ? `${method} is not an operation of this path in the document, yet it answered ${x.status}`
            : `no operation of the document matches this path, yet it answered ${x.status}`,
        ]),
      };
    }

    const declared = operation.responses;
    const key =
      String(x.status) in declared
        ? String(x.status)
        : `${String(x.status)[0]}XX` in declared
          ? `${String(x.status)[0]}XX`
          : 'default' in declared
            ? 'default'
            : undefined;
    if (!key) {
      return {
        violations: violation(
          [`status ${x.status} is not declared (declared: ${Object.keys(declared).join(', ')})`],
          operation,
        ),
      };
    }
    const covered = `${operation.operationId} ${key}`;
    if (method === 'HEAD') return { violations: [], covered };
    const problems = this.bodyProblems(x, `${operation.method} ${operation.template} ${key}`, declared[key]);
    return { violations: violation(problems, operation), covered };
  }

  /** The `{errors: [...]}` / `{errors: {...}}` body of a response no operation declares. */
  private errorsBody(x: Exchange): string[] {
    return this.bodyProblems(x, 'ErrorsDto', {
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorsDto' } } },
    });
  }

  private bodyProblems(x: Exchange, key: string, response: ResponseObject): string[] {
    const content = response.content ?? {};
    const mediaTypes = Object.keys(content);
    const actual = (x.contentType ?? '').split(';')[0].trim().toLowerCase();
    if (!hasBody(x)) {
      return mediaTypes.length && x.status !== 204
        ? [`no body, but the document declares ${mediaTypes.join(', ')}`]
        : [];
    }
    if (!mediaTypes.length) {
      return [`a body (${actual || 'no Content-Type'}) where the document declares none`];
    }
    const mediaType = mediaTypes.find((m) => m.toLowerCase() === actual);
    if (!mediaType)
      return [`Content-Type ${actual || '(none)'} is not declared (declared: ${mediaTypes.join(', ')})`];
    if (!/^application\/(.+\+)?json$/.test(actual) || x.truncated) return [];
    let body: unknown;
    try {
      body = JSON.parse(x.body.toString());
    } catch {
      return [`the ${actual} body is not JSON`];
    }
    const validate = this.validator(`${key} ${mediaType}`, content[mediaType].schema);
    return validate(body) ? [] : describeErrors(validate.errors ?? [], body);
  }
}

function compareRank(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? -1) - (b[i] ?? -1);
    if (d) return d;
  }
  return 0;
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

function hasBody(x: Exchange): boolean {
  return x.body.length > 0;
}

/**
 * Ajv's errors as short lines, free of the values themselves so that the same fault in many responses is one
 * line: list indices folded (`/objects/*`), a value shown as its JSON type or, for a format, its form (digits
 * as 0), the nullable wrapper's noise dropped.
 */
export function describeErrors(errors: ErrorObject[], body: unknown): string[] {
  const meaningful = errors.filter(
    (e) =>
      e.keyword !== 'anyOf' && !(e.keyword === 'type' && (e.params as { type?: string }).type === 'null'),
  );
  const lines = (meaningful.length ? meaningful : errors).map((e) => {
    const at = e.instancePath.replace(/\/\d+(?=\/|$)/g, '/*') || '(body)';
    const value = valueAt(body, e.instancePath);
    switch (e.keyword) {
      case 'required':
        return `${at}: required property "${(e.params as { missingProperty: string }).missingProperty}" is missing`;
      case 'additionalProperties':
        return `${at}: property "${(e.params as { additionalProperty: string }).additionalProperty}" is not declared`;
      case 'format': {
        const format = (e.params as { format: string }).format;
        const expected =
          format === 'date-time'
            ? 'a wire date-time like 2026-11-23T11:45:37.269000+00:00'
            : `format "${format}"`;
        return `${at}: must be ${expected} (got ${formOf(value)})`;
      }
      case 'type':
        return `${at}: ${e.message} (got ${jsonType(value)})`;
      default:
        return `${at}: ${e.message}`;
    }
  });
  return [...new Set(lines)];
}

function jsonType(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/** A string's shape, digits as 0 (`2026-11-23T11:45:37.269Z` → `0000-00-00T00:00:00.000Z`), at most 40 characters. */
function formOf(v: unknown): string {
  if (typeof v !== 'string') return jsonType(v);
  const form = v.replace(/\d/g, '0');
  return JSON.stringify(form.length > 40 ? `${form.slice(0, 40)}…` : form);
}

function valueAt(body: unknown, pointer: string): unknown {
  let v = body;
  for (const part of pointer.split('/').slice(1)) {
    v = (v as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return v;
}

/** `componentRef` re-exported for the contract suite's resolvability check. */
export { componentRef };

/** What the layers before the router answer: its own 400 for the path, the body parsers' 400, 413 and 415. */
const PRE_ROUTER_STATUSES = new Set([400, 413, 415]);

/** Whether the URL's path decodes as UTF-8 percent-encoding (the fuzz suite sends paths that do not). */
function decodable(url: string): boolean {
  try {
    decodeURIComponent(url.split('?')[0]);
    return true;
  } catch {
    return false;
  }
}
