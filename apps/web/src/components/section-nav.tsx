import { Box, UnstyledButton } from '@mantine/core';
import { NavLink } from '../lib/screen-router';
import classes from './section-nav.module.css';
import scrollRow from './scroll-row.module.css';

/** The tabs of a project's or module library's sections, as links (the current one marked). */
export function SectionNav(props: { label: string; items: { to: string; label: string; end?: boolean }[] }) {
  return (
    <Box component="nav" aria-label={props.label} mb="lg" className={`${classes.subnav} ${scrollRow.row}`}>
      {props.items.map((item) => (
        <UnstyledButton key={item.to} component={NavLink} to={item.to} end={item.end} className={classes.link}>
          {item.label}
        </UnstyledButton>
      ))}
    </Box>
  );
}
