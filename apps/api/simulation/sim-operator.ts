import type { CaseDocument, EmailTemplate, ImportJob, Project, SeasonSummary, UpdateCaseBody } from '@pss/contract';
import { participantsCsv, type SeasonPlan } from './season-plan.js';
import type { HttpClient, HttpSession } from './sim-http.js';
import { OPERATOR, type SimulationApp } from './simulation-app.js';

/**
 * The operator: a provider's administrator who sets the season up and posts its summary,
 * through the same calls the staff screens make.
 */

export interface SimulatedCase {
  id: string;
  name: string;
  roundNumber: number;
  document: CaseDocument;
}

export interface SeasonSetup {
  projectId: string;
  projectName: string;
  cases: SimulatedCase[];
}

/** The tag each email's subject starts with, so a received message names its type. */
export const subjectTag = (type: string) => `[${type}]`;

export function operator(sim: SimulationApp, http: HttpClient) {
  const session: HttpSession = { token: null, cookie: null };

  /** Signs in afresh: the virtual days outlast any access token. */
  async function signIn(): Promise<HttpSession> {
    const reply = await http.call<{ access_token: string }>(null, 'POST', '/auth/admin/login', OPERATOR);
    session.token = reply.access_token;
    return session;
  }

  async function setUp(plan: SeasonPlan): Promise<SeasonSetup> {
    await signIn();
    const client = await http.call<{ id: string }>(session, 'POST', '/clients', { name: 'Simulated Health' });
    const project = await http.call<Project>(session, 'POST', '/projects', {
      client_id: client.id,
      name: 'Season Rehearsal',
      disease_types: ['Heart failure'],
      question_categories: ['Diagnosis', 'Treatment'],
      seasons: [
        {
          name: plan.seasonName,
          rounds: plan.rounds.map((r) => ({ number: r.number, start_date: r.startDate, end_date: r.endDate })),
        },
      ],
    });
    const cases: SimulatedCase[] = [];
    for (const round of plan.rounds) {
      for (let i = 1; i <= plan.options.casesPerRound; i++) {
        cases.push(await publishCase(project, `Round ${round.number} patient ${i}`, round.number));
      }
    }
    await tagEmailSubjects(project.id);
    await importParticipants(project.id, plan);
    return { projectId: project.id, projectName: project.name, cases };
  }

  async function publishCase(project: Project, name: string, roundNumber: number): Promise<SimulatedCase> {
    const draft = await http.call<CaseDocument>(session, 'POST', '/cases', {
      project_id: project.id,
      name,
      disease_type_id: project.disease_types[0]!.id,
    });
    await http.call(session, 'PUT', `/cases/${draft.id}`, caseBody(project, name, roundNumber));
    await http.call(session, 'POST', `/cases/${draft.id}/status`, { status: 'PUBLISHED' });
    const document = await http.call<CaseDocument>(session, 'GET', `/cases/${draft.id}`);
    return { id: draft.id, name, roundNumber, document };
  }

  /** Every email's subject begins with its type: the simulation reads received mail by it. */
  async function tagEmailSubjects(projectId: string): Promise<void> {
    const { items } = await http.call<{ items: EmailTemplate[] }>(session, 'GET', `/projects/${projectId}/emails-list`);
    for (const template of items) {
      await http.call(session, 'POST', `/projects/${template.id}/email`, {
        subject: `${subjectTag(template.type)} ${template.subject}`,
        body: template.body,
        button_text: template.button_text,
        dashboard_url_text: template.dashboard_url_text,
        send_mode: template.send_mode,
      });
    }
  }

  async function importParticipants(projectId: string, plan: SeasonPlan): Promise<void> {
    const form = new FormData();
    form.append('file', new Blob([participantsCsv(plan)], { type: 'text/csv' }), 'participants.csv');
    await http.call(session, 'POST', `/projects/${projectId}/upload`, form);
    await sim.app.imports.runPending();
    const job = await http.call<ImportJob>(session, 'GET', `/projects/${projectId}/import`);
    if (job.state !== 'COMPLETE' || job.errors.length || job.processed_rows !== plan.clinicians.length) {
      throw new Error(`the participant import did not complete: ${JSON.stringify(job).slice(0, 500)}`);
    }
  }

  /** Writes and posts the season's Results Summary. */
  async function postSummary(projectId: string, plan: SeasonPlan): Promise<void> {
    await signIn();
    const query = `?seasonName=${encodeURIComponent(plan.seasonName)}`;
    const summary = await http.call<SeasonSummary>(session, 'POST', `/projects/${projectId}/season-summary${query}`, {
      title: `${plan.seasonName}: what we learned`,
      description: '<p>The season’s cases, their answers and what they teach.</p>',
    });
    await http.call(session, 'POST', `/projects/${summary.id}/status`, { status: 'POSTED' });
  }

  return { signIn, setUp, postSummary, session };
}

/** A complete case of four required choice questions, placed in a round. */
function caseBody(project: Project, name: string, roundNumber: number): UpdateCaseBody {
  const [diagnosis, treatment] = project.question_categories;
  const question = (
    type: 'MULTI_ONE' | 'MULTI_MANY' | 'DROPDOWN',
    text: string,
    categoryId: string,
    choices: [string, 'NECESSARY' | 'APPROPRIATE' | 'UNNECESSARY'][],
  ) => ({
    grouper_id: null,
    text_before: '',
    required: true,
    category_id: categoryId,
    type,
    text,
    choices: choices.map(([choiceText, marked]) => ({ text: choiceText, marked_as: marked })),
    allow_other: false,
    allow_none_of_below: false,
  });
  return {
    name,
    disease_type_id: project.disease_types[0]!.id,
    patient_name: 'Sam Rivera',
    patient_age: 67,
    reason_for_encounter: '<p>Shortness of breath on exertion for three weeks.</p>',
    season_id: project.seasons[0]!.id,
    round_number: roundNumber,
    feedback_type: 'PERSONALIZED_FEEDBACK',
    references: '<p>ACC/AHA heart failure guideline, 2022.</p>',
    test_results: '<p>BNP 900 pg/mL.</p>',
    explanation: '<p>Decompensated heart failure with reduced ejection fraction.</p>',
    details_sections: [{ name: 'History', text: '<p>Hypertension for twenty years.</p>' }],
    groupers: [],
    questions: [
      question('MULTI_ONE', 'First test?', diagnosis!.id, [
        ['Echocardiogram', 'NECESSARY'],
        ['Chest X-ray', 'APPROPRIATE'],
        ['Colonoscopy', 'UNNECESSARY'],
      ]),
      question('MULTI_MANY', 'Which blood tests?', diagnosis!.id, [
        ['BNP', 'NECESSARY'],
        ['Electrolytes', 'NECESSARY'],
        ['TSH', 'APPROPRIATE'],
        ['Lipase', 'UNNECESSARY'],
      ]),
      question('DROPDOWN', 'First treatment', treatment!.id, [
        ['Loop diuretic', 'NECESSARY'],
        ['NSAID for the pain', 'UNNECESSARY'],
      ]),
      question('MULTI_MANY', 'Before discharge', treatment!.id, [
        ['Start an ACE inhibitor', 'NECESSARY'],
        ['Daily weights', 'NECESSARY'],
        ['Stop all medicines', 'UNNECESSARY'],
      ]),
    ],
  };
}
