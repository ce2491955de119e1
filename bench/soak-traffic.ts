/**
 * The soak's steady mix (bench/soak.ts): staff signing in and reading lists, participants
 * answering and submitting their case, a participant import every ten minutes, manual sends,
 * report downloads — spread over the API processes in turn, as a balancer does. Every call is
 * recorded with its time, and every write the server acknowledged is kept, to be looked for
 * in the database at the end (nothing may be lost).
 */
import { SOAK_PASSWORD, type SoakFixture } from './soak-seed.js';

export interface CallRecord {
  name: string;
  /** Milliseconds since the soak started. */
  at: number;
  ms: number;
  status: number;
}

/** What the server said it stored, to check against the database. */
export interface Acknowledged {
  answers: Map<string, string[]>;
  submitted: Set<string>;
  imports: { jobId: string; rows: number; state?: string }[];
  sends: { emailId: string; recipients: string[] }[];
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createSoakTraffic(options: { bases: string[]; fixture: SoakFixture; endsAt: number }) {
  const { bases, fixture, endsAt } = options;
  const started = performance.now();
  const calls: CallRecord[] = [];
  const acknowledged: Acknowledged = { answers: new Map(), submitted: new Set(), imports: [], sends: [] };
  let turn = 0;
  const running = () => Date.now() < endsAt;

  /** One call to the next process in turn; network failures are recorded as status 0. */
  async function call(name: string, path: string, init: RequestInit = {}): Promise<Response | null> {
    const base = bases[turn++ % bases.length]!;
    const t0 = performance.now();
    try {
      const response = await fetch(`${base}/api${path}`, init);
      const body = response.ok ? await response.arrayBuffer() : null;
      calls.push({ name, at: t0 - started, ms: performance.now() - t0, status: response.status });
      return body === null ? response : new Response(body, { status: response.status, headers: response.headers });
    } catch {
      calls.push({ name, at: t0 - started, ms: performance.now() - t0, status: 0 });
      return null;
    }
  }
  const post = (body: unknown, token?: string): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const bearer = (token: string): RequestInit => ({ headers: { authorization: `Bearer ${token}` } });
  async function signIn(path: string, email: string): Promise<string | null> {
    const response = await call(`sign-in ${path.split('/').pop()}`, path, post({ email, password: SOAK_PASSWORD }));
    if (!response?.ok) return null;
    return ((await response.json()) as { access_token: string }).access_token;
  }

  /** A staff member signs in and reads the lists they work from, about every two seconds. */
  async function staff(): Promise<void> {
    while (running()) {
      const token = await signIn('/auth/admin/login', fixture.adminEmail);
      if (token) {
        await call('projects list', '/projects?limit=25', bearer(token));
        await call('participants list', `/projects/${fixture.projectId}/users?page=1&limit=25`, bearer(token));
        await call('clients list', '/clients?limit=25', bearer(token));
        await call('users/me', '/users/me', bearer(token));
      }
      await pause(2000);
    }
  }

  /** Participants, one after another: sign in, open the case, answer its questions, submit. */
  async function participant(lane: number, lanes: number): Promise<void> {
    for (let i = lane; running() && i < fixture.participantEmails.length; i += lanes) {
      const token = await signIn('/auth/login/user', fixture.participantEmails[i]!);
      if (!token) continue;
      const dashboard = await call('dashboard', '/dashboard', bearer(token));
      if (!dashboard?.ok) continue;
      const projects = ((await dashboard.json()) as { projects: { cases: { id: string }[] }[] }).projects;
      const attemptId = projects[0]?.cases[0]?.id;
      if (!attemptId) continue;
      const opened = await call('start case', `/cases/${attemptId}/start`, post({}, token));
      if (!opened?.ok) continue;
      const attempt = (await opened.json()) as { case: { questions: { id: string; choices: { id: string }[] }[] } };
      for (const question of attempt.case.questions) {
        const choiceIds = [question.choices[i % question.choices.length]!.id];
        const saved = await call(
          'answer',
          `/cases/${attemptId}/answer`,
          post({ question_id: question.id, choice_ids: choiceIds }, token),
        );
        if (saved?.ok) acknowledged.answers.set(`${attemptId}:${question.id}`, choiceIds);
        await pause(300);
      }
      const submitted = await call('submit', `/cases/${attemptId}/submit`, post({}, token));
      if (submitted?.ok) acknowledged.submitted.add(attemptId);
    }
  }

  /** A participant file imported every ten minutes (the first at once), followed to its end. */
  async function imports(rows: number): Promise<void> {
    for (let round = 0; running(); round += 1) {
      const next = Date.now() + 10 * 60_000;
      const token = await signIn('/auth/admin/login', fixture.adminEmail);
      if (token) {
        const header = 'user_id,salutation,first_name,last_name,email,role,profession,season,rounds,start_date';
        const lines = Array.from(
          { length: rows },
          (_, i) => `S${round}-${i},Dr.,Soak${i},Round${round},soak${round}-${i}@soak.local,USER,MD,,,`,
        );
        const form = new FormData();
        form.append('file', new Blob([`${header}\n${lines.join('\n')}\n`], { type: 'text/csv' }), `soak-${round}.csv`);
        const queued = await call('import upload', `/projects/${fixture.importProjectId}/upload`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body: form,
        });
        if (queued?.status === 202) {
          const job = { jobId: ((await queued.json()) as { id: string }).id, rows };
          acknowledged.imports.push(job);
        }
      }
      while (running() && Date.now() < next) await pause(1000);
    }
  }

  /** A manual send of the project's first email to twenty participants not sent it before, every five minutes. */
  async function sends(): Promise<void> {
    for (let round = 0; running(); round += 1) {
      const next = Date.now() + 5 * 60_000;
      const token = await signIn('/auth/admin/login', fixture.adminEmail);
      const recipients = fixture.participantIds.slice(round * 20, round * 20 + 20);
      if (token && recipients.length) {
        const sent = await call(
          'manual send',
          `/projects/${fixture.sendEmailId}/send-email`,
          post({ ids: recipients }, token),
        );
        if (sent?.status === 202) acknowledged.sends.push({ emailId: fixture.sendEmailId, recipients });
      }
      while (running() && Date.now() < next) await pause(1000);
    }
  }

  /** A report downloaded every minute, in turn CSV and XLSX. */
  async function reports(): Promise<void> {
    for (let round = 0; running(); round += 1) {
      const token = await signIn('/auth/admin/login', fixture.adminEmail);
      const format = round % 2 ? 'xlsx' : 'csv';
      if (token) {
        await call(
          `report ${format}`,
          `/reports/${fixture.projectId}/participants-progress?format=${format}`,
          bearer(token),
        );
      }
      await pause(60_000);
    }
  }

  return {
    calls,
    acknowledged,
    /** Runs the whole mix until `endsAt`. */
    async run(mix: { participantLanes: number; importRows: number }): Promise<void> {
      await Promise.all([
        staff(),
        ...Array.from({ length: mix.participantLanes }, (_, lane) => participant(lane, mix.participantLanes)),
        imports(mix.importRows),
        sends(),
        reports(),
      ]);
    },
  };
}
