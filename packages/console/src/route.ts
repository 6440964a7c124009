import { useEffect, useState } from 'preact/hooks';

/** The path segments of the hash (`#/messages/abc` → `['messages', 'abc']`). */
function routeOf(hash: string): string[] {
  const path = hash.replace(/^#\/?/, '').split('?')[0] ?? '';
  return path
    .split('/')
    .filter((part) => part !== '')
    .map(decodeURIComponent);
}

/**
 * The current route, following `hashchange`. The console routes in the hash so the server serves
 * one page for every view and a reload keeps the view.
 */
export function useRoute(): string[] {
  const [route, setRoute] = useState(() => routeOf(window.location.hash));
  useEffect(() => {
    const follow = () => setRoute(routeOf(window.location.hash));
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  return route;
}

/** The href of a console view. */
export function hrefOf(...segments: string[]): string {
  return `#/${segments.map(encodeURIComponent).join('/')}`;
}
