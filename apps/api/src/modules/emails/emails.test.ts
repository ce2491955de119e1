import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { and, count, eq, sql } from 'drizzle-orm';
import { projectEmailTypes, seasonEmailTypes, type EmailTemplate, type Project } from '@pss/contract';
import { migrationsFolder } from '../../db/client.js';
import { emailTemplates } from '../../db/schema/index.js';
import { projectBody, spring2026 } from '../../../test/fixtures.js';
import { call, expectError, fieldIssues, newProject, twoClientsContext } from '../../../test/kit.js';

const { ctx, f } = twoClientsContext();

const emailBody = {
  subject: '{project_name}: round {round_number} is open',
  body: '<p>Dear {salutation} {last_name},</p><p>Round {round_number} closes on {round_end_date}.</p>',
  button_text: 'Open my dashboard',
  dashboard_url_text: 'Your dashboard',
  send_mode: 'MANUAL',
};

async function projectEmails(projectId: string): Promise<EmailTemplate[]> {
  const response = await call(ctx, 'GET', `/projects/${projectId}/emails-list`, f.asAdminA);
  expect(response.statusCode).toBe(200);
  return response.json<{ items: EmailTemplate[] }>().items;
}

async function seasonEmails(projectId: string, seasonName = 'Spring 2026'): Promise<EmailTemplate[]> {
  const query = `seasonName=${encodeURIComponent(seasonName)}`;
  const response = await call(ctx, 'GET', `/projects/${projectId}/season-emails-list?${query}`, f.asAdminA);
  expect(response.statusCode).toBe(200);
  return response.json<{ items: EmailTemplate[] }>().items;
}

const templateCount = async (projectId: string) =>
  (await ctx.db.select({ n: count() }).from(emailTemplates).where(eq(emailTemplates.projectId, projectId)))[0]!.n;

describe('a project’s emails', () => {
  it('are made from the written defaults with the project: nine project emails, five per season', async () => {
    const project = await newProject(ctx, f.asAdminA, f.clientA.id);
    const emails = await projectEmails(project.id);
    expect(emails.map((e) => e.type)).toEqual([...projectEmailTypes]);
    expect(emails.map((e) => e.name)).toEqual([
      'Initial Launch Email',
      'Reminder Email',
      'Last Day of Round Email',
      'New Round Transition Email',
      'Last Day of Last Round Email',
      'Project Summary Launch Email',
      'Project Summary Reminder Email',
      'Certificate Email',
      'Dashboard Link Email',
    ]);
    for (const email of emails) {
      // All go by themselves but the Dashboard Link Email, sent when an administrator asks.
      const sendMode = email.type === 'dashboard_link' ? 'MANUAL' : 'AUTOMATIC';
      expect(email).toMatchObject({ season_id: null, enabled: true, send_mode: sendMode });
      // Every default ends with the support footer (spec §1).
      expect(email.body).toContain('{email}');
      expect(email.body).toContain('{phone}');
    }
    const season = await seasonEmails(project.id);
    expect(season.map((e) => e.type)).toEqual([...seasonEmailTypes]);
    // The season's own Season Summary emails are sent by hand: no schedule rule sends them.
    expect(season.map((e) => [e.type, e.send_mode])).toEqual([
      ['initial', 'AUTOMATIC'],
      ['summary_launch', 'AUTOMATIC'],
      ['summary_reminder', 'AUTOMATIC'],
      ['season_summary_launch', 'MANUAL'],
      ['season_summary_reminder', 'MANUAL'],
    ]);
    expect(new Set(season.map((e) => e.season_id)).size).toBe(1);
    expect(await templateCount(project.id)).toBe(projectEmailTypes.length + seasonEmailTypes.length);
  });

  it('a season added by a save gets its five emails; a season removed takes its own with it', async () => {
    const project = await newProject(ctx, f.asAdminA, f.clientA.id);
    const stored = (await call(ctx, 'GET', `/projects/${project.id}`, f.asAdminA)).json<Project>();
    const { client_id: _client, ...body } = projectBody(f.clientA.id, { name: stored.name });
    const autumn = { name: 'Autumn 2026', rounds: [{ number: 1, start_date: '2026-09-01', end_date: '2026-09-14' }] };
    const spring = { ...spring2026, id: stored.seasons[0]!.id };
    const saved = await call(ctx, 'PUT', `/projects/${project.id}`, f.asAdminA, {
      ...body,
      status: 'ACTIVE',
      seasons: [spring, autumn],
    });
    expect(saved.statusCode).toBe(200);
    expect(await seasonEmails(project.id, 'Autumn 2026')).toHaveLength(seasonEmailTypes.length);
    expect(await templateCount(project.id)).toBe(projectEmailTypes.length + 2 * seasonEmailTypes.length);

    const without = await call(ctx, 'PUT', `/projects/${project.id}`, f.asAdminA, {
      ...body,
      status: 'ACTIVE',
      seasons: [spring],
    });
    expect(without.statusCode).toBe(200);
    expect(await templateCount(project.id)).toBe(projectEmailTypes.length + seasonEmailTypes.length);
  });

  it('a project made before emails existed gets its templates when they are first read', async () => {
    const project = await newProject(ctx, f.asAdminA, f.clientA.id);
    await ctx.db.delete(emailTemplates).where(eq(emailTemplates.projectId, project.id));
    expect(await projectEmails(project.id)).toHaveLength(projectEmailTypes.length);
    expect(await seasonEmails(project.id)).toHaveLength(seasonEmailTypes.length);
  });

  it('a project with its emails can still be deleted', async () => {
    const project = await newProject(ctx, f.asAdminA, f.clientA.id);
    const removed = await call(ctx, 'DELETE', `/projects/${project.id}`, f.asAdminA);
    expect(removed.statusCode).toBe(204);
    expect(await templateCount(project.id)).toBe(0);
  });
});

describe('editing an email', () => {
  it('saves the texts and the send mode, sanitising the body', async () => {
    const project = await newProject(ctx, f.asAdminA, f.clientA.id);
    const [initial] = await projectEmails(project.id);
    const saved = await call(ctx, 'POST', `/projects/${initial!.id}/email`, f.asAdminA, {
      ...emailBody,
      body: `${emailBody.body}<script>alert(1)</script>`,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json<EmailTemplate>()).toMatchObject({
      id: initial!.id,
      type: 'initial',
      subject: emailBody.subject,
      body: emailBody.body,
      send_mode: 'MANUAL',
    });
    expect((await projectEmails(project.id))[0]).toMatchObject({ subject: emailBody.subject, send_mode: 'MANUAL' });
  });

  it('refuses an unknown placeholder, naming it, and a missing subject; nothing changes', async () => {
    const project = await newProject(ctx, f.asAdminA, f.clientA.id);
    const [initial] = await projectEmails(project.id);
    const refused = await call(ctx, 'POST', `/projects/${initial!.id}/email`, f.asAdminA, {
      ...emailBody,
      subject: 'Hello {frist_name}',
      body: '<p>{first_name} {unknown}</p>',
      button_text: '',
    });
    expectError(refused, 400, 'VALIDATION_ERROR');
    const issues = fieldIssues(refused);
    expect(issues.find((i) => i.field === 'body.subject')?.message).toContain('{frist_name}');
    expect(issues.find((i) => i.field === 'body.body')?.message).toContain('{unknown}');
    expect(issues.map((i) => i.field)).toContain('body.button_text');
    expect((await projectEmails(project.id))[0]).toEqual(initial);
  });

  it('a Season Summary email stays MANUAL: saving it AUTOMATIC is refused and changes nothing', async () => {
    const project = await newProject(ctx, f.asAdminA, f.clientA.id);
    for (const type of ['season_summary_launch', 'season_summary_reminder']) {
      const before = (await seasonEmails(project.id)).find((e) => e.type === type)!;
      const refused = await call(ctx, 'POST', `/projects/${before.id}/season-email`, f.asAdminA, {
        ...emailBody,
        send_mode: 'AUTOMATIC',
      });
      expectError(refused, 400, 'VALIDATION_ERROR');
      expect(fieldIssues(refused)).toEqual([
        { field: 'body.send_mode', message: expect.stringContaining('sent by hand only') },
      ]);
      expect((await seasonEmails(project.id)).find((e) => e.type === type)).toEqual(before);
      const saved = await call(ctx, 'POST', `/projects/${before.id}/season-email`, f.asAdminA, emailBody);
      expect(saved.json<EmailTemplate>()).toMatchObject({ subject: emailBody.subject, send_mode: 'MANUAL' });
    }
  });

  it('the migration sets Season Summary emails made AUTOMATIC before it to MANUAL, and the database keeps them so', async () => {
    const project = await newProject(ctx, f.asAdminA, f.clientA.id);
    const seasonId = (await seasonEmails(project.id))[0]!.season_id!;
    // The database as it was before the migration: no check, the defaults AUTOMATIC.
    await ctx.ownerDb.execute(sql`alter table email_templates drop constraint email_templates_manual_only_check`);
    await ctx.db.update(emailTemplates).set({ sendMode: 'AUTOMATIC' }).where(eq(emailTemplates.seasonId, seasonId));
    const migration = readFileSync(path.join(migrationsFolder, '0030_season_summary_emails_manual.sql'), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint')) await ctx.ownerDb.execute(sql.raw(statement));
    expect((await seasonEmails(project.id)).map((e) => e.send_mode)).toEqual([
      'AUTOMATIC',
      'AUTOMATIC',
      'AUTOMATIC',
      'MANUAL',
      'MANUAL',
    ]);
    await expect(
      ctx.db
        .update(emailTemplates)
        .set({ sendMode: 'AUTOMATIC' })
        .where(and(eq(emailTemplates.seasonId, seasonId), eq(emailTemplates.type, 'season_summary_launch'))),
    ).rejects.toThrow();
  });

  it('a season email is saved through the season calls only, and the project email through the project calls', async () => {
    const project = await newProject(ctx, f.asAdminA, f.clientA.id);
    const [projectEmail] = await projectEmails(project.id);
    const [seasonEmail] = await seasonEmails(project.id);
    expect(
      (await call(ctx, 'POST', `/projects/${seasonEmail!.id}/season-email`, f.asAdminA, emailBody)).statusCode,
    ).toBe(200);
    expectError(await call(ctx, 'POST', `/projects/${seasonEmail!.id}/email`, f.asAdminA, emailBody), 404, 'NOT_FOUND');
    expectError(
      await call(ctx, 'POST', `/projects/${projectEmail!.id}/season-email-status`, f.asAdminA, { enabled: false }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('enabling and disabling', () => {
  it('turns one email off and on, and all of a project’s or a season’s off at once', async () => {
    const project = await newProject(ctx, f.asAdminA, f.clientA.id);
    const [initial] = await projectEmails(project.id);
    const off = await call(ctx, 'POST', `/projects/${initial!.id}/email-status`, f.asAdminA, { enabled: false });
    expect(off.json<EmailTemplate>().enabled).toBe(false);

    const all = await call(ctx, 'POST', `/projects/${project.id}/disable-emails`, f.asAdminA);
    // Every project email but the one already off.
    expect(all.json()).toEqual({ updated: projectEmailTypes.length - 1 });
    expect((await projectEmails(project.id)).every((e) => !e.enabled)).toBe(true);
    // The season's emails are left as they were.
    expect((await seasonEmails(project.id)).every((e) => e.enabled)).toBe(true);

    const season = await call(ctx, 'POST', `/projects/${project.id}/disable-season-emails`, f.asAdminA, {
      seasonName: 'Spring 2026',
    });
    expect(season.json()).toEqual({ updated: seasonEmailTypes.length });
    expect((await seasonEmails(project.id)).every((e) => !e.enabled)).toBe(true);

    const on = await call(ctx, 'POST', `/projects/${initial!.id}/email-status`, f.asAdminA, { enabled: true });
    expect(on.json<EmailTemplate>().enabled).toBe(true);
  });

  it('disable-season-emails takes the season in the query (the specification’s form) or the body, one required', async () => {
    const project = await newProject(ctx, f.asAdminA, f.clientA.id);
    const url = `/projects/${project.id}/disable-season-emails`;
    const unnamed = await call(ctx, 'POST', url, f.asAdminA);
    expectError(unnamed, 400, 'REQUIRED_PARAMETER_MISSING');
    expect(fieldIssues(unnamed).map((i) => i.field)).toEqual(['query.seasonName']);
    expectError(await call(ctx, 'POST', url, f.asAdminA, {}), 400, 'VALIDATION_ERROR');
    const differing = await call(ctx, 'POST', `${url}?seasonName=Spring%202026`, f.asAdminA, { seasonName: 'Winter' });
    expectError(differing, 400, 'VALIDATION_ERROR');
    expectError(await call(ctx, 'POST', `${url}?seasonName=`, f.asAdminA), 400, 'VALIDATION_ERROR');
    expectError(await call(ctx, 'POST', `${url}?seasonName=Winter`, f.asAdminA), 404, 'NOT_FOUND');
    expect((await seasonEmails(project.id)).every((e) => e.enabled)).toBe(true);

    const byQuery = await call(ctx, 'POST', `${url}?seasonName=${encodeURIComponent('Spring 2026')}`, f.asAdminA);
    expect(byQuery.statusCode).toBe(200);
    expect(byQuery.json()).toEqual({ updated: seasonEmailTypes.length });
    expect((await seasonEmails(project.id)).every((e) => !e.enabled)).toBe(true);
    const both = await call(ctx, 'POST', `${url}?seasonName=Spring%202026`, f.asAdminA, { seasonName: 'Spring 2026' });
    expect(both.json()).toEqual({ updated: 0 });
  });

  it('a season the project does not have is 404, and a body that is not a boolean is refused', async () => {
    const project = await newProject(ctx, f.asAdminA, f.clientA.id);
    const [initial] = await projectEmails(project.id);
    expectError(
      await call(ctx, 'POST', `/projects/${project.id}/disable-season-emails`, f.asAdminA, { seasonName: 'Winter' }),
      404,
      'NOT_FOUND',
    );
    const list = await call(ctx, 'GET', `/projects/${project.id}/season-emails-list?seasonName=Winter`, f.asAdminA);
    expectError(list, 404, 'NOT_FOUND');
    expectError(
      await call(ctx, 'POST', `/projects/${initial!.id}/email-status`, f.asAdminA, { enabled: 'yes' }),
      400,
      'VALIDATION_ERROR',
    );
  });
});

describe('another client’s administrator', () => {
  it('gets 404 for every email call on client A’s project and changes nothing', async () => {
    const project = await newProject(ctx, f.asAdminA, f.clientA.id);
    const before = await projectEmails(project.id);
    const [initial] = before;
    const [seasonEmail] = await seasonEmails(project.id);
    const attempts = [
      call(ctx, 'GET', `/projects/${project.id}/emails-list`, f.asAdminB),
      call(ctx, 'GET', `/projects/${project.id}/season-emails-list?seasonName=Spring%202026`, f.asAdminB),
      call(ctx, 'POST', `/projects/${initial!.id}/email`, f.asAdminB, emailBody),
      call(ctx, 'POST', `/projects/${initial!.id}/email-status`, f.asAdminB, { enabled: false }),
      call(ctx, 'POST', `/projects/${seasonEmail!.id}/season-email`, f.asAdminB, emailBody),
      call(ctx, 'POST', `/projects/${seasonEmail!.id}/season-email-status`, f.asAdminB, { enabled: false }),
      call(ctx, 'POST', `/projects/${project.id}/disable-emails`, f.asAdminB),
      call(ctx, 'POST', `/projects/${project.id}/disable-season-emails`, f.asAdminB, { seasonName: 'Spring 2026' }),
      call(ctx, 'POST', `/projects/${project.id}/disable-season-emails?seasonName=Spring%202026`, f.asAdminB),
    ];
    for (const response of await Promise.all(attempts)) expect(response.statusCode).toBe(404);
    expect(await projectEmails(project.id)).toEqual(before);
    expect((await seasonEmails(project.id)).every((e) => e.enabled)).toBe(true);
  });
});
