/** The whole generator: schema directory in, generated file contents out (nothing is written here). */
import { Validator } from '@seriousme/openapi-schema-validator';
import openapiTS, { astToString } from 'openapi-typescript';
import { emitEvents, emitEventTransforms } from './emit-events.js';
import { emitIo, emitModels } from './emit-models.js';
import { emitNamespaces } from './emit-namespaces.js';
import { emitBuilders, emitElevatedOperations, emitOperationModules, emitOperations } from './emit-operations.js';
import { emitRoutes } from './emit-routes.js';
import { HEADER } from './header.js';
import { checkRules, definitionFiles, listOperations, mergeDocuments, readSchemaFiles } from './load.js';
import type { Doc } from './model.js';

/** Merges, validates and checks the schema; throws with every problem found. */
export async function loadSchema(schemaDir: string): Promise<Doc> {
  const doc = mergeDocuments(readSchemaFiles(schemaDir));
  const validator = new Validator();
  const result = await validator.validate(structuredClone(doc) as unknown as Parameters<Validator['validate']>[0]);
  const problems = result.valid
    ? []
    : (Array.isArray(result.errors) ? result.errors : [result.errors]).map((e) => `OpenAPI: ${JSON.stringify(e)}`);
  problems.push(...checkRules(doc));
  if (problems.length) throw new Error(`schema/ has ${problems.length} problem(s):\n${problems.join('\n')}`);
  return doc;
}

/** Produces every file of generated/, keyed by its path inside generated/. */
export async function generate(schemaDir: string): Promise<Record<string, string>> {
  const doc = await loadSchema(schemaDir);
  const entries = listOperations(doc);
  const wire = astToString(await openapiTS(structuredClone(doc) as never, { alphabetize: false }));
  return {
    'builders.ts': emitBuilders(entries),
    'elevated-operations.ts': emitElevatedOperations(entries),
    'events.ts': emitEvents(doc),
    'event-transforms.ts': emitEventTransforms(doc),
    'io.ts': emitIo(doc, entries),
    'models.ts': emitModels(doc, entries),
    'namespaces.ts': emitNamespaces(doc, entries),
    'openapi.json': `${JSON.stringify(doc, null, 2)}\n`,
    'operations.ts': emitOperations(entries),
    ...emitOperationModules(doc, entries),
    'routes.ts': emitRoutes(doc, entries, definitionFiles(readSchemaFiles(schemaDir))),
    'wire.ts': `${HEADER}/* Wire-form types of every path and operation, by openapi-typescript. */\n${wire}`,
  };
}
