import { describe, expect, it } from 'vitest';
import { projectEmailTypes, reminderEmailTypes } from '@pss/contract';
import { emailOutbox } from '../../db/schema/index.js';
import { createTokenService } from '../../lib/tokens.js';
import { capturingMailer, emailCalls } from '../../../test/email-calls.js';
import { call, madeBefore, twoClientsContext } from '../../../test/kit.js';
import { participantWork } from '../../../test/participant-work.js';
import { createUser } from '../../../test/test-app.js';
import { createUnsubscribeLinks, UNSUBSCRIBE_LINK_TTL_SECONDS } from './unsubscribe-links.js';

const capture = capturingMailer();
const { ctx, f } = twoClientsContext({ mailer: capture.mailer });
const staff = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
const work = participantWork(ctx, staff);

/** A project with one participant, and every one of its emails queued to them as sent by hand. */
const fixture = madeBefore(async () => {
  const p = await work.project(f.clientA.id, { name: 'Unsubscribe Program' });
  await work.publishedCase(p, 1);
  const ann = (await work.enrol(p, f.clientA.id))!;
  const templates = await emailCalls(ctx).projectEmails(p.id, f.asAdminA);
  return { p, ann, templates };
});

describe('List-Unsubscribe', () => {
  it('reminders carry List-Unsubscribe (a signed link of that participant and project) and the one-click field; other emails do not', async () => {
    capture.clear();
    const { p, ann, templates } = fixture;
    const now = ctx.clock.now();
    await ctx.db.insert(emailOutbox).values(
      templates.map((t) => ({
        projectId: p.id,
        templateId: t.id,
        userId: ann.id,
        toAddress: ann.email,
        kind: 'MANUAL' as const,
        ruleDay: now.toISOString().slice(0, 10),
        dedupeKey: `test-headers:${t.id}`,
        nextAttemptAt: now,
      })),
    );
    const test = await call(
      ctx,
      'POST',
      `/projects/${templates.find((t) => t.type === 'reminder')!.id}/send-email-test`,
      f.asAdminA,
      {
        emails: ['tester@example.org'],
      },
    );
    expect(test.statusCode).toBe(202);
    await ctx.app.emails.drain();

    const links = createUnsubscribeLinks(ctx.config.sessionSecret);
    const toAnn = capture.sent.filter((m) => m.to === ann.email);
    expect(toAnn.length).toBe(templates.filter((t) => t.enabled).length);
    let reminders = 0;
    for (const message of toAnn) {
      const unsubscribe = message.headers?.['List-Unsubscribe'];
      if (!unsubscribe) {
        expect(message.headers?.['List-Unsubscribe-Post']).toBeUndefined();
        continue;
      }
      reminders += 1;
      expect(message.headers!['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
      const url = /^<(.+)>$/.exec(unsubscribe)![1]!;
      expect(url.startsWith(`${ctx.config.publicUrl}/api/unsubscribe/`)).toBe(true);
      // It names that participant and that project, until a year from now; it is not a dashboard link.
      const token = url.split('/').pop()!;
      expect(links.verify(token, now)).toEqual({ userId: ann.id, projectId: p.id });
      expect(links.verify(token, new Date(now.getTime() + UNSUBSCRIBE_LINK_TTL_SECONDS * 1000))).toBeNull();
      expect(await createTokenService(ctx.config.sessionSecret, 900).verifyLinkToken(token, now)).toBeNull();
    }
    // One per reminder type among the project's emails, and nothing on the test send.
    expect(reminders).toBe(
      projectEmailTypes.filter((t) => (reminderEmailTypes as readonly string[]).includes(t)).length,
    );
    const toTester = capture.sent.find((m) => m.to === 'tester@example.org')!;
    expect(toTester.headers).toBeUndefined();
  });

  it('refuses an altered, malformed, other-purpose or expired token', () => {
    const links = createUnsubscribeLinks('s'.repeat(40));
    const now = ctx.clock.now();
    const token = links.sign({ userId: fixture.ann.id, projectId: fixture.p.id }, now);
    expect(links.verify(token, now)).toEqual({ userId: fixture.ann.id, projectId: fixture.p.id });
    const flipped = token.slice(0, 5) + (token[5] === 'a' ? 'b' : 'a') + token.slice(6);
    expect(links.verify(flipped, now)).toBeNull();
    expect(links.verify(token.slice(0, -1), now)).toBeNull();
    expect(links.verify('', now)).toBeNull();
    expect(createUnsubscribeLinks('t'.repeat(40)).verify(token, now)).toBeNull();
  });
});
