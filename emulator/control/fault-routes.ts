/** `/_emulator/faults`: add, list and remove fault rules (see `faults.ts`). */
import type { FastifyInstance } from 'fastify';
import { applicationError } from '../errors.js';
import type { FaultRules } from './faults.js';

/** Registers the fault routes. */
export function registerFaultRoutes(app: FastifyInstance, faults: FaultRules): void {
  app.post('/_emulator/faults', async (request) => ({ id: faults.add(request.body).id }));
  app.get('/_emulator/faults', async () => ({ faults: faults.list() }));
  app.delete('/_emulator/faults', async () => {
    faults.clear();
    return {};
  });
  app.delete('/_emulator/faults/:id', async (request) => {
    const { id } = request.params as { id: string };
    if (!faults.remove(id)) throw applicationError(404, 'NOT_FOUND', `No fault rule ${id}`);
    return {};
  });
}
