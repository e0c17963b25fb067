// Request validation: fastify-type-provider-zod's validator, with one difference: every parse gets the contract's
// error map (contract/field-messages.ts), so a failure names the field in the user's words wherever a schema gave no
// message of its own. The errors keep the provider's shape, so `hasZodFastifySchemaValidationErrors` and the one error
// handler (errors.ts) treat them as before.
import type { FastifySchemaCompiler } from 'fastify';
import { $ZodType, safeParse, type $ZodIssue } from 'zod/v4/core';
import { userWords } from '../../../contract/field-messages';

/** The provider marks its validation items with this global symbol (fastify-type-provider-zod errors.ts). */
const PROVIDER_MARK = Symbol.for('ZodFastifySchemaValidationError');

function validationItem(issue: $ZodIssue) {
  const { path, code, message, ...params } = issue;
  const joined = path.map(String).join('/');
  return {
    [PROVIDER_MARK]: true,
    keyword: code,
    instancePath: `/${joined}`,
    schemaPath: `#/${joined}/${code}`,
    message,
    params,
  };
}

function zodSchemaOf(schema: unknown): $ZodType {
  if (schema instanceof $ZodType) return schema;
  if (schema && typeof schema === 'object' && 'properties' in schema && schema.properties instanceof $ZodType)
    return schema.properties;
  throw new Error(`Not a zod schema: ${JSON.stringify(schema)}`);
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema }) => {
  const zodSchema = zodSchemaOf(schema);
  return (data) => {
    const result = safeParse(zodSchema, data, { error: userWords });
    if (result.error) return { error: result.error.issues.map(validationItem) as unknown as Error };
    return { value: result.data };
  };
};
