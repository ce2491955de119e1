import { multipartFile } from '../fixtures.js';
import { smallPdf, videoHead } from '../summary-files.js';
import type { Caller, World, WorldRequest } from '../world.js';

/* ---------- the requests the matrix makes, and the files and bodies they carry ---------- */

export const get = (url: string): WorldRequest => ({ method: 'GET', url });
export const del = (url: string): WorldRequest => ({ method: 'DELETE', url });
export const post = (url: string, payload?: unknown): WorldRequest => ({ method: 'POST', url, payload });
export const put = (url: string, payload?: unknown): WorldRequest => ({ method: 'PUT', url, payload });
export const upload = (url: string, content: string | Buffer, fileName: string): WorldRequest => {
  const file = multipartFile(content, fileName);
  return { method: 'POST', url, payload: file.payload, headers: file.headers };
};

/**
 * A file put in place first (by client A's administrator), so that the removal that follows,
 * whoever calls it, has one to remove (and its event a before state to keep).
 */
export async function afterUpload(w: World, first: WorldRequest, then: WorldRequest): Promise<WorldRequest> {
  const uploaded = await w.ctx.app.inject({
    method: first.method,
    url: `/api${first.url}`,
    headers: { ...(await w.headersOf('ownerAdmin')), ...first.headers },
    payload: first.payload as Buffer,
  });
  if (uploaded.statusCode !== 200) throw new Error(`${first.url}: ${uploaded.statusCode} ${uploaded.body}`);
  return then;
}

/** The attempt a participant-side call is about: the caller's own when they have one. */
export const attemptFor = (w: World, caller: Caller) =>
  caller === 'testUser' ? w.attempts.testUser : w.attempts.participant;

export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
export const PDF = smallPdf();
export const MP4 = videoHead('mp4');
export const RTF = '{\\rtf1\\ansi Case name: Fever in a child\\par Patient name: Tom\\par}';
export const participantsCsv = (w: World) =>
  'user_id,first_name,last_name,email,role,profession\n' +
  `matrix-${w.unique('u').replace(/\W/g, '')},Ann,Lee,${w.unique('ann').replace(/\W/g, '')}@example.test,USER,MD\n`;

export const emailBody = {
  subject: '{project_name}: round {round_number} is open',
  body: '<p>Dear {first_name},</p><p>Your cases are waiting.</p>',
  button_text: 'Open my dashboard',
  dashboard_url_text: 'Your dashboard',
  send_mode: 'AUTOMATIC',
};

/** The world project's seasons as an update body names them, so none is removed. */
export function projectUpdate(w: World) {
  return {
    name: w.project.name,
    disease_types: w.project.disease_types.map((d) => d.name),
    question_categories: w.project.question_categories.map((c) => c.name),
    status: 'ACTIVE',
    seasons: w.project.seasons.map((s) => ({
      id: s.id,
      name: s.name,
      rounds: s.rounds.map((r) => ({ number: r.number, start_date: r.start_date, end_date: r.end_date })),
    })),
  };
}
