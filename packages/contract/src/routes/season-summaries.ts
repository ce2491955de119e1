import { idParams } from '../clients.js';
import { seasonNameQuery } from '../emails.js';
import { route } from '../route.js';
import {
  saveSeasonSummaryBody,
  seasonSummary,
  seasonSummaryOfSeason,
  seasonSummaryStatusBody,
} from '../season-summaries.js';

/**
 * Season Results Summaries. In `/projects/{id}/season-summary` the id is the project's
 * (the season named by `seasonName`); in `/projects/{id}/status` it is the summary's (the
 * specification's `{summaryId}`). The file calls (`/season-summaries/{id}/…`) are not in the
 * specification, which names the sheet and video uploads but no call for them.
 */
export const seasonSummaryRoutes = {
  get: route({
    method: 'GET',
    path: '/projects/:id/season-summary',
    access: 'admin',
    params: idParams,
    query: seasonNameQuery,
    reply: seasonSummaryOfSeason,
  }),
  save: route({
    method: 'POST',
    path: '/projects/:id/season-summary',
    access: 'admin',
    audit: { kind: 'change', name: 'seasonSummaries.save' },
    params: idParams,
    query: seasonNameQuery,
    body: saveSeasonSummaryBody,
    reply: seasonSummary,
  }),
  setStatus: route({
    method: 'POST',
    path: '/projects/:id/status',
    access: 'admin',
    audit: { kind: 'change', name: 'seasonSummaries.setStatus' },
    params: idParams,
    body: seasonSummaryStatusBody,
    reply: seasonSummary,
  }),
  setSheet: route({
    method: 'POST',
    path: '/season-summaries/:id/sheet',
    access: 'admin',
    audit: { kind: 'change', name: 'seasonSummaries.setSheet' },
    params: idParams,
    upload: true,
    reply: seasonSummary,
  }),
  removeSheet: route({
    method: 'DELETE',
    path: '/season-summaries/:id/sheet',
    access: 'admin',
    audit: { kind: 'change', name: 'seasonSummaries.removeSheet' },
    params: idParams,
    reply: seasonSummary,
  }),
  sheet: route({ method: 'GET', path: '/season-summaries/:id/sheet', access: 'admin', params: idParams }),
  setVideo: route({
    method: 'POST',
    path: '/season-summaries/:id/video',
    access: 'admin',
    audit: { kind: 'change', name: 'seasonSummaries.setVideo' },
    params: idParams,
    upload: true,
    reply: seasonSummary,
  }),
  removeVideo: route({
    method: 'DELETE',
    path: '/season-summaries/:id/video',
    access: 'admin',
    audit: { kind: 'change', name: 'seasonSummaries.removeVideo' },
    params: idParams,
    reply: seasonSummary,
  }),
  video: route({ method: 'GET', path: '/season-summaries/:id/video', access: 'admin', params: idParams }),
  /** A participant's own posted summary's files (its season completed). */
  participantSheet: route({
    method: 'GET',
    path: '/dashboard/season-summaries/:id/sheet',
    access: 'participant',
    params: idParams,
  }),
  participantVideo: route({
    method: 'GET',
    path: '/dashboard/season-summaries/:id/video',
    access: 'participant',
    params: idParams,
  }),
};
