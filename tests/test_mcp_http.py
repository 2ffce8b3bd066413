"""`vaultmem mcp --http`: the SDK's streamable HTTP client against a real server process.

Each test starts `python -m vaultmem --vault VAULT mcp --http 127.0.0.1:0` (any free
port; the server logs the URL it serves), talks MCP to it with
``mcp.client.streamable_http.streamable_http_client`` + ``ClientSession`` over an
``httpx2`` client that records every HTTP status, and checks what an agent — or an
attacker — sees: 401 without the token or with another one, 403 for a foreign Origin,
no server at all without a token, the tools, and concurrent sessions that lose nothing.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import ClientSession, MCPError
from mcp.client.streamable_http import streamable_http_client

from vaultmem.mcp_http import README_SECTION

from helpers import REPO, hold_commit_lock, init_repo, vaultmem_process
from mcp_client import CALL_SECONDS, STARTUP_SECONDS, TOOLS, innermost, note, run, serve, text_of

TOKEN = "correct-horse-battery-staple-4711"
SERVING = re.compile(r"serving .* at (http://127\.0\.0\.1:\d+/mcp)")
STOP_SECONDS = 10  # SIGTERM to exit: streams get 2 s, calls 3 s, the rest is process teardown

pytestmark = pytest.mark.slow


# ------------------------------------------------------------------ harness


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    url: str
    log: Path
    stdout: Path

    @property
    def origin(self) -> str:
        return self.url.removesuffix("/mcp")


def server_env(token: str | None) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "VAULTMEM_MCP_TOKEN"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    if token is not None:
        env["VAULTMEM_MCP_TOKEN"] = token
    return env


@contextmanager
def http_server(vault: Path, tmp_path: Path, *, token: str | None = TOKEN, args: tuple[str, ...] = (), port: int = 0) -> Iterator[Server]:
    """`vaultmem mcp --http 127.0.0.1:PORT` on ``vault``; stopped (SIGTERM, then kill) at the end."""
    server = start_server(vault, tmp_path, token=token, args=args, port=port)
    try:
        yield server
    finally:
        stop_server(server)


def start_server(vault: Path, tmp_path: Path, *, token: str | None = TOKEN, args: tuple[str, ...] = (), port: int = 0,
                 name: str = "server") -> Server:
    log, stdout = tmp_path / f"{name}-stderr.log", tmp_path / f"{name}-stdout.log"
    command = [sys.executable, "-m", "vaultmem", "--vault", str(vault), "mcp", "--http", f"127.0.0.1:{port}", *args]
    with log.open("wb") as errors, stdout.open("wb") as output:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=output, stderr=errors, env=server_env(token))
    try:
        return Server(process, wait_for_url(process, log), log, stdout)
    except BaseException:
        process.kill()
        process.wait()
        raise


def stop_server(server: Server) -> None:
    process = server.process
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def wait_for_url(process: subprocess.Popen[bytes], log: Path) -> str:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        found = SERVING.search(log.read_text(encoding="utf-8", errors="replace"))
        if found:
            return found.group(1)
        if process.poll() is not None:
            break
        time.sleep(0.05)
    raise AssertionError(f"the server did not start (exit {process.poll()}):\n{log.read_text(encoding='utf-8')}")


@dataclass
class Seen:
    """Every HTTP response the client received: status and the headers a test looks at."""

    statuses: list[int] = field(default_factory=list)
    authenticate: list[str] = field(default_factory=list)

    async def record(self, response: httpx2.Response) -> None:
        self.statuses.append(response.status_code)
        if "www-authenticate" in response.headers:
            self.authenticate.append(response.headers["www-authenticate"])


@asynccontextmanager
async def session(url: str, *, token: str | None = TOKEN, origin: str | None = None, seen: Seen | None = None) -> AsyncIterator[ClientSession]:
    """An initialized MCP session over streamable HTTP, sending these credentials."""
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    if origin is not None:
        headers["Origin"] = origin
    hooks = {"response": [(seen or Seen()).record]}
    async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=300), event_hooks=hooks) as client:
        async with streamable_http_client(url, http_client=client) as (read, write):
            async with ClientSession(read, write) as opened:
                with anyio.fail_after(STARTUP_SECONDS):
                    await opened.initialize()
                yield opened


async def call(opened: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    with anyio.fail_after(CALL_SECONDS):
        result = await opened.call_tool(tool, arguments)
    assert not result.is_error, f"{tool}({arguments}) failed: {text_of(result)}"
    assert isinstance(result.structured_content, dict), result
    return result.structured_content


async def refused(url: str, **credentials: Any) -> Seen:
    """Try to open a session that the server must refuse; what came back over HTTP."""
    seen = Seen()
    try:
        async with session(url, seen=seen, **credentials):
            raise AssertionError("the server accepted the session")
    except BaseExceptionGroup as group:
        error = innermost(group)
        assert isinstance(error, MCPError), repr(error)
    except MCPError:
        pass
    return seen


# ------------------------------------------------------------------ no token, no server


def test_without_a_token_the_server_does_not_start(vault_dir: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "vaultmem", "--vault", str(vault_dir), "mcp", "--http", "127.0.0.1:0"],
                            capture_output=True, text=True, timeout=60, env=server_env(None))
    assert result.returncode == 2, result.stderr
    assert "VAULTMEM_MCP_TOKEN" in result.stderr and "--token-file" in result.stderr
    assert result.stdout == "" and not (vault_dir / ".vaultmem").exists()  # refused before anything was opened


@pytest.mark.parametrize(("mode", "words"), [(0o644, "chmod 600"), (0o640, "chmod 600"), (0o604, "chmod 600")])
def test_a_token_file_others_can_read_is_refused(vault_dir: Path, tmp_path: Path, mode: int, words: str) -> None:
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN + "\n", encoding="utf-8")
    token_file.chmod(mode)
    result = vaultmem_process(vault_dir, "mcp", "--http", "127.0.0.1:0", "--token-file", str(token_file))
    assert result.returncode == 2, result.stderr
    assert str(token_file) in result.stderr and words in result.stderr


@pytest.mark.parametrize(
    ("token", "words"), [("", "at least 16 characters"), ("short", "at least 16 characters"), ("has a space in it, twenty+", "without spaces")]
)
def test_a_weak_token_is_refused(vault_dir: Path, token: str, words: str) -> None:
    result = subprocess.run([sys.executable, "-m", "vaultmem", "--vault", str(vault_dir), "mcp", "--http", "127.0.0.1:0"],
                            capture_output=True, text=True, timeout=60, env=server_env(token))
    assert result.returncode == 2 and words in result.stderr, result.stderr


@pytest.mark.parametrize("bind", ["8765", "127.0.0.1", "127.0.0.1:http", ":8765", "127.0.0.1:70000"])
def test_a_bad_host_port_is_a_usage_error(vault_dir: Path, bind: str) -> None:
    result = subprocess.run([sys.executable, "-m", "vaultmem", "--vault", str(vault_dir), "mcp", "--http", bind],
                            capture_output=True, text=True, timeout=60, env=server_env(TOKEN))
    assert result.returncode == 2 and "HOST:PORT" in result.stderr, result.stderr


@pytest.mark.parametrize("bind", ["http://127.0.0.1:8765", "http://127.0.0.1:8765/mcp", "127.0.0.1:8765/mcp"])
def test_the_url_served_given_as_the_http_bind_is_a_usage_error_saying_host_port(vault_dir: Path, bind: str) -> None:
    """The README and the log show http://HOST:PORT/mcp, so that is what gets pasted: its host was
    taken as "http://127.0.0.1" and the server failed (exit 1) on an unknown host name."""
    result = subprocess.run([sys.executable, "-m", "vaultmem", "--vault", str(vault_dir), "mcp", "--http", bind],
                            capture_output=True, text=True, timeout=60, env=server_env(TOKEN))
    assert result.returncode == 2, result.stderr
    assert "is a URL; --http takes HOST:PORT only, e.g. 127.0.0.1:8765" in result.stderr, result.stderr


@pytest.mark.parametrize("token", ["pässwörd-correct-horse-4711", "correct-horse-battery\u200bstaple"])
def test_a_token_an_http_header_cannot_carry_is_refused_at_start(vault_dir: Path, token: str) -> None:
    """A client cannot send a non-ASCII token (the SDK's client raises, curl's UTF-8 is read back as
    Latin-1), so the server ran and answered 401 to everyone, with nothing saying why."""
    result = subprocess.run([sys.executable, "-m", "vaultmem", "--vault", str(vault_dir), "mcp", "--http", "127.0.0.1:0"],
                            capture_output=True, text=True, timeout=60, env=server_env(token))
    assert result.returncode == 2, result.stderr
    assert "which an HTTP header cannot carry" in result.stderr and "VAULTMEM_MCP_TOKEN" in result.stderr, result.stderr


def test_a_token_file_saved_with_a_byte_order_mark_holds_the_token_without_it(vault_dir: Path, tmp_path: Path) -> None:
    """Notepad and PowerShell's Set-Content start a UTF-8 file with a byte order mark; it was kept
    as the token's first character, so the server ran and every client got 401."""
    token_file = tmp_path / "token"
    token_file.write_bytes(b"\xef\xbb\xbf" + TOKEN.encode("ascii") + b"\r\n")
    token_file.chmod(0o600)

    async def scenario(url: str) -> None:
        async with session(url) as opened:
            assert (await call(opened, "recall", query="anything"))["hits"] == []

    with http_server(vault_dir, tmp_path, token=None, args=("--token-file", str(token_file))) as server:
        run(scenario, server.url)


def test_a_token_file_without_http_is_a_usage_error(vault_dir: Path, tmp_path: Path) -> None:
    result = vaultmem_process(vault_dir, "mcp", "--token-file", str(tmp_path / "token"))
    assert result.returncode == 2 and "--http" in result.stderr


# ------------------------------------------------------------------ 401 and 403


def test_requests_without_the_right_token_get_401(vault_dir: Path, tmp_path: Path) -> None:
    async def scenario(url: str) -> None:
        for credentials in ({"token": None}, {"token": "wrong-horse-battery-staple-4711"}, {"token": TOKEN[:-1]}):
            seen = await refused(url, **credentials)
            assert seen.statuses == [401], (credentials, seen)
            assert seen.authenticate and seen.authenticate[0].startswith("Bearer ")
        async with session(url) as opened:  # the right token still works
            assert {tool.name for tool in (await opened.list_tools()).tools} == TOOLS

    with http_server(vault_dir, tmp_path) as server:
        run(scenario, server.url)
    assert not list(vault_dir.glob("memories/*"))


async def refusal_message(url: str, authorization: str) -> str:
    """The message the SDK's client raises when the server refuses this Authorization header."""
    async with httpx2.AsyncClient(headers={"Authorization": authorization}, timeout=httpx2.Timeout(30)) as client:
        try:
            async with streamable_http_client(url, http_client=client) as (read, write):
                async with ClientSession(read, write) as opened:
                    with anyio.fail_after(STARTUP_SECONDS):
                        await opened.initialize()
            raise AssertionError("the server accepted the session")
        except BaseExceptionGroup as group:
            error = innermost(group)
        except MCPError as raised:
            error = raised
    assert isinstance(error, MCPError), repr(error)
    return str(error)


def test_a_token_sent_with_bearer_twice_in_quotes_or_without_the_scheme_is_told_so_not_only_wrong(
        vault_dir: Path, tmp_path: Path) -> None:
    """A trial (two agents sharing a vault over a week): a client's "bearer token" field given
    "Bearer <token>" sends ``Bearer Bearer <token>``; the agent was told only "the token sent is not
    this server's", while the token was right. The token itself is never echoed."""
    async def scenario(url: str) -> None:
        for authorization, words in ((f"Bearer Bearer {TOKEN}", "says Bearer twice"),
                                     (f'Bearer "{TOKEN}"', "in quotes"),
                                     (TOKEN, "does not start with 'Bearer '"),
                                     (f"Token {TOKEN}", "does not start with 'Bearer '"),
                                     ("Bearer", "no token after it"),  # "Bearer " as the server reads it
                                     ("Bearer wrong-horse-battery-staple-4711", "the token sent is not this server's")):
            message = await refusal_message(url, authorization)
            assert message.startswith("401 Unauthorized: ") and words in message, (authorization, message)
            assert TOKEN not in message

    with http_server(vault_dir, tmp_path) as server:
        run(scenario, server.url)


def test_a_token_sent_after_more_than_one_space_is_accepted(vault_dir: Path, tmp_path: Path) -> None:
    """RFC 6750: ``credentials = "Bearer" 1*SP b64token``. The SDK cuts "Bearer " (seven characters)
    and the rest held the extra spaces: the right token was refused with 401, "the token sent is
    not this server's"."""
    async def scenario(url: str) -> None:
        async with session(url, token=f"  {TOKEN}") as opened:
            assert {tool.name for tool in (await opened.list_tools()).tools} == TOOLS

    with http_server(vault_dir, tmp_path) as server:
        run(scenario, server.url)


def test_the_address_with_a_trailing_slash_is_served_as_mcp_not_redirected_before_the_token_check(
        vault_dir: Path, tmp_path: Path) -> None:
    """Starlette answered ``/mcp/`` with a 307 to ``http://…/mcp`` before the token was checked: behind
    a TLS proxy a client that follows it leaves TLS (or, its origin changed, drops the token)."""
    async def scenario(url: str) -> None:
        async with httpx2.AsyncClient(timeout=httpx2.Timeout(30), follow_redirects=False) as client:
            bare = await client.post(url + "/", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        assert bare.status_code == 401 and "location" not in bare.headers, (bare.status_code, bare.headers)
        assert "no token was sent" in bare.json()["error"]["message"]
        seen = Seen()
        async with session(url + "/", seen=seen) as opened:  # the SDK's client, given the address so
            assert {tool.name for tool in (await opened.list_tools()).tools} == TOOLS
        assert 307 not in seen.statuses and set(seen.statuses) <= {200, 202}, seen.statuses

    with http_server(vault_dir, tmp_path) as server:
        run(scenario, server.url)


def test_the_address_with_two_trailing_slashes_is_served_as_mcp_not_redirected_before_the_token_check(
        vault_dir: Path, tmp_path: Path) -> None:
    """s35 review: ``/mcp//`` (a base address ending in ``/`` joined with ``/``) was still answered
    with a 307 to ``http://…/mcp`` before the token check, as ``/mcp/`` had been."""
    async def scenario(url: str) -> None:
        async with httpx2.AsyncClient(timeout=httpx2.Timeout(30), follow_redirects=False) as client:
            for slashes in ("//", "///"):
                bare = await client.post(url + slashes, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
                assert bare.status_code == 401 and "location" not in bare.headers, (slashes, bare.status_code, bare.headers)
        seen = Seen()
        async with session(url + "//", seen=seen) as opened:
            assert {tool.name for tool in (await opened.list_tools()).tools} == TOOLS
        assert 307 not in seen.statuses and set(seen.statuses) <= {200, 202}, seen.statuses

    with http_server(vault_dir, tmp_path) as server:
        run(scenario, server.url)


def test_an_agent_refused_for_its_token_or_its_request_size_is_told_which_and_what_to_do(vault_dir: Path, tmp_path: Path) -> None:
    """The SDK's client showed a 401 and a 413 alike as "Server returned an error response": an agent
    with a mistyped token, or a memory over the 4 MiB a request may carry, could not tell either
    from a server fault, nor what to change."""
    async def told(url: str, token: str | None) -> str:
        try:
            async with session(url, token=token):
                raise AssertionError("the server accepted the session")
        except BaseExceptionGroup as group:
            error = innermost(group)
        except MCPError as raised:
            error = raised
        assert isinstance(error, MCPError), repr(error)
        return str(error)

    async def scenario(url: str) -> None:
        assert "401 Unauthorized: no token was sent" in await told(url, None)
        wrong = await told(url, "wrong-horse-battery-staple-4711")
        assert "401 Unauthorized: the token sent is not this server's" in wrong and "Authorization: Bearer" in wrong
        async with session(url) as opened:
            with pytest.raises(MCPError, match=r"413 .* at most 4 MiB per request; send a long text in parts"):
                with anyio.fail_after(CALL_SECONDS):
                    await opened.call_tool("remember", {"text": "x" * (5 * 1024 * 1024), "layer": "L1"})
            assert (await call(opened, "recall", query="anything"))["hits"] == []  # the session goes on

    with http_server(vault_dir, tmp_path) as server:
        run(scenario, server.url)
    assert not list(vault_dir.glob("memories/*"))


def test_a_foreign_origin_gets_403_even_with_the_token(vault_dir: Path, tmp_path: Path) -> None:
    (vault_dir / ".vaultmem.toml").write_text('[mcp]\nallowed_origins = ["https://memory.example.com"]\n', encoding="utf-8")

    async def scenario(server: Server) -> None:
        port = server.origin.rsplit(":", 1)[1]
        for origin in ("https://evil.example", "http://127.0.0.1:1", "null", f"http://127.0.0.1.evil.example:{port}",
                       "https://memory.example.com.evil.example"):
            seen = await refused(server.url, origin=origin)
            assert seen.statuses == [403], (origin, seen)
        # The server's own origin and the configured one are let through to the token check.
        for origin in (server.origin, f"http://localhost:{port}", "https://memory.example.com", "HTTPS://Memory.Example.com:443"):
            async with session(server.url, origin=origin) as opened:
                assert (await call(opened, "recall", query="anything"))["hits"] == []
        assert (await refused(server.url, origin="https://memory.example.com", token=None)).statuses == [401]

    with http_server(vault_dir, tmp_path) as server:
        run(scenario, server)
    assert "refused a request from origin 'https://evil.example' (403)" in server.log.read_text(encoding="utf-8")


def test_the_refusals_tell_an_unauthenticated_caller_nothing_about_where_the_vault_is(vault_dir: Path, tmp_path: Path) -> None:
    """403 and 401 bodies go to whoever knocks: they name the setting, never a path of this
    machine (the server's own log may)."""
    with http_server(vault_dir, tmp_path) as server:
        with httpx2.Client(timeout=30) as client:
            foreign = client.post(server.url, headers={"Origin": "http://evil.example"}, json={})
            no_token = client.post(server.url, json={})
            wrong_token = client.post(server.url, headers={"Authorization": "Bearer wrong-horse-battery-staple-4711"}, json={})
    assert foreign.status_code == 403, foreign.text
    assert "allowed_origins under [mcp] in the vault's .vaultmem.toml" in foreign.text
    assert (no_token.status_code, wrong_token.status_code) == (401, 401)
    for response in (foreign, no_token, wrong_token):
        body = response.text + " ".join(response.headers.values())
        assert str(vault_dir) not in body and str(tmp_path) not in body, body
        assert os.sep + "vault" not in body and "/tmp" not in body, body
    logged = server.log.read_text(encoding="utf-8")
    assert "refused a request from origin 'http://evil.example' (403)" in logged
    assert str(vault_dir / ".vaultmem.toml") in logged  # the operator learns where to add it


def test_a_person_opening_the_servers_address_in_a_browser_is_told_what_it_is_without_a_token(vault_dir: Path, tmp_path: Path) -> None:
    """GET / answered a bare 404: a person who opened the URL took the server for broken. It now
    says what it is and where agents connect; only that page goes without the token."""
    with http_server(vault_dir, tmp_path) as server:
        with httpx2.Client(timeout=30) as client:
            page = client.get(server.origin + "/")
            other = client.get(server.origin + "/index.html")
            endpoint = client.post(server.url, json={})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/plain"), page
    assert "vaultmem MCP server" in page.text and "/mcp" in page.text, page.text
    assert "Authorization: Bearer <token>" in page.text and 'section "MCP over HTTP' in page.text, page.text
    assert str(vault_dir) not in page.text and str(tmp_path) not in page.text and "/tmp" not in page.text, page.text
    assert other.status_code == 404 and "vaultmem MCP server" not in other.text
    assert endpoint.status_code == 401  # the endpoint itself still needs the token
    assert f"## {README_SECTION}\n" in (REPO / "docs" / "mcp.md").read_text(encoding="utf-8")  # the section it points at


def test_a_null_origin_is_not_told_to_add_itself_to_allowed_origins(vault_dir: Path, tmp_path: Path) -> None:
    """A sandboxed frame or a file:// page sends Origin: null. The 403 said "If it is yours, add it
    to allowed_origins" — and the config refuses null, so following it broke every command."""
    with http_server(vault_dir, tmp_path) as server:
        with httpx2.Client(timeout=30) as client:
            responses = {origin: client.post(server.url, headers={"Origin": origin, "Authorization": f"Bearer {TOKEN}"}, json={})
                         for origin in ("null", "not an origin", "https://evil.example")}
    assert {response.status_code for response in responses.values()} == {403}
    for origin in ("null", "not an origin"):
        assert "If it is yours" not in responses[origin].text, responses[origin].text
        assert "only scheme://host[:port] origins can be allowed" in responses[origin].text
    assert "If it is yours, add it to allowed_origins" in responses["https://evil.example"].text


def test_a_foreign_origin_is_told_why_in_a_json_rpc_error_the_sdk_client_shows(vault_dir: Path, tmp_path: Path) -> None:
    """The 403 came as plain text, which the SDK's client shows as "Server returned an error
    response" only: a web client whose origin was not listed could not tell what to change."""
    told: list[str] = []

    async def scenario(url: str) -> None:
        try:
            async with session(url, origin="https://chat.example.com"):
                raise AssertionError("the server accepted the session")
        except BaseExceptionGroup as group:
            error = innermost(group)
        except MCPError as raised:
            error = raised
        assert isinstance(error, MCPError), repr(error)
        told.append(str(error))

    with http_server(vault_dir, tmp_path) as server:
        run(scenario, server.url)
        with httpx2.Client(timeout=30) as client:
            raw = client.post(server.url, headers={"Origin": "https://chat.example.com"}, json={})
    assert "403 Forbidden: Origin 'https://chat.example.com' may not use this server" in told[0], told
    assert "add it to allowed_origins under [mcp] in the vault's .vaultmem.toml" in told[0], told
    assert raw.status_code == 403 and raw.headers["content-type"] == "application/json"
    assert raw.json()["error"]["message"].startswith("403 Forbidden: ") and raw.json()["id"] is None


def test_a_web_page_on_an_allowed_origin_passes_the_cors_preflight_and_can_read_every_answer(
        vault_dir: Path, tmp_path: Path) -> None:
    """README: "A web client that runs in the browser needs its origin listed". Listed, it still
    could not call: the browser's preflight (OPTIONS, never with the token) got 401, and no answer
    carried Access-Control-Allow-Origin, so the browser hid every one from the page."""
    (vault_dir / ".vaultmem.toml").write_text('[mcp]\nallowed_origins = ["https://chat.example.com"]\n', encoding="utf-8")
    page = "https://chat.example.com"
    asks = {"Origin": page, "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization,content-type,mcp-protocol-version"}
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                  "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "page", "version": "1"}}}
    posted = {"Origin": page, "Accept": "application/json, text/event-stream"}
    with http_server(vault_dir, tmp_path) as server, httpx2.Client(timeout=30) as client:
        preflight = client.options(server.url, headers=asks)
        answered = client.post(server.url, headers={**posted, "Authorization": f"Bearer {TOKEN}"}, json=initialize)
        no_token = client.post(server.url, headers=posted, json=initialize)
        foreign = client.options(server.url, headers={**asks, "Origin": "https://evil.example"})
        agent = client.post(server.url, headers={"Authorization": f"Bearer {TOKEN}", "Accept": posted["Accept"]}, json=initialize)
    assert preflight.status_code == 204, preflight.text
    assert preflight.headers["access-control-allow-origin"] == page
    allowed = {name.strip() for name in preflight.headers["access-control-allow-headers"].split(",")}
    assert {"authorization", "content-type", "mcp-protocol-version"} <= allowed
    assert "POST" in preflight.headers["access-control-allow-methods"]
    assert answered.status_code == 200 and "serverInfo" in answered.text, answered.text
    assert no_token.status_code == 401  # the page learns it needs the token, rather than a network error
    for response in (answered, no_token):
        assert response.headers["access-control-allow-origin"] == page
        assert "Origin" in response.headers["vary"]
    assert "www-authenticate" in no_token.headers["access-control-expose-headers"]
    assert foreign.status_code == 403 and "access-control-allow-origin" not in foreign.headers
    assert agent.status_code == 200 and "access-control-allow-origin" not in agent.headers  # no Origin, no CORS


# ------------------------------------------------------------------ the tools over HTTP


def test_list_remember_recall_over_http_with_a_token_file(vault_dir: Path, tmp_path: Path, write_note: Any) -> None:
    write_note("people/rui.md", note("Rui", "Rui is Maya's partner; he keeps the spare keys.", layer="L3"))
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN + "\n", encoding="utf-8")
    token_file.chmod(0o600)

    async def scenario(url: str) -> None:
        async with session(url) as opened:
            tools = {tool.name: tool for tool in (await opened.list_tools()).tools}
            assert set(tools) == TOOLS and "L4 procedural" in (tools["remember"].description or "")
            saved = await call(opened, "remember", text="Maya's passport expires in March 2031.", layer="L3", tags=["documents"])
            assert saved["layer"] == "L3" and (vault_dir / saved["path"]).is_file()
            hits = (await call(opened, "recall", query="when does the passport expire"))["hits"]
            assert hits[0]["id"] == saved["id"] and hits[0]["tags"] == ["documents"]
            hits = (await call(opened, "recall", query="who keeps the spare keys"))["hits"]
            assert hits[0]["path"] == "people/rui.md"
            result = await opened.call_tool("recall", {"query": "keys", "layer": "L3"})
            assert result.is_error and "unknown argument 'layer' (did you mean 'layers'?)" in text_of(result)

    with http_server(vault_dir, tmp_path, token=None, args=("--token-file", str(token_file))) as server:
        run(scenario, server.url)
    assert server.stdout.read_text(encoding="utf-8") == ""  # logs go to stderr
    assert "reconciled" in server.log.read_text(encoding="utf-8")


def test_the_log_says_one_line_per_request_without_the_sdks_session_noise(vault_dir: Path, tmp_path: Path) -> None:
    """Without sessions the SDK logged "Terminating session: None" after every request: noise
    that reads as if something ended badly, two lines per call."""
    async def scenario(url: str) -> None:
        async with session(url) as opened:
            await call(opened, "recall", query="anything")

    with http_server(vault_dir, tmp_path) as server:
        run(scenario, server.url)
    logged = server.log.read_text(encoding="utf-8")
    assert '"POST /mcp HTTP/1.1" 200' in logged and "Terminating session" not in logged, logged


def test_hand_edits_are_followed_over_http_as_in_stdio_mode(vault_dir: Path, tmp_path: Path, write_note: Any) -> None:
    """The HTTP twin of test_mcp.py's test_a_note_edited_by_hand_is_recalled_with_its_new_text:
    an edit, a new note and a deletion made by hand while the server runs are in the very
    next recall (adr/0021: every answer is true to the files; no polling)."""
    coffee = write_note("preferences/coffee.md", note("Coffee order", "Maya orders a flat white with oat milk.", layer="L4"))
    stale = write_note("scratch/parking.md", note("Parking", "The car is parked on level 3 of the Saldanha garage.", layer="L1",
                                                  expires_at="2999-01-01"))

    async def scenario(url: str) -> None:
        async with session(url) as opened:
            hits = (await call(opened, "recall", query="coffee order"))["hits"]
            assert hits[0]["path"] == "preferences/coffee.md" and "flat white" in hits[0]["snippet"]
            assert "scratch/parking.md" in [hit["path"] for hit in (await call(opened, "recall", query="where is the car parked"))["hits"]]

            coffee.write_text(note("Coffee order", "Maya switched to a cortado with almond milk.", layer="L4"), encoding="utf-8")
            hits = (await call(opened, "recall", query="cortado almond"))["hits"]
            assert hits[0]["path"] == "preferences/coffee.md" and "cortado with almond milk" in hits[0]["snippet"]
            assert "flat white" not in hits[0]["snippet"]

            write_note("people/rui.md", note("Rui", "Rui is Maya's partner; he keeps the spare keys.", layer="L3"))
            hits = (await call(opened, "recall", query="who keeps the spare keys"))["hits"]
            assert hits[0]["path"] == "people/rui.md"

            stale.unlink()
            hits = (await call(opened, "recall", query="where is the car parked", k=10))["hits"]
            assert "scratch/parking.md" not in [hit["path"] for hit in hits]
        async with session(url) as other:  # another agent's session sees the same vault
            hits = (await call(other, "recall", query="cortado almond"))["hits"]
            assert hits[0]["path"] == "preferences/coffee.md" and "cortado" in hits[0]["snippet"]

    with http_server(vault_dir, tmp_path) as server:
        run(scenario, server.url)
    assert "Traceback" not in server.log.read_text(encoding="utf-8")


def test_eight_sessions_remembering_at_once_lose_nothing(vault_dir: Path, tmp_path: Path) -> None:
    clients, notes_each = 8, 5

    async def client(url: str, number: int, saved: list[dict[str, Any]]) -> None:
        async with session(url) as opened:
            for index in range(notes_each):
                code = f"parcel{number}x{index}"
                saved.append(await call(opened, "remember", text=f"Pick up {code} at the post office on Rua Augusta.", layer="L2"))
                hits = (await call(opened, "recall", query=code, k=3))["hits"]  # searchable at once
                assert code in hits[0]["snippet"], (code, hits)

    async def scenario(url: str) -> None:
        saved: list[dict[str, Any]] = []
        async with anyio.create_task_group() as group:
            for number in range(clients):
                group.start_soon(client, url, number, saved)
        assert len(saved) == clients * notes_each
        async with session(url) as opened:  # another session sees every note
            hits = (await call(opened, "recall", query="post office parcel", k=100))["hits"]
        assert {hit["id"] for hit in hits} == {entry["id"] for entry in saved}

    with http_server(vault_dir, tmp_path) as server:
        run(scenario, server.url)
    files = sorted(vault_dir.glob("memories/*.md"))
    ids = [re.search(r"^id: (\S+)$", path.read_text(encoding="utf-8"), re.MULTILINE).group(1) for path in files]  # type: ignore[union-attr]
    assert len(files) == clients * notes_each and len(set(ids)) == len(ids)  # no lost note, no duplicate id



def test_two_agents_remembering_the_same_text_at_the_same_instant_without_a_request_id_store_it_once(
        vault_dir: Path, tmp_path: Path) -> None:
    """A trial: two agents on other machines sent one remember, argument for argument, at the same
    instant and without a request_id; both were written (3 pairs of 3), though an identical call
    answered a moment earlier is replayed. Identical calls now take turns in the server."""
    rounds = 4

    async def agent(url: str, ready: anyio.Event, go: anyio.Event, text: str, answers: list[dict[str, Any]]) -> None:
        async with session(url) as opened:
            ready.set()
            await go.wait()
            answers.append(await call(opened, "remember", text=text, layer="L2"))

    async def scenario(url: str) -> None:
        for number in range(rounds):
            answers: list[dict[str, Any]] = []
            readies, go = [anyio.Event(), anyio.Event()], anyio.Event()
            text = f"Parcel {number} arrives at the Rua Augusta post office on Thursday."
            async with anyio.create_task_group() as group:
                for ready in readies:
                    group.start_soon(agent, url, ready, go, text, answers)
                for ready in readies:
                    await ready.wait()
                go.set()
            assert answers[0]["id"] == answers[1]["id"], answers
            assert sorted("replayed" in answer for answer in answers) == [False, True]

    with http_server(vault_dir, tmp_path) as server:
        run(scenario, server.url)
    assert len(list(vault_dir.glob("memories/*.md"))) == rounds
    assert "Traceback" not in server.log.read_text(encoding="utf-8")

def test_a_note_too_large_for_one_answer_is_read_in_parts_that_add_up_to_its_body(vault_dir: Path, tmp_path: Path, write_note: Any) -> None:
    """A 700 KB export (or a memory that large): one get of it was an answer over the SDK
    client's 1 MiB event limit (the body goes out twice, structured and as text), so the agent
    got "SSE stream failed" and could not read the note at all. Now each get brings a part,
    cut at a line end, and next_offset says where the next one starts."""
    lines = [f"line {number}: Kyoto ryokan booking Ωμέγα 京都 {'x' * 40}" for number in range(10_000)]
    write_note("Clippings/Export.md", note("Export", "\n".join(lines) + "\nThe last line: zebra-quartz-77."))
    body = "\n".join(lines) + "\nThe last line: zebra-quartz-77.\n"  # as the file holds it

    async def scenario(url: str) -> None:
        async with session(url) as opened:
            parts, offset, versions = [], 0, set()
            while offset is not None:
                part = await call(opened, "get", note="Clippings/Export.md", **({"offset": offset} if offset else {}))
                assert part["body_chars"] == len(body) and len(part["body"]) <= 100_000
                assert part["next_offset"] is None or (part["body"].endswith("\n") and "offset=" in part["notice"])
                parts.append(part["body"])
                versions.add(part["version"])
                offset = part["next_offset"]
            assert "".join(parts) == body and len(parts) >= 6 and len(versions) == 1
            small = await call(opened, "get", note="Clippings/Export.md", offset=len(body) - 10)
            assert small["body"] == body[-10:] and small["next_offset"] is None and "notice" not in small
            past = await opened.call_tool("get", {"note": "Clippings/Export.md", "offset": len(body) + 1})
            assert past.is_error and f"past the end of Clippings/Export.md's body ({len(body)} characters)" in text_of(past)

    with http_server(vault_dir, tmp_path) as server:
        run(scenario, server.url)


def test_check_and_expire_on_a_big_vault_answer_in_parts_that_add_up_to_the_whole(vault_dir: Path, tmp_path: Path) -> None:
    """3,000 memories with an unknown layer and a past deadline: check's 3,000 problems were one
    answer of over 1 MiB, which the SDK's client refuses ("SSE stream failed"), so the agent
    learned nothing about any of them; expire's list likewise. Each now comes in parts, as get's
    body does: offset / next_offset, <list>_total and a notice."""
    folder = vault_dir / "memories"
    folder.mkdir()
    for number in range(3000):
        (folder / f"n{number:05d}.md").write_text(
            f"---\ntitle: Parcel {number}\nlayer: L9\nexpires_at: 2020-01-01\n---\nParcel {number} waits at the post office.\n",
            encoding="utf-8")

    async def read_all(opened: ClientSession, tool: str, key: str) -> list[Any]:
        items: list[Any] = []
        offset: int | None = 0
        parts, totals = 0, set()
        while offset is not None:
            part = await call(opened, tool, **({"offset": offset} if offset else {}))
            assert part[f"{key}_total"] >= 3000 and part[key], part.get("notice")
            totals.add(part[f"{key}_total"])
            assert part["next_offset"] is None or f"offset={part['next_offset']}" in part["notice"]
            items.extend(part[key])
            offset, parts = part["next_offset"], parts + 1
        assert parts >= 2 and totals == {len(items)}
        return items

    async def scenario(url: str) -> None:
        async with session(url) as opened:
            problems = await read_all(opened, "check", "problems")
            assert sorted(problem["path"] for problem in problems if problem["field"] == "layer") == [
                f"memories/n{number:05d}.md" for number in range(3000)]
            expired = await read_all(opened, "expire", "expired")
            assert len({entry["path"] for entry in expired}) == 3000
            past = await opened.call_tool("check", {"offset": 5000})
            assert past.is_error and "offset 5000 is past the end of check's problems" in text_of(past)

    with http_server(vault_dir, tmp_path) as server:
        run(scenario, server.url)
    assert len(list(folder.glob("*.md"))) == 3000  # the dry runs moved nothing


# ------------------------------------------------------------------ a restart, a retry


def free_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as probe:
        return int(probe.getsockname()[1])


def test_a_session_keeps_working_across_a_server_restart_and_a_retried_remember_is_not_written_twice(
        vault_dir: Path, tmp_path: Path) -> None:
    """A trial: after the server restarted, the SDK client's next call raised (its session id was
    unknown: 404 "Session not found") until the agent was restarted too; and a remember the agent
    sent again after its call timed out was written twice. The server now keeps no session (each
    request stands alone) and remembers the request ids of writes in the index."""
    port = free_port()
    servers = [start_server(vault_dir, tmp_path, port=port)]
    arguments = {"text": "The locksmith comes on Tuesday at 10:00.", "layer": "L2", "request_id": "9f2d-locksmith"}

    async def scenario() -> None:
        async with session(servers[0].url) as opened:
            first = await call(opened, "remember", **arguments)
            servers[0].process.kill()  # not a clean stop: a crash, or a deploy that does not wait
            servers[0].process.wait()
            servers.append(await anyio.to_thread.run_sync(lambda: start_server(vault_dir, tmp_path, port=port, name="again")))
            assert servers[1].url == servers[0].url
            hits = (await call(opened, "recall", query="when does the locksmith come"))["hits"]  # the same session
            assert hits[0]["id"] == first["id"]
            again = await call(opened, "remember", **arguments)  # the retry of a call whose answer was lost
            assert again["id"] == first["id"] and again["replayed"]["request_id"] == "9f2d-locksmith"

    try:
        run(scenario)
    finally:
        for server in servers:
            stop_server(server)
    assert len(list(vault_dir.glob("memories/*.md"))) == 1
    assert "Traceback" not in servers[-1].log.read_text(encoding="utf-8")


@pytest.mark.skipif(sys.platform == "win32", reason="the holder flocks the file")
def test_a_write_waiting_for_the_commit_lock_tells_an_http_client_as_progress(vault_dir: Path, tmp_path: Path, write_note: Any) -> None:
    """Without sessions the server still answers a call on its own event stream, so the progress
    notifications of a write kept waiting (test_mcp.py's stdio twin) reach an HTTP client too."""
    write_note(".vaultmem.toml", "auto_commit = true\n")
    write_note("coffee.md", note("Coffee", "Flat white with oat milk.", layer="L4"))
    init_repo(vault_dir)
    heard: list[tuple[float, str | None]] = []

    async def progress(value: float, _total: float | None, message: str | None) -> None:
        heard.append((value, message))

    async def scenario(url: str) -> None:
        async with session(url) as opened:
            await call(opened, "recall", query="coffee")
            holder = hold_commit_lock(vault_dir, 4)
            try:
                with anyio.fail_after(CALL_SECONDS):
                    result = await opened.call_tool("remember", {"text": "The plumber comes on Friday.", "layer": "L2"},
                                                    progress_callback=progress)
            finally:
                holder.wait(30)
            assert not result.is_error and result.structured_content and result.structured_content["commit"], result
            assert heard and f"pid {holder.pid}" in (heard[0][1] or ""), heard
            # The lock's path said from the vault: the remote agent is not told the server's folders.
            assert " holds .vaultmem/git.lock;" in (heard[0][1] or ""), heard
            assert all(str(vault_dir) not in (message or "") for _value, message in heard), heard

    with http_server(vault_dir, tmp_path) as server:
        run(scenario, server.url)


def test_a_remote_agents_errors_name_the_vault_and_paths_in_it_never_the_servers_folders(
        vault_dir: Path, tmp_path: Path, write_note: Any) -> None:
    """Over HTTP "outside the vault '/home/ana/Notes'", the hard-delete refusal's config path and
    "file system error in /home/ana/Notes" told a remote agent the person's directory layout and
    nothing it could use. They now say "the vault" and vault-relative paths, and still the fix."""
    write_note("coffee.md", note("Coffee", "Flat white with oat milk.", layer="L4"))
    write_note("errand.md", note("Errand", "Pick up the parcel.", layer="L2"))
    write_note("setup.md", note("Setup", f"The vault is served from {vault_dir}/ by vaultmem.", layer="L4"))
    failures: dict[str, str] = {}
    bodies: list[str] = []

    async def failed(opened: ClientSession, tool: str, **arguments: Any) -> str:
        with anyio.fail_after(CALL_SECONDS):
            result = await opened.call_tool(tool, arguments)
        assert result.is_error, (tool, arguments, result)
        return text_of(result)

    async def scenario(url: str) -> None:
        async with session(url) as opened:
            failures["traversal"] = await failed(opened, "get", note="../../etc/passwd")
            failures["folder"] = await failed(opened, "remember", text="x", layer="L1", folder="../elsewhere")
            failures["hard delete"] = await failed(opened, "forget", note="coffee.md", hard=True)
            (vault_dir / "_archive").write_text("not a folder", encoding="utf-8")  # the archive cannot be made
            failures["file system"] = await failed(opened, "forget", note="errand.md")
            bodies.append((await call(opened, "get", note="setup.md"))["body"])  # the person's text, as written

    with http_server(vault_dir, tmp_path) as server:
        run(scenario, server.url)
    for what, told in failures.items():
        for above in (vault_dir, *vault_dir.parents[:-1]):
            assert f"{above}/" not in told and f"{above}'" not in told and f"{above}:" not in told, (what, told)
    assert "outside the vault; if it is a link's target" in failures["traversal"], failures
    assert "Send the note's path from the vault root" in failures["traversal"], failures
    assert "is outside the vault: give a folder from the vault root" in failures["folder"], failures
    assert "set allow_hard_delete = true under [mcp] in .vaultmem.toml;" in failures["hard delete"], failures
    assert failures["file system"].startswith("Error executing tool forget: file system error in the vault: "), failures
    assert "move or rename _archive" in failures["file system"], failures
    assert (vault_dir / "errand.md").exists() and (vault_dir / "coffee.md").exists()
    assert bodies == [f"The vault is served from {vault_dir}/ by vaultmem.\n"], bodies


def test_a_remote_agent_cannot_find_where_the_vault_is_by_trying_absolute_paths(
        vault_dir: Path, tmp_path: Path, write_note: Any) -> None:
    """A trial (two agents sharing a vault for a week): over HTTP, get of an absolute path into
    the vault answered "is absolute: give its path from the vault root instead, 'coffee.md'", one
    outside it "outside the vault", and one beside it came back rewritten as '../token': each try
    told the agent whether, and how far above, the vault's folder lay. Now every absolute path is
    refused alike, and said as the agent sent it."""
    write_note("coffee.md", note("Coffee", "Flat white with oat milk.", layer="L4"))
    told: dict[str, str] = {}
    tries = {"into the vault": {"note": str(vault_dir / "coffee.md")},
             "a missing note in it": {"note": str(vault_dir / "nothing.md")},
             "beside the vault": {"note": str(vault_dir.parent / "token")},
             "elsewhere": {"note": "/etc/passwd"},
             "windows": {"note": "C:\\Users\\ana\\Notes\\coffee.md"}}

    async def scenario(url: str) -> None:
        async with session(url) as opened:
            for what, arguments in tries.items():
                with anyio.fail_after(CALL_SECONDS):
                    result = await opened.call_tool("get", arguments)
                assert result.is_error, (what, result)
                told[what] = text_of(result)
            with anyio.fail_after(CALL_SECONDS):
                folder = await opened.call_tool("remember", {"text": "x", "layer": "L1", "folder": str(vault_dir / "memories")})
                listed = await opened.call_tool("mark_used", {"notes": ["coffee.md", str(vault_dir / "coffee.md")]})
            assert folder.is_error and listed.is_error, (folder, listed)
            told["folder"], told["in a list"] = text_of(folder), text_of(listed)
            assert (await call(opened, "get", note="coffee.md"))["path"] == "coffee.md"  # a path from the root still reads

    with http_server(vault_dir, tmp_path) as server:
        run(scenario, server.url)
    for what, message in told.items():
        sent = {**tries.get(what, {})}.get("note")
        assert "PathOutsideVault: path " in message and "is absolute: over HTTP a note is named from the vault root" in message, (what, message)
        assert "instead, 'coffee.md'" not in message, (what, message)  # where the vault is, by its answer
        assert "../" not in message and "outside the vault" not in message, (what, message)
        if sent is not None:
            assert repr(sent) in message, (what, message)
    assert not (vault_dir / "memories").exists()


def test_a_vault_given_through_a_folder_beside_it_is_still_the_vault_to_a_remote_agent(
        vault_dir: Path, tmp_path: Path, write_note: Any) -> None:
    """`vaultmem --vault ../vault mcp --http …` run in a folder beside the vault: the server names
    its root <that folder>/../vault. Was (review): only the folder above was recognised, so the
    refusal's fix read "in ../work/../vault/.vaultmem.toml" instead of "in .vaultmem.toml"."""
    write_note("coffee.md", note("Coffee", "Flat white with oat milk.", layer="L4"))
    (tmp_path / "work").mkdir()
    told: list[str] = []

    async def scenario(url: str) -> None:
        async with session(url) as opened:
            with anyio.fail_after(CALL_SECONDS):
                result = await opened.call_tool("forget", {"note": "coffee.md", "hard": True})
            assert result.is_error, result
            told.append(text_of(result))

    with http_server(tmp_path / "work" / ".." / vault_dir.name, tmp_path) as server:
        run(scenario, server.url)
    assert "set allow_hard_delete = true under [mcp] in .vaultmem.toml;" in told[0], told
    assert "work" not in told[0], told
    assert (vault_dir / "coffee.md").exists()


def test_the_stdio_server_keeps_naming_the_vaults_folder_for_the_person_beside_it(vault_dir: Path, write_note: Any) -> None:
    """Only the remote agent is spared the server's paths: over stdio the person runs the server."""
    write_note("coffee.md", note("Coffee", "Flat white with oat milk.", layer="L4"))
    told: list[str] = []

    async def scenario() -> None:
        async with serve(vault_dir, vault_dir.parent / "stdio-stderr.log") as served:
            told.append(await served.error("forget", note="coffee.md", hard=True))
            told.append(await served.error("get", note="../../etc/passwd"))

    run(scenario)
    assert f"under [mcp] in {vault_dir / '.vaultmem.toml'};" in told[0], told
    assert f"outside the vault {str(vault_dir)!r}" in told[1], told


# ------------------------------------------------------------------ stopping


@pytest.mark.skipif(sys.platform == "win32", reason="the holder flocks the file; SIGTERM")
def test_a_write_running_when_sigterm_comes_still_answers_its_agent(vault_dir: Path, tmp_path: Path, write_note: Any) -> None:
    """sse-starlette ended every event stream the moment SIGTERM came: a remember that was waiting
    for the commit lock then wrote its note, but its agent got "SSE stream ended without a response"
    and could not tell that it had landed. A running call now answers within the streams' grace."""
    write_note(".vaultmem.toml", "auto_commit = true\n")
    init_repo(vault_dir)
    waiting = anyio.Event()

    async def progress(_value: float, _total: float | None, _message: str | None) -> None:
        waiting.set()

    async def scenario(server: Server) -> None:
        async with session(server.url) as opened:
            await opened.list_tools()  # the client checks an answer against the tool's schema: fetched now, not after the stop
            holder = hold_commit_lock(vault_dir, 60)
            try:
                async with anyio.create_task_group() as group:
                    group.start_soon(stop_then_release, server, holder)
                    with anyio.fail_after(CALL_SECONDS):
                        result = await opened.call_tool("remember", {"text": "The chimney sweep comes in May.", "layer": "L3"},
                                                        progress_callback=progress)
            finally:
                holder.kill()
                holder.wait(30)
        assert not result.is_error, text_of(result)
        assert isinstance(result.structured_content, dict)
        assert (vault_dir / result.structured_content["path"]).is_file()

    async def stop_then_release(server: Server, holder: subprocess.Popen[str]) -> None:
        await waiting.wait()  # the remember is running, kept waiting by the lock
        server.process.send_signal(signal.SIGTERM)
        await anyio.sleep(0.5)  # let the server see the signal first; no assert hangs on this
        holder.kill()  # the lock is free: the write goes ahead while the server stops

    with http_server(vault_dir, tmp_path) as server:
        run(scenario, server)
        assert server.process.wait(timeout=STOP_SECONDS) == 0
    assert len(list(vault_dir.glob("memories/*.md"))) == 1


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_sigterm_or_ctrl_c_stops_the_server_within_seconds(vault_dir: Path, tmp_path: Path, stop: signal.Signals) -> None:
    async def open_session_then_stop(server: Server) -> None:
        async with session(server.url) as opened:
            await call(opened, "remember", text="The boiler service is on Thursday.", layer="L2")
            server.process.send_signal(stop)  # while a session (and its event stream) is open
            started = time.monotonic()
            while server.process.poll() is None and time.monotonic() - started < STOP_SECONDS:
                await anyio.sleep(0.05)

    with http_server(vault_dir, tmp_path) as server:
        try:
            run(open_session_then_stop, server)
        except (MCPError, httpx2.HTTPError, anyio.ClosedResourceError):
            pass  # the client may notice its server leaving; what matters is how the server left
        assert server.process.wait(timeout=STOP_SECONDS) == 0
    log = server.log.read_text(encoding="utf-8")
    assert "stopped serving" in log and "Traceback" not in log
