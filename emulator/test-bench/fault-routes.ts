/** `/_emulator/faults`: add, list and remove fault rules (see `faults.ts`). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { applicationError } from '../errors.js';
import { faultRulesOf } from './faults.js';
import type { SiteDirectory } from '../service.js';
import { controlRoute } from '../control/register.js';

/** Registers the fault routes (each site has its own rules). */
export function registerFaultRoutes(app: FastifyInstance, sites: SiteDirectory): void {
  const faultsOf = (request: FastifyRequest) => faultRulesOf(sites.of(request));
  controlRoute(app, 'addFault', ({ body, request }) => ({ id: faultsOf(request).add(body).id }));
  controlRoute(app, 'listFaults', ({ request }) => ({ faults: faultsOf(request).list() }));
  controlRoute(app, 'clearFaults', ({ request }) => {
    faultsOf(request).clear();
    return {};
  });
  controlRoute(app, 'removeFault', ({ params, request }) => {
    if (!faultsOf(request).remove(params.id)) throw applicationError(404, 'NOT_FOUND', `No fault rule ${params.id}`);
    return {};
  });
}
