import { owned, staff, superadmin, participant, anyone, type MatrixRow } from './expectations.js';
import { afterUpload, get, del, post, put, upload, attemptFor, PDF, MP4 } from './requests.js';

/** Season Results Summaries and the resource library. */
export const summariesAndResourcesRows: Record<string, MatrixRow> = {
  // Season Results Summaries (`/projects/{id}/status`: the id is the summary's). Writes go to
  // the world project's draft; the posted one (its season completed by both participants) is only read.
  'GET /api/projects/:id/season-summary': {
    expect: owned(200),
    request: (w) => get(`/projects/${w.project.id}/season-summary?${w.summaries.seasonQuery}`),
  },
  'POST /api/projects/:id/season-summary': {
    expect: owned(200),
    request: (w) => post(`/projects/${w.project.id}/season-summary?${w.summaries.seasonQuery}`, w.summaries.body),
  },
  'POST /api/projects/:id/status': {
    expect: owned(200),
    request: (w) => post(`/projects/${w.summaries.draft}/status`, { status: 'POSTED' }),
  },
  'POST /api/season-summaries/:id/sheet': {
    expect: owned(200),
    request: (w) => upload(`/season-summaries/${w.summaries.draft}/sheet`, PDF, 'results.pdf'),
  },
  'DELETE /api/season-summaries/:id/sheet': {
    expect: owned(200),
    request: (w) =>
      afterUpload(
        w,
        upload(`/season-summaries/${w.summaries.draft}/sheet`, PDF, 'results.pdf'),
        del(`/season-summaries/${w.summaries.draft}/sheet`),
      ),
  },
  'GET /api/season-summaries/:id/sheet': {
    expect: owned(200),
    request: (w) => get(`/season-summaries/${w.summaries.posted}/sheet`),
  },
  'POST /api/season-summaries/:id/video': {
    expect: owned(200),
    request: (w) => upload(`/season-summaries/${w.summaries.draft}/video`, MP4, 'thanks.mp4'),
  },
  'DELETE /api/season-summaries/:id/video': {
    expect: owned(200),
    request: (w) =>
      afterUpload(
        w,
        upload(`/season-summaries/${w.summaries.draft}/video`, MP4, 'thanks.mp4'),
        del(`/season-summaries/${w.summaries.draft}/video`),
      ),
  },
  'GET /api/season-summaries/:id/video': {
    expect: owned(200),
    request: (w) => get(`/season-summaries/${w.summaries.posted}/video`),
  },
  'GET /api/dashboard/season-summaries/:id/sheet': {
    expect: participant(200),
    request: (w) => get(`/dashboard/season-summaries/${w.summaries.posted}/sheet`),
  },
  'GET /api/dashboard/season-summaries/:id/video': {
    expect: participant(200),
    request: (w) => get(`/dashboard/season-summaries/${w.summaries.posted}/video`),
  },

  // The resource library (the provider's: superadmins manage it; the picker, categories and
  // file links also serve client administrators; a case's resources follow the case's rules).
  'GET /api/resource-library': { expect: superadmin(200), request: () => get('/resource-library') },
  'POST /api/resource-library': {
    expect: superadmin(201),
    request: (w) =>
      post('/resource-library', {
        name: 'Guideline',
        source_type: 'URL',
        link: `https://example.org/${w.unique('g').replace(/\W/g, '')}`,
      }),
  },
  'DELETE /api/resource-library': {
    expect: superadmin(200),
    request: async (w) => {
      const made = await w.call<{ id: string }>(
        'superadmin',
        'POST',
        '/resource-library',
        { name: 'To delete', source_type: 'TEXT', details: 'Gone soon.' },
        201,
      );
      return del(`/resource-library?filter=${encodeURIComponent(JSON.stringify({ ids: [made.id] }))}`);
    },
  },
  'GET /api/resource-library/categories': { expect: staff(200), request: () => get('/resource-library/categories') },
  'POST /api/resource-library/categories': {
    expect: superadmin(201),
    request: (w) => post('/resource-library/categories', { name: w.unique('Category') }),
  },
  'GET /api/resource-library/export': {
    expect: superadmin(200),
    request: () => get('/resource-library/export?format=xlsx'),
  },
  'GET /api/resource-library/modal': {
    expect: staff(200),
    request: () => get('/resource-library/modal?type=IMAGE&attachmentStatus=NOT_ATTACHED'),
  },
  'POST /api/resource-library/upload': {
    expect: superadmin(201),
    request: () => upload('/resource-library/upload', PDF, 'handout.pdf'),
  },
  'GET /api/resource-library/file/:id/details': {
    expect: staff(200),
    request: (w) => get(`/resource-library/file/${w.resources.file}/details`),
  },
  'GET /api/resource-library/file/:id/link': {
    expect: staff(200),
    request: (w) => get(`/resource-library/file/${w.resources.file}/link`),
  },
  'GET /api/resource-library/file/:id/thumbnail-link': {
    expect: staff(200),
    request: (w) => get(`/resource-library/file/${w.resources.file}/thumbnail-link`),
  },
  'GET /api/resource-library/:id/cases': {
    expect: superadmin(200),
    request: (w) => get(`/resource-library/${w.resources.file}/cases`),
  },
  'GET /api/resource-library/:id/clients': {
    expect: superadmin(200),
    request: (w) => get(`/resource-library/${w.resources.file}/clients`),
  },
  'POST /api/resource-library/:id/duplicate': {
    expect: superadmin(201),
    request: (w) => post(`/resource-library/${w.resources.file}/duplicate`),
  },
  'GET /api/resource-library/:id': {
    expect: superadmin(200),
    request: (w) => get(`/resource-library/${w.resources.text}`),
  },
  'PUT /api/resource-library/:id': {
    expect: superadmin(200),
    request: (w) =>
      put(`/resource-library/${w.resources.text}`, { name: 'Reading list', details: 'Chapter 5 instead.' }),
  },
  'GET /api/cases/:id/resources': {
    expect: owned(200),
    request: (w) => get(`/cases/${w.draft.id}/resources`),
  },
  'PUT /api/cases/:id/resources': {
    expect: owned(200),
    request: (w) => put(`/cases/${w.draft.id}/resources`, { resource_ids: [w.resources.file, w.resources.text] }),
  },
  'GET /api/users/:userSeasonRoundCaseId/resources': {
    expect: participant(200),
    request: (w, caller) => get(`/users/${attemptFor(w, caller)}/resources`),
  },
  'GET /api/resource-files/:token': { expect: anyone(200), request: (w) => get(w.resources.signedPath) },
};
