import { Text } from '@mantine/core';
import type { AuditEvent } from '@pss/contract';
import { StatusBadge } from './status-badge';
import { useTranslation, type TextKey } from '../lib/i18n';
import { momentParts } from '../lib/audit-format';
import classes from './audit.module.css';

/** The roles the texts name; an actor's role outside them is shown as it was recorded. */
const ROLE_TEXTS: Record<string, TextKey> = {
  SUPERADMIN: 'users.roles.SUPERADMIN',
  ADMIN: 'users.roles.ADMIN',
  USER: 'users.roles.USER',
  HALFUSER: 'users.roles.HALFUSER',
  TESTUSER: 'users.roles.TESTUSER',
  SYSTEM: 'audit.roles.SYSTEM',
  ANONYMOUS: 'audit.roles.ANONYMOUS',
};

/** When, to the second, and whether the event is sealed into the hash chain yet. */
export function TimeCell({ event }: { event: AuditEvent }) {
  const { t } = useTranslation();
  const moment = momentParts(event.at);
  return (
    <div style={{ whiteSpace: 'nowrap' }}>
      <Text size="sm" component="time" dateTime={event.at} display="block">
        {moment ? (
          <>
            {moment.day}
            <br />
            {moment.time}
          </>
        ) : (
          '—'
        )}
      </Text>
      {event.hash === null ? (
        <Text size="xs" c="dimmed" fs="italic" title={t('audit.unsealedHint')}>
          {t('audit.unsealed')}
        </Text>
      ) : (
        <Text size="xs" c="dimmed" className={classes.mono} title={t('audit.sealedHint', { hash: event.hash })}>
          #{event.hash.slice(0, 8)}
        </Text>
      )}
    </div>
  );
}

/** Who: their email (the app itself for system work), their role, and the address they came from. */
export function ActorCell({ event }: { event: AuditEvent }) {
  const { t } = useTranslation();
  const role = ROLE_TEXTS[event.actor.role];
  const isSystem = event.actor.role === 'SYSTEM';
  return (
    <div style={{ minWidth: 170 }}>
      <Text size="sm" style={{ overflowWrap: 'break-word' }}>
        {event.actor.email ? <Email address={event.actor.email} /> : isSystem ? t('audit.system') : '—'}
      </Text>
      <Text size="xs" c="dimmed">
        {role ? t(role) : event.actor.role}
        {event.ip ? ` · ${t('audit.address', { ip: event.ip })}` : ''}
      </Text>
    </div>
  );
}

/**
 * An address that may break before its `@`: unbroken, a long one set the column's least width
 * and pushed the table past a laptop's screen.
 */
function Email({ address }: { address: string }) {
  const at = address.indexOf('@');
  if (at <= 0) return address;
  return (
    <>
      {address.slice(0, at)}
      <wbr />
      {address.slice(at)}
    </>
  );
}

/** Success, or the code the call was refused with. */
export function OutcomeBadge({ outcome }: { outcome: string }) {
  const { t } = useTranslation();
  return outcome === 'success' ? (
    <StatusBadge color="teal">{t('audit.success')}</StatusBadge>
  ) : (
    <StatusBadge color="red" style={{ textTransform: 'none' }}>
      {outcome}
    </StatusBadge>
  );
}
