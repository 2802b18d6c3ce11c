/**
 * The control document's rules (codegen/load.ts `checkControlRules`): one success answer per
 * operation, 200 or 201, and the route table tells the server which (an operation that creates
 * something answers 201, as `POST /_emulator/snapshots` does).
 */
import { describe, expect, it } from 'vitest';
import { checkControlRules } from '../../../codegen/load.js';
import type { Doc } from '../../../codegen/model.js';
import { controlRoutes } from '../../../generated/control/routes.js';

/** A control document of one operation answering `responses`. */
const documentAnswering = (responses: Record<string, unknown>) =>
  ({
    openapi: '3.1.0',
    info: { title: 'control', version: '1' },
    paths: { '/_emulator/things': { post: { operationId: 'makeThing', summary: 'Makes a thing.', responses } } },
    components: {},
  }) as unknown as Doc;

const created = { description: 'Made.', content: { 'application/json': { schema: { type: 'object' } } } };

describe('checkControlRules', () => {
  it('takes one success answer, 200 or 201', () => {
    expect(checkControlRules(documentAnswering({ '200': created }))).toEqual([]);
    expect(checkControlRules(documentAnswering({ '201': created, default: created }))).toEqual([]);
  });

  it('refuses an operation with no success answer, or with both', () => {
    const problem = ['control: POST /_emulator/things: one success response, 200 or 201'];
    expect(checkControlRules(documentAnswering({ default: created }))).toEqual(problem);
    expect(checkControlRules(documentAnswering({ '200': created, '201': created }))).toEqual(problem);
  });
});

describe('the generated route table', () => {
  it('marks the operations that answer 201, and only them', () => {
    const status = (operationId: string) => controlRoutes.find((route) => route.operationId == operationId)?.status;
    expect(status('saveSnapshot')).toBe(201);
    expect(status('restoreSnapshot')).toBeUndefined();
  });
});
