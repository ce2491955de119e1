import { Text } from '@mantine/core';
import { auditActionName, type AuditEvent } from '@pss/contract';
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

/**
 * Who: their name and email as their account reads now (the app itself for system work), their
 * role, and the address they came from. An event recorded before a session existed (a sign-in's
 * step) names the account it was of; only a caller no account is known for is unknown.
 */
export function ActorCell({ event }: { event: AuditEvent }) {
  const { t } = useTranslation();
  const { actor } = event;
  const account = event.account ?? null;
  const roleText = (code: string) => (ROLE_TEXTS[code] ? t(ROLE_TEXTS[code]) : code);
  const anonymous = actor.role === 'ANONYMOUS';
  let who: string = actor.email ?? t('audit.unknownCaller');
  let role = roleText(actor.role);
  if (actor.role === 'SYSTEM') who = t('audit.system');
  if (account) {
    who = account.name;
    if (anonymous) role = t('audit.beforeSignIn', { role: roleText(account.role) });
  } else if (anonymous && actor.email) {
    role = t('audit.noAccount');
  }
  const email = account?.email ?? (actor.role === 'SYSTEM' ? null : actor.email);
  return (
    <div style={{ minWidth: 170 }} data-testid="audit-actor">
      <Text size="sm" fw={500} style={{ overflowWrap: 'break-word' }}>
        {who === actor.email ? <Email address={who} /> : who}
      </Text>
      {email && email !== who && (
        <Text size="xs" style={{ overflowWrap: 'break-word' }}>
          <Email address={email} />
        </Text>
      )}
      <Text size="xs" c="dimmed">
        {role}
        {event.ip ? ` · ${t('audit.address', { ip: event.ip })}` : ''}
      </Text>
    </div>
  );
}

/** What was done, in words; its code (as the exports and the filter's address keep it) on hover. */
export function ActionCell({ action }: { action: string }) {
  return (
    <Text size="sm" miw={120} title={action} data-testid="audit-action">
      {auditActionName(action)}
    </Text>
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
