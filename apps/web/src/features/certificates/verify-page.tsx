import { useState, type FormEvent } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Container,
  Group,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  certificateRoutes,
  certificateVerifyPath,
  normalizeCertificateCode,
  type CertificateVerification,
} from '@pss/contract';
import { SiteFooter } from '../../components/site-footer';
import { call } from '../../lib/api-client';
import { ApiError, errorMessage } from '../../lib/api-error';
import { formatDate } from '../../lib/format';
import { useTranslation } from '../../lib/i18n';
import '../../lib/i18n/certificate';
import { QueryProvider } from '../../lib/query-provider';
import { Link, useNavigate, useParams } from '../../lib/screen-router';
import { strongTitle } from '../../lib/alert-contrast';

const verificationQuery = (code: string) =>
  queryOptions({
    queryKey: ['certificate-verification', code],
    queryFn: ({ signal }) => call(certificateRoutes.verify, { params: { code } }, { signal }),
    // An unknown code stays unknown; a refused (rate-limited) check is not asked again at once.
    retry: false,
  });

/**
 * `/verify` and `/verify/{code}`: open to anyone (an accreditation body, an employer). A
 * certificate's code is checked as typed; the answer shows what it certifies and whether it
 * still stands.
 */
function VerifyScreen() {
  const { t } = useTranslation();
  const { code: typed } = useParams<{ code?: string }>();
  const code = typed ? normalizeCertificateCode(typed) : null;
  return (
    <>
      <Container size={640} py="xl" component="main" id="main">
        <Stack>
          <Title order={1} size="h2">
            {t('verify.title')}
          </Title>
          {typed && !code && <Alert color="red" role="alert" title={t('verify.invalidCode')} />}
          {code ? <Verification code={code} /> : <CodeForm initial={typed ?? ''} />}
        </Stack>
      </Container>
      <SiteFooter />
    </>
  );
}

function CodeForm({ initial }: { initial: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [value, setValue] = useState(initial);
  const [invalid, setInvalid] = useState(false);

  function submit(event: FormEvent) {
    event.preventDefault();
    const code = normalizeCertificateCode(value);
    setInvalid(!code);
    if (code) navigate(certificateVerifyPath(code));
  }

  return (
    <Paper withBorder p="lg" component="form" onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label={t('verify.code')}
          description={t('verify.help')}
          value={value}
          onChange={(event) => setValue(event.currentTarget.value)}
          error={invalid ? t('verify.invalidCode') : undefined}
          autoComplete="off"
          spellCheck={false}
          maxLength={40}
        />
        <Group>
          <Button type="submit">{t('verify.check')}</Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function Verification({ code }: { code: string }) {
  const { t } = useTranslation();
  const answer = useQuery(verificationQuery(code));
  if (answer.isPending) return <Skeleton h={240} />;
  if (answer.error) {
    const unknown = answer.error instanceof ApiError && answer.error.errorCode === 'NOT_FOUND';
    return (
      <Stack>
        <Alert color="red" role="alert" title={unknown ? t('verify.notFound') : errorMessage(answer.error, t)}>
          {code}
        </Alert>
        <Anchor component={Link} to="/verify">
          {t('verify.another')}
        </Anchor>
      </Stack>
    );
  }
  return <VerificationCard certificate={answer.data} />;
}

function VerificationCard({ certificate }: { certificate: CertificateVerification }) {
  const { t } = useTranslation();
  const rows: [string, string][] = [
    [t('verify.issuedTo'), [certificate.participant_name, certificate.profession].filter(Boolean).join(', ')],
    [t('verify.project'), `${certificate.project_name} (${certificate.client_name})`],
    [t('verify.credits'), String(certificate.credits)],
    ...(certificate.moc_points === null
      ? []
      : [[t('verify.mocPoints'), String(certificate.moc_points)] as [string, string]]),
    ...(certificate.course_id === null ? [] : [[t('verify.courseId'), certificate.course_id] as [string, string]]),
    [t('verify.issuedOn'), formatDate(certificate.issued_at)],
    [t('verify.code'), certificate.code],
  ];
  return (
    <Stack>
      {certificate.valid ? (
        <Alert color="teal" title={t('verify.valid')} styles={strongTitle('teal')} data-testid="certificate-status" />
      ) : (
        <Alert
          color="red"
          title={t('verify.revoked', { date: formatDate(certificate.revoked_at) })}
          styles={strongTitle('red')}
          data-testid="certificate-status"
        />
      )}
      <Paper withBorder p="lg">
        <Table>
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th scope="row" w="35%">
                  {label}
                </Table.Th>
                <Table.Td>
                  <Text size="sm">{value}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
      <Anchor component={Link} to="/verify">
        {t('verify.another')}
      </Anchor>
    </Stack>
  );
}

/** A public page: no staff shell above it, so it brings the query library itself. */
export function VerifyPage() {
  return (
    <QueryProvider>
      <VerifyScreen />
    </QueryProvider>
  );
}
