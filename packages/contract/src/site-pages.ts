import { z } from 'zod';

/**
 * The legal and support pages (spec §2: Privacy Policy, Terms of Use, Support), open to
 * anyone. Their texts are the operator's (files under DATA_DIR/pages) or written defaults.
 */
export const sitePageNames = ['privacy-policy', 'terms-of-use', 'support'] as const;
export const SitePageName = z.enum(sitePageNames);
export type SitePageNameValue = z.infer<typeof SitePageName>;

export const sitePage = z.object({
  name: SitePageName,
  title: z.string(),
  /** Sanitised HTML. */
  body: z.string(),
  /** The support contact that emails use for `{email}` and `{phone}` (phone empty when none is set). */
  support_email: z.string(),
  support_phone: z.string(),
  /** True when the operator's own text is shown, false for the written default. */
  customised: z.boolean(),
});
export type SitePage = z.infer<typeof sitePage>;
