import { idParams } from '../clients.js';
import {
  answerTagList,
  caseElementsPage,
  elementsFilterQuery,
  elementsImportQuery,
  keyTakeawayList,
  moduleCaseElementsQuery,
  projectCaseElementsQuery,
} from '../elements.js';
import { importJob } from '../import-jobs.js';
import { route } from '../route.js';

/** A project's participant dashboard content: key takeaways and answer tags (client administrators). */
export const projectElementRoutes = {
  keyTakeaways: route({
    method: 'GET',
    path: '/projects/:id/key-takeaways',
    access: 'admin',
    params: idParams,
    query: elementsFilterQuery,
    reply: keyTakeawayList,
  }),
  uploadKeyTakeaways: route({
    method: 'POST',
    path: '/projects/:id/key-takeaways',
    access: 'admin',
    audit: { kind: 'change', name: 'projectElements.uploadKeyTakeaways' },
    params: idParams,
    upload: true,
    status: 202,
    reply: importJob,
  }),
  answerTags: route({
    method: 'GET',
    path: '/projects/:id/answers-tags',
    access: 'admin',
    params: idParams,
    query: elementsFilterQuery,
    reply: answerTagList,
  }),
  uploadAnswerTags: route({
    method: 'POST',
    path: '/projects/:id/answers-tags',
    access: 'admin',
    audit: { kind: 'change', name: 'projectElements.uploadAnswerTags' },
    params: idParams,
    upload: true,
    status: 202,
    reply: importJob,
  }),
  caseElements: route({
    method: 'GET',
    path: '/projects/:id/cases-keys-tags',
    access: 'admin',
    params: idParams,
    query: projectCaseElementsQuery,
    reply: caseElementsPage,
  }),
};

/** The same for a module library's cases (superadmins), and its latest elements import. */
export const moduleElementRoutes = {
  keyTakeaways: route({
    method: 'GET',
    path: '/module-library/:id/key-takeaways',
    access: 'superadmin',
    params: idParams,
    query: elementsFilterQuery,
    reply: keyTakeawayList,
  }),
  uploadKeyTakeaways: route({
    method: 'POST',
    path: '/module-library/:id/key-takeaways',
    access: 'superadmin',
    audit: { kind: 'change', name: 'moduleElements.uploadKeyTakeaways' },
    params: idParams,
    upload: true,
    status: 202,
    reply: importJob,
  }),
  answerTags: route({
    method: 'GET',
    path: '/module-library/:id/answers-tags',
    access: 'superadmin',
    params: idParams,
    query: elementsFilterQuery,
    reply: answerTagList,
  }),
  uploadAnswerTags: route({
    method: 'POST',
    path: '/module-library/:id/answers-tags',
    access: 'superadmin',
    audit: { kind: 'change', name: 'moduleElements.uploadAnswerTags' },
    params: idParams,
    upload: true,
    status: 202,
    reply: importJob,
  }),
  caseElements: route({
    method: 'GET',
    path: '/module-library/:id/cases-keys-tags',
    access: 'superadmin',
    params: idParams,
    query: moduleCaseElementsQuery,
    reply: caseElementsPage,
  }),
  latestImport: route({
    method: 'GET',
    path: '/module-library/:id/import',
    access: 'superadmin',
    params: idParams,
    query: elementsImportQuery,
    reply: importJob.nullable(),
  }),
};
