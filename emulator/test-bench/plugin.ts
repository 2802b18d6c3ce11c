/**
 * The test bench as one Fastify plugin: its own `onRequest` hook (the fault rules) and its routes
 * (`/_emulator/clock`, `/_emulator/faults`, `/_emulator/sign-in-as`), declared in the control
 * schema like every control route. The server (`http/`) knows nothing of it: `startEmulator()`
 * adds it as a module, after the server's own hook (guards, CORS), so a faulted answer carries the
 * CORS headers a browser app needs to read it.
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { callerForLog, requestRecord } from '../control/request-record.js';
import type { RequestLog } from '../control/request-log.js';
import { registerSignInAsRoute } from '../control/test-identities.js';
import type { EmulatorContext, ServiceModule } from '../service.js';
import { registerClockRoutes } from './clock-routes.js';
import { registerFaultRoutes } from './fault-routes.js';
import { faultHook, type FaultRules } from './faults.js';

/** What the test bench works with besides the server. */
export interface TestBenchOptions {
  /** The fault rules (a reset clears them, so the control module holds them too). */
  faults: FaultRules;
  /** Where a dropped connection is logged (it has no response to be logged by). */
  requestLog: RequestLog;
}

/** The plugin; `skip-override` keeps its hook at the server's root, for every request (what `fastify-plugin` marks). */
const testBenchPlugin: FastifyPluginAsync<TestBenchOptions & { context: EmulatorContext }> = Object.assign(
  async (app: FastifyInstance, { faults, requestLog, context }: TestBenchOptions & { context: EmulatorContext }) => {
    app.addHook(
      'onRequest',
      faultHook(
        faults,
        // A dropped connection has no response: logged with status 0.
        (request) => requestLog.add(requestRecord(request, 0, 0)),
        (request) => callerForLog(request, context),
      ),
    );
    registerClockRoutes(app, context.clock);
    registerFaultRoutes(app, faults);
    registerSignInAsRoute(app, context);
  },
  { [Symbol.for('skip-override')]: true },
);

/** The test bench as a module of the emulator (its routes: the plugin). */
export function testBenchModule(options: TestBenchOptions): ServiceModule {
  return {
    name: 'test-bench',
    async routes(app, context) {
      await app.register(testBenchPlugin, { ...options, context });
    },
  };
}
