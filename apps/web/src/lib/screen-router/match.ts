import type { ComponentType, ReactNode } from 'react';
import { parsePath, type Path } from './history';

/** What a route renders once its code is here. */
export interface RouteParts {
  element?: ReactNode;
  Component?: ComponentType;
}

/**
 * One route of the table (apps/web/src/app/router.tsx), as React Router spells it: a path
 * relative to its parent's (or absolute), or `index` for the parent's own page; what it
 * renders, or `lazy` to fetch that on first use; a fallback shown while the first screen's
 * code loads.
 */
export interface ScreenRoute extends RouteParts {
  path?: string;
  index?: boolean;
  children?: ScreenRoute[];
  lazy?: () => Promise<RouteParts>;
  HydrateFallback?: ComponentType;
}

export type Params = Record<string, string | undefined>;

export interface RouteMatch {
  route: ScreenRoute;
  /** The part of the URL this route and its parents matched: `/module-library/42`. */
  pathname: string;
  /** Every parameter of the whole match (as React Router gives each level). */
  params: Params;
}

interface Branch {
  /** The routes from the outermost to this one. */
  routes: ScreenRoute[];
  /** The joined path of each of them. */
  paths: string[];
  score: number;
  /** Position among siblings at each level, to keep the table's order among equal scores. */
  order: number[];
}

const joinPaths = (parent: string, path: string) =>
  path.startsWith('/') ? path : `${parent.replace(/\/+$/, '')}/${path}`.replace(/\/+/g, '/');

const segmentsOf = (path: string) => path.split('/').filter(Boolean);

/**
 * React Router's ranking, for the patterns this app uses: a static segment outweighs a
 * parameter, which outweighs a splat; an index route outweighs its parent's other children
 * at the same path; deeper patterns outweigh shallower ones.
 */
function scoreOf(path: string, index: boolean): number {
  const segments = segmentsOf(path);
  let score = segments.length + (index ? 2 : 0);
  for (const segment of segments) {
    if (segment === '*') score -= 2;
    else if (segment.startsWith(':')) score += 3;
    else score += 10;
  }
  if (segments.length === 0) score += 1;
  return score;
}

function flatten(routes: ScreenRoute[], parents: ScreenRoute[] = [], parentPaths: string[] = [], order: number[] = []) {
  const branches: Branch[] = [];
  routes.forEach((route, i) => {
    const parentPath = parentPaths[parentPaths.length - 1] ?? '/';
    const path = route.path === undefined ? parentPath : joinPaths(parentPath, route.path);
    const chain = [...parents, route];
    const paths = [...parentPaths, path];
    const at = [...order, i];
    if (route.children?.length) branches.push(...flatten(route.children, chain, paths, at));
    // A route without a path only holds its children (a layout); it never matches alone.
    if (route.path !== undefined || route.index) {
      branches.push({ routes: chain, paths, score: scoreOf(path, Boolean(route.index)), order: at });
    }
  });
  return branches;
}

function compareOrder(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** Matches a pattern against a whole pathname, case-insensitively; its parameters, or null. */
export function matchPath(pattern: string, pathname: string): { params: Params; pathname: string } | null {
  const want = segmentsOf(pattern);
  const have = segmentsOf(pathname);
  const params: Params = {};
  for (let i = 0; i < want.length; i++) {
    const segment = want[i]!;
    if (segment === '*') {
      params['*'] = have.slice(i).map(decode).join('/');
      return { params, pathname: `/${have.slice(0, i).join('/')}` };
    }
    const value = have[i];
    if (value === undefined) return null;
    if (segment.startsWith(':')) params[segment.slice(1)] = decode(value);
    else if (segment.toLowerCase() !== value.toLowerCase()) return null;
  }
  if (have.length !== want.length) return null;
  return { params, pathname: `/${have.join('/')}` };
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The table, ranked once: `matchRoutes` walks it for every navigation. */
export function rankRoutes(routes: ScreenRoute[]): Branch[] {
  return flatten(routes).sort((a, b) => b.score - a.score || compareOrder(a.order, b.order));
}

/** The routes a pathname renders, outermost first, or null when none matches. */
export function matchRoutes(branches: Branch[], pathname: string): RouteMatch[] | null {
  for (const branch of branches) {
    const whole = matchPath(branch.paths[branch.paths.length - 1]!, pathname);
    if (!whole) continue;
    const have = segmentsOf(pathname);
    // Each level matched as many of the URL's segments as its own pattern has.
    return branch.routes.map((route, i) => {
      const depth = segmentsOf(branch.paths[i]!).filter((segment) => segment !== '*').length;
      return { route, pathname: `/${have.slice(0, depth).join('/')}`, params: whole.params };
    });
  }
  return null;
}

/**
 * Resolves where a link goes: an absolute path as it is; a relative one from the route it
 * is in (`from`); one with no path (`?page=2`) keeps the current pathname.
 */
export function resolvePath(to: string, from: string, currentPathname: string): Path {
  const parts = parsePath(to);
  const search = parts.search ?? '';
  const hash = parts.hash ?? '';
  if (parts.pathname === undefined) return { pathname: currentPathname, search, hash };
  if (parts.pathname.startsWith('/')) return { pathname: parts.pathname.replace(/\/+/g, '/'), search, hash };
  const segments = segmentsOf(from);
  for (const segment of segmentsOf(parts.pathname)) {
    if (segment === '..') segments.pop();
    else if (segment !== '.') segments.push(segment);
  }
  return { pathname: `/${segments.join('/')}`, search, hash };
}
