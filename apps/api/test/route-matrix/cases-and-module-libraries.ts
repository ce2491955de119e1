import { perfectAnswers, validCase } from '../case-bodies.js';
import { owned, staff, superadmin, type MatrixRow } from './expectations.js';
import { afterUpload, get, del, post, put, upload, PNG, RTF } from './requests.js';

/** Case Setup, module libraries, and the elements of the participant dashboard. */
export const casesAndModuleLibrariesRows: Record<string, MatrixRow> = {
  // Case Setup
  'GET /api/projects/:id/cases': { expect: owned(200), request: (w) => get(`/projects/${w.project.id}/cases`) },
  'POST /api/cases': {
    expect: owned(201),
    request: (w) =>
      post('/cases', { project_id: w.project.id, name: 'New case', disease_type_id: w.home.diseaseTypeId }),
  },
  // Reads a file and saves nothing: any staff member.
  'POST /api/cases/rtf': { expect: staff(200), request: () => upload('/cases/rtf', RTF, 'case.rtf') },
  'GET /api/cases/:id': { expect: owned(200), request: (w) => get(`/cases/${w.draft.id}`) },
  'PUT /api/cases/:id': {
    expect: owned(200),
    request: (w) => put(`/cases/${w.draft.id}`, validCase(w.home, { name: 'Draft case' })),
  },
  'DELETE /api/cases/:id': { expect: owned(200), request: async (w) => del(`/cases/${await w.make.draftCase()}`) },
  'POST /api/cases/:id/remove-project': {
    expect: owned(204),
    request: async (w) => post(`/cases/${await w.make.draftCase()}/remove-project`),
  },
  'GET /api/cases/:id/status': { expect: owned(200), request: (w) => get(`/cases/${w.draft.id}/status`) },
  'POST /api/cases/:id/status': {
    expect: owned(200),
    request: async (w) => post(`/cases/${await w.make.draftCase()}/status`, { status: 'PUBLISHED' }),
  },
  'GET /api/cases/:id/count': { expect: owned(200), request: (w) => get(`/cases/${w.runningCase.id}/count`) },
  'POST /api/cases/:id/move': {
    expect: owned(200),
    request: async (w) =>
      post(`/cases/${await w.make.draftCase()}/move`, { project_id: await w.make.projectLikeTheWorlds() }),
  },
  'POST /api/cases/:id/move-to-module': {
    expect: superadmin(200),
    request: async (w) =>
      post(`/cases/${await w.make.draftCase(await w.make.project())}/move-to-module`, { module_id: w.module.id }),
  },
  'POST /api/cases/:id/duplicate': {
    expect: owned(201),
    request: (w) => post(`/cases/${w.draft.id}/duplicate`, { name: 'Draft case (copy)' }),
  },
  'POST /api/cases/:id/duplicate-detach': {
    expect: owned(201),
    request: (w) => post(`/cases/${w.draft.id}/duplicate-detach`, { name: 'Draft case (detached)' }),
  },
  'POST /api/cases/:id/image': {
    expect: owned(200),
    request: (w) => upload(`/cases/${w.draft.id}/image`, PNG, 'patient.png'),
  },
  'DELETE /api/cases/:id/image': {
    expect: owned(200),
    request: (w) =>
      afterUpload(w, upload(`/cases/${w.draft.id}/image`, PNG, 'patient.png'), del(`/cases/${w.draft.id}/image`)),
  },
  'GET /api/cases/:id/image': { expect: owned(200), request: (w) => get(`/cases/${w.imageCase.id}/image`) },
  'GET /api/cases/:id/preview': { expect: owned(200), request: (w) => get(`/cases/${w.draft.id}/preview`) },
  'GET /api/cases/:id/feedback': { expect: owned(200), request: (w) => get(`/cases/${w.draft.id}/feedback`) },
  'GET /api/cases/:id/previews': { expect: owned(200), request: (w) => get(`/cases/${w.draft.id}/previews`) },
  'POST /api/previews': {
    expect: owned(201),
    request: async (w) => {
      const now = await w.call<{ questions: Parameters<typeof perfectAnswers>[0]['questions'] }>(
        'superadmin',
        'GET',
        `/cases/${w.draft.id}`,
      );
      return post('/previews', { case_id: w.draft.id, answers: perfectAnswers(now) });
    },
  },
  'GET /api/previews/:id': { expect: owned(200), request: (w) => get(`/previews/${w.preview.id}`) },
  'DELETE /api/previews/:id': { expect: owned(204), request: async (w) => del(`/previews/${await w.make.preview()}`) },

  // Module libraries (provider staff only)
  'POST /api/module-library/cases/to-project': {
    expect: superadmin(201),
    request: async (w) =>
      post('/module-library/cases/to-project', { project_id: await w.make.project(), case_ids: [w.libraryCase.id] }),
  },
  'POST /api/module-library/cases/modules': {
    expect: superadmin(201),
    request: async (w) =>
      post('/module-library/cases/modules', {
        module_id: await w.make.module(['Diabetes'], ['Diagnosis']),
        case_ids: [w.libraryCase.id],
      }),
  },
  'GET /api/module-library': { expect: superadmin(200), request: () => get('/module-library') },
  'POST /api/module-library': {
    expect: superadmin(201),
    request: (w) =>
      post('/module-library', {
        name: w.unique('Module'),
        disease_types: ['Asthma'],
        question_categories: ['Therapy'],
      }),
  },
  'GET /api/module-library/:id': { expect: superadmin(200), request: (w) => get(`/module-library/${w.module.id}`) },
  'PUT /api/module-library/:id': {
    expect: superadmin(200),
    request: (w) =>
      put(`/module-library/${w.module.id}`, {
        name: w.module.name,
        description: 'Cases for the whole year',
        disease_types: ['Diabetes'],
        question_categories: ['Diagnosis'],
      }),
  },
  'DELETE /api/module-library/:id': {
    expect: superadmin(204),
    request: async (w) => del(`/module-library/${await w.make.module()}`),
  },
  'GET /api/module-library/:id/cases': {
    expect: superadmin(200),
    request: (w) => get(`/module-library/${w.module.id}/cases`),
  },
  'DELETE /api/module-library/:id/remove-cases': {
    expect: superadmin(200),
    request: async (w) => {
      const filter = encodeURIComponent(JSON.stringify({ ids: [await w.make.moduleCase()] }));
      return del(`/module-library/${w.module.id}/remove-cases?filter=${filter}`);
    },
  },
  'GET /api/module-library/:id/disease-types': {
    expect: superadmin(200),
    request: (w) => get(`/module-library/${w.module.id}/disease-types`),
  },
  'GET /api/module-library/:id/question-categories': {
    expect: superadmin(200),
    request: (w) => get(`/module-library/${w.module.id}/question-categories`),
  },
  'GET /api/module-library/:id/associated-projects': {
    expect: superadmin(200),
    request: (w) => get(`/module-library/${w.module.id}/associated-projects`),
  },

  // Participant dashboard content (elements)
  'GET /api/projects/:id/key-takeaways': {
    expect: owned(200),
    request: (w) => get(`/projects/${w.project.id}/key-takeaways`),
  },
  'POST /api/projects/:id/key-takeaways': {
    expect: owned(202),
    request: async (w) =>
      upload(`/projects/${await w.make.project()}/key-takeaways`, 'case_id,key_takeaway\n', 'takeaways.csv'),
  },
  'GET /api/projects/:id/answers-tags': {
    expect: owned(200),
    request: (w) => get(`/projects/${w.project.id}/answers-tags`),
  },
  'POST /api/projects/:id/answers-tags': {
    expect: owned(202),
    request: async (w) => upload(`/projects/${await w.make.project()}/answers-tags`, 'case_id,tag\n', 'tags.csv'),
  },
  'GET /api/projects/:id/cases-keys-tags': {
    expect: owned(200),
    request: (w) => get(`/projects/${w.project.id}/cases-keys-tags`),
  },
  'GET /api/module-library/:id/key-takeaways': {
    expect: superadmin(200),
    request: (w) => get(`/module-library/${w.module.id}/key-takeaways`),
  },
  'POST /api/module-library/:id/key-takeaways': {
    expect: superadmin(202),
    request: async (w) =>
      upload(`/module-library/${await w.make.module()}/key-takeaways`, 'case_id,key_takeaway\n', 'takeaways.csv'),
  },
  'GET /api/module-library/:id/answers-tags': {
    expect: superadmin(200),
    request: (w) => get(`/module-library/${w.module.id}/answers-tags`),
  },
  'POST /api/module-library/:id/answers-tags': {
    expect: superadmin(202),
    request: async (w) => upload(`/module-library/${await w.make.module()}/answers-tags`, 'case_id,tag\n', 'tags.csv'),
  },
  'GET /api/module-library/:id/cases-keys-tags': {
    expect: superadmin(200),
    request: (w) => get(`/module-library/${w.module.id}/cases-keys-tags?type=KEY_TAKEAWAYS`),
  },
  'GET /api/module-library/:id/import': {
    expect: superadmin(200),
    request: (w) => get(`/module-library/${w.module.id}/import?type=SUMMARY`),
  },
};
