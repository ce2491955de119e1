import { afterAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { EmailTemplate } from '@pss/contract';
import { emailOutbox, emailSuppressions, projectParticipants } from '../../db/schema/index.js';
import { redactUrl } from '../../app-logging.js';
import { capturingMailer, emailCalls } from '../../../test/email-calls.js';
import { madeBefore, twoClientsContext } from '../../../test/kit.js';
import { participantWork } from '../../../test/participant-work.js';
import { createUser } from '../../../test/test-app.js';
import type { UserRow } from '../users/users.service.js';
import { UNSUBSCRIBE_LINK_TTL_SECONDS } from './unsubscribe-links.js';

const capture = capturingMailer();
const { ctx, f } = twoClientsContext({ mailer: capture.mailer });
const staff = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
const work = participantWork(ctx, staff);

/** Two projects Ann takes part in, and a listening app (a real HTTP server on 127.0.0.1). */
const fixture = madeBefore(async () => {
  const p = await work.project(f.clientA.id, { name: 'One-Click Program' });
  await work.publishedCase(p, 1);
  const ann = (await work.enrol(p, f.clientA.id))!;
  const other = await work.project(f.clientA.id, { name: 'Other Program' });
  // Ann takes part in the other project too.
  await ctx.db.insert(projectParticipants).values({
    projectId: other.id,
    userId: ann.id,
    sortName: `${ann.lastName} ${ann.firstName}`.toLowerCase(),
    email: ann.email,
    dataStatus: 'READY',
  });
  const templates = await emailCalls(ctx).projectEmails(p.id, f.asAdminA);
  const otherTemplates = await emailCalls(ctx).projectEmails(other.id, f.asAdminA);
  const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  return { p, other, ann, templates, otherTemplates, base };
});
afterAll(() => ctx.app.server.close());

let sequence = 0;
/** Queues one email of the template to the participant, as sent by hand; answers its outbox id. */
async function queue(template: EmailTemplate, projectId: string, user: UserRow): Promise<string> {
  const now = ctx.clock.now();
  const [row] = await ctx.db
    .insert(emailOutbox)
    .values({
      projectId,
      templateId: template.id,
      userId: user.id,
      toAddress: user.email,
      kind: 'MANUAL',
      ruleDay: now.toISOString().slice(0, 10),
      dedupeKey: `one-click-test:${(sequence += 1)}`,
      nextAttemptAt: now,
    })
    .returning({ id: emailOutbox.id });
  return row!.id;
}
const of = (templates: EmailTemplate[], type: EmailTemplate['type']) => templates.find((t) => t.type === type)!;
const statusOf = async (id: string) => (await ctx.db.select().from(emailOutbox).where(eq(emailOutbox.id, id)))[0]!;
const suppressions = () => ctx.db.select().from(emailSuppressions);

/** The reminder's List-Unsubscribe address, at the listening app (PUBLIC_URL's origin swapped for it). */
async function unsubscribeUrl(): Promise<string> {
  capture.clear();
  await queue(of(fixture.templates, 'reminder'), fixture.p.id, fixture.ann);
  await ctx.app.emails.drain();
  const header = capture.sent[0]!.headers!['List-Unsubscribe']!;
  return /^<(.+)>$/.exec(header)![1]!.replace(ctx.config.publicUrl, fixture.base);
}

/** `curl -X POST -d 'List-Unsubscribe=One-Click' <url>`: curl's -d is a form-encoded POST. */
const curlPost = (url: string, body = 'List-Unsubscribe=One-Click') =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });

describe('one-click unsubscribe (RFC 8058)', () => {
  it('a GET only leads to the page that asks; a POST of List-Unsubscribe=One-Click stops that project’s reminders, and only those', async () => {
    const { p, other, ann, templates, otherTemplates } = fixture;
    const url = await unsubscribeUrl();
    expect(url).toMatch(/\/api\/unsubscribe\/[\w.-]+$/);
    const token = url.split('/').pop()!;

    // A link scanner's GET: a redirect to the web page, nothing suppressed.
    const get = await fetch(url, { redirect: 'manual' });
    expect(get.status).toBe(302);
    expect(get.headers.get('location')).toBe(`/unsubscribe?token=${token}`);
    expect(await suppressions()).toEqual([]);

    const post = await curlPost(url);
    expect(post.status).toBe(204);
    expect(await suppressions()).toEqual([
      expect.objectContaining({
        email: ann.email.toLowerCase(),
        projectId: p.id,
        reason: 'UNSUBSCRIBED',
        source: 'one-click',
      }),
    ]);
    // A second click (or a provider that POSTs twice) changes nothing more; so does RFC 8058's own
    // example, multipart/form-data.
    expect((await curlPost(url)).status).toBe(204);
    const multipart = new FormData();
    multipart.append('List-Unsubscribe', 'One-Click');
    expect((await fetch(url, { method: 'POST', body: multipart })).status).toBe(204);
    expect(await suppressions()).toHaveLength(1);

    // The next reminder is not sent; a non-reminder email still goes, and so do the other project's reminders.
    capture.clear();
    const reminder = await queue(of(templates, 'last_day_of_round'), p.id, ann);
    const initial = await queue(of(templates, 'initial'), p.id, ann);
    const otherReminder = await queue(of(otherTemplates, 'reminder'), other.id, ann);
    await ctx.app.emails.drain();
    expect((await statusOf(reminder)).status).toBe('SUPPRESSED');
    expect((await statusOf(initial)).status).toBe('SENT');
    expect((await statusOf(otherReminder)).status).toBe('SENT');
    expect(capture.sent.map((m) => m.to)).toEqual([ann.email, ann.email]);

    // The link never reaches a log.
    expect(redactUrl(`/api/unsubscribe/${token}`)).toBe('/api/unsubscribe/[redacted]');
    expect(redactUrl(`/unsubscribe?token=${token}`)).toBe('/unsubscribe?token=[redacted]');
  });

  it('refuses a forged, altered, expired link or another body with a catalogue error, and changes nothing', async () => {
    await ctx.db.delete(emailSuppressions).where(eq(emailSuppressions.projectId, fixture.p.id));
    const url = await unsubscribeUrl();
    const token = url.split('/').pop()!;
    const at = (t: string) => url.replace(token, t);
    const altered = token.slice(0, 3) + (token[3] === '0' ? '1' : '0') + token.slice(4);
    for (const bad of [at(altered), at('not-a-token'), at('a'.repeat(64) + '.zzzz.' + 'b'.repeat(22))]) {
      const refused = await curlPost(bad);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { errorCode: string }).errorCode).toBe('UNSUBSCRIBE_LINK_INVALID');
    }
    const wrongBody = await curlPost(url, 'List-Unsubscribe=Later');
    expect(wrongBody.status).toBe(400);
    expect(((await wrongBody.json()) as { errorCode: string }).errorCode).toBe('VALIDATION_ERROR');
    expect((await curlPost(url, '')).status).toBe(400);
    const wrongField = new FormData();
    wrongField.append('Unsubscribe', 'One-Click');
    expect((await fetch(url, { method: 'POST', body: wrongField })).status).toBe(400);
    // A year later the link has expired.
    ctx.clock.advance(UNSUBSCRIBE_LINK_TTL_SECONDS * 1000 + 1000);
    const expired = await curlPost(url);
    expect(expired.status).toBe(400);
    expect(((await expired.json()) as { errorCode: string }).errorCode).toBe('UNSUBSCRIBE_LINK_INVALID');
    expect(
      await ctx.db
        .select()
        .from(emailSuppressions)
        .where(and(eq(emailSuppressions.projectId, fixture.p.id))),
    ).toEqual([]);
  });
});
