// The routes of the app's OpenAPI document (what @fastify/swagger generates from the request schemas), as the fuzz
// suite, the authorization matrix and the text-field check read them: method, route pattern, whether it is public
// (`security: []`), and the fields of its body, query string and path with their JSON schemas.

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface JsonSchema {
  type?: string | string[];
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema | JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
}

export interface OpenApiDocument {
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

interface Operation {
  security?: unknown[];
  parameters?: { in: string; name: string; schema: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export interface DocumentedRoute {
  method: Method;
  /** Route pattern as registered, `:id` for a path parameter. */
  route: string;
  /** Declared `security: []`: answers without a token. */
  public: boolean;
  body?: JsonSchema;
  query: Record<string, JsonSchema>;
  params: Record<string, JsonSchema>;
}

const METHODS: Method[] = ['GET', 'POST', 'PUT', 'DELETE'];

export function documentedRoutes(doc: OpenApiDocument): DocumentedRoute[] {
  const routes: DocumentedRoute[] = [];
  for (const [path, operations] of Object.entries(doc.paths ?? {})) {
    for (const [name, op] of Object.entries(operations)) {
      const method = name.toUpperCase() as Method;
      if (!METHODS.includes(method)) continue;
      const of = (where: string) =>
        Object.fromEntries((op.parameters ?? []).filter((p) => p.in === where).map((p) => [p.name, p.schema]));
      routes.push({
        method,
        route: path.replace(/\{(\w+)\}/g, ':$1'),
        public: Array.isArray(op.security) && op.security.length === 0,
        body: op.requestBody?.content?.['application/json']?.schema,
        query: of('query'),
        params: of('path'),
      });
    }
  }
  return routes;
}

/** Top-level field names of a body schema (objects only). */
export const bodyFieldsOf = (route: DocumentedRoute): string[] => Object.keys(route.body?.properties ?? {});

const isString = (schema: JsonSchema) =>
  schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'));

/** A string that takes only fixed values (an enum or a literal): nothing typed, so no text rule needed. */
const isFixed = (schema: JsonSchema) => schema.enum !== undefined || schema.const !== undefined;

/** A top-level field that takes free text (a string other than an enum). */
export const isTextField = (schema: JsonSchema): boolean =>
  (isString(schema) && !isFixed(schema)) || (schema.anyOf ?? schema.oneOf ?? []).some(isTextField);

/**
 * Every string schema reachable from `schema` that is free text and lacks one of `patterns`, by its path. The
 * patterns of a string's own `allOf` are its checks, not further fields.
 */
export function stringsWithout(
  schema: JsonSchema | undefined,
  patterns: string[],
  doc: OpenApiDocument,
  path = '',
): string[] {
  if (!schema) return [];
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return stringsWithout(doc.components?.schemas?.[name], patterns, doc, path);
  }
  const found: string[] = [];
  if (isString(schema) && !isFixed(schema)) {
    const own = [schema.pattern, ...(schema.allOf ?? []).map((s) => s.pattern)];
    if (!own.some((p) => p !== undefined && patterns.includes(p))) found.push(path || '(whole value)');
  } else {
    for (const part of schema.allOf ?? []) found.push(...stringsWithout(part, patterns, doc, path));
  }
  for (const [key, value] of Object.entries(schema.properties ?? {}))
    found.push(...stringsWithout(value, patterns, doc, path ? `${path}.${key}` : key));
  for (const alternative of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])])
    found.push(...stringsWithout(alternative, patterns, doc, path));
  const items = Array.isArray(schema.items) ? schema.items : schema.items ? [schema.items] : [];
  for (const item of items) found.push(...stringsWithout(item, patterns, doc, `${path}[]`));
  if (typeof schema.additionalProperties === 'object')
    found.push(...stringsWithout(schema.additionalProperties, patterns, doc, `${path}.*`));
  return found;
}
