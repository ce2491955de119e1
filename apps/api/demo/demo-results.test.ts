import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Dashboard, Project } from '@pss/contract';
import { projects, users } from '../src/db/schema/index.js';
import { createTokenService } from '../src/lib/tokens.js';
import { testContext } from '../test/kit.js';
import { bearerFor, createUser } from '../test/test-app.js';
import { seedDemoContent } from './demo-content.js';
import { DEMO_WINTER_COMPLETER, DEMO_WINTER_UNFINISHED } from './demo-results.js';

const ctx = testContext();

/** A participant's bearer header, through their dashboard link as the printed demo link signs them in. */
async function participantHeader(email: string) {
  const [user] = await ctx.db.select().from(users).where(eq(users.email, email));
  const tokens = createTokenService(ctx.config.sessionSecret, ctx.config.accessTokenTtlSeconds);
  const token = await tokens.signLinkToken(user!.id, ctx.clock.now(), 1);
  const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/login/halfuser', payload: { token } });
  expect(response.statusCode).toBe(200);
  return { authorization: `Bearer ${response.json<{ access_token: string }>().access_token}` };
}

describe('the demo’s Winter Season', () => {
  it('has a participant who completed it and one who did not: a posted summary reaches only the first', async () => {
    await seedDemoContent(ctx.db, ctx.clock.now());
    const staff = await bearerFor(ctx.app, await createUser(ctx.db, { role: 'SUPERADMIN' }));
    const [row] = await ctx.db.select().from(projects).where(eq(projects.name, 'Heart Failure Management 2026'));
    const project = (
      await ctx.app.inject({ method: 'GET', url: `/api/projects/${row!.id}`, headers: staff })
    ).json<Project>();
    expect(project.seasons.map((s) => s.name)).toContain('Winter Season');

    const saved = await ctx.app.inject({
      method: 'POST',
      url: `/api/projects/${project.id}/season-summary?seasonName=Winter%20Season`,
      headers: staff,
      payload: { title: 'Winter in review', greeting: 'Thank you.' },
    });
    expect(saved.statusCode).toBe(200);
    const posted = await ctx.app.inject({
      method: 'POST',
      url: `/api/projects/${saved.json<{ id: string }>().id}/status`,
      headers: staff,
      payload: { status: 'POSTED' },
    });
    expect(posted.statusCode).toBe(200);

    const summariesOf = async (email: string) => {
      const response = await ctx.app.inject({
        method: 'GET',
        url: '/api/dashboard',
        headers: await participantHeader(email),
      });
      expect(response.statusCode).toBe(200);
      const mine = response.json<Dashboard>().projects.find((p) => p.project_id === project.id)!;
      return { titles: mine.season_summaries.map((s) => s.title), mine };
    };
    const completer = await summariesOf(DEMO_WINTER_COMPLETER);
    expect(completer.titles).toEqual(['Winter in review']);
    expect(completer.mine.cases.filter((c) => c.season_name === 'Winter Season').map((c) => c.status)).toEqual([
      'COMPLETE',
      'COMPLETE',
    ]);
    expect((await summariesOf(DEMO_WINTER_UNFINISHED)).titles).toEqual([]);
    // The participant whose link the server prints first never took the Winter Season.
    const maria = await summariesOf('maria.alvarez@northwind.demo.local');
    expect(maria.titles).toEqual([]);
    expect(maria.mine.cases.some((c) => c.season_name === 'Winter Season')).toBe(false);
  });
});
