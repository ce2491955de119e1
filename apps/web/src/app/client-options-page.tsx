import { useQuery } from '@tanstack/react-query';
import { useParams } from '../lib/screen-router';
import { ClientPage } from '../features/clients/client-page';
import { clientQueryOptions } from '../features/clients/clients-api';
import { ClientProjectsSection } from '../features/projects/client-projects-section';
import { useSession } from '../lib/session/session-provider';

/** Client Options: the client's details and, once the client is known, its projects. */
export function ClientOptionsPage() {
  const { state } = useSession();
  const { clientId } = useParams();
  const client = useQuery(clientQueryOptions(clientId));
  return (
    <>
      <ClientPage isSuperadmin={state.status === 'signed-in' && state.user.role === 'superadmin'} />
      {clientId && client.isSuccess && <ClientProjectsSection clientId={clientId} />}
    </>
  );
}
