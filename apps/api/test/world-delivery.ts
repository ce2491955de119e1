import { randomUUID } from 'node:crypto';
import { emailOutbox } from '../src/db/schema/index.js';
import type { UserRow } from '../src/modules/users/users.repository.js';
import type { TestContext } from './test-app.js';

/** A line of the project's delivery log: the participant's email, sent by hand (what "Send again" takes). */
export async function worldDelivery(
  ctx: TestContext,
  projectId: string,
  templateId: string,
  participant: UserRow,
): Promise<string> {
  const [row] = await ctx.db
    .insert(emailOutbox)
    .values({
      projectId,
      templateId,
      userId: participant.id,
      toAddress: participant.email,
      kind: 'MANUAL',
      ruleDay: '2026-03-02',
      dedupeKey: `world:${randomUUID()}`,
      status: 'SENT',
    })
    .returning({ id: emailOutbox.id });
  return row!.id;
}
