import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  Assignment,
  Client,
  CreateStaffUserBody,
  Paged,
  StaffUser,
  UpdateUserBody,
  UserDetails,
  UserSummary,
} from '@pss/contract';
import { apiRequest, buildPath } from '../../lib/api-client';

export const userKeys = {
  all: ['users'] as const,
  list: (params: object) => ['users', 'list', params] as const,
  detail: (id: string) => ['users', 'detail', id] as const,
  assignments: (id: string) => ['users', 'assignments', id] as const,
};

export function userListQueryOptions(params: {
  page: number;
  limit: number;
  search?: string;
  sort?: string;
  filter?: string;
}) {
  return queryOptions({
    queryKey: userKeys.list(params),
    queryFn: ({ signal }) => apiRequest<Paged<UserSummary>>('/users', { query: { ...params }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function userQueryOptions(id: string | undefined) {
  return queryOptions({
    queryKey: userKeys.detail(id ?? ''),
    queryFn: ({ signal }) => apiRequest<UserDetails>(buildPath('/users/{id}', { id }), { signal }),
    enabled: Boolean(id),
  });
}

export function assignmentsQueryOptions(id: string | undefined) {
  return queryOptions({
    queryKey: userKeys.assignments(id ?? ''),
    queryFn: ({ signal }) => apiRequest<Assignment[]>(buildPath('/users/{id}/assignments', { id }), { signal }),
    enabled: Boolean(id),
  });
}

/** Clients for the staff-account picker. */
export function clientOptionsQueryOptions() {
  return queryOptions({
    queryKey: ['users', 'client-options'],
    queryFn: ({ signal }) => apiRequest<Paged<Client>>('/clients', { query: { limit: 200, sort: 'name:ASC' }, signal }),
    staleTime: 60_000,
  });
}

export function useCreateStaffUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateStaffUserBody) => apiRequest<StaffUser>('/users', { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

export function useUpdateUser(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateUserBody) =>
      apiRequest<UserDetails>(buildPath('/users/{id}', { id }), { method: 'PUT', body }),
    onSuccess: (user) => {
      queryClient.setQueryData(userKeys.detail(id), user);
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
}
