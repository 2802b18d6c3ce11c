/** The control API under `/_emulator/`: health, info, reset, export/import, snapshots, request log, config. */
import type { FastifyInstance } from 'fastify';
import { controlDocument } from '../../generated/control/document.js';
import { atLeast } from '../config.js';
import type { EmulatorContext, ServiceModule, SiteDirectory } from '../service.js';
import { faultRulesOf } from '../test-bench/faults.js';
import type { SettingValue } from './api.js';
import { controlRoute } from './register.js';
import { requestLogOf } from './request-log.js';
import { importSeed } from './seed.js';
import { exportEntities } from './entities.js';
import { registerSnapshotRoutes } from './snapshots.js';
import { clearState, stateReplaced } from './state.js';

/** What the control API needs besides the sites. */
export interface ControlOptions {
  /** Every service module (their `seed` and `reset`). */
  modules: readonly ServiceModule[];
  /** When the emulator started (for `health`). */
  startedAt: number;
  /** The emulator's own base URL (`http://127.0.0.1:4700`), the same for every site; known once it listens. */
  url(): string;
}

/** The connection details of a site (`GET /_emulator/info`): `url` is the emulator's, the SDK's `baseUrl`. */
export function siteInfo(context: EmulatorContext, url: string) {
  return {
    url,
    apiKey: context.site.apiKey,
    siteId: context.site.siteId,
    clientId: context.site.clientId,
    publicKey: context.site.publicKeyPem,
    engine: context.store.engine,
  };
}

/** Writes every module's demo data (in one transaction). */
export function seedDemoData(context: EmulatorContext, modules: readonly ServiceModule[]): void {
  context.store.transaction(() => {
    for (const module of modules) module.seed?.(context);
  });
}

/** Empties the state, then seeds the demo data unless told not to. */
export function resetState(context: EmulatorContext, modules: readonly ServiceModule[], seed: boolean): void {
  context.store.transaction(() => {
    clearState(context.store);
    if (seed) seedDemoData(context, modules);
  });
  stateReplaced(context, modules);
}

/** Whether `value` is an origin as a browser sends it (`https://app.example`, `http://localhost:5173`). */
export const isOrigin = (value: string): boolean => URL.canParse(value) && new URL(value).origin == value;

/** Large enough for a whole exported state. */
const IMPORT_BODY_LIMIT = 512 * 1024 * 1024;

/** The control API as a module (routes only). */
export function controlModule(options: ControlOptions): ServiceModule {
  const { modules, startedAt } = options;
  return {
    name: 'control',
    config: {
      allowedCorsOrigins: {
        default: [],
        description:
          'Origins (e.g. "https://app.example") whose browser pages may call the emulator, besides any port of localhost, 127.0.0.1 and [::1].',
        check: (value) =>
          (value as string[]).every(isOrigin) ? undefined : 'must be a list of origins like "https://app.example"',
      },
      controlOrigins: {
        default: [],
        description:
          'Origins (e.g. "http://localhost:5173") whose browser pages may use the control API (/_emulator/...: sign-in-as, export, reset...), besides the emulator\'s own (its console). Other pages, even on this machine, are refused (403); requests without an Origin (Node, curl, the CLI) are not affected.',
        check: (value) =>
          (value as string[]).every(isOrigin) ? undefined : 'must be a list of origins like "http://localhost:5173"',
      },
      allowedHosts: {
        default: [],
        description:
          'Host names the emulator answers to (e.g. "proxy.example", or ".example.com" for it and its subdomains), besides IP addresses, localhost, *.localhost and the --host it is bound to. Any other Host is refused (403), against DNS rebinding.',
        check: (value) =>
          (value as string[]).every((host) => /^\.?[a-z0-9-]+(\.[a-z0-9-]+)*$/i.test(host))
            ? undefined
            : 'must be a list of host names like "proxy.example" or ".example.com"',
      },
      rateLimitPerMinute: {
        default: 0,
        description:
          'Requests per minute each caller (visitor, member, API key) may make to the API before it is answered 429 with Retry-After, as the platform does (it documents 200). 0: no limit.',
        check: atLeast(0),
      },
      permissions: {
        default: 'enforce',
        description:
          '"enforce" refuses what collection permissions refuse; "log" lets such calls through and records in the request log what would have been refused (to migrate an app to stricter permissions).',
        check: (value) => (value == 'enforce' || value == 'log' ? undefined : 'must be "enforce" or "log"'),
      },
    },
    routes(app: FastifyInstance, sites: SiteDirectory) {
      controlRoute(app, 'getHealth', ({ request }) => ({
        status: 'ok' as const,
        uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
        store: sites.of(request).store.inMemory ? 'sqlite-memory' : 'sqlite-file',
      }));
      controlRoute(app, 'getInfo', ({ request }) => siteInfo(sites.of(request), options.url()));
      controlRoute(app, 'getOpenApi', () => controlDocument);
      controlRoute(app, 'reset', ({ body, request }) => {
        const context = sites.of(request);
        const seed = body?.seed !== false;
        resetState(context, modules, seed);
        requestLogOf(context).clear();
        context.clock.reset();
        faultRulesOf(context).clear();
        return { reset: true as const, seeded: seed };
      });
      controlRoute(app, 'exportState', ({ request }) => exportEntities(sites.of(request), modules));
      controlRoute(
        app,
        'importState',
        ({ body, request }) => {
          const context = sites.of(request);
          const result = importSeed(context, modules, body, () => {});
          stateReplaced(context, modules);
          return result;
        },
        { bodyLimit: IMPORT_BODY_LIMIT },
      );
      registerSnapshotRoutes(app, sites, modules);
      controlRoute(app, 'listRequests', ({ query, request }) => ({
        requests: requestLogOf(sites.of(request)).list({ limit: 200, ...query }),
      }));
      controlRoute(app, 'getConfig', ({ request }) => ({
        config: sites.of(request).config.values() as Record<string, SettingValue>,
        descriptions: sites.of(request).config.descriptions(),
      }));
      controlRoute(app, 'updateConfig', ({ body, request }) => ({
        config: sites.of(request).config.update(body.config) as Record<string, SettingValue>,
      }));
    },
  };
}
