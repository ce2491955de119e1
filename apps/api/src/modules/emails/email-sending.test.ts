import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { EmailPreview, ParticipantLoginResponse } from '@pss/contract';
import { emailOutbox, projectParticipants } from '../../db/schema/index.js';
import { capturingMailer, emailCalls, linkIn, smtpError } from '../../../test/email-calls.js';
import { call, expectError, fieldIssues, madeBefore, twoClientsContext } from '../../../test/kit.js';
import { participantWork } from '../../../test/participant-work.js';
import { createUser } from '../../../test/test-app.js';

const capture = capturingMailer();
const { ctx, f } = twoClientsContext({
  mailer: capture.mailer,
  env: { SUPPORT_EMAIL: 'help@alpha.test', SUPPORT_PHONE: '+1 555 0100' },
});
const staff = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
const work = participantWork(ctx, staff);
const emails = emailCalls(ctx);

/** Client A's project with a case in round 1 and three participants, the third archived. */
const fixture = madeBefore(async () => {
  const p = await work.project(f.clientA.id, { name: 'Heart Failure Program' });
  await work.publishedCase(p, 1);
  const [ann, ben, cid] = [
    await work.enrol(p, f.clientA.id),
    await work.enrol(p, f.clientA.id),
    await work.enrol(p, f.clientA.id),
  ];
  await ctx.db.update(projectParticipants).set({ archived: true }).where(eq(projectParticipants.userId, cid!.id));
  const initial = await emails.emailOf(p.id, 'initial', f.asAdminA);
  return { p, ann: ann!, ben: ben!, cid: cid!, initial };
});

const outboxCount = async () => (await ctx.db.select({ id: emailOutbox.id }).from(emailOutbox)).length;

describe('a test send', () => {
  it('queues one email per address (202), sends it with the sample participant’s details and no sign-in link', async () => {
    capture.clear();
    const { p, initial } = fixture;
    const sent = await call(ctx, 'POST', `/projects/${initial.id}/send-email-test`, f.asAdminA, {
      emails: ['Tester@Example.org', 'second@example.org', 'tester@example.org'],
    });
    expect(sent.statusCode).toBe(202);
    expect(sent.json()).toEqual({ queued: 2 });
    expect(await ctx.app.emails.drain()).toMatchObject({ sent: 2, failed: 0 });
    expect(capture.sent.map((m) => m.to).sort()).toEqual(['second@example.org', 'tester@example.org']);
    const message = capture.sent[0]!;
    expect(message.subject).toBe('Heart Failure Program: your patient cases are ready');
    expect(message.text).toContain('Dear Dr. Sample,');
    expect(message.text).toContain('Write to us at help@alpha.test.');
    expect(message.text).toContain('You can also call us on +1 555 0100.');
    expect(message.html).toContain('Open my dashboard</a>');
    expect(message.text).toContain(`${ctx.config.publicUrl}/participant\n`);
    expect(message.text).not.toMatch(/participant\/link\//);

    const log = await emails.deliveries(p.id, f.asAdminA, `?filter=${encodeURIComponent('{"kind":"TEST"}')}`);
    expect(log.items.map((d) => [d.to, d.status, d.attempts, d.participant])).toEqual(
      expect.arrayContaining([
        ['tester@example.org', 'SENT', 1, null],
        ['second@example.org', 'SENT', 1, null],
      ]),
    );
  });

  it('needs at least one address, each valid; nothing is queued otherwise', async () => {
    const before = await outboxCount();
    const url = `/projects/${fixture.initial.id}/send-email-test`;
    const none = await call(ctx, 'POST', url, f.asAdminA, { emails: [] });
    expectError(none, 400, 'VALIDATION_ERROR');
    expect(fieldIssues(none)[0]).toMatchObject({ field: 'body.emails', errorCode: 'TEST_EMAIL_RECIPIENT_REQUIRED' });
    const bad = await call(ctx, 'POST', url, f.asAdminA, { emails: ['a@b.org', 'not-an-address'] });
    expectError(bad, 400, 'VALIDATION_ERROR');
    expect(fieldIssues(bad)[0]).toMatchObject({ field: 'body.emails.1', errorCode: 'INVALID_EMAIL' });
    expectError(await call(ctx, 'POST', url, f.asAdminA, {}), 400, 'VALIDATION_ERROR');
    const unknown = await call(ctx, 'POST', `/projects/${crypto.randomUUID()}/send-email-test`, f.asAdminA, {
      emails: ['a@b.org'],
    });
    expectError(unknown, 404, 'NOT_FOUND');
    expect(await outboxCount()).toBe(before);
  });
});

describe('sending to participants', () => {
  it('sends each chosen participant their own signed dashboard link, which signs them in', async () => {
    capture.clear();
    const { ann, ben, initial } = fixture;
    const sent = await call(ctx, 'POST', `/projects/${initial.id}/send-email`, f.asAdminA, { ids: [ann.id, ben.id] });
    expect(sent.statusCode).toBe(202);
    expect(sent.json()).toEqual({ queued: 2, skipped: [] });
    await ctx.app.emails.drain();
    for (const user of [ann, ben]) {
      const message = capture.sent.find((m) => m.to === user.email)!;
      expect(message.text).toContain(`Dear  ${user.lastName},`);
      const token = linkIn(message).split('/participant/link/')[1]!;
      const signedIn = await call(ctx, 'POST', '/auth/login/halfuser', {}, { token });
      expect(signedIn.statusCode).toBe(200);
      expect(signedIn.json<ParticipantLoginResponse>().user.email).toBe(user.email);
    }
    // The same email to the same participant again that day: nothing new.
    const again = await call(ctx, 'POST', `/projects/${initial.id}/send-email`, f.asAdminA, { ids: [ann.id] });
    expect(again.json()).toEqual({ queued: 0, skipped: [] });
  });

  it('“all” leaves out archived participants and the exceptions', async () => {
    const { ann, ben, cid, p } = fixture;
    const reminder = await emails.emailOf(p.id, 'reminder', f.asAdminA);
    const sent = await call(ctx, 'POST', `/projects/${reminder.id}/send-email`, f.asAdminA, {
      all: true,
      except: [ben.id],
    });
    expect(sent.json()).toEqual({ queued: 1, skipped: [] });
    const rows = await ctx.db.select().from(emailOutbox).where(eq(emailOutbox.templateId, reminder.id));
    expect(rows.map((r) => r.userId)).toEqual([ann.id]);
    expect(rows.map((r) => r.userId)).not.toContain(cid.id);
  });

  it('refuses an id that is not the project’s participant, sending nothing', async () => {
    const before = await outboxCount();
    const stranger = await createUser(ctx.db, { role: 'USER', clientId: f.clientB.id });
    const refused = await call(ctx, 'POST', `/projects/${fixture.initial.id}/send-email`, f.asAdminA, {
      ids: [fixture.ann.id, stranger.id],
    });
    expectError(refused, 404, 'USER_NOT_FOUND');
    expectError(
      await call(ctx, 'POST', `/projects/${fixture.initial.id}/send-email`, f.asAdminA, { ids: [] }),
      400,
      'VALIDATION_ERROR',
    );
    expect(await outboxCount()).toBe(before);
  });
});

describe('a disabled email', () => {
  it('is not sent by hand: 409 EMAIL_DISABLED, nothing queued; a test of it still goes', async () => {
    const { p, ann } = fixture;
    const lastRound = await emails.emailOf(p.id, 'last_round', f.asAdminA);
    const off = await call(ctx, 'POST', `/projects/${lastRound.id}/email-status`, f.asAdminA, { enabled: false });
    expect(off.statusCode).toBe(200);
    const before = await outboxCount();
    for (const body of [{ ids: [ann.id] }, { all: true }]) {
      expectError(
        await call(ctx, 'POST', `/projects/${lastRound.id}/send-email`, f.asAdminA, body),
        409,
        'EMAIL_DISABLED',
      );
    }
    // Another client's administrator learns nothing of it: 404 as for any email not theirs.
    expectError(
      await call(ctx, 'POST', `/projects/${lastRound.id}/send-email`, f.asAdminB, { ids: [ann.id] }),
      404,
      'NOT_FOUND',
    );
    expect(await outboxCount()).toBe(before);
    const test = await call(ctx, 'POST', `/projects/${lastRound.id}/send-email-test`, f.asAdminA, {
      emails: ['tester@example.org'],
    });
    expect(test.json()).toEqual({ queued: 1 });
    await ctx.app.emails.drain();
  });

  it('queued by hand, then disabled before it went: cancelled, not sent', async () => {
    const { p, ben } = fixture;
    const newRound = await emails.emailOf(p.id, 'new_round', f.asAdminA);
    // Queued without waking the sender, as if it had not had its turn yet.
    await ctx.db.insert(emailOutbox).values({
      projectId: p.id,
      templateId: newRound.id,
      userId: ben.id,
      toAddress: ben.email,
      kind: 'MANUAL',
      ruleDay: '2026-03-02',
      dedupeKey: `M:disabled-later:${ben.id}`,
      nextAttemptAt: ctx.clock.now(),
    });
    await call(ctx, 'POST', `/projects/${newRound.id}/email-status`, f.asAdminA, { enabled: false });
    capture.clear();
    expect(await ctx.app.emails.drain()).toMatchObject({ sent: 0, cancelled: 1 });
    expect(capture.sent).toEqual([]);
    const [row] = await ctx.db.select().from(emailOutbox).where(eq(emailOutbox.templateId, newRound.id));
    expect(row).toMatchObject({ status: 'CANCELLED', lastError: 'The email was disabled before it was sent.' });
  });
});

describe('another client’s administrator', () => {
  it('gets 404 from every sending call and sends nothing', async () => {
    const before = await outboxCount();
    const { p, initial, ann } = fixture;
    const calls: [string, string, object?][] = [
      ['POST', `/projects/${initial.id}/send-email-test`, { emails: ['x@example.org'] }],
      ['POST', `/projects/${initial.id}/send-email`, { ids: [ann.id] }],
      ['POST', `/projects/${initial.id}/send-email`, { all: true }],
      [
        'POST',
        `/projects/${initial.id}/email-preview`,
        { subject: 's', body: 'b', button_text: 'b', dashboard_url_text: '' },
      ],
      ['GET', `/projects/${p.id}/email-deliveries`],
      ['GET', `/projects/${p.id}/email-schedule?date=2026-03-03`],
    ];
    for (const [method, url, payload] of calls) {
      const response = await call(ctx, method as 'GET' | 'POST', url, f.asAdminB, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(await outboxCount()).toBe(before);
  });
});

describe('the preview', () => {
  const texts = {
    subject: 'Round {round_number} of {season_name}',
    body: '<p>Dear {first_name} {last_name},</p><p>Round {round_number} ends {round_end_date}.</p>',
    button_text: 'Go',
    dashboard_url_text: 'Your dashboard',
  };

  it('renders the unsaved texts as the chosen participant would get them, with no real link', async () => {
    const { initial, ann } = fixture;
    const response = await call(ctx, 'POST', `/projects/${initial.id}/email-preview`, f.asAdminA, {
      ...texts,
      participant_id: ann.id,
    });
    expect(response.statusCode).toBe(200);
    const preview = response.json<EmailPreview>();
    expect(preview.subject).toBe('Round 1 of Spring 2026');
    expect(preview.text).toContain(`Dear Test User,`);
    expect(preview.text).toContain('Round 1 ends March 14, 2026.');
    expect(preview.html).toContain('participant/link/personal-link');
    expect(preview.participant).toMatchObject({ id: ann.id, email: ann.email });
    const sample = (
      await call(ctx, 'POST', `/projects/${initial.id}/email-preview`, f.asAdminA, texts)
    ).json<EmailPreview>();
    expect(sample.text).toContain('Dear Alex Sample,');
    expect(sample.participant).toBeNull();
  });

  it('shows markup in the button and link texts as typed and the body sanitised, as the sent email has them', async () => {
    // An email of its own, so the others' texts stay as written.
    const reminder = await emails.emailOf(fixture.p.id, 'reminder', f.asAdminA);
    const hostile = {
      subject: 'Test',
      body: '<p>Hi</p><style>* { color: red }</style><img src="https://tracker.test/b.gif"><form><input type="password"></form>',
      button_text: '<form action="//x.test"><input type=password name=pw></form>',
      dashboard_url_text: '<a href="javascript:alert(1)">go</a><img src="https://tracker.test/u.gif">',
    };
    const preview = (
      await call(ctx, 'POST', `/projects/${reminder.id}/email-preview`, f.asAdminA, hostile)
    ).json<EmailPreview>();
    const saved = await call(ctx, 'POST', `/projects/${reminder.id}/email`, f.asAdminA, {
      ...hostile,
      send_mode: 'AUTOMATIC',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    capture.clear();
    await call(ctx, 'POST', `/projects/${reminder.id}/send-email-test`, f.asAdminA, { emails: ['me@example.org'] });
    await ctx.app.emails.drain();
    const sent = capture.sent[0]!.html;
    for (const html of [preview.html, sent]) {
      expect(html).toContain(
        '&lt;form action=&quot;//x.test&quot;&gt;&lt;input type=password name=pw&gt;&lt;/form&gt;',
      );
      expect(html).toContain('&lt;a href=&quot;javascript:alert(1)&quot;&gt;go&lt;/a&gt;');
      expect(html).toContain('<p>Hi</p>');
      expect(html).not.toMatch(/<(form|input|img|style)\b|href="javascript:|color: red/i);
    }
    // The same message but for the link: the preview's stands in for the participant's own.
    expect(preview.html.replaceAll('/participant/link/personal-link', '/participant')).toBe(sent);
  });

  it('names an unknown placeholder, and refuses a participant of another project', async () => {
    const { initial } = fixture;
    const unknown = await call(ctx, 'POST', `/projects/${initial.id}/email-preview`, f.asAdminA, {
      ...texts,
      body: '<p>Hello {nickname}</p>',
    });
    expectError(unknown, 400, 'VALIDATION_ERROR');
    expect(fieldIssues(unknown)[0]!.message).toContain('{nickname}');
    const stranger = await createUser(ctx.db, { role: 'USER', clientId: f.clientA.id });
    const refused = await call(ctx, 'POST', `/projects/${initial.id}/email-preview`, f.asAdminA, {
      ...texts,
      participant_id: stranger.id,
    });
    expectError(refused, 404, 'USER_NOT_FOUND');
  });
});

describe('when the mail server fails', () => {
  it('retries a temporary failure later, then sends it; a permanent one is FAILED with the server’s message', async () => {
    await ctx.app.emails.drain(); // what earlier tests queued
    capture.clear();
    const { p, initial } = fixture;
    const test = (address: string) =>
      call(ctx, 'POST', `/projects/${initial.id}/send-email-test`, f.asAdminA, { emails: [address] });
    capture.failWith((m) =>
      m.to === 'busy@example.org'
        ? smtpError(451, '451 4.3.0 Try again later')
        : m.to === 'gone@example.org'
          ? smtpError(550, '550 5.1.1 <gone@example.org>: Recipient address rejected')
          : null,
    );
    await test('busy@example.org');
    await test('gone@example.org');
    expect(await ctx.app.emails.drain()).toMatchObject({ sent: 0, retried: 1, failed: 1 });

    const log = await emails.deliveries(p.id, f.asAdminA, '?search=example.org&sort=status:ASC');
    const busy = log.items.find((d) => d.to === 'busy@example.org')!;
    const gone = log.items.find((d) => d.to === 'gone@example.org')!;
    expect(busy).toMatchObject({
      status: 'QUEUED',
      attempts: 1,
      last_error: '451 4.3.0 Try again later',
      error_code: null,
    });
    expect(gone).toMatchObject({
      status: 'FAILED',
      attempts: 1,
      error_code: 'EMAILS_SEND_FAILED',
      last_error: '550 5.1.1 <gone@example.org>: Recipient address rejected',
    });

    // Not before its time; then the server takes it.
    capture.failWith(null);
    expect(await ctx.app.emails.drain()).toMatchObject({ sent: 0 });
    ctx.clock.advance(31_000);
    expect(await ctx.app.emails.drain()).toMatchObject({ sent: 1 });
    expect(capture.sent.map((m) => m.to)).toEqual(['busy@example.org']);
    const failedOnly = await emails.deliveries(
      p.id,
      f.asAdminA,
      `?filter=${encodeURIComponent('{"status":"FAILED"}')}`,
    );
    expect(failedOnly.items.map((d) => d.to)).toEqual(['gone@example.org']);
  });

  it('pages and sorts the delivery log in the database', async () => {
    const { p } = fixture;
    const all = await emails.deliveries(p.id, f.asAdminA, '?limit=200');
    const page = await emails.deliveries(p.id, f.asAdminA, '?limit=2&page=2');
    expect(page.total).toBe(all.total);
    expect(page.items.map((d) => d.id)).toEqual(all.items.slice(2, 4).map((d) => d.id));
    expectError(
      await call(ctx, 'GET', `/projects/${p.id}/email-deliveries?sort=to:ASC`, f.asAdminA),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await call(
        ctx,
        'GET',
        `/projects/${p.id}/email-deliveries?filter=${encodeURIComponent('{"status":"LOST"}')}`,
        f.asAdminA,
      ),
      400,
      'VALIDATION_ERROR',
    );
  });
});
