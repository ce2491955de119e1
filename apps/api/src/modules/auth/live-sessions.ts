import type { Db } from '../../db/client.js';
import { runPrepared } from '../../db/prepared.js';
import type { LiveBearer, LiveSessions } from '../../lib/access-control.js';

/**
 * Whether an access token's session (`sid`, its refresh-token family) is still live and
 * its user still there, read on every authenticated request. A signature proves only that
 * the token was issued: sign-out, a password change and an account's removal end access at
 * once, in every process, because they change the rows read here, and no process keeps an
 * answer (a cached "live" would let a revoked token through until it ran out). A family is
 * live while one of its tokens is neither revoked nor expired: each rotation revokes one
 * token and stores the next in one transaction, so a family being refreshed is never seen
 * without one. The user's role and client come from the same row, not from the token,
 * and with them what `users/me` answers, so that call reads nothing more.
 *
 * The query is the `auth_live_bearer` function (migration 0029): one join, the family's
 * live token by a partial index and the user by primary key, whose plan the function keeps
 * for the connection; called by a statement prepared by name on PostgreSQL.
 */
const LIVE_SESSION = 'select * from auth_live_bearer($1, $2, $3)';

// Ids come from a signed token, but a malformed one must be refused, not fail the statement.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createLiveSessions(db: Db): LiveSessions {
  return {
    async check(userId, sessionId, now) {
      // A token without a session is refused: every sign-in names one, so such a token was never ours to honour.
      if (!sessionId || !UUID.test(sessionId) || !UUID.test(userId)) return null;
      // Prepared by name: it runs on every signed-in request, so PostgreSQL plans it once a connection.
      const [row] = await runPrepared<LiveBearer>(db, 'auth_live_session', LIVE_SESSION, [
        sessionId,
        userId,
        now.toISOString(),
      ]);
      return row ?? null;
    },
  };
}
