import { z } from 'zod';

export const healthResponse = z.object({ status: z.literal('ok') });

/** The process is up and its event loop answers; nothing else is checked (a restart would not help). */
export const liveResponse = z.object({ status: z.literal('ok') });

/**
 * Whether this process should be sent traffic: the database answers and every migration has
 * run, and the file storage answers. It answers 503 NOT_READY with the failing checks while either is false, and while the
 * process is draining before a shutdown.
 */
export const readyResponse = z.object({
  status: z.literal('ok'),
  checks: z.object({
    database: z.literal(true),
    migrations: z.literal(true),
    /** The file storage answers (a folder that can be written, or a bucket that answers). */
    storage: z.literal(true),
    draining: z.literal(false),
  }),
  details: z.object({
    /**
     * Whether the audit trail is protected from the database role the app serves with: false
     * when that role is a superuser, owns the trail's tables or may change their rows (one
     * DATABASE_URL for migrating and serving, or the embedded database). `detail` says why.
     */
    audit_trail: z.object({ protected: z.boolean(), detail: z.string() }),
  }),
});
