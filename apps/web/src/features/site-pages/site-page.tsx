import { Alert, Anchor, Container, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { serviceRoutes, type SitePageNameValue } from '@pss/contract';
import { RichTextView } from '../../components/rich-text-view';
import { SiteFooter } from '../../components/site-footer';
import { call } from '../../lib/api-client';
import { errorMessage } from '../../lib/api-error';
import { QueryProvider } from '../../lib/query-provider';

const sitePageQuery = (name: SitePageNameValue) =>
  queryOptions({
    queryKey: ['site-page', name],
    queryFn: ({ signal }) => call(serviceRoutes.page, { params: { name } }, { signal }),
    staleTime: 5 * 60_000,
  });

/** `/privacy-policy`, `/terms-of-use`, `/support`: open to anyone, from the footer of both sides. */
function SitePage({ name }: { name: SitePageNameValue }) {
  const { t } = useTranslation();
  const page = useQuery(sitePageQuery(name));
  return (
    <>
      <Container size={720} py="xl" component="main" id="main">
        {page.error ? (
          <Alert color="red" role="alert" title={errorMessage(page.error, t)} />
        ) : !page.data ? (
          <Skeleton h={320} />
        ) : (
          <Paper withBorder p="lg">
            <Stack>
              <Title order={1} size="h2">
                {page.data.title}
              </Title>
              <RichTextView html={page.data.body} />
              {name === 'support' && (
                <Stack gap={4}>
                  <Text fw={600}>{t('sitePages.contact')}</Text>
                  <Anchor href={`mailto:${page.data.support_email}`}>{page.data.support_email}</Anchor>
                  {page.data.support_phone && (
                    <Anchor href={`tel:${page.data.support_phone.replace(/[^+\d]/g, '')}`}>
                      {page.data.support_phone}
                    </Anchor>
                  )}
                </Stack>
              )}
            </Stack>
          </Paper>
        )}
      </Container>
      <SiteFooter />
    </>
  );
}

/** Public pages: no staff shell above them, so they bring the query library themselves. */
const withQueries = (name: SitePageNameValue) =>
  function PublicSitePage() {
    return (
      <QueryProvider>
        <SitePage name={name} />
      </QueryProvider>
    );
  };

export const PrivacyPolicyPage = withQueries('privacy-policy');
export const TermsOfUsePage = withQueries('terms-of-use');
export const SupportPage = withQueries('support');
