// Every text field of every request the OpenAPI document describes carries the control-character rule, which the
// contract's one string helper (contract/text.ts) adds by construction: a body, query or path string without it is a
// field someone built with a bare z.string(), and fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_CONTROL_CHARACTERS, NO_CONTROL_CHARACTERS_EXCEPT_LINES } from '../../../contract/text';
import { createTestApp, type TestApp } from '../helpers/app';
import { documentedRoutes, stringsWithout, type OpenApiDocument } from './openapi-routes';

const RULES = [NO_CONTROL_CHARACTERS.source, NO_CONTROL_CHARACTERS_EXCEPT_LINES.source];

describe('the control-character rule in the OpenAPI document', () => {
  let t: TestApp;
  let doc: OpenApiDocument;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    doc = t.app.swagger() as OpenApiDocument;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('finds a string without the rule, and passes enums, literals and a string that has it', () => {
    const schema = {
      type: 'object',
      properties: {
        bare: { type: 'string', maxLength: 10 },
        nested: { type: 'object', properties: { deeper: { type: 'string', allOf: [{ pattern: '^\\d+$' }] } } },
        choice: { type: 'string', enum: ['a', 'b'] },
        fixed: {
          anyOf: [
            { type: 'string', enum: [''] },
            { type: 'string', const: 'x' },
          ],
        },
        ruled: { type: 'string', allOf: [{ pattern: RULES[0] }, { pattern: '^x' }] },
        bio: { type: 'string', pattern: RULES[1] },
        list: { type: 'array', items: { type: 'string' } },
      },
    };
    expect(stringsWithout(schema, RULES, doc)).toEqual(['bare', 'nested.deeper', 'list[]']);
  });

  it('is on every text field of every documented request: bodies, query strings and path parameters', () => {
    const routes = documentedRoutes(doc);
    expect(routes.length).toBeGreaterThan(40);
    const missing = routes.flatMap((route) =>
      [
        ...stringsWithout(route.body, RULES, doc, 'body'),
        ...Object.entries(route.query).flatMap(([name, s]) => stringsWithout(s, RULES, doc, `query.${name}`)),
        ...Object.entries(route.params).flatMap(([name, s]) => stringsWithout(s, RULES, doc, `path.${name}`)),
      ].map((field) => `${route.method} ${route.route} ${field}`),
    );
    expect(missing).toEqual([]);
  });
});
