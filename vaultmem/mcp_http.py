"""``vaultmem mcp --http HOST:PORT``: the same tools over MCP's streamable HTTP transport.

The protocol is the SDK's (``MCPServer.streamable_http_app`` at ``/mcp``, served by
uvicorn); this module only puts the guards in front of it and runs it (see
adr/0015-mcp-over-http.md):

- **A bearer token, always.** From ``VAULTMEM_MCP_TOKEN`` or ``--token-file`` (a file
  only its owner can read); without one the server does not start. The SDK's bearer
  middleware answers 401 to a request without the token or with another one; the
  comparison is constant-time.
- **An Origin check** (DNS rebinding, as the MCP specification asks): a request whose
  ``Origin`` is neither this server's own nor listed in ``[mcp] allowed_origins`` gets 403
  before anything else reads it. Requests without ``Origin`` (agents, not browsers) pass
  to the token check. An allowed browser origin gets the CORS answers a page needs.
- **Paths from the vault**: what a tool call answers, fails with or reports as progress names
  the vault "the vault" and its files vault-relative (mcp_remote.py), never the server's
  absolute paths.
- **Refusals an agent can read**: the 401, 403 and 413 carry a JSON-RPC error saying what
  to change, the one body the SDK's client shows.
- **A page at /** for a person who opens the address in a browser: what this is, where agents
  connect, that they need the token; no token needed for it, no path of this machine in it.
- **No sessions** (``stateless_http``): every request stands alone, so clients go on
  calling across a restart of the server.
- **Stopping.** SIGTERM or Ctrl-C: a running call still answers on its stream if it ends
  within the streams' couple of seconds, running calls get a few more, then the process exits 0.

Plain HTTP only: TLS belongs to a reverse proxy in front (docs/mcp.md, "MCP over HTTP").
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import os
import signal
import socket
import stat
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE, TransportSecuritySettings
from pydantic import AnyHttpUrl
from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .config import CONFIG_FILE, normalize_origin
from .errors import UsageError, VaultmemError
from .mcp_remote import PathsFromTheVault, RemotePaths
from .mcp_server import build_server
from .vault import Vault

if TYPE_CHECKING:
    import uvicorn

log = logging.getLogger("vaultmem.mcp")

MCP_PATH = "/mcp"
TOKEN_ENV = "VAULTMEM_MCP_TOKEN"
MIN_TOKEN_CHARS = 16  # a short token can be guessed over the network
MAX_REQUEST_BYTES = DEFAULT_MAX_REQUEST_BODY_SIZE  # the SDK's 4 MiB, said in the 413 an agent reads
STREAM_GRACE_SECONDS = 2  # at shutdown, open SSE streams get this long before they are cut
SSE_POLL_SECONDS = 0.5  # how often sse-starlette looks at its stop flag
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
WILDCARD_HOSTS = ("0.0.0.0", "::")
MAKE_TOKEN = "python -c 'import secrets; print(secrets.token_urlsafe(32))'"


@dataclass(frozen=True)
class Bind:
    """Where to listen: a host name or address (IPv6 without brackets) and a port (0 = any free one)."""

    host: str
    port: int

    @property
    def url_host(self) -> str:
        return f"[{self.host}]" if ":" in self.host else self.host

    def __str__(self) -> str:
        return f"{self.url_host}:{self.port}"


def parse_bind(text: str) -> Bind:
    """``127.0.0.1:8765``, ``localhost:8765``, ``[::1]:8765``, ``0.0.0.0:8765`` → :class:`Bind`."""
    if "/" in text:
        # The README and the log show the URL served, so that is what gets pasted; read as
        # HOST:PORT its host was "http://127.0.0.1", which failed later as an unknown host name.
        raise UsageError(f"--http {text!r} is a URL; --http takes HOST:PORT only, e.g. 127.0.0.1:8765 "
                         f"(the server then answers at http://127.0.0.1:8765{MCP_PATH})")
    host, separator, port = text.strip().rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not separator or not host or not port.isdigit() or int(port) > 65535:
        raise UsageError(f"--http {text!r} is not HOST:PORT; write e.g. 127.0.0.1:8765 (or [::1]:8765)")
    return Bind(host, int(port))


# ------------------------------------------------------------------ the bearer token


def read_token(environ: Mapping[str, str], token_file: Path | None) -> str:
    """The one token this server accepts, from the environment or an owner-only file."""
    from_env = environ.get(TOKEN_ENV)
    if from_env is not None and token_file is not None:
        raise UsageError(f"the token is given twice ({TOKEN_ENV} and --token-file); give it one way only")
    if token_file is not None:
        return _checked(_read_token_file(token_file), f"--token-file {token_file}")
    if from_env is not None:
        return _checked(from_env, TOKEN_ENV)
    raise UsageError(
        f"--http needs a bearer token and serves nothing without one: set {TOKEN_ENV}, or pass "
        f"--token-file PATH (a file only you can read). Make one with: {MAKE_TOKEN}"
    )


def _read_token_file(path: Path) -> str:
    try:
        mode = path.stat().st_mode
        # Windows has no owner-only mode bits: there the file's ACL is the user's business.
        if os.name != "nt" and mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise UsageError(f"--token-file {path} can be read by other users (mode {stat.filemode(mode)}); "
                             f"run chmod 600 {path} so only you can read it")
        # utf-8-sig: Notepad and PowerShell's Set-Content start the file with a byte order mark,
        # which is no part of the token (kept, no client could ever send a token that matched).
        return path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"--token-file {path} cannot be read ({error}); give a text file holding the token") from None


def _checked(token: str, source: str) -> str:
    token = token.strip()
    if len(token) < MIN_TOKEN_CHARS or any(char.isspace() for char in token):
        raise UsageError(f"the token in {source} must be at least {MIN_TOKEN_CHARS} characters without spaces; "
                         f"make one with: {MAKE_TOKEN}")
    unsendable = next((char for char in token if not "!" <= char <= "~"), None)  # visible ASCII only
    if unsendable is not None:
        # An HTTP header carries ASCII only: a client cannot send such a token (the Python SDK's
        # raises; curl sends UTF-8 that the server reads as Latin-1), so every request got 401.
        raise UsageError(f"the token in {source} holds {unsendable!r} (U+{ord(unsendable):04X}, character "
                         f"{token.index(unsendable) + 1}), which an HTTP header cannot carry: use letters, digits "
                         f"and ASCII punctuation only; make one with: {MAKE_TOKEN}")
    return token


class StaticToken:
    """The SDK's ``TokenVerifier`` for one shared secret.

    Both sides are hashed first, so ``compare_digest`` compares equal lengths and takes
    the same time whatever the presented token is: no timing tells how much of it was right.
    """

    def __init__(self, token: str) -> None:
        self._digest = hashlib.sha256(token.encode("utf-8")).digest()

    async def verify_token(self, token: str) -> AccessToken | None:
        # What follows "Bearer " (the SDK cuts seven characters): RFC 6750 allows more than one
        # space before the token, and a token holds none (read_token), so they are no part of it.
        # Was: "Bearer  <token>" refused, told "the token sent is not this server's" — it was.
        token = token.lstrip(" ")
        presented = hashlib.sha256(token.encode("utf-8", "surrogateescape")).digest()
        if not hmac.compare_digest(presented, self._digest):
            return None
        return AccessToken(token=token, client_id="vaultmem-token", scopes=[])


# ------------------------------------------------------------------ the Origin check


def own_origins(bind: Bind) -> frozenset[str]:
    """The origins of this server itself; a loopback or wildcard bind answers on every loopback name."""
    hosts = {bind.host} | (set(LOOPBACK_HOSTS) if bind.host in LOOPBACK_HOSTS + WILDCARD_HOSTS else set())
    return frozenset(normalize_origin(f"http://{Bind(host, bind.port)}") for host in hosts - set(WILDCARD_HOSTS))


class OriginGuard:
    """ASGI middleware: 403 for a request whose ``Origin`` header is not allowed.

    A browser sends ``Origin`` with every cross-origin request; a page on another site
    (or one that rebound its DNS name to this machine) is refused here, before the token
    check, so it cannot even learn whether a token it guessed was right. An allowed origin
    gets CORS: its preflight is answered here (the browser sends no token with it) and every
    answer says the page may read it.
    """

    def __init__(self, app: ASGIApp, allowed: frozenset[str], config_path: Path) -> None:
        self.app = app
        self.allowed = allowed
        self.config_path = config_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = Headers(scope=scope) if scope["type"] == "http" else None
        origin = headers.get("origin") if headers is not None else None
        if origin is None or headers is None:
            await self.app(scope, receive, send)
        elif not self.allows(origin):
            shown = repr(origin[:100])
            # The path goes to the log only: the caller is not authenticated, and where the
            # vault lives on this machine is none of its business.
            log.warning("vaultmem: refused a request from origin %s (403); to allow it, add it to allowed_origins "
                        "under [mcp] in %s", shown, self.config_path)
            # A JSON-RPC error, as the 401 and 413: the SDK's client shows its message, and for a
            # plain-text body only "Server returned an error response".
            await send_refusal(send, {"type": "http.response.start", "status": 403, "headers": []},
                               {"code": FORBIDDEN_CODE, "message": f"403 Forbidden: {refusal(origin)}"})
        elif scope["method"] == "OPTIONS" and "access-control-request-method" in headers:
            # A browser asks before it sends Authorization, and never sends the token with this
            # question: answered by the bearer check, it got 401 and the page could never call.
            await Response(status_code=204, headers=preflight_headers(origin))(scope, receive, send)
        else:
            await self.app(scope, receive, with_cors_headers(send, origin))

    def allows(self, origin: str) -> bool:
        try:
            return normalize_origin(origin) in self.allowed
        except ValueError:
            return False  # "null" (a sandboxed page, a file://) or garbage: no origin we could have allowed


# What the SDK's client sends, and reads back, besides the simple headers a browser always allows.
CORS_REQUEST_HEADERS = "authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id"
CORS_EXPOSED_HEADERS = "mcp-session-id, mcp-protocol-version, www-authenticate"
CORS_MAX_AGE_SECONDS = 600


def preflight_headers(origin: str) -> dict[str, str]:
    """The answer to an allowed origin's CORS preflight: it may POST, GET and DELETE with the token."""
    return {"access-control-allow-origin": origin, "access-control-allow-methods": "GET, POST, DELETE",
            "access-control-allow-headers": CORS_REQUEST_HEADERS,
            "access-control-max-age": str(CORS_MAX_AGE_SECONDS), "vary": "Origin"}


def with_cors_headers(send: Send, origin: str) -> Send:
    """``send`` that lets the allowed ``origin`` read the response.

    Without ``Access-Control-Allow-Origin`` a browser hides every answer (a 401 too) from the
    page that asked, so a web client listed in ``allowed_origins`` still could not use the server.
    """
    async def send_with_cors(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = MutableHeaders(scope=message)
            headers["access-control-allow-origin"] = origin
            headers["access-control-expose-headers"] = CORS_EXPOSED_HEADERS
            headers.add_vary_header("Origin")
        await send(message)

    return send_with_cors


def refusal(origin: str) -> str:
    """The 403's body: what to change, and only where a change can help."""
    shown = repr(origin[:100])
    try:
        normalize_origin(origin)
    except ValueError:
        # "null" or garbage cannot be listed (the config refuses it), so "add it" would send
        # the person to a setting that then refuses to load.
        return (f"Origin {shown} may not use this server: it names no page's origin (a sandboxed frame or a file:// "
                f"page sends null), and only scheme://host[:port] origins can be allowed. Serve the page from an "
                f"origin of its own and add that to allowed_origins under [mcp] in the vault's {CONFIG_FILE}.")
    return (f"Origin {shown} may not use this server. If it is yours, add it to allowed_origins "
            f"under [mcp] in the vault's {CONFIG_FILE}.")


# ------------------------------------------------------------------ refusals an agent can read


UNAUTHORIZED_CODE = -32001  # JSON-RPC's implementation-defined server errors: -32000 to -32099
FORBIDDEN_CODE = -32003
TOO_LARGE_CODE = -32600  # Invalid Request


class ReadableRefusals:
    """ASGI middleware: the SDK's 401 and 413 say what went wrong in a body the agent reads.

    The SDK's client shows the message of a JSON-RPC error in a refusal's body, and for any
    other body only "Server returned an error response": an agent with a mistyped token, or
    a memory too large for one request, could not tell either from a server fault. The
    status and the ``WWW-Authenticate`` header stay as they were.
    """

    def __init__(self, app: ASGIApp, max_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        replaced = False

        async def send_readable(message: Message) -> None:
            nonlocal replaced
            if message["type"] == "http.response.start" and message["status"] in (401, 413):
                replaced = True
                await send_refusal(send, message, self.explain(message["status"], Headers(scope=scope)))
            elif not replaced:
                await send(message)

        await self.app(scope, receive, send_readable)

    def explain(self, status: int, headers: Headers) -> dict[str, object]:
        if status == 413:
            return {"code": TOO_LARGE_CODE,
                    "message": f"413 Request Entity Too Large: this vaultmem server takes at most "
                               f"{self.max_body_bytes // 1024 // 1024} MiB per request; send a long text in parts "
                               f"(remember the first part, then revise the note with append=... for each next one)"}
        return {"code": UNAUTHORIZED_CODE,
                "message": f"401 Unauthorized: {what_was_sent(headers.get('authorization'))}. This vaultmem server "
                           f"needs the header 'Authorization: Bearer <token>' with the token it was started with "
                           f"({TOKEN_ENV} or --token-file where it runs)"}


def what_was_sent(authorization: str | None) -> str:
    """What was wrong with a refused ``Authorization`` header, as far as can be told without the
    token (never echoed). A trial: a client's "bearer token" field given "Bearer <token>" sent
    ``Bearer Bearer <token>``, and the agent was told only that the token was not this server's."""
    if not authorization or not authorization.strip():
        return "no token was sent"
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer":
        return "the Authorization header does not start with 'Bearer ' (a token alone, or another scheme, is not read)"
    token = token.strip()
    if not token:
        # A client whose token setting is empty (an unset variable in its config) sends "Bearer "
        # (the server reads "Bearer"): told "the token sent is not this server's", it looked for a
        # wrong token rather than a missing one.
        return "the header holds 'Bearer' and no token after it (is the client's token setting empty?)"
    if token.lower().startswith("bearer "):
        return "the header says Bearer twice ('Bearer Bearer …'): send the token alone after one 'Bearer '"
    if len(token) >= 2 and token[0] == token[-1] and token[0] in "\"'":
        return "the token sent is in quotes, and is not this server's: send it without them"
    return "the token sent is not this server's"


async def send_refusal(send: Send, start: Message, error: dict[str, object]) -> None:
    """The refusal's status and headers, with a JSON-RPC error (id null: no request was read) as its body."""
    body = json.dumps({"jsonrpc": "2.0", "id": None, "error": error}).encode("utf-8")
    headers = MutableHeaders(raw=list(start.get("headers", [])))
    headers["content-type"] = "application/json"
    headers["content-length"] = str(len(body))
    await send({**start, "headers": headers.raw})
    await send({"type": "http.response.body", "body": body, "more_body": False})


# ------------------------------------------------------------------ the page at /


README_SECTION = "MCP over HTTP: agents on other machines"
LANDING_PAGE = (
    "This is a vaultmem MCP server: a memory for AI agents, served over MCP's streamable HTTP transport.\n\n"
    f"There is nothing to read here in a browser. MCP clients connect to {MCP_PATH} on this server, sending "
    "the header 'Authorization: Bearer <token>' with the token the server was started with "
    f"({TOKEN_ENV} or --token-file where it runs).\n\n"
    f"How to connect an agent, and to put TLS in front: vaultmem's docs/mcp.md, section \"{README_SECTION}\".\n"
)


class LandingPage:
    """ASGI middleware: ``GET /`` (a person who opened the server's address in a browser) gets a
    short page saying what this is and where agents connect, without the token.

    It was a bare 404, which reads as a server that is down or misconfigured. The page names no
    path of this machine and nothing of the vault (the caller is not authenticated); every other
    path goes on as before (``/mcp`` needs the token).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == "/" and scope["method"] in ("GET", "HEAD"):
            await PlainTextResponse(LANDING_PAGE)(scope, receive, send)
        else:
            await self.app(scope, receive, send)


class SlashedPath:
    """ASGI middleware: ``/mcp/`` (or ``/mcp//`` …) is served as ``/mcp``.

    Starlette's router answered ``/mcp/`` with a 307 to ``http://HOST/mcp`` — before the token
    check, and in plain ``http`` behind a TLS proxy, where a client that follows it leaves TLS
    (or, its origin changed, drops the token and gets a 401 it cannot explain). A client given
    the address with a trailing slash now reaches the same endpoint, token and all.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # `/mcp//` too (a base address ending in "/" joined with "/"): the router redirected it as well (s35 review)
        if scope["type"] == "http" and scope["path"] != MCP_PATH and scope["path"].rstrip("/") == MCP_PATH:
            scope = {**scope, "path": MCP_PATH, "raw_path": MCP_PATH.encode("ascii")}
        await self.app(scope, receive, send)


# ------------------------------------------------------------------ serving


def listen(bind: Bind) -> socket.socket:
    """The listening socket, opened before anything starts: a taken port fails at once."""
    family = socket.AF_INET6 if ":" in bind.host else socket.AF_INET
    try:
        return socket.create_server((bind.host, bind.port), family=family)
    except OSError as error:
        raise VaultmemError(f"cannot listen on {bind}: {error.strerror or error}; choose another HOST:PORT") from None


def serve_http(vault: Vault, bind: Bind, token: str) -> None:
    """Serve ``vault`` at ``http://HOST:PORT/mcp`` until SIGTERM or Ctrl-C."""
    import uvicorn  # only this transport needs it

    listener = listen(bind)
    bound = Bind(bind.host, listener.getsockname()[1])  # the real port when 0 was asked for
    url = f"http://{bound}{MCP_PATH}"
    server = build_server(
        vault,
        token_verifier=StaticToken(token),
        # The SDK's bearer support is configured through OAuth settings. There is no
        # authorization server here: with no resource_server_url nothing publishes
        # issuer_url, which only has to be a URL — this server's own.
        auth=AuthSettings(issuer_url=AnyHttpUrl(f"http://{bound}"), resource_server_url=None),
        # The agent is on another machine: the server's absolute paths are of no use to it and
        # show the person's directory layout; every answer, failure and progress says them from the vault.
        middleware=[PathsFromTheVault(RemotePaths(vault.root))],
    )
    app = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        # No sessions: each request stands alone, so a restart (a crash, an upgrade) does not
        # end the clients' sessions — the SDK's client raised "Session not found" on its next
        # call until its agent was restarted too. Nothing we use needs one: a call's progress
        # goes out on that call's own event stream (not json_response, which would drop it),
        # the token is checked on every request, and no tool asks the client anything back.
        stateless_http=True,
        max_request_body_size=MAX_REQUEST_BYTES,
        host=bind.host,
        # The SDK's own DNS-rebinding check also pins the Host header, which breaks a
        # reverse proxy that forwards the public name; OriginGuard checks what matters
        # (the browser's Origin), and the token stops everyone else.
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    calls = CallsInFlight(ReadableRefusals(app, MAX_REQUEST_BYTES))
    guarded = OriginGuard(LandingPage(SlashedPath(calls)), own_origins(bound) | frozenset(vault.config.mcp.allowed_origins), vault.root / CONFIG_FILE)
    config = uvicorn.Config(guarded, log_config=None, timeout_graceful_shutdown=STREAM_GRACE_SECONDS, lifespan="on")
    log.info("vaultmem: serving %s at %s (bearer token required; Ctrl-C or SIGTERM stops)", vault.root, url)
    if bind.host not in LOOPBACK_HOSTS:
        log.warning("vaultmem: listening on %s in plain HTTP: put a TLS reverse proxy in front before "
                    "anything outside this machine connects (docs/mcp.md, MCP over HTTP)", bound)
    # Without sessions the SDK logs "Terminating session: None" after every request: two lines
    # per call that tell the person reading the log nothing, but look like something ended badly.
    logging.getLogger("mcp.server.streamable_http").setLevel(logging.WARNING)
    with stop_signals_end_normally():
        answering_server(config, calls).run(sockets=[listener])
    log.info("vaultmem: stopped serving %s", vault.root)


class CallsInFlight:
    """ASGI middleware counting the POSTs (the calls) whose answer is not sent yet."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.count = 0  # touched on the event loop only

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        self.count += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.count -= 1


def answering_server(config: uvicorn.Config, calls: CallsInFlight) -> uvicorn.Server:
    """uvicorn's server, whose stop lets the running calls answer before the event streams end.

    sse-starlette (under the SDK's streams) ended every event stream the moment SIGTERM came, so a
    call that finished its write a moment later lost its answer ("SSE stream ended without a
    response") and its agent could not tell that the write had landed. Its automatic end is
    turned off; the streams are ended here instead once no call is running, or when the grace
    is nearly over (what still runs then loses its answer, as before; it is retried with its
    request_id). Idle streams (a client's GET) end then too, cleanly, within the grace.
    """
    import uvicorn
    from sse_starlette.sse import AppStatus  # the SDK's own dependency; this is the switch it offers

    AppStatus.enable_automatic_graceful_drain = False  # what its disable_automatic_graceful_drain() sets

    class AnsweringServer(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            ending = asyncio.create_task(end_streams_once_answered(calls))
            await super().shutdown(sockets)
            await ending

    return AnsweringServer(config)


async def end_streams_once_answered(calls: CallsInFlight) -> None:
    """Set sse-starlette's stop flag once no call is running, or at the end of the grace."""
    from sse_starlette.sse import AppStatus

    deadline = time.monotonic() + STREAM_GRACE_SECONDS - SSE_POLL_SECONDS - 0.1
    while calls.count and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    AppStatus.should_exit = True


@contextmanager
def stop_signals_end_normally() -> Iterator[None]:
    """Make SIGTERM and Ctrl-C a normal end (exit 0) once uvicorn has shut down cleanly.

    uvicorn handles both while it serves, then raises the captured signal again under the
    handler that was there before; with Python's defaults that second delivery turns a
    clean stop into a KeyboardInterrupt or a death by SIGTERM.
    """
    def already_handled(_signal: int, _frame: FrameType | None) -> None:
        return None

    previous = {number: signal.signal(number, already_handled) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
