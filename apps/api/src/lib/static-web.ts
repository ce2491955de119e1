import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { chooseEncoding, PRECOMPRESSED } from './content-encoding.js';
import { AppError } from './errors.js';
import { loadIndexHtml } from './index-html.js';
import { markRoutesPublic } from './public-routes.js';

/**
 * Source maps are never served: they would hand anyone the app's whole source with its
 * comments. The build writes them without naming them in the bundles (`sourcemap: 'hidden'`
 * in vite.config.ts, for reading profiles where it was built); a request for one is a 404.
 */
const isSourceMap = (pathName: string) => /\.map$/i.test(pathName);

/**
 * Serves the built web app at `/` (when it has been built). Client-side routes fall back
 * to index.html; unknown `/api/...` paths, source maps, and everything when there is no web
 * app, are JSON 404s.
 */
export async function registerStaticWeb(app: FastifyInstance, webDistDir: string | undefined): Promise<boolean> {
  const indexFile = webDistDir ? path.join(webDistDir, 'index.html') : undefined;
  const hasWebApp = Boolean(webDistDir && indexFile && existsSync(indexFile));
  // Every client-side route answers index.html (with its screen's chunks named), compressed.
  const indexHtml = webDistDir && hasWebApp ? loadIndexHtml(webDistDir) : undefined;
  if (webDistDir && hasWebApp) {
    await app.register(async (web) => {
      markRoutesPublic(web);
      await web.register(fastifyStatic, {
        root: webDistDir,
        wildcard: false,
        // The build writes .br and .gz beside each asset; they are sent as they are.
        preCompressed: true,
        allowedPath: (pathName) => !isSourceMap(pathName),
        // Our own Cache-Control below (the plugin's default would answer max-age=0).
        cacheControl: false,
        // Hashed assets never change; index.html must always be fetched anew.
        setHeaders: (res, filePath) => {
          // The body depends on Accept-Encoding (preCompressed), so shared caches must key on it.
          res.setHeader('Vary', 'Accept-Encoding');
          res.setHeader(
            'Cache-Control',
            filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
        },
      });
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url === '/api' || request.url.startsWith('/api/');
    const pathName = request.url.split('?')[0] ?? '/';
    if (!indexHtml || request.method !== 'GET' || isApi || isSourceMap(pathName)) {
      return reply.status(404).send(new AppError('NOT_FOUND').toBody());
    }
    const chosen = chooseEncoding(request.headers['accept-encoding'], PRECOMPRESSED);
    if (chosen) reply.header('Content-Encoding', chosen.encoding);
    return reply
      .header('Cache-Control', 'no-cache')
      .header('Vary', 'Accept-Encoding')
      .type('text/html; charset=utf-8')
      .send(indexHtml.body(pathName, chosen));
  });
  return hasWebApp;
}
