import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from './auth.js';
import { requiredText } from './text-fields.js';

/** `POST /users` for staff accounts: a superadmin creates client administrators (and superadmins). */
export const createStaffUserBody = z
  .strictObject({
    email: z.string().trim().toLowerCase().min(1, 'EMAIL_REQUIRED').max(254).email('INVALID_EMAIL'),
    first_name: requiredText(100, 'INVALID_NAME'),
    last_name: requiredText(100, 'INVALID_LAST_NAME'),
    role: z.enum(['ADMIN', 'SUPERADMIN']),
    client_id: z.string().uuid().nullish(),
    password: z.string().min(PASSWORD_MIN_LENGTH, 'PASSWORD_TOO_SHORT').max(200),
  })
  .superRefine((value, ctx) => {
    if (value.role === 'ADMIN' && !value.client_id) {
      ctx.addIssue({ code: 'custom', path: ['client_id'], message: 'FIELD_REQUIRED' });
    }
    if (value.role === 'SUPERADMIN' && value.client_id) {
      ctx.addIssue({ code: 'custom', path: ['client_id'], message: 'A superadmin belongs to no client' });
    }
  });
export type CreateStaffUserBody = z.input<typeof createStaffUserBody>;

export const staffUser = z.object({
  id: z.string().uuid(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: z.enum(['ADMIN', 'SUPERADMIN']),
  client_id: z.string().uuid().nullable(),
  created_at: z.string(),
});
export type StaffUser = z.infer<typeof staffUser>;
