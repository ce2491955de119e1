import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { inlineScriptSources } from './lib/index-html.js';
import { registerSecurityHeaders } from './lib/security-headers.js';

/** The security headers of every answer: the web app's content security policy, and HSTS where it is served over https. */
export function registerAppSecurityHeaders(
  app: FastifyInstance,
  config: Pick<Config, 'webDistDir' | 'secureCookies'>,
): void {
  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // The site's files, and the web app's one inline script by its hash (lib/index-html.ts).
        scriptSrc: ["'self'", ...inlineScriptSources(config.webDistDir)],
        // Mantine writes its CSS variables and component styles inline.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        // A summary's video plays from the bytes its call answered (it needs the session's token).
        mediaSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // The app is served over plain http on localhost in development.
    strictTransportSecurity: config.secureCookies,
  });
}
