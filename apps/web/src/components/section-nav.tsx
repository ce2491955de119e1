import { Box, ScrollArea, UnstyledButton } from '@mantine/core';
import { NavLink } from '../lib/router';
import classes from './section-nav.module.css';

/** The tabs of a project's or module library's sections, as links (the current one marked). */
export function SectionNav(props: { label: string; items: { to: string; label: string; end?: boolean }[] }) {
  return (
    <ScrollArea type="never" mb="lg">
      <Box component="nav" aria-label={props.label} className={classes.subnav}>
        {props.items.map((item) => (
          <UnstyledButton key={item.to} component={NavLink} to={item.to} end={item.end} className={classes.link}>
            {item.label}
          </UnstyledButton>
        ))}
      </Box>
    </ScrollArea>
  );
}
