/** The generator: deterministic, every file headed as generated, and generated/ matches the schema. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../../../codegen/generate.js';
import { checkRules, listOperations, mergeDocuments, readSchemaFiles } from '../../../codegen/load.js';
import { operations } from '../../../generated/operations.js';
import type { Doc } from '../../../codegen/model.js';

const root = join(import.meta.dirname, '../../..');
const run = () => generate(join(root, 'schema'));

describe('codegen', () => {
  it('is deterministic and generated/ is up to date', async () => {
    const [a, b] = [await run(), await run()];
    expect(a).toEqual(b);
    for (const [name, text] of Object.entries(a))
      expect(readFileSync(join(root, 'generated', name), 'utf8'), `generated/${name} is stale`).toBe(text);
  });

  it('heads every TypeScript file as generated', async () => {
    for (const [name, text] of Object.entries(await run()))
      if (name.endsWith('.ts')) expect(text.split('\n')[0]).toMatch(/^\/\/ GENERATED .* Do not edit by hand\.$/);
  });

  it('rebuilds every method name of the SDK header exactly as the schema gives it', () => {
    const doc = mergeDocuments(readSchemaFiles(join(root, 'schema')));
    for (const { op } of listOperations(doc))
      expect(operations[op.operationId as keyof typeof operations].methodFqn).toBe(op['x-sitekit-method']);
  });

  it('refuses a component defined twice and names both files', () => {
    const doc = (schemas: object): Doc => ({ openapi: '3.1.0', info: {}, paths: {}, components: { schemas } }) as Doc;
    expect(() =>
      mergeDocuments([
        { file: 'a.yaml', doc: doc({ X: {} }) },
        { file: 'b.yaml', doc: doc({ X: {} }) },
      ]),
    ).toThrow('b.yaml: components/schemas/X is already defined in a.yaml');
  });

  it('reports unresolved refs, missing operation metadata and undeclared path parameters', () => {
    const doc = {
      openapi: '3.1.0',
      info: {},
      components: { schemas: {} },
      paths: {
        '/x/{id}': {
          get: {
            operationId: 'getX',
            tags: ['nope'],
            responses: {
              '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Missing' } } } },
            },
          },
        },
      },
    } as unknown as Doc;
    const problems = checkRules(doc).join('\n');
    expect(problems).toContain('unresolved $ref #/components/schemas/Missing');
    expect(problems).toContain('tags must be one of');
    expect(problems).toContain('no x-sitekit-method');
    expect(problems).toContain('path parameter {id} is not declared');
  });

  it('refuses a marker that is not one of schema/README.md (how the SDK bundles an operation is no API fact)', () => {
    const doc = {
      openapi: '3.1.0',
      info: {},
      components: { schemas: {} },
      paths: {
        '/x': {
          post: {
            operationId: 'postX',
            summary: 'x',
            tags: ['items'],
            'x-sitekit-method': 'x.X',
            'x-sitekit-lazy': true,
            responses: { '200': { content: { 'application/json': { schema: { type: 'object' } } } } },
          },
        },
      },
    } as unknown as Doc;
    expect(checkRules(doc).join('\n')).toContain('POST /x: unknown marker x-sitekit-lazy');
  });

  it('emits one module per operation, which the table re-exports', async () => {
    const files = await generate(join(import.meta.dirname, '../../../schema'));
    const ids = listOperations(mergeDocuments(readSchemaFiles(join(import.meta.dirname, '../../../schema')))).map(
      (entry) => entry.op.operationId,
    );
    for (const id of ids) {
      expect(files[`operations/${id}.ts`]).toContain(`export const ${id}: Operation = {`);
      expect(files['operations.ts']).toContain(`import { ${id} } from './operations/${id}.js';`);
    }
    expect(Object.keys(files).filter((name) => name.startsWith('operations/'))).toHaveLength(ids.length);
  });
});
