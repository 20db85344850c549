// A local OAuth 2.1 authorization server and a protected MCP resource in front of a real MCP
// server, for the end-to-end test of the page's OAuth flow (MCP authorization spec,
// 2025-11-25: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization).
// Both listen on 127.0.0.1, port 0.
//
// - The authorization server serves its metadata (RFC 8414), dynamic client registration
//   (RFC 7591), `/authorize` that approves at once and redirects with a code (no login page),
//   and `/token`, which checks the code, the client, the redirect URI, the resource (RFC 8707)
//   and the PKCE verifier (S256, RFC 7636).
// - The resource answers 401 with `WWW-Authenticate: Bearer resource_metadata="…"` unless the
//   request carries a token the server issued, serves its protected resource metadata
//   (RFC 9728) and forwards authorized requests to the upstream MCP server with the upstream's
//   own bearer token, which never reaches the page.
//
//   const as = await startOAuth({ upstream: 'http://127.0.0.1:PORT/mcp', upstreamToken, pageOrigin });
//   as.resource  // the MCP URL the page connects to
//   as.log       // every request: { server: 'as'|'rs', method, path, headers, body }
import http from 'node:http';
import crypto from 'node:crypto';

const b64url = (buf) => Buffer.from(buf).toString('base64url');

/** Start both servers; `close()` ends them. */
export async function startOAuth({ upstream, upstreamToken, pageOrigin }) {
  const log = [];
  const clients = new Map();
  const codes = new Map();
  const tokens = new Set();
  let asUrl = '';
  let rsUrl = '';

  const cors = (req) => ({
    'access-control-allow-origin': req.headers.origin === pageOrigin ? pageOrigin : 'null',
    'access-control-allow-headers': 'authorization, content-type, accept, mcp-protocol-version, mcp-session-id, mcp-method, mcp-name, last-event-id',
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    'access-control-expose-headers': 'www-authenticate, mcp-session-id, mcp-protocol-version',
    vary: 'Origin',
  });
  const json = (req, res, status, body, extra = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...cors(req), ...extra });
    res.end(JSON.stringify(body));
  };
  const read = (req) =>
    new Promise((resolve) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });

  const as = http.createServer(async (req, res) => {
    const body = await read(req);
    const u = new URL(req.url, asUrl);
    log.push({ server: 'as', method: req.method, path: u.pathname, query: Object.fromEntries(u.searchParams), headers: { ...req.headers }, body });
    if (req.method === 'OPTIONS') return json(req, res, 204, {});
    if (u.pathname === '/.well-known/oauth-authorization-server') {
      return json(req, res, 200, {
        issuer: asUrl,
        authorization_endpoint: `${asUrl}/authorize`,
        token_endpoint: `${asUrl}/token`,
        registration_endpoint: `${asUrl}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        scopes_supported: ['mcp'],
      });
    }
    if (u.pathname === '/register' && req.method === 'POST') {
      let meta;
      try {
        meta = JSON.parse(body);
      } catch {
        return json(req, res, 400, { error: 'invalid_client_metadata', error_description: 'not JSON' });
      }
      const uris = meta.redirect_uris;
      if (!Array.isArray(uris) || !uris.length || !uris.every((x) => typeof x === 'string'))
        return json(req, res, 400, { error: 'invalid_redirect_uri', error_description: 'redirect_uris required' });
      const client_id = `client-${crypto.randomBytes(8).toString('hex')}`;
      clients.set(client_id, { redirect_uris: uris });
      return json(req, res, 201, { client_id, client_id_issued_at: Math.floor(Date.now() / 1000), redirect_uris: uris, token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'], client_name: meta.client_name });
    }
    if (u.pathname === '/authorize' && req.method === 'GET') {
      const q = Object.fromEntries(u.searchParams);
      const client = clients.get(q.client_id);
      if (!client || !client.redirect_uris.includes(q.redirect_uri)) {
        res.writeHead(400, { 'content-type': 'text/plain' });
        return res.end('unknown client or redirect_uri');
      }
      const back = new URL(q.redirect_uri);
      if (q.response_type !== 'code' || q.code_challenge_method !== 'S256' || !q.code_challenge) {
        back.searchParams.set('error', 'invalid_request');
      } else {
        const code = crypto.randomBytes(16).toString('hex');
        codes.set(code, { client_id: q.client_id, redirect_uri: q.redirect_uri, challenge: q.code_challenge, resource: q.resource });
        back.searchParams.set('code', code);
      }
      if (q.state !== undefined) back.searchParams.set('state', q.state);
      back.searchParams.set('iss', asUrl);
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (u.pathname === '/token' && req.method === 'POST') {
      const f = Object.fromEntries(new URLSearchParams(body));
      const c = codes.get(f.code);
      codes.delete(f.code);
      const bad = (d) => json(req, res, 400, { error: 'invalid_grant', error_description: d });
      if (f.grant_type !== 'authorization_code') return json(req, res, 400, { error: 'unsupported_grant_type' });
      if (!c) return bad('unknown or used code');
      if (c.client_id !== f.client_id) return bad('client mismatch');
      if (c.redirect_uri !== f.redirect_uri) return bad('redirect_uri mismatch');
      if (c.resource !== undefined && f.resource !== c.resource) return bad('resource mismatch');
      if (!f.code_verifier || b64url(crypto.createHash('sha256').update(f.code_verifier).digest()) !== c.challenge)
        return bad('PKCE verification failed');
      const access_token = `at-${crypto.randomBytes(16).toString('hex')}`;
      tokens.add(access_token);
      return json(req, res, 200, { access_token, token_type: 'Bearer', expires_in: 3600, scope: 'mcp' });
    }
    json(req, res, 404, { error: 'not_found' });
  });

  const rs = http.createServer(async (req, res) => {
    const body = await read(req);
    const u = new URL(req.url, rsUrl);
    log.push({ server: 'rs', method: req.method, path: u.pathname, headers: { ...req.headers }, body });
    if (req.method === 'OPTIONS') return json(req, res, 204, {});
    if (u.pathname.startsWith('/.well-known/oauth-protected-resource')) {
      return json(req, res, 200, { resource: `${rsUrl}/mcp`, authorization_servers: [asUrl], bearer_methods_supported: ['header'], scopes_supported: ['mcp'] });
    }
    if (u.pathname !== '/mcp') return json(req, res, 404, { error: 'not_found' });
    const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (!m || !tokens.has(m[1].trim())) {
      return json(req, res, 401, { error: 'invalid_token' }, {
        'www-authenticate': `Bearer resource_metadata="${rsUrl}/.well-known/oauth-protected-resource/mcp", scope="mcp"`,
      });
    }
    const headers = {};
    for (const [h, v] of Object.entries(req.headers)) {
      if (['content-type', 'accept', 'last-event-id'].includes(h) || h.startsWith('mcp-')) headers[h] = v;
    }
    if (upstreamToken) headers.authorization = `Bearer ${upstreamToken}`;
    let up;
    try {
      up = await fetch(upstream, { method: req.method, headers, body: ['GET', 'HEAD'].includes(req.method) ? undefined : body });
    } catch (e) {
      return json(req, res, 502, { error: String(e) });
    }
    const out = { ...cors(req) };
    for (const h of ['content-type', 'mcp-session-id', 'mcp-protocol-version']) {
      const v = up.headers.get(h);
      if (v) out[h] = v;
    }
    res.writeHead(up.status, out);
    res.end(Buffer.from(await up.arrayBuffer()));
  });

  const listen = (srv) =>
    new Promise((resolve, reject) => {
      srv.once('error', reject);
      srv.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${srv.address().port}`));
    });
  asUrl = await listen(as);
  rsUrl = await listen(rs);
  return {
    issuer: asUrl,
    resource: `${rsUrl}/mcp`,
    log,
    tokens,
    close: () =>
      Promise.all(
        [as, rs].map(
          (s) =>
            new Promise((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      ),
  };
}
