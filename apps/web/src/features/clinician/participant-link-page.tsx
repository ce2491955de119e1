import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Container } from '@mantine/core';
import { Link, useNavigate, useParams } from '../../lib/screen-router';
import { useTranslation } from '../../lib/i18n';
import { FullPageLoader } from '../../components/full-page-loader';
import { useParticipantSession } from './participant-session';

/** `/participant/link/{token}`: a dashboard link from an email signs the participant in. */
export function ParticipantLinkPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const { signInWithLink } = useParticipantSession();
  const [failed, setFailed] = useState(false);
  const tried = useRef(false);

  useEffect(() => {
    if (tried.current) return;
    tried.current = true;
    signInWithLink(token)
      .then((user) => navigate(user.has_password ? '/participant' : '/participant?welcome=1', { replace: true }))
      .catch(() => setFailed(true));
  }, [token, signInWithLink, navigate]);

  if (!failed) return <FullPageLoader />;
  return (
    <Container size={480} py="xl" component="main" id="main">
      <Alert color="red" role="alert" title={t('clinician.linkFailedTitle')}>
        {t('clinician.linkFailed')}{' '}
        <Anchor component={Link} to="/participant/sign-in" c="red.9">
          {t('clinician.goToSignIn')}
        </Anchor>
      </Alert>
    </Container>
  );
}
