import type { ReactNode } from 'react';
import { Anchor, Breadcrumbs, Group, Stack, Title } from '@mantine/core';
import { Link } from '../lib/screen-router';

export interface Crumb {
  label: string;
  to?: string;
}

/** Every screen's header: breadcrumbs, the title and the page's main action. */
export function PageHeader(props: { title: string; crumbs?: Crumb[]; action?: ReactNode }) {
  return (
    <Stack gap={4} mb="lg">
      {props.crumbs && props.crumbs.length > 0 && (
        <Breadcrumbs aria-label="Breadcrumb">
          {props.crumbs.map((crumb) =>
            crumb.to ? (
              <Anchor key={crumb.label} component={Link} to={crumb.to} size="sm">
                {crumb.label}
              </Anchor>
            ) : (
              <span key={crumb.label}>{crumb.label}</span>
            ),
          )}
        </Breadcrumbs>
      )}
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>{props.title}</Title>
        {props.action}
      </Group>
    </Stack>
  );
}
