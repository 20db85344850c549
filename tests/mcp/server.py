"""A real MCP server on the official Python SDK (`mcp` 2.3.0), for the native and end-to-end tests.

    python3 tests/mcp/server.py [PORT] [--token T] [--protocol legacy|stateless|both]
                                [--cors-origin O]... [--record FILE] [--stdio] [--oauth]

Over Streamable HTTP it listens on 127.0.0.1 (port 0 = a free one) at `/mcp` and prints the
endpoint URL as the first line of stdout. With `--stdio` it speaks newline-delimited JSON-RPC on
stdin/stdout instead (what `toolscope mcp bridge` runs).

- `--protocol both` (default): the SDK's own routing: a request whose `MCP-Protocol-Version`
  names a 2026-07-28 revision is served statelessly (`server/discover`, no session), anything
  else goes through the 2025-11-25 `initialize` / `Mcp-Session-Id` flow.
- `--protocol legacy`: a 2025-era server. A modern request is answered as an SDK of that era
  answered a request without a session: HTTP 400, JSON-RPC -32600 "Missing session ID".
- `--protocol stateless`: a 2026-07-28-only server. `initialize` is answered with -32022
  (UnsupportedProtocolVersion) naming the supported revisions, as the schema defines it.
- `--token T`: every request needs `Authorization: Bearer T`, else 401 with a
  `WWW-Authenticate: Bearer resource_metadata=…` challenge (the MCP authorization spec).
- `--cors-origin O`: that page origin may call (CORS headers, preflights answered); the SDK's
  DNS-rebinding guard allows it too.
- `--record FILE`: every call of the destructive tool appends its arguments, one JSON line.
- `--oauth` (with `--token T`): the server is also its own OAuth 2.1 authorization server, as
  the MCP authorization spec has a browser client find and use one: protected resource metadata
  (RFC 9728) naming it, authorization server metadata (RFC 8414, PKCE S256 only), dynamic client
  registration (RFC 7591, public clients), `/authorize` approving at once (302 to the
  registered `redirect_uri` with `code` and `state`), and `/token` checking the PKCE verifier,
  the client, the redirect URI and the `resource`, then issuing T as the access token.

Tools: `get_weather` (read-only, `outputSchema` + `structuredContent`), `notes.delete`
(destructive, records its arguments; its name has a dot), `always_fails` (an `isError` result),
`media.sample` (read-only: image, audio, resource link and embedded resource blocks).
"""

from __future__ import annotations

import argparse
import base64
import json
import socket
import sys
from typing import Any

from mcp_types import (
    AudioContent,
    EmbeddedResource,
    ImageContent,
    ResourceLink,
    TextContent,
    TextResourceContents,
    ToolAnnotations,
)
from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel, Field

HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
MODERN_VERSIONS = ("2026-07-28",)

# A 1x1 transparent PNG and a few bytes standing for audio: content, not meaning.
PNG_1X1 = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="
)
WAV_STUB = base64.b64encode(b"RIFF\x24\x00\x00\x00WAVEfmt ").decode()


class Weather(BaseModel):
    """The structured result of `get_weather`."""

    city: str = Field(description="The city asked for")
    temperature: float = Field(description="Degrees in the unit given")
    unit: str = Field(description="celsius or fahrenheit")
    conditions: str = Field(description="Sky in words")


def build(record: str | None) -> MCPServer:
    server = MCPServer(
        name="toolscope-test-server",
        version="1.2.3",
        instructions="Test server: weather is read-only, notes.delete is destructive.",
    )

    @server.tool(
        title="Current weather",
        description="Current weather for a city.",
        annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False),
    )
    def get_weather(city: str, unit: str = "celsius") -> Weather:
        temperature = 21.5 if unit == "celsius" else 70.7
        return Weather(city=city, temperature=temperature, unit=unit, conditions="sunny")

    @server.tool(
        name="notes.delete",
        title="Delete a note",
        description="Delete a note by id. Cannot be undone.",
        annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True, idempotentHint=True),
    )
    def notes_delete(note_id: str, reason: str | None = None) -> str:
        args: dict[str, Any] = {"note_id": note_id}
        if reason is not None:
            args["reason"] = reason
        if record:
            with open(record, "a", encoding="utf-8") as f:
                f.write(json.dumps(args, sort_keys=True) + "\n")
        return f"deleted note {note_id}"

    @server.tool(
        description="Always fails: the answer is an error result.",
        annotations=ToolAnnotations(readOnlyHint=True),
        structured_output=False,
    )
    def always_fails(reason: str = "no reason") -> str:
        raise RuntimeError(f"the tool failed on purpose: {reason}")

    @server.tool(
        name="media.sample",
        description="Returns one block of each non-text kind.",
        annotations=ToolAnnotations(readOnlyHint=True),
        structured_output=False,
    )
    def media_sample() -> list[Any]:
        return [
            TextContent(type="text", text="one of each"),
            ImageContent(type="image", data=PNG_1X1, mimeType="image/png"),
            AudioContent(type="audio", data=WAV_STUB, mimeType="audio/wav"),
            ResourceLink(type="resource_link", uri="file:///notes/1.md", name="note 1", mimeType="text/markdown"),
            EmbeddedResource(
                type="resource",
                resource=TextResourceContents(uri="file:///notes/2.md", text="# Note 2", mimeType="text/markdown"),
            ),
        ]

    return server


def json_error(status: int, code: int, message: str, data: Any = None, headers: dict[str, str] | None = None):
    from starlette.responses import JSONResponse

    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return JSONResponse({"jsonrpc": "2.0", "id": None, "error": error}, status_code=status, headers=headers)


class Gate:
    """ASGI middleware in front of the SDK's app: CORS, the bearer token, the protocol choice,
    and with `--oauth` a small authorization server."""

    def __init__(self, app, token: str | None, protocol: str, origins: list[str], base: list[str], oauth: bool):
        self.app = app
        self.token = token
        self.protocol = protocol
        self.origins = origins
        self.base = base
        self.oauth = oauth
        self.clients: dict[str, list[str]] = {}  # client_id -> redirect_uris
        self.codes: dict[str, dict[str, str]] = {}  # code -> what /authorize was given

    async def authorization_server(self, request, cors):
        """The OAuth endpoints, or None for any other path."""
        import hashlib
        import secrets
        from urllib.parse import urlencode

        from starlette.responses import JSONResponse, RedirectResponse

        base = self.base[0]
        path = request.url.path
        if path == "/.well-known/oauth-authorization-server":
            return JSONResponse(
                {
                    "issuer": base,
                    "authorization_endpoint": f"{base}/authorize",
                    "token_endpoint": f"{base}/token",
                    "registration_endpoint": f"{base}/register",
                    "response_types_supported": ["code"],
                    "grant_types_supported": ["authorization_code"],
                    "code_challenge_methods_supported": ["S256"],
                    "token_endpoint_auth_methods_supported": ["none"],
                },
                headers=cors,
            )
        if path == "/register" and request.method == "POST":
            body = await request.json()
            uris = body.get("redirect_uris")
            if not isinstance(uris, list) or not uris:
                return JSONResponse({"error": "invalid_redirect_uri"}, status_code=400, headers=cors)
            client_id = "client-" + secrets.token_hex(8)
            self.clients[client_id] = uris
            return JSONResponse(
                {**body, "client_id": client_id, "token_endpoint_auth_method": "none"}, status_code=201, headers=cors
            )
        if path == "/authorize":
            q = request.query_params
            uris = self.clients.get(q.get("client_id", ""))
            if not uris or q.get("redirect_uri") not in uris:
                return JSONResponse({"error": "invalid_client"}, status_code=400, headers=cors)
            if q.get("response_type") != "code" or q.get("code_challenge_method") != "S256":
                return JSONResponse({"error": "invalid_request"}, status_code=400, headers=cors)
            code = secrets.token_urlsafe(16)
            self.codes[code] = {
                "client_id": q["client_id"],
                "redirect_uri": q["redirect_uri"],
                "challenge": q.get("code_challenge", ""),
                "resource": q.get("resource", ""),
            }
            target = q["redirect_uri"] + "?" + urlencode({"code": code, "state": q.get("state", "")})
            return RedirectResponse(target, status_code=302)
        if path == "/token" and request.method == "POST":
            form = await request.form()
            grant = self.codes.pop(str(form.get("code", "")), None)
            verifier = str(form.get("code_verifier", ""))
            challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
            if (
                grant is None
                or form.get("grant_type") != "authorization_code"
                or form.get("client_id") != grant["client_id"]
                or form.get("redirect_uri") != grant["redirect_uri"]
                or challenge != grant["challenge"]
                or form.get("resource", "") != grant["resource"]
            ):
                return JSONResponse({"error": "invalid_grant"}, status_code=400, headers=cors)
            return JSONResponse(
                {"access_token": self.token, "token_type": "Bearer", "expires_in": 3600}, headers=cors
            )
        return None

    def cors(self, origin: str | None) -> dict[str, str]:
        if origin is None or origin not in self.origins:
            return {}
        return {
            "Access-Control-Allow-Origin": origin,
            "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
            "Access-Control-Allow-Headers": "Authorization, Content-Type, Accept, MCP-Protocol-Version, "
            "Mcp-Session-Id, Mcp-Method, Mcp-Name, Last-Event-ID",
            "Access-Control-Expose-Headers": "Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate",
            "Vary": "Origin",
        }

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        from starlette.requests import Request
        from starlette.responses import JSONResponse, Response

        request = Request(scope, receive)
        cors = self.cors(request.headers.get("origin"))

        async def send_cors(message):
            if message["type"] == "http.response.start" and cors:
                headers = list(message.get("headers", []))
                headers += [(k.lower().encode(), v.encode()) for k, v in cors.items()]
                message = {**message, "headers": headers}
            await send(message)

        if request.method == "OPTIONS":
            return await Response(status_code=204 if cors else 403, headers=cors)(scope, receive, send)
        if scope["path"] == "/.well-known/oauth-protected-resource" or scope["path"].startswith(
            "/.well-known/oauth-protected-resource/"
        ):
            body = {"resource": self.base[0] + "/mcp", "bearer_methods_supported": ["header"]}
            if self.oauth:
                body["authorization_servers"] = [self.base[0]]
            return await JSONResponse(body, headers=cors)(scope, receive, send)
        if self.oauth and scope["path"] != "/mcp":
            resp = await self.authorization_server(request, cors)
            if resp is not None:
                return await resp(scope, receive, send)
        if self.token is not None and request.headers.get("authorization") != f"Bearer {self.token}":
            challenge = f'Bearer resource_metadata="{self.base[0]}/.well-known/oauth-protected-resource/mcp"'
            headers = {**cors, "WWW-Authenticate": challenge}
            return await JSONResponse({"error": "invalid_token"}, status_code=401, headers=headers)(
                scope, receive, send
            )
        version = request.headers.get("mcp-protocol-version")
        if request.method == "POST" and self.protocol != "both":
            body = await request.body()
            modern = version is not None and version not in HANDSHAKE_VERSIONS
            if self.protocol == "legacy" and modern:
                resp = json_error(400, -32600, "Bad Request: Missing session ID", headers=cors)
                return await resp(scope, receive, send)
            if self.protocol == "stateless" and not modern:
                try:
                    decoded = json.loads(body)
                except ValueError:
                    decoded = None
                if isinstance(decoded, dict) and decoded.get("method") == "initialize":
                    requested = (decoded.get("params") or {}).get("protocolVersion", version or "")
                    data = {"supported": list(MODERN_VERSIONS), "requested": str(requested)}
                    resp = json_error(400, -32022, "Unsupported protocol version", data, headers=cors)
                    return await resp(scope, receive, send)
            # The body was read: hand it on.
            sent = False

            async def replay():
                nonlocal sent
                if not sent:
                    sent = True
                    return {"type": "http.request", "body": body, "more_body": False}
                return await receive()

            return await self.app(scope, replay, send_cors)
        return await self.app(scope, receive, send_cors)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("port", nargs="?", type=int, default=0)
    p.add_argument("--token")
    p.add_argument("--protocol", choices=["legacy", "stateless", "both"], default="both")
    p.add_argument("--cors-origin", action="append", default=[])
    p.add_argument("--record")
    p.add_argument("--stdio", action="store_true")
    p.add_argument("--json-response", action="store_true", help="JSON bodies instead of SSE")
    p.add_argument("--oauth", action="store_true", help="also be the OAuth authorization server")
    a = p.parse_args()

    server = build(a.record)
    if a.stdio:
        server.run("stdio")
        return

    import anyio
    import uvicorn
    from mcp.server.transport_security import TransportSecuritySettings

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", a.port))
    sock.listen(128)
    port = sock.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=["127.0.0.1:*", "localhost:*"],
        allowed_origins=["http://127.0.0.1:*", "http://localhost:*", *a.cors_origin],
    )
    app = server.streamable_http_app(json_response=a.json_response, transport_security=security)
    if a.oauth and not a.token:
        p.error("--oauth issues the --token value: give --token")
    gated = Gate(app, a.token, a.protocol, a.cors_origin, [base], a.oauth)
    print(f"{base}/mcp", flush=True)
    config = uvicorn.Config(gated, log_level="warning", lifespan="on")
    anyio.run(uvicorn.Server(config).serve, [sock])


if __name__ == "__main__":
    sys.exit(main())
