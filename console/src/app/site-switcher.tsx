/**
 * The site switcher: which of the emulator's sites (`/_emulator/sites`) the whole console acts on.
 * Choosing one reloads the console on it (`chosen-site.ts`): its clients take that site's OAuth
 * client and API key, and every control call names it, so every page shows that site alone.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { chooseSite } from '../emulator/chosen-site.js';
import { createSite, deleteSite, listSites, type SiteSummary } from '../emulator/control.js';
import { ErrorNotice } from '../ui/error-notice.js';
import { useConsole } from './console-context.js';

/** A site's name in the list: the default site says so; the others by their id's start. */
const siteLabel = (site: SiteSummary) =>
  site.default ? `Default · ${site.siteId.slice(0, 8)}` : `Site · ${site.siteId.slice(0, 8)}`;

/** The site list, a button that makes a site from the demo data, and one that deletes the current site. */
export function SiteSwitcher() {
  const { info, clients } = useConsole();
  const sites = useQuery({
    queryKey: ['emulator-sites'],
    queryFn: ({ signal }) => listSites(clients.admin, signal),
  });
  const create = useMutation({
    mutationFn: () => createSite(clients.admin),
    onSuccess: (made) => chooseSite(made.siteId),
  });
  const remove = useMutation({
    mutationFn: () => deleteSite(clients.admin, info.siteId),
    onSuccess: () => chooseSite(undefined),
  });
  const list = sites.data ?? [];
  const current = list.find((site) => site.siteId == info.siteId);
  return (
    <div className="site-switcher stack" role="group" aria-label="Site">
      <label className="field">
        Site
        <select
          data-testid="site-select"
          value={info.siteId}
          disabled={!sites.data || create.isPending || remove.isPending}
          onChange={(event) => {
            const chosen = list.find((site) => site.siteId == event.target.value);
            if (chosen) chooseSite(chosen.default ? undefined : chosen.siteId);
          }}
        >
          {/* Until the list arrives, the current site alone. */}
          {(list.length ? list : [{ siteId: info.siteId, default: true }]).map((site) => (
            <option key={site.siteId} value={site.siteId}>
              {siteLabel(site)}
            </option>
          ))}
        </select>
      </label>
      <div className="row">
        <button type="button" className="secondary" disabled={create.isPending} onClick={() => create.mutate()}>
          {create.isPending ? 'Making a site…' : 'New site'}
        </button>
        {current && !current.default && (
          <button type="button" className="danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
            Delete this site
          </button>
        )}
      </div>
      {sites.isError && <ErrorNotice title="Could not list the sites" error={sites.error} />}
      {create.isError && <ErrorNotice title="Could not make a site" error={create.error} />}
      {remove.isError && <ErrorNotice title="Could not delete the site" error={remove.error} />}
    </div>
  );
}
