import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { EmailPreview, EmailSchedule, EmailTemplate } from '@pss/contract';
import { emailTemplates } from '../../db/schema/index.js';
import { projectEmailDefaults } from '../../db/email-templates.js';
import { capturingMailer, emailCalls } from '../../../test/email-calls.js';
import { call, madeBefore, newProject, twoClientsContext } from '../../../test/kit.js';
import { participantWork } from '../../../test/participant-work.js';
import { createUser } from '../../../test/test-app.js';

const capture = capturingMailer();
// No support phone anywhere: the server's is empty, and the clients set none.
const { ctx, f } = twoClientsContext({
  mailer: capture.mailer,
  env: { SUPPORT_EMAIL: 'help@platform.test', SUPPORT_PHONE: '' },
});
const staff = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
const work = participantWork(ctx, staff);
const emails = emailCalls(ctx);

/** The defaults as first written, which a project made before issue #47 still holds. */
const firstFooter =
  '<p>Questions? Write to {email} or call {phone}.</p>' +
  '<p>If the button does not work, copy this link into your browser: {dashboard_link}</p>';
const firstBody = (type: EmailTemplate['type']) =>
  projectEmailDefaults[type].body.replace(/<p>Questions\?.*$/, firstFooter);

const previewOf = async (email: EmailTemplate, participantId: string | null = null) => {
  const response = await call(ctx, 'POST', `/projects/${email.id}/email-preview`, f.asAdminA, {
    subject: email.subject,
    body: email.body,
    button_text: email.button_text,
    dashboard_url_text: email.dashboard_url_text,
    participant_id: participantId,
  });
  expect(response.statusCode).toBe(200);
  return response.json<EmailPreview>();
};

describe('the default texts', () => {
  it('name the dashboard link once, as the button, with the fallback after it and no "or call ."', async () => {
    for (const d of Object.values(projectEmailDefaults)) {
      expect(d.body).not.toContain('{dashboard_link}');
      expect(d.body).toContain('{phone}.</p>');
    }
    const p = await work.project(f.clientA.id);
    const initial = await emails.emailOf(p.id, 'initial', f.asAdminA);
    capture.clear();
    const sent = await call(ctx, 'POST', `/projects/${initial.id}/send-email-test`, f.asAdminA, {
      emails: ['launch@example.org'],
    });
    expect(sent.statusCode).toBe(202);
    await ctx.app.emails.drain();
    const message = capture.sent[0]!;
    const link = `${ctx.config.publicUrl}/participant`;
    // The text part: the link once, on the button's line; the support line without a phone.
    expect(message.text.split(link).length - 1).toBe(1);
    expect(message.text).toContain(`Open my dashboard: ${link}\n`);
    expect(message.text).toContain('Questions? Write to us at help@platform.test.');
    expect(message.text).not.toMatch(/call( us on)?\s*\./);
    // The HTML part: the button, then the fallback with the address written out.
    const button = message.html!.indexOf('>Open my dashboard</a>');
    const fallback = message.html!.indexOf('If the button does not work, copy this address into your browser:');
    expect(button).toBeGreaterThan(message.html!.indexOf('Questions?'));
    expect(fallback).toBeGreaterThan(button);
    expect(message.html!.split(`href="${link}"`).length - 1).toBe(2);
  });

  it('still held word for word by an older project are brought up to today’s; edited ones are kept', async () => {
    const p = await work.project(f.clientA.id);
    await emails.projectEmails(p.id, f.asAdminA);
    const edited = `${firstBody('reminder')}<p>Our own words.</p>`;
    const set = (type: EmailTemplate['type'], values: Partial<typeof emailTemplates.$inferInsert>) =>
      ctx.db
        .update(emailTemplates)
        .set(values)
        .where(and(eq(emailTemplates.projectId, p.id), eq(emailTemplates.type, type)));
    await set('initial', { body: firstBody('initial'), dashboardUrlText: 'Your dashboard' });
    await set('summary_launch', { body: firstBody('summary_launch'), dashboardUrlText: 'Your results' });
    await set('reminder', { body: edited, dashboardUrlText: 'Open it here' });

    const after = await emails.projectEmails(p.id, f.asAdminA);
    const of = (type: string) => after.find((e) => e.type === type)!;
    expect(of('initial')).toMatchObject({
      body: projectEmailDefaults.initial.body,
      dashboard_url_text: projectEmailDefaults.initial.dashboardUrlText,
    });
    expect(of('summary_launch')).toMatchObject({
      body: projectEmailDefaults.summary_launch.body,
      dashboard_url_text: projectEmailDefaults.summary_launch.dashboardUrlText,
    });
    expect(of('reminder')).toMatchObject({ body: edited, dashboard_url_text: 'Open it here' });
  });
});

describe('the warnings of empty placeholders', () => {
  it('the preview names {phone} with no support phone set, and the round’s in a project without seasons', async () => {
    const p = await work.project(f.clientA.id);
    const ann = (await work.enrol(p, f.clientA.id))!;
    const initial = await emails.emailOf(p.id, 'initial', f.asAdminA);
    const shown = await previewOf(initial);
    expect(shown.warnings.map((w) => w.placeholder)).toEqual(['{phone}']);
    expect(shown.warnings[0]!.message).toContain('no support phone is set');
    expect(shown.text).not.toContain('call us on');
    // A participant without a salutation: that is said too.
    const forAnn = await previewOf(initial, ann.id);
    expect(forAnn.warnings.map((w) => w.placeholder).sort()).toEqual(
      ann.salutation ? ['{phone}'] : ['{phone}', '{salutation}'],
    );

    const bare = await newProject(ctx, f.asAdminA, f.clientA.id, { seasons: [] });
    const reminder = await emails.emailOf(bare.id, 'reminder', f.asAdminA);
    const none = await previewOf(reminder);
    expect(none.warnings.map((w) => w.placeholder).sort()).toEqual(
      ['{phone}', '{round_end_date}', '{round_number}'].sort(),
    );
    expect(none.warnings.find((w) => w.placeholder === '{round_number}')!.message).toContain('no round');

    // A support phone set on the client: no warning of it.
    await call(ctx, 'PUT', `/clients/${f.clientA.id}`, f.asSuperadmin, {
      name: f.clientA.name,
      support_phone: '+1 555 0100',
    });
    expect((await previewOf(initial)).warnings).toEqual([]);
    await call(ctx, 'PUT', `/clients/${f.clientA.id}`, f.asSuperadmin, { name: f.clientA.name, support_phone: null });
  });

  it('the dry run names them for each email going that day', async () => {
    const p = await work.project(f.clientA.id);
    await work.publishedCase(p, 1);
    await work.enrol(p, f.clientA.id, { startDate: '2026-03-02' });
    const response = await call(ctx, 'GET', `/projects/${p.id}/email-schedule?date=2026-03-02`, f.asAdminA);
    expect(response.statusCode).toBe(200);
    const schedule = response.json<EmailSchedule>();
    expect(schedule.counts).toEqual([{ email_type: 'initial', email_name: 'Initial Launch Email', count: 1 }]);
    expect(schedule.warnings).toEqual([
      expect.objectContaining({ email_type: 'initial', email_name: 'Initial Launch Email', placeholder: '{phone}' }),
    ]);
    const quiet = await call(ctx, 'GET', `/projects/${p.id}/email-schedule?date=2026-02-01`, f.asAdminA);
    expect(quiet.json<EmailSchedule>().warnings).toEqual([]);
  });
});
