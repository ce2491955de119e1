import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  emailDeliveryRoutes,
  emailRoutes,
  emailSendingRoutes,
  participantRoutes,
  type EmailDeliveryKindValue,
  type EmailDeliveryStatusValue,
  type EmailPreviewBody,
  type EmailTemplate,
  type SaveEmailBody,
  type SendEmailBody,
  type SendTestEmailBody,
} from '@pss/contract';
import { call } from '../../lib/api-client';

/** Which set an email belongs to: the project's eight, or one season's five (its name). */
export type EmailSet = { kind: 'project' } | { kind: 'season'; seasonName: string };

export interface DeliveryListParams {
  page: number;
  limit: number;
  search?: string;
  sort?: string;
  filter: { status?: EmailDeliveryStatusValue; kind?: EmailDeliveryKindValue; email_id?: string };
}

export const emailKeys = {
  all: ['emails'] as const,
  templates: (projectId: string) => ['emails', projectId, 'templates'] as const,
  projectTemplates: (projectId: string) => ['emails', projectId, 'templates', 'project'] as const,
  seasonTemplates: (projectId: string, seasonName: string) =>
    ['emails', projectId, 'templates', 'season', seasonName] as const,
  deliveries: (projectId: string, params: DeliveryListParams) => ['emails', projectId, 'deliveries', params] as const,
  allDeliveries: (projectId: string) => ['emails', projectId, 'deliveries'] as const,
  schedule: (projectId: string, params: { date: string; page: number; limit: number }) =>
    ['emails', projectId, 'schedule', params] as const,
  calendar: (projectId: string, season: string) => ['emails', projectId, 'calendar', season] as const,
  preview: (emailId: string, body: EmailPreviewBody) => ['emails', 'preview', emailId, body] as const,
  participants: (projectId: string, search: string) => ['emails', projectId, 'participants', search] as const,
  sendPreview: (emailId: string, body: SendEmailBody) => ['emails', 'send-preview', emailId, body] as const,
};

/** A project's eight emails, or one season's five. */
export function emailTemplatesQueryOptions(projectId: string, set: EmailSet) {
  return queryOptions({
    queryKey:
      set.kind === 'project'
        ? emailKeys.projectTemplates(projectId)
        : emailKeys.seasonTemplates(projectId, set.seasonName),
    queryFn: ({ signal }) =>
      set.kind === 'project'
        ? call(emailRoutes.list, { params: { id: projectId } }, { signal })
        : call(
            emailRoutes.listForSeason,
            { params: { id: projectId }, query: { seasonName: set.seasonName } },
            { signal },
          ),
    enabled: Boolean(projectId),
  });
}

/** While an email waits or is being sent, the log looks again every few seconds. */
const LOG_REFRESH_MS = 3000;

export function deliveriesQueryOptions(projectId: string, params: DeliveryListParams) {
  return queryOptions({
    queryKey: emailKeys.deliveries(projectId, params),
    queryFn: ({ signal }) =>
      call(
        emailSendingRoutes.deliveries,
        { params: { id: projectId }, query: { ...params, filter: JSON.stringify(params.filter) } },
        { signal },
      ),
    placeholderData: keepPreviousData,
    enabled: Boolean(projectId),
    refetchInterval: (query) =>
      query.state.data?.items.some((d) => d.status === 'QUEUED' || d.status === 'SENDING') ? LOG_REFRESH_MS : false,
  });
}

export function scheduleQueryOptions(projectId: string, params: { date: string; page: number; limit: number }) {
  return queryOptions({
    queryKey: emailKeys.schedule(projectId, params),
    queryFn: ({ signal }) =>
      call(emailSendingRoutes.schedule, { params: { id: projectId }, query: params }, { signal }),
    placeholderData: keepPreviousData,
    enabled: Boolean(projectId) && /^\d{4}-\d{2}-\d{2}$/.test(params.date),
  });
}

/** A season's calendar: for each of its days, how many of each email the schedule sends. */
export function calendarQueryOptions(projectId: string, season: string) {
  return queryOptions({
    queryKey: emailKeys.calendar(projectId, season),
    queryFn: ({ signal }) =>
      call(emailSendingRoutes.calendar, { params: { id: projectId }, query: { season } }, { signal }),
    enabled: Boolean(projectId && season),
  });
}

/** The texts being edited, rendered as a participant (or a sample) would get them. */
export function previewQueryOptions(emailId: string, body: EmailPreviewBody, enabled: boolean) {
  return queryOptions({
    queryKey: emailKeys.preview(emailId, body),
    queryFn: ({ signal }) => call(emailSendingRoutes.preview, { params: { id: emailId }, body }, { signal }),
    placeholderData: keepPreviousData,
    enabled: enabled && Boolean(emailId),
    staleTime: 60_000,
  });
}

/** A few of the project's active participants matching a search, for the preview's picker. */
export function previewParticipantsQueryOptions(projectId: string, search: string) {
  return queryOptions({
    queryKey: emailKeys.participants(projectId, search),
    queryFn: ({ signal }) =>
      call(
        participantRoutes.list,
        {
          params: { id: projectId },
          query: { page: 1, limit: 20, search: search || undefined, filter: JSON.stringify({ archived: false }) },
        },
        { signal },
      ),
    placeholderData: keepPreviousData,
    enabled: Boolean(projectId),
  });
}

export function useSaveEmail(projectId: string, set: EmailSet) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: SaveEmailBody }) =>
      call(set.kind === 'project' ? emailRoutes.save : emailRoutes.saveSeasonEmail, { params: { id }, body }),
    onSuccess: (saved) => {
      replaceTemplate(queryClient, projectId, set, saved);
      return queryClient.invalidateQueries({ queryKey: emailKeys.templates(projectId) });
    },
  });
}

export function useSetEmailEnabled(projectId: string, set: EmailSet) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) =>
      call(set.kind === 'project' ? emailRoutes.setStatus : emailRoutes.setSeasonEmailStatus, {
        params: { id },
        body: { enabled },
      }),
    // The switch follows the answer at once; the list is read again behind it.
    onSuccess: (saved) => {
      replaceTemplate(queryClient, projectId, set, saved);
      return queryClient.invalidateQueries({ queryKey: emailKeys.templates(projectId) });
    },
  });
}

export function useDisableEmails(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (set: EmailSet) =>
      set.kind === 'project'
        ? call(emailRoutes.disableAll, { params: { id: projectId } })
        : call(emailRoutes.disableSeason, {
            params: { id: projectId },
            query: { seasonName: set.seasonName },
            body: undefined,
          }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: emailKeys.templates(projectId) }),
  });
}

export function useSendTestEmail(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: SendTestEmailBody }) =>
      call(emailSendingRoutes.sendTest, { params: { id }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: emailKeys.allDeliveries(projectId) }),
  });
}

/** Who "Send now" would reach with this selection, and who it would skip and why (nothing is sent). */
export function sendPreviewQueryOptions(emailId: string, body: SendEmailBody, enabled: boolean) {
  return queryOptions({
    queryKey: emailKeys.sendPreview(emailId, body),
    queryFn: ({ signal }) => call(emailSendingRoutes.sendPreview, { params: { id: emailId }, body }, { signal }),
    enabled: enabled && Boolean(emailId),
    // Read anew each time the dialog opens: progress and start dates change who gets it.
    staleTime: 0,
    gcTime: 0,
  });
}

export function useSendEmail(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: SendEmailBody }) =>
      call(emailSendingRoutes.send, { params: { id }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: emailKeys.allDeliveries(projectId) }),
  });
}

function replaceTemplate(
  queryClient: ReturnType<typeof useQueryClient>,
  projectId: string,
  set: EmailSet,
  saved: EmailTemplate,
) {
  const key = emailTemplatesQueryOptions(projectId, set).queryKey;
  queryClient.setQueryData(key, (current) =>
    current ? { items: current.items.map((item) => (item.id === saved.id ? saved : item)) } : current,
  );
}

/** A row of the delivery log sent again by hand (a new line in the log). */
export function useResendDelivery(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) => call(emailDeliveryRoutes.resend, { params: { id: projectId, deliveryId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: emailKeys.allDeliveries(projectId) }),
  });
}
