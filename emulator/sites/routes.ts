/** `/_emulator/sites`: make, list and delete sites (see `registry.ts`). */
import { applicationError } from '../errors.js';
import { controlRoute } from '../control/register.js';
import { siteInfo } from '../control/routes.js';
import type { ServiceModule } from '../service.js';
import type { SiteRegistry } from './registry.js';

/** The sites routes as a module (routes only); `url()` is the emulator's base URL. */
export function sitesModule(registry: SiteRegistry, url: () => string): ServiceModule {
  return {
    name: 'sites',
    routes(app) {
      controlRoute(app, 'listSites', () => ({
        sites: registry.list().map((context) => ({
          siteId: context.site.siteId,
          default: context === registry.defaultSite,
        })),
      }));
      controlRoute(app, 'createSite', async ({ body }) => siteInfo(await registry.create(body?.from ?? 'demo'), url()));
      controlRoute(app, 'deleteSite', async ({ params: { siteId } }) => {
        if (registry.get(siteId) === registry.defaultSite)
          throw applicationError(409, 'DEFAULT_SITE', 'The default site cannot be deleted (reset it instead)');
        if (!(await registry.remove(siteId)))
          throw applicationError(404, 'SITE_NOT_FOUND', `No site ${siteId} in this emulator`, { siteId });
        return {};
      });
    },
  };
}
