import type { ReactNode } from 'react';
import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { Link } from '../lib/screen-router';

/** A short page that says one thing and offers one way on. */
export function MessagePage(props: { title: string; body: ReactNode; action: { label: string; to: string } }) {
  return (
    <Container size={520} py={96}>
      <Stack align="center" ta="center">
        <Title order={1} size="h2">
          {props.title}
        </Title>
        <Text c="dimmed">{props.body}</Text>
        <Button component={Link} to={props.action.to}>
          {props.action.label}
        </Button>
      </Stack>
    </Container>
  );
}
