import { addDays } from '../src/modules/emails/email-rules.js';
import type { UserRow } from '../src/modules/users/users.repository.js';
import { twoClients } from './fixtures.js';
import { participantWork, type WorkProject } from './participant-work.js';
import { createUser, type TestContext } from './test-app.js';

/**
 * What the tests of real server processes (multi-process, connection faults) start from: a
 * project of client A whose one round runs now (real time: the processes' schedule reads
 * the real clock), and `count` participants who start today, so their launch emails are due.
 */
export async function projectDueToday(
  ctx: TestContext,
  name: string,
  count: number,
  emailOf: (i: number) => string,
): Promise<{
  superadmin: UserRow;
  adminA: UserRow;
  work: ReturnType<typeof participantWork>;
  p: WorkProject;
  participants: UserRow[];
}> {
  const f = await twoClients(ctx);
  const superadmin = await createUser(ctx.db, { role: 'SUPERADMIN' });
  const adminA = await createUser(ctx.db, { role: 'ADMIN', clientId: f.clientA.id });
  const today = new Date().toISOString().slice(0, 10);
  const work = participantWork(ctx, superadmin);
  const p = await work.project(f.clientA.id, {
    name,
    seasons: [{ name: 'Now', rounds: [{ number: 1, start_date: addDays(today, -3), end_date: addDays(today, 10) }] }],
  });
  const participants: UserRow[] = [];
  for (let i = 0; i < count; i++) {
    participants.push(
      await work.enrol(p, f.clientA.id, { first: 1, last: 1, startDate: today }, { email: emailOf(i) }),
    );
  }
  return { superadmin, adminA, work, p, participants };
}

/** A participants CSV of `rows` new participants (no season), as the upload form sends it. */
export function participantsCsvForm(rows: number, row: (i: number) => string): FormData {
  const header = 'user_id,salutation,first_name,last_name,email,role,profession,season,rounds,start_date';
  const lines = Array.from({ length: rows }, (_, i) => row(i));
  const form = new FormData();
  form.append('file', new Blob([`${header}\n${lines.join('\n')}\n`], { type: 'text/csv' }), 'participants.csv');
  return form;
}
