// A real OpenID provider (the `oidc-provider` package) for the tests: the API's tests start
// it in-process and the browser flows start it beside the app (apps/web/e2e/start-server.mjs).
// It listens on 127.0.0.1 on a free port, knows the accounts it is given (by email, with
// `email_verified` as given), grants the client's scopes without a consent screen, and signs
// in either the account named by `loginAs` (the API tests) or whoever types their email into
// its small sign-in page (the browser flows).
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

const escape = (text) =>
  String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

const page = (title, body) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head>` +
  `<body><main><h1>${escape(title)}</h1>${body}</main></body></html>`;

/**
 * @param {object} options
 * @param {Record<string, { email_verified: boolean, given_name?: string, family_name?: string }>} options.accounts by email
 * @param {{ clientId: string, clientSecret: string, redirectUris: string[], postLogoutRedirectUris: string[] }} options.client
 */
export async function startTestIdp({ accounts, client }) {
  const known = new Map(Object.entries(accounts).map(([email, claims]) => [email.toLowerCase(), claims]));
  let autoLogin = null;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'test-idp' };

  const server = http.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${server.address().port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        // openid-client sends the secret in the body when it is given one.
        token_endpoint_auth_method: 'client_secret_post',
        redirect_uris: client.redirectUris,
        post_logout_redirect_uris: client.postLogoutRedirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name', 'name'] },
    async findAccount(_ctx, id) {
      const claims = known.get(id);
      if (!claims) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, email: id, ...claims }) };
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // No consent screen: the client gets the scopes it asks for, as a company's own app does.
    async loadExistingGrant(ctx) {
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client.clientId,
        accountId: ctx.oidc.session.accountId,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx, form) {
          ctx.body = page(
            'Sign out of the test provider',
            `${form}<button type="submit" form="op.logoutForm" name="logout" value="yes">Yes, sign me out</button>`,
          );
        },
      },
    },
  });
  provider.on('server_error', (_ctx, error) => console.error('test identity provider:', error));

  async function interaction(req, res) {
    const details = await provider.interactionDetails(req, res);
    const finish = (accountId) =>
      provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
    if (req.method === 'POST') {
      const body = new URLSearchParams(await readBody(req));
      const email = (body.get('email') ?? '').trim().toLowerCase();
      if (known.has(email)) return finish(email);
      return send(res, 200, loginPage(details.uid, `No account at the test provider has the email ${email}.`));
    }
    if (autoLogin) return finish(autoLogin);
    return send(res, 200, loginPage(details.uid));
  }

  server.on('request', (req, res) => {
    if (!req.url.startsWith('/interaction/')) return provider.callback()(req, res);
    interaction(req, res).catch((error) => send(res, 500, page('Error', `<p>${escape(error.message)}</p>`)));
  });

  return {
    issuer,
    /** The account every next sign-in comes in as without a form (null: show the sign-in page). */
    loginAs(email) {
      autoLogin = email ? email.toLowerCase() : null;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function loginPage(uid, problem) {
  return page(
    'Test identity provider',
    (problem ? `<p role="alert">${escape(problem)}</p>` : '') +
      `<form method="post" action="/interaction/${escape(uid)}">` +
      `<label>Email <input name="email" type="email" autocomplete="username"></label> ` +
      `<button type="submit">Continue</button></form>`,
  );
}

function send(res, status, html) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(html);
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (data += chunk));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}
