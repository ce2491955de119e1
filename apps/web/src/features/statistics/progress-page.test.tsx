import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { emailDeliveryRoutes, statisticsRoutes, type Project } from '@pss/contract';
import { call } from '../../lib/api-client';
import { createMemoryScreenRouter, Outlet, ScreenRouterProvider } from '../../lib/screen-router';
import { ProgressPage } from './progress-page';

/**
 * Issue #48: the Progress page's first load sent its charts' calls only once the charts' file
 * had arrived and rendered, a second wave after the tiles' and tables'. Here the charts' file
 * never arrives, and every call of the overview has gone out all the same, at once.
 */
vi.mock('../../lib/api-client', () => ({ call: vi.fn(), callRaw: vi.fn() }));
vi.mock('./components/progress-charts', () => new Promise(() => {}));

afterEach(() => vi.mocked(call).mockReset());

const project: Project = {
  id: '11111111-1111-4111-8111-111111111111',
  client_id: '33333333-3333-4333-8333-333333333333',
  client_name: 'Client',
  name: 'Project',
  status: 'ACTIVE',
  season_count: 1,
  data_status: 'READY',
  participant_counts: { active: 1, archived: 0, not_ready: 0 },
  notes: null,
  support_email: null,
  support_phone: null,
  disease_types: [],
  question_categories: [],
  seasons: [
    {
      id: '22222222-2222-4222-8222-222222222222',
      name: 'Spring 2026',
      rounds: [
        { id: '44444444-4444-4444-8444-444444444444', number: 1, start_date: '2026-03-01', end_date: '2026-03-14' },
      ],
    },
  ],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

function renderPage(url: string) {
  // Every call stays unanswered: what matters is which went out.
  vi.mocked(call).mockReturnValue(new Promise(() => {}) as never);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryScreenRouter(
    [
      {
        path: '/progress',
        element: <Outlet context={{ project }} />,
        children: [{ index: true, Component: ProgressPage }],
      },
    ],
    { initialEntries: [url] },
  );
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={client}>
        <ScreenRouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const routesCalled = () => vi.mocked(call).mock.calls.map(([route]) => route);

describe('the Progress page’s first load', () => {
  it('sends every call of its overview at once, the charts’ before their file has arrived', async () => {
    renderPage('/progress');
    await screen.findByRole('heading', { name: 'Progress', level: 3 });
    await vi.waitFor(() => expect(routesCalled()).toContain(statisticsRoutes.byRound));
    const called = routesCalled();
    for (const route of [
      statisticsRoutes.participationRate,
      statisticsRoutes.completionRate,
      statisticsRoutes.caseCompletion,
      statisticsRoutes.categoryUse,
      statisticsRoutes.completionsByDay,
      statisticsRoutes.byRound,
      emailDeliveryRoutes.stats,
    ])
      expect(called, route.path).toContain(route);
    // Each once, for the season shown.
    expect(called.filter((r) => r === statisticsRoutes.completionsByDay)).toHaveLength(1);
    const byDay = vi.mocked(call).mock.calls.find(([route]) => route === statisticsRoutes.completionsByDay)!;
    expect(byDay[1]).toEqual({ params: { id: project.id }, query: { seasonName: 'Spring 2026' } });
  });

  it('leaves the charts’ calls to the overview', async () => {
    renderPage('/progress?view=accounts');
    await screen.findByRole('heading', { name: 'Progress', level: 3 });
    await vi.waitFor(() => expect(routesCalled()).toContain(statisticsRoutes.connectedAccounts));
    expect(routesCalled()).not.toContain(statisticsRoutes.completionsByDay);
    expect(routesCalled()).not.toContain(statisticsRoutes.byRound);
  });
});
