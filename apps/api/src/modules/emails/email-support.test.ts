import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Client, EmailPreview, Project } from '@pss/contract';
import { clients, projects } from '../../db/schema/index.js';
import { capturingMailer, emailCalls } from '../../../test/email-calls.js';
import { call, expectError, fieldIssues, madeBefore, twoClientsContext } from '../../../test/kit.js';
import { projectBody } from '../../../test/fixtures.js';
import { participantWork } from '../../../test/participant-work.js';
import { createUser } from '../../../test/test-app.js';

const capture = capturingMailer();
const { ctx, f } = twoClientsContext({
  mailer: capture.mailer,
  env: { SUPPORT_EMAIL: 'server@platform.test', SUPPORT_PHONE: '' },
});
const staff = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
const work = participantWork(ctx, staff);
const emails = emailCalls(ctx);

const clientA = async () => (await call(ctx, 'GET', `/clients/${f.clientA.id}`, f.asSuperadmin)).json<Client>();
const clientRow = async () => (await ctx.db.select().from(clients).where(eq(clients.id, f.clientA.id)))[0]!;
const projectRow = async (id: string) => (await ctx.db.select().from(projects).where(eq(projects.id, id)))[0]!;
const clientPut = (body: object, caller: object = f.asSuperadmin) =>
  call(ctx, 'PUT', `/clients/${f.clientA.id}`, caller, { name: f.clientA.name, ...body });

describe('a client’s support contact', () => {
  it('is set and cleared with the client; an update that leaves it out keeps it', async () => {
    const set = await clientPut({ support_email: ' help@alpha.test ', support_phone: '+1 (555) 010-0100 ext. 7' });
    expect(set.statusCode).toBe(200);
    expect(set.json<Client>()).toMatchObject({
      support_email: 'help@alpha.test',
      support_phone: '+1 (555) 010-0100 ext. 7',
    });
    expect((await clientPut({})).json<Client>().support_email).toBe('help@alpha.test');
    const cleared = await clientPut({ support_email: '', support_phone: null });
    expect(cleared.json<Client>()).toMatchObject({ support_email: null, support_phone: null });
    const created = await call(ctx, 'POST', '/clients', f.asSuperadmin, {
      name: 'Support Co',
      support_email: 'desk@support.test',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json<Client>()).toMatchObject({ support_email: 'desk@support.test', support_phone: null });
  });

  it.each([
    [{ support_email: 'not an address' }, 'body.support_email', 'INVALID_EMAIL'],
    [{ support_email: `${'a'.repeat(250)}@b.test` }, 'body.support_email', 'INVALID_EMAIL'],
    [{ support_phone: '5'.repeat(61) }, 'body.support_phone', 'INVALID_PHONE'],
    [{ support_phone: '555\n0100' }, 'body.support_phone', 'INVALID_PHONE'],
    // NUL is refused before the schema by the app's NUL guard (its own message).
    [{ support_phone: '555 0100\u0000' }, 'body.support_phone', undefined],
    [{ support_phone: '555 0100\u001b[2J' }, 'body.support_phone', 'INVALID_PHONE'],
    [{ support_phone: '555\u200b0100' }, 'body.support_phone', 'INVALID_PHONE'],
    [{ support_phone: 5550100 }, 'body.support_phone', undefined],
  ])('refuses %j with VALIDATION_ERROR and changes nothing', async (body, field, code) => {
    await clientPut({ support_email: 'kept@alpha.test', support_phone: '555 0100' });
    const refused = await clientPut(body);
    expectError(refused, 400, 'VALIDATION_ERROR');
    const issue = fieldIssues(refused).find((i) => i.field === field);
    expect(issue).toBeDefined();
    if (code) expect(issue!.errorCode).toBe(code);
    expect(await clientRow()).toMatchObject({ supportEmail: 'kept@alpha.test', supportPhone: '555 0100' });
  });

  it('is set by a superadmin only: an administrator (of this client or another) and no one signed in are refused', async () => {
    await clientPut({ support_email: 'kept@alpha.test' });
    expectError(await clientPut({ support_email: 'a@a.test' }, f.asAdminA), 403, 'FORBIDDEN');
    expectError(await clientPut({ support_email: 'b@b.test' }, f.asAdminB), 403, 'FORBIDDEN');
    expect((await clientPut({ support_email: 'c@c.test' }, {})).statusCode).toBe(401);
    expect((await clientRow()).supportEmail).toBe('kept@alpha.test');
    expect((await clientA()).support_email).toBe('kept@alpha.test');
  });
});

describe('a project’s support contact', () => {
  it('is set by its client’s administrator with the project; another client’s administrator is refused', async () => {
    const created = await call(ctx, 'POST', '/projects', f.asAdminA, {
      ...projectBody(f.clientA.id),
      support_phone: '0800 123 456',
    });
    expect(created.statusCode).toBe(201);
    const project = created.json<Project>();
    expect(project).toMatchObject({ support_email: null, support_phone: '0800 123 456' });
    const body = {
      name: project.name,
      disease_types: ['Diabetes'],
      question_categories: ['Diagnosis'],
      status: 'ACTIVE',
      seasons: project.seasons.map(({ id: seasonId, name, rounds }) => ({
        id: seasonId,
        name,
        rounds: rounds.map(({ number, start_date, end_date }) => ({ number, start_date, end_date })),
      })),
    };
    const saved = await call(ctx, 'PUT', `/projects/${project.id}`, f.asAdminA, {
      ...body,
      support_email: 'trial@alpha.test',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json<Project>()).toMatchObject({ support_email: 'trial@alpha.test', support_phone: '0800 123 456' });

    const bad = await call(ctx, 'PUT', `/projects/${project.id}`, f.asAdminA, { ...body, support_phone: 'a\tb' });
    expectError(bad, 400, 'VALIDATION_ERROR');
    expect(fieldIssues(bad)[0]).toMatchObject({ field: 'body.support_phone', errorCode: 'INVALID_PHONE' });
    const other = await call(ctx, 'PUT', `/projects/${project.id}`, f.asAdminB, { ...body, support_email: 'x@b.test' });
    expectError(other, 404, 'PROJECT_NOT_FOUND');
    expect((await call(ctx, 'PUT', `/projects/${project.id}`, {}, body)).statusCode).toBe(401);
    expect(await projectRow(project.id)).toMatchObject({
      supportEmail: 'trial@alpha.test',
      supportPhone: '0800 123 456',
    });
  });
});

describe('the emails name the project’s support contact', () => {
  it('the project’s own, else its client’s, else the server’s — in a sent message and in the preview', async () => {
    const p = await work.project(f.clientA.id);
    await work.publishedCase(p, 1);
    const ann = (await work.enrol(p, f.clientA.id))!;
    const initial = await emails.emailOf(p.id, 'initial', f.asAdminA);
    const sendAndRead = async (key: string) => {
      capture.clear();
      const sent = await call(ctx, 'POST', `/projects/${initial.id}/send-email-test`, f.asAdminA, {
        emails: [`${key}@example.org`],
      });
      expect(sent.statusCode).toBe(202);
      await ctx.app.emails.drain();
      return capture.sent.find((m) => m.to === `${key}@example.org`)!;
    };
    const preview = async () =>
      (
        await call(ctx, 'POST', `/projects/${initial.id}/email-preview`, f.asAdminA, {
          subject: initial.subject,
          body: initial.body,
          button_text: initial.button_text,
          dashboard_url_text: initial.dashboard_url_text,
          participant_id: ann.id,
        })
      ).json<EmailPreview>();

    // Nothing set: the server's address.
    await ctx.db.update(clients).set({ supportEmail: null, supportPhone: null }).where(eq(clients.id, f.clientA.id));
    const server = await sendAndRead('server');
    expect(server.text).toContain('server@platform.test');

    await ctx.db
      .update(clients)
      .set({ supportEmail: 'client@alpha.test', supportPhone: '+1 555 0199' })
      .where(eq(clients.id, f.clientA.id));
    const client = await sendAndRead('client');
    expect(client.text).toContain('client@alpha.test');
    expect(client.text).toContain('+1 555 0199');

    await ctx.db.update(projects).set({ supportEmail: 'trial@alpha.test' }).where(eq(projects.id, p.id));
    const own = await sendAndRead('own');
    expect(own.text).toContain('trial@alpha.test');
    expect(own.text).not.toContain('client@alpha.test');
    // The phone was not overridden: the client's.
    expect(own.text).toContain('+1 555 0199');
    const shown = await preview();
    expect(shown.text).toContain('trial@alpha.test');
    expect(shown.html).toContain('+1 555 0199');
  });
});
