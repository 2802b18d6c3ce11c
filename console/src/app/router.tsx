/**
 * A small History-API router: the console has a dozen flat pages, so a path, a query string and
 * `navigate` are all it needs. The emulator serves `index.html` for every console path.
 */
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from 'react';

/** Where the app is and how to go elsewhere. */
export interface RouterState {
  /** The path, e.g. `/admin/items/Movies`. */
  path: string;
  /** The query string's parameters. */
  search: URLSearchParams;
  /** Goes to `to` (a path with an optional query), adding a history entry unless `replace`. */
  navigate(to: string, options?: { replace?: boolean }): void;
}

const RouterContext = createContext<RouterState | null>(null);

function readLocation(): { path: string; search: URLSearchParams } {
  return { path: window.location.pathname, search: new URLSearchParams(window.location.search) };
}

/** Holds the current location and follows the browser's back and forward buttons. */
export function RouterProvider({ children }: { children: ReactNode }) {
  const [location, setLocation] = useState(readLocation);
  useEffect(() => {
    const onPopState = () => setLocation(readLocation());
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, []);
  const navigate = useCallback((to: string, options: { replace?: boolean } = {}) => {
    if (options.replace) window.history.replaceState(null, '', to);
    else window.history.pushState(null, '', to);
    setLocation(readLocation());
  }, []);
  const value = useMemo(() => ({ ...location, navigate }), [location, navigate]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

/** The current location and `navigate`. */
export function useRouter(): RouterState {
  const router = useContext(RouterContext);
  if (!router) throw new Error('useRouter must be used inside <RouterProvider>');
  return router;
}

/**
 * Matches `path` against a pattern such as `/admin/items/:collectionId`; returns the named
 * segments (URL-decoded), or `null` when it does not match. A trailing `?` makes the last
 * segment optional.
 */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const patternParts = pattern.split('/').filter(Boolean);
  const pathParts = path.split('/').filter(Boolean);
  const optionalLast = patternParts.at(-1)?.endsWith('?') ?? false;
  const minimum = optionalLast ? patternParts.length - 1 : patternParts.length;
  if (pathParts.length < minimum || pathParts.length > patternParts.length) return null;
  const params: Record<string, string> = {};
  for (const [index, part] of patternParts.entries()) {
    const actual = pathParts[index];
    if (part.startsWith(':')) {
      if (actual !== undefined) params[part.slice(1).replace(/\?$/, '')] = decodeURIComponent(actual);
    } else if (part !== actual) {
      return null;
    }
  }
  return params;
}

/** Props of {@link Link}. */
export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string;
  /** Marks the link as the current page when the path starts with `to` (default: equals). */
  matchPrefix?: boolean;
}

/** An ordinary link (middle-click and new tab still work) that navigates in place on a plain click. */
export function Link({ to, matchPrefix = false, onClick, children, ...rest }: LinkProps) {
  const { path, navigate } = useRouter();
  const target = to.split('?')[0] ?? to;
  const current = matchPrefix ? path === target || path.startsWith(`${target}/`) : path === target;
  const onLinkClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={to} aria-current={current ? 'page' : undefined} onClick={onLinkClick} {...rest}>
      {children}
    </a>
  );
}
