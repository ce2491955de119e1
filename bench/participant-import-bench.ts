import { professions } from '@pss/contract';
import { readFileSync } from 'node:fs';
import type { CopyFloor } from './import-floor.js';

/** The server's peak resident memory, from /proc (Linux). */
export function peakMemoryMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Math.round(Number(kb) / 1024) : null;
  } catch {
    return null;
  }
}

/**
 * Imports `count` participants into a new project through the real upload call and times
 * it from upload to COMPLETE. `run` tells the runs of one bench apart: each imports new
 * people (their own emails and ids), as a first import of a project does.
 */
export async function benchParticipantImport(base: string, token: string, count: number, serverPid: number, run = 0) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const clientsPage = (await (await fetch(`${base}/api/clients?limit=1`, { headers })).json()) as {
    items: { id: string }[];
  };
  const today = new Date();
  const day = (offset: number) => new Date(today.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  const projectResponse = await fetch(`${base}/api/projects`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      client_id: clientsPage.items[0]!.id,
      name: `Import bench ${Date.now()}`,
      disease_types: ['Bench Disease'],
      question_categories: ['Bench Category'],
      seasons: [
        {
          name: 'Bench Season',
          rounds: [1, 2, 3, 4].map((n) => ({
            number: n,
            start_date: day((n - 1) * 14),
            end_date: day((n - 1) * 14 + 13),
          })),
        },
      ],
    }),
  });
  const project = (await projectResponse.json()) as { id: string };
  const tag = run ? `${run}-` : '';
  const lines = ['user_id,salutation,first_name,last_name,email,role,profession,facility,season,rounds,start_date'];
  for (let i = 0; i < count; i++) {
    const assigned = i % 10 !== 0;
    lines.push(
      `B-${tag}${i},Dr.,First${i},Last${i},bench${tag}${i}@example.org,USER,${professions[i % 4]},"Clinic ${i % 50}, Floor ${i % 7}",` +
        (assigned ? `Bench Season,${(i % 4) + 1}-4,` : ',,'),
    );
  }
  const form = new FormData();
  form.append('file', new Blob([lines.join('\r\n')], { type: 'text/csv' }), 'bench.csv');
  const started = performance.now();
  const upload = await fetch(`${base}/api/projects/${project.id}/upload`, {
    method: 'POST',
    headers: { authorization: headers.authorization },
    body: form,
  });
  if (upload.status !== 202) throw new Error(`upload failed: ${await upload.text()}`);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const job = (await (await fetch(`${base}/api/projects/${project.id}/import`, { headers })).json()) as {
      state: string;
      errors: unknown[];
    };
    if (job.state === 'ERROR') throw new Error(`import failed: ${JSON.stringify(job.errors).slice(0, 500)}`);
    if (job.state === 'COMPLETE') break;
  }
  const seconds = (performance.now() - started) / 1000;
  // Archive a tenth so the archived list has rows.
  const ids = (await (
    await fetch(`${base}/api/projects/${project.id}/usersId?search=last1`, { headers })
  ).json()) as string[];
  await fetch(`${base}/api/users/${ids.slice(0, 500).join(',')}/${project.id}/archive`, {
    method: 'PUT',
    headers: { authorization: headers.authorization },
  });
  return {
    projectId: project.id,
    rows: count,
    seconds,
    rowsPerSecond: count / seconds,
    peakMemoryMb: peakMemoryMb(serverPid),
    copyFloor: null as CopyFloor | null,
  };
}
