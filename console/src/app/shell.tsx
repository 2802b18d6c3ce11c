/** The layout: a sidebar with both areas' pages, a top bar with the session, and the current page. */
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { SiteKitProvider } from 'sitekit-sdk/react';
import { SessionBadge } from '../site/session-badge.js';
import { EmptyState } from '../ui/states.js';
import { PageHeader } from '../ui/page.js';
import { useConsole } from './console-context.js';
import { Link, matchPath, useRouter } from './router.js';
import { routes } from './routes.js';
import { SiteSwitcher } from './site-switcher.js';

/** The sidebar: the site's pages, then the admin's. */
const navigation = [
  {
    label: 'Site',
    title: 'Site (visitor view)',
    links: [
      { to: '/site/browse', label: 'Browse' },
      { to: '/site/uploads', label: 'Uploads' },
      { to: '/site/profile', label: 'Profile' },
    ],
  },
  {
    label: 'Admin',
    title: 'Admin (API key)',
    links: [
      { to: '/admin/collections', label: 'Collections' },
      { to: '/admin/items', label: 'Items' },
      { to: '/admin/media', label: 'Media' },
      { to: '/admin/members', label: 'Members' },
      { to: '/admin/outbox', label: 'Outbox' },
      { to: '/admin/requests', label: 'Request log' },
      { to: '/admin/webhooks', label: 'Webhooks' },
      { to: '/admin/config', label: 'Config' },
      { to: '/admin/bench', label: 'Test bench' },
    ],
  },
];

/** Props of {@link Shell}. */
export interface ShellProps {
  /** The query cache of the elevated client: kept apart, so visitor and admin answers never mix. */
  adminQueries: QueryClient;
}

/** The whole console around the current page. */
export function Shell({ adminQueries }: ShellProps) {
  const { info, clients } = useConsole();
  const { path } = useRouter();
  const match = routes
    .map((route) => ({ route, params: matchPath(route.pattern, path) }))
    .find((candidate) => candidate.params !== null);
  const page = match ? match.route.render(match.params ?? {}) : <NotFound path={path} />;
  // After moving to another page, keyboard and screen-reader users continue from its content,
  // not from the link they used (the first render keeps the browser's own focus).
  const content = useRef<HTMLElement>(null);
  const previousPath = useRef(path);
  useEffect(() => {
    if (path !== previousPath.current) content.current?.focus({ preventScroll: true });
    previousPath.current = path;
  }, [path]);
  return (
    <div className="shell">
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <aside className="sidebar">
        <Link to="/" className="brand">
          <span className="brand-mark" aria-hidden="true">
            s
          </span>
          sitekit console
        </Link>
        <SiteSwitcher />
        {navigation.map((section) => (
          <nav key={section.label} className="nav-section" aria-label={section.label}>
            <span className="nav-title">{section.title}</span>
            {section.links.map((link) => (
              <Link key={link.to} to={link.to} className="nav-link" matchPrefix>
                {link.label}
              </Link>
            ))}
          </nav>
        ))}
        <div className="sidebar-foot">
          Emulator{' '}
          <span className="mono" title={info.url || window.location.origin}>
            {info.url || window.location.origin}
          </span>
        </div>
      </aside>
      <div className="main">
        <div className="topbar">
          <span className="muted">
            {match?.route.area === 'admin'
              ? "Admin: elevated calls with the site's API key"
              : 'Site: what a visitor or member of the site sees'}
          </span>
          {/* The site's session (visitor or member) means nothing on admin pages, which use the API key. */}
          {match?.route.area === 'admin' ? (
            <span className="badge badge-accent" data-testid="admin-badge">
              API key · elevated
            </span>
          ) : (
            <SessionBadge />
          )}
        </div>
        <main id="content" ref={content} className="content" tabIndex={-1}>
          {match?.route.area === 'admin' ? (
            <QueryClientProvider client={adminQueries}>
              <SiteKitProvider client={clients.admin}>{page}</SiteKitProvider>
            </QueryClientProvider>
          ) : (
            page
          )}
        </main>
      </div>
    </div>
  );
}

function NotFound({ path }: { path: string }) {
  return (
    <>
      <PageHeader title="Page not found" />
      <EmptyState title={`Nothing lives at ${path}`}>
        <Link to="/">Go to the start page</Link>
      </EmptyState>
    </>
  );
}
