/** The whole generator: schema directory in, generated file contents out (nothing is written here). */
import { Validator } from '@seriousme/openapi-schema-validator';
import openapiTS, { astToString } from 'openapi-typescript';
import { completeControlDocument, emitControl, faultOperationNames, readControlDocument } from './emit-control.js';
import { emitDemoAssets } from './emit-demo-assets.js';
import { emitEvents, emitEventTransforms } from './emit-events.js';
import { emitIo, emitModels } from './emit-models.js';
import { emitNamespaces } from './emit-namespaces.js';
import {
  emitBuilders,
  emitElevatedOperationIds,
  emitElevatedOperations,
  emitOperationModules,
  emitOperations,
} from './emit-operations.js';
import { emitRoutes } from './emit-routes.js';
import { HEADER } from './header.js';
import {
  checkControlRules,
  checkRules,
  definitionFiles,
  listOperations,
  mergeDocuments,
  readSchemaFiles,
} from './load.js';
import type { Doc } from './model.js';

/** What OpenAPI's own schema says is wrong with a document. */
async function openApiProblems(doc: Doc, label: string): Promise<string[]> {
  const result = await new Validator().validate(
    structuredClone(doc) as unknown as Parameters<Validator['validate']>[0],
  );
  if (result.valid) return [];
  return (Array.isArray(result.errors) ? result.errors : [result.errors]).map((e) => `${label}: ${JSON.stringify(e)}`);
}

/** Merges, validates and checks the schema; throws with every problem found. */
export async function loadSchema(schemaDir: string): Promise<Doc> {
  const doc = mergeDocuments(readSchemaFiles(schemaDir));
  const problems = await openApiProblems(doc, 'OpenAPI');
  problems.push(...checkRules(doc));
  if (problems.length) throw new Error(`schema/ has ${problems.length} problem(s):\n${problems.join('\n')}`);
  return doc;
}

/** The control API's document, validated, with the fault operation names of the platform's `entries` filled in. */
async function loadControlSchema(schemaDir: string, names: Record<string, string[]>): Promise<Doc> {
  const doc = completeControlDocument(readControlDocument(schemaDir), names);
  const problems = [...(await openApiProblems(doc, 'control OpenAPI')), ...checkControlRules(doc)];
  if (problems.length) throw new Error(`schema/control/ has ${problems.length} problem(s):\n${problems.join('\n')}`);
  return doc;
}

/** Produces every file of generated/, keyed by its path inside generated/. */
export async function generate(schemaDir: string): Promise<Record<string, string>> {
  const doc = await loadSchema(schemaDir);
  const entries = listOperations(doc);
  const wire = astToString(await openapiTS(structuredClone(doc) as never, { alphabetize: false }));
  const names = faultOperationNames(entries);
  const control = await loadControlSchema(schemaDir, names);
  return {
    ...(await emitControl(control, names)),
    'builders.ts': emitBuilders(entries),
    'elevated-operations.ts': emitElevatedOperations(entries),
    'elevated-operation-ids.ts': emitElevatedOperationIds(entries),
    'emulator-demo.ts': emitDemoAssets(),
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
