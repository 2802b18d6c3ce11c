/**
 * The site the console acts on: one of the emulator's sites (`/_emulator/sites`), chosen in the
 * site switcher and kept in this browser's `localStorage`, so a reload (and every page) stays on
 * it. Nothing chosen, or a site that is gone: the default site.
 */
const KEY = 'sitekit.console.site';

/** The chosen site's id, or undefined for the default site. */
export function chosenSiteId(): string | undefined {
  try {
    return window.localStorage.getItem(KEY) ?? undefined;
  } catch {
    // Storage refused (a locked-down browser): the default site.
    return undefined;
  }
}

/** Chooses a site (undefined: the default site) and reloads the console on it. */
export function chooseSite(siteId: string | undefined): void {
  try {
    if (siteId === undefined) window.localStorage.removeItem(KEY);
    else window.localStorage.setItem(KEY, siteId);
  } catch {
    // Without storage the choice cannot outlive the reload: nothing to switch to.
    return;
  }
  window.location.reload();
}

/** Forgets a choice that names no site any more. */
export function forgetChosenSite(): void {
  try {
    window.localStorage.removeItem(KEY);
  } catch {
    // Nothing was kept.
  }
}
