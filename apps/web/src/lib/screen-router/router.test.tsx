import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { matchRoutes, rankRoutes, resolvePath, type ScreenRoute } from './match';
import {
  createMemoryScreenRouter,
  Link,
  Navigate,
  NavLink,
  Outlet,
  ScreenRouterProvider,
  useBlocker,
  useNavigate,
  useOutletContext,
  useParams,
} from './index';

const paths = (routes: ScreenRoute[], pathname: string) =>
  matchRoutes(rankRoutes(routes), pathname)?.map((m) => m.route.path ?? (m.route.index ? '(index)' : '(layout)'));

describe('matching a URL against the route table', () => {
  const table: ScreenRoute[] = [
    {
      children: [
        { path: '/' },
        { path: '/survey-templates/new' },
        { path: '/survey-templates/:id' },
        {
          path: '/module-library/:id',
          children: [{ index: true }, { path: 'cases' }, { path: 'cases/case-details/:caseId' }],
        },
        { path: '*' },
      ],
    },
  ];

  it('prefers a static segment to a parameter, and a parameter to the catch-all', () => {
    expect(paths(table, '/survey-templates/new')).toEqual(['(layout)', '/survey-templates/new']);
    expect(paths(table, '/survey-templates/42')).toEqual(['(layout)', '/survey-templates/:id']);
    expect(paths(table, '/nowhere/at/all')).toEqual(['(layout)', '*']);
    expect(paths(table, '/')).toEqual(['(layout)', '/']);
  });

  it("matches a parent's own path with its index route, and nested paths below it", () => {
    expect(paths(table, '/module-library/7')).toEqual(['(layout)', '/module-library/:id', '(index)']);
    expect(paths(table, '/module-library/7/cases/')).toEqual(['(layout)', '/module-library/:id', 'cases']);
    const matches = matchRoutes(rankRoutes(table), '/module-library/7/cases/case-details/a%20b')!;
    expect(matches.map((m) => m.pathname)).toEqual([
      '/',
      '/module-library/7',
      '/module-library/7/cases/case-details/a%20b',
    ]);
    // Every level reads every parameter, decoded.
    expect(matches[1]!.params).toEqual({ id: '7', caseId: 'a b' });
  });

  it('resolves links: absolute as given, relative from the route, a bare query on the current path', () => {
    expect(resolvePath('/a//b?x=1#h', '/r', '/here')).toEqual({ pathname: '/a/b', search: '?x=1', hash: '#h' });
    expect(resolvePath('cases', '/module-library/7', '/module-library/7')).toEqual({
      pathname: '/module-library/7/cases',
      search: '',
      hash: '',
    });
    expect(resolvePath('../other', '/a/b', '/a/b').pathname).toBe('/a/other');
    expect(resolvePath('?page=2', '/a', '/a/b/c')).toEqual({ pathname: '/a/b/c', search: '?page=2', hash: '' });
  });
});

/** A screen whose code arrives when the test says so. */
function deferredScreen(name: string) {
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const route = {
    lazy: async () => {
      await arrived;
      return { Component: () => <h1>{name}</h1> };
    },
  };
  return { route, arrive };
}

describe('the router in a page', () => {
  it('keeps the current screen up while the next one loads, then shows it; a later navigation wins', async () => {
    const slow = deferredScreen('Slow');
    const fast = deferredScreen('Fast');
    const router = createMemoryScreenRouter(
      [
        { path: '/', element: <h1>Home</h1> },
        { path: '/slow', ...slow.route },
        { path: '/fast', ...fast.route },
      ],
      { initialEntries: ['/'] },
    );
    render(<ScreenRouterProvider router={router} />);
    act(() => router.navigate('/slow'));
    expect(router.state.navigation).toBe('loading');
    expect(screen.getByRole('heading').textContent).toBe('Home');
    act(() => router.navigate('/fast'));
    await act(async () => fast.arrive());
    expect(screen.getByRole('heading').textContent).toBe('Fast');
    // The first navigation's code arrives last: it must not take the screen back.
    await act(async () => slow.arrive());
    expect(screen.getByRole('heading').textContent).toBe('Fast');
    expect(router.state.location.pathname).toBe('/fast');
    expect(router.state.navigation).toBe('idle');
  });

  it('shows the fallback until the first screen has arrived', async () => {
    const first = deferredScreen('First');
    const router = createMemoryScreenRouter([{ path: '/', HydrateFallback: () => <p>Loading…</p>, ...first.route }]);
    render(<ScreenRouterProvider router={router} />);
    expect(screen.getByText('Loading…')).toBeTruthy();
    await act(async () => first.arrive());
    expect(screen.getByRole('heading').textContent).toBe('First');
  });

  it('renders nested routes through outlets, with their context and parameters', async () => {
    function Layout() {
      return (
        <section>
          <Outlet context="from the layout" />
        </section>
      );
    }
    function Page() {
      const { id } = useParams();
      return <p>{`${useOutletContext<string>()} / ${id}`}</p>;
    }
    const router = createMemoryScreenRouter(
      [{ path: '/things/:id', element: <Layout />, children: [{ index: true, element: <Page /> }] }],
      { initialEntries: ['/things/9'] },
    );
    render(<ScreenRouterProvider router={router} />);
    expect(screen.getByText('from the layout / 9')).toBeTruthy();
  });

  it('follows links relative to their route, redirects, and marks the link of the current page', async () => {
    const router = createMemoryScreenRouter(
      [
        {
          path: '/lib/:id',
          element: (
            <>
              <NavLink to="cases">Cases</NavLink>
              <NavLink to="/lib/1" end>
                Overview
              </NavLink>
              <Outlet />
            </>
          ),
          children: [
            { index: true, element: <Navigate to="cases" replace /> },
            { path: 'cases', element: <Link to="../about">About</Link> },
            { path: 'about', element: <p>About page</p> },
          ],
        },
      ],
      { initialEntries: ['/lib/1'] },
    );
    render(<ScreenRouterProvider router={router} />);
    await act(async () => {});
    expect(router.state.location.pathname).toBe('/lib/1/cases');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(screen.getByText('Cases').getAttribute('aria-current')).toBe('page');
    expect(screen.getByText('Overview').getAttribute('aria-current')).toBeNull();
    expect(screen.getByText('About').getAttribute('href')).toBe('/lib/1/about');
    await act(async () => fireEvent.click(screen.getByText('About')));
    expect(screen.getByText('About page')).toBeTruthy();
    // A click with a modifier key is the browser's (a new tab): the router stays.
    await act(async () => fireEvent.click(screen.getByText('Cases'), { ctrlKey: true }));
    expect(router.state.location.pathname).toBe('/lib/1/about');
  });

  it('asks before leaving unsaved work: stays on reset, goes on proceed, also when going back', async () => {
    function Editor() {
      const [dirty, setDirty] = useState(false);
      const blocker = useBlocker(
        ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
      );
      const navigate = useNavigate();
      return (
        <>
          <button onClick={() => setDirty(true)}>Edit</button>
          <button onClick={() => navigate('/elsewhere')}>Leave</button>
          {blocker.state === 'blocked' && (
            <div role="dialog">
              <button onClick={() => blocker.reset?.()}>Stay</button>
              <button onClick={() => blocker.proceed?.()}>Discard</button>
            </div>
          )}
        </>
      );
    }
    const router = createMemoryScreenRouter(
      [
        { path: '/list', element: <p>List</p> },
        { path: '/editor', element: <Editor /> },
        { path: '/elsewhere', element: <p>Elsewhere</p> },
      ],
      { initialEntries: ['/list', '/editor'] },
    );
    render(<ScreenRouterProvider router={router} />);
    // Nothing unsaved: no question.
    await act(async () => fireEvent.click(screen.getByText('Leave')));
    expect(router.state.location.pathname).toBe('/elsewhere');
    await act(async () => router.navigate(-1));
    expect(router.state.location.pathname).toBe('/editor');

    await act(async () => fireEvent.click(screen.getByText('Edit')));
    await act(async () => fireEvent.click(screen.getByText('Leave')));
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/editor');
    await act(async () => fireEvent.click(screen.getByText('Stay')));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(router.state.location.pathname).toBe('/editor');

    // Back: the move is undone while the screen asks, and made again on proceed.
    await act(async () => router.navigate(-1));
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(router.history.location.pathname).toBe('/editor');
    await act(async () => fireEvent.click(screen.getByText('Discard')));
    expect(router.state.location.pathname).toBe('/list');
    expect(router.state.blockers.size).toBe(0);
  });

  it('redirects once while the next screen loads, even when the redirect is drawn again', async () => {
    const target = deferredScreen('Target');
    let renders = 0;
    function Redirect() {
      renders += 1;
      // A new state object every render, as a layout sending someone to sign in makes it.
      return <Navigate to="/target" replace state={{ from: '/' }} />;
    }
    const router = createMemoryScreenRouter([
      { path: '/', element: <Redirect /> },
      { path: '/target', ...target.route },
    ]);
    render(<ScreenRouterProvider router={router} />);
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(renders).toBeLessThan(6);
    await act(async () => target.arrive());
    expect(screen.getByRole('heading').textContent).toBe('Target');
    expect(router.state.location.state).toEqual({ from: '/' });
  });
});
