import { useParams } from 'react-router';
import { ClientPage } from '../features/clients/client-page';
import { ClientProjectsSection } from '../features/projects/client-projects-section';
import { useSession } from '../lib/session/session-provider';

/** Client Options: the client's details and its projects (two features on one page). */
export function ClientOptionsPage() {
  const { state } = useSession();
  const { clientId } = useParams();
  return (
    <>
      <ClientPage isSuperadmin={state.status === 'signed-in' && state.user.role === 'superadmin'} />
      {clientId && <ClientProjectsSection clientId={clientId} />}
    </>
  );
}
