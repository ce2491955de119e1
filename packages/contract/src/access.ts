/**
 * Who may call a route. Every route declares one; the server refuses to start a route
 * without it, and a test calls every non-public route without a token.
 *  - public: anyone
 *  - participant: a signed-in participant (USER, HALFUSER, TESTUSER)
 *  - admin: a signed-in staff member (client administrator or superadmin); services
 *    scope an administrator to their own client
 *  - superadmin: provider staff only
 *  - user: anyone signed in — staff as for `admin`, a participant only about themselves
 *    (a survey's info review corrects the participant's own display name and mobile number)
 *  - enrolment: a signed-in staff member, or one half signed in whose role must have a second
 *    factor and has none (the `mfa_token` of their sign-in): setting up a second factor
 */
export const routeAccessLevels = ['public', 'participant', 'admin', 'superadmin', 'user', 'enrolment'] as const;
export type RouteAccess = (typeof routeAccessLevels)[number];
