import type { ParticipantCertificate } from '@pss/contract';
import type { Caller } from './world.js';

type WorldCall = <T = unknown>(
  caller: Caller,
  method: 'GET' | 'POST',
  url: string,
  payload?: unknown,
  status?: number,
) => Promise<T>;

/**
 * CME certificates of the world: each is issued by a CME of the results project whose
 * minimum the participant's completed case reaches (created after it, so it issues at once;
 * the test user earns none). One for the calls that read it, and a fresh one for each call
 * that uses one up (a revocation).
 */
export async function worldCertificates(call: WorldCall, resultsProjectId: string) {
  async function earn(): Promise<ParticipantCertificate> {
    const body = { project_id: resultsProjectId, min_cases: 1, credits: 1, moc: false };
    const cme = await call<{ id: string }>('superadmin', 'POST', '/cmes', body, 201);
    const mine = await call<{ items: ParticipantCertificate[] }>('participant', 'GET', '/participant/certificates');
    return mine.items.find((c) => c.cme_id === cme.id)!;
  }
  return { certificate: await earn(), earn };
}
