/**
 * The test bench as one Fastify plugin: its hooks (the fault rules) and its routes
 * (`/_emulator/clock`, `/_emulator/faults`, `/_emulator/sign-in-as`), declared in the control
 * schema like every control route. Each site has its own rules, clock and members: every hook and
 * route acts on the request's site. The server (`http/`) knows nothing of it: `startEmulator()`
 * adds it as a module, after the server's own hook (guards, CORS, the site), so a faulted answer
 * carries the CORS headers a browser app needs to read it.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { callerForLog, requestRecord } from '../control/request-record.js';
import { requestLogOf } from '../control/request-log.js';
import { registerSignInAsRoute } from '../control/test-identities.js';
import type { ServiceModule, SiteDirectory } from '../service.js';
import { registerClockRoutes } from './clock-routes.js';
import { registerFaultRoutes } from './fault-routes.js';
import { faultHook, faultRulesOf } from './faults.js';

/** The plugin; `skip-override` keeps its hooks at the server's root, for every request (what `fastify-plugin` marks). */
const testBenchPlugin: FastifyPluginAsync<{ sites: SiteDirectory }> = Object.assign(
  async (app: FastifyInstance, { sites }: { sites: SiteDirectory }) => {
    const hook = (rulesOfSettled: (request: FastifyRequest) => boolean) =>
      faultHook(
        (request) => (rulesOfSettled(request) ? faultRulesOf(sites.of(request)) : undefined),
        // A dropped connection has no response: logged with status 0.
        (request) => requestLogOf(sites.of(request)).add(requestRecord(request, 0, 0)),
        (request) => callerForLog(request, sites.of(request)),
      );
    // A request whose site its body names (a token request with only a client id) is faulted once
    // the body has named it; every other request as soon as it arrives.
    app.addHook(
      'onRequest',
      hook((request) => !request.siteFromBody),
    );
    app.addHook(
      'preValidation',
      hook((request) => request.siteFromBody === true),
    );
    registerClockRoutes(app, sites);
    registerFaultRoutes(app, sites);
    registerSignInAsRoute(app, sites);
  },
  { [Symbol.for('skip-override')]: true },
);

/** The test bench as a module of the emulator (its routes: the plugin). */
export const testBenchModule: ServiceModule = {
  name: 'test-bench',
  async routes(app, sites) {
    await app.register(testBenchPlugin, { sites });
  },
};
