import type { CreateProjectBody } from '@pss/contract';
import { bearerFor, createClient, createUser, type TestContext } from './test-app.js';

export type Headers = { authorization: string };

/** Two clients, an administrator of each, and a superadmin: the isolation fixture. */
export async function twoClients(ctx: TestContext) {
  const clientA = await createClient(ctx.db, 'Alpha Health');
  const clientB = await createClient(ctx.db, 'Bravo Medical');
  const superadmin = await createUser(ctx.db, { role: 'SUPERADMIN' });
  const adminA = await createUser(ctx.db, { role: 'ADMIN', clientId: clientA.id });
  const adminB = await createUser(ctx.db, { role: 'ADMIN', clientId: clientB.id });
  return {
    clientA,
    clientB,
    asSuperadmin: await bearerFor(ctx.app, superadmin),
    asAdminA: await bearerFor(ctx.app, adminA),
    asAdminB: await bearerFor(ctx.app, adminB),
  };
}

/** The season every test project has: four rounds of two weeks from 1 March 2026. */
export const spring2026 = {
  name: 'Spring 2026',
  rounds: [
    { number: 1, start_date: '2026-03-01', end_date: '2026-03-14' },
    { number: 2, start_date: '2026-03-15', end_date: '2026-03-28' },
    { number: 3, start_date: '2026-03-29', end_date: '2026-04-11' },
    { number: 4, start_date: '2026-04-12', end_date: '2026-04-25' },
  ],
};

export function projectBody(clientId: string, overrides: Partial<CreateProjectBody> = {}): CreateProjectBody {
  return {
    client_id: clientId,
    name: `Project ${Math.random().toString(36).slice(2, 8)}`,
    disease_types: ['Diabetes'],
    question_categories: ['Diagnosis'],
    seasons: [spring2026],
    ...overrides,
  };
}

/** A multipart body with one file in the field `file`, for app.inject. */
export function multipartFile(content: string | Buffer, fileName = 'upload.csv', field = 'file') {
  const boundary = `----pss${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
