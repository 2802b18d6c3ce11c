/** `/_emulator/faults`: add, list and remove fault rules (see `faults.ts`). */
import type { FastifyInstance } from 'fastify';
import { applicationError } from '../errors.js';
import type { FaultRules } from './faults.js';
import { controlRoute } from '../control/register.js';

/** Registers the fault routes. */
export function registerFaultRoutes(app: FastifyInstance, faults: FaultRules): void {
  controlRoute(app, 'addFault', ({ body }) => ({ id: faults.add(body).id }));
  controlRoute(app, 'listFaults', () => ({ faults: faults.list() }));
  controlRoute(app, 'clearFaults', () => {
    faults.clear();
    return {};
  });
  controlRoute(app, 'removeFault', ({ params }) => {
    if (!faults.remove(params.id)) throw applicationError(404, 'NOT_FOUND', `No fault rule ${params.id}`);
    return {};
  });
}
