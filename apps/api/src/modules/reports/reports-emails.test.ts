import { and, eq, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { emailTypeDescriptors, type EmailTypeValue } from '@pss/contract';
import { emailOutbox, emailTemplates } from '../../db/schema/index.js';
import type { UserRow } from '../users/users.service.js';
import { AT, attachmentName, csvRows, ctx, person, report, world, xlsxRows } from '../../../test/report-calls.js';

// The world (test/report-calls.ts), with emails in its outbox: Adams got none, Baker two
// reminders and a failed one, Clark the initial email (and a test send that is not counted);
// the test user's email is left out with the test user.

const sentAt = new Date('2026-03-20T09:00:00Z');
beforeAll(async () => {
  const templates = await ctx.db
    .select()
    .from(emailTemplates)
    .where(and(eq(emailTemplates.projectId, world.project.id), isNull(emailTemplates.seasonId)));
  let n = 0;
  const email = (
    user: UserRow,
    type: EmailTypeValue,
    status: 'SENT' | 'FAILED',
    kind: 'SCHEDULED' | 'MANUAL' = 'SCHEDULED',
  ) =>
    ctx.db.insert(emailOutbox).values({
      projectId: world.project.id,
      templateId: templates.find((t) => t.type === type)!.id,
      userId: user.id,
      toAddress: user.email,
      kind: kind,
      ruleDay: '2026-03-20',
      dedupeKey: `report-test-${++n}`,
      status,
      sentAt: status === 'SENT' ? sentAt : null,
    });
  await email(world.starter, 'reminder', 'SENT');
  await email(world.starter, 'reminder', 'SENT');
  await email(world.starter, 'last_day_of_round', 'FAILED');
  await email(world.finisher, 'initial', 'SENT');
  await ctx.db.insert(emailOutbox).values({
    projectId: world.project.id,
    templateId: templates.find((t) => t.type === 'initial')!.id,
    userId: null,
    toAddress: 'test@example.org',
    kind: 'TEST',
    ruleDay: '2026-03-20',
    dedupeKey: 'report-test-send',
    status: 'SENT',
    sentAt,
  });
  await email(world.tester, 'initial', 'SENT');
});

/** A row's counts, one per email type in order, from these types' counts. */
const counts = (of: Partial<Record<EmailTypeValue, number>>) =>
  emailTypeDescriptors.map((d) => String(of[d.type] ?? 0));

describe('project emails', () => {
  it('has a row per participant with the emails sent them by type, the same in XLSX', async () => {
    const csv = await report('project-emails');
    expect(csvRows(csv)).toEqual([
      [
        'Last name',
        'First name',
        'Email',
        'User ID',
        'Profession',
        ...emailTypeDescriptors.map((d) => d.name),
        'Not delivered',
        'Last sent (UTC)',
      ],
      [...person(world.never), ...counts({}), '0', ''],
      [...person(world.starter), ...counts({ reminder: 2 }), '1', AT],
      [...person(world.finisher), ...counts({ initial: 1 }), '0', AT],
      [world.formula.lastName, `'${world.formula.firstName}`, world.formula.email, "'+cmd", '', ...counts({}), '0', ''],
    ]);
    expect(attachmentName(csv)).toBe('Cardio-Pilot-project-emails-2026-03-20.csv');
    expect(await xlsxRows(await report('project-emails', { format: 'xlsx' }))).toEqual(csvRows(csv));
  });
});
