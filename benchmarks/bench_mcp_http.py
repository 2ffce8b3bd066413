"""Many agents at once: ``vaultmem mcp --http`` under concurrent MCP sessions.

``python -m benchmarks.bench_mcp_http [--notes 2000] [--clients 1 8 32] [--calls 40]
[--remember-every 4] [--client-processes 2]`` prints one JSON document on stdout
(progress on stderr). It generates a vault with ``benchmarks/generate.py`` (default
embedder, nothing downloaded), indexes it, starts one ``vaultmem mcp --http
127.0.0.1:0`` process with a token, and for each client count C:

- opens C sessions with the SDK's streamable HTTP client, spread over
  ``--client-processes`` processes (one Python process would measure its own event
  loop, not the server), waits until all are initialized, then starts them together;
- each session makes ``--calls`` calls: every ``--remember-every``-th a ``remember`` into a
  folder of its own for this round, the others a ``recall`` (k=10) of a generated query;
- reports ``throughput_calls_per_second`` (all calls ÷ wall time from the start signal to
  the last answer), latency p50/p95/max per tool, errors, the server's CPU time per call
  (``/proc``, session setup included), and **lost writes**: the files
  in the round's folders against the acknowledged remembers, ids that are not unique,
  and the server's note count (``stats``) against what it was plus the remembers.

``slow_call`` then runs a whole-vault ``consolidate(all=true)`` dry run in one session
while 8 others recall: the recalls' latency during it shows whether a slow call holds up
the rest (before issue 16 every call waited for the one before it).

The client processes share the machine with the server, as agents on one host would;
on 2 cores the figures are a floor for a dedicated server.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import platform
import re
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `benchmarks` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.generate import generate_vault, make_queries  # noqa: E402
from benchmarks.timing import summary_ms  # noqa: E402

REPO_ROOT = Path(os.path.abspath(__file__)).parent.parent
SEED = 42
SERVING = re.compile(r"serving .* at (http://127\.0\.0\.1:\d+/mcp)")
START_TIMEOUT_SECONDS = 120.0
CALL_TIMEOUT_SECONDS = 120.0


def progress(message: str) -> None:
    print(f"[bench_mcp_http] {message}", file=sys.stderr, flush=True)



def env(token: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO_ROOT), "VAULTMEM_MCP_TOKEN": token}


# ------------------------------------------------------------------ the server


def start_server(vault: Path, token: str, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    command = [sys.executable, "-m", "vaultmem", "--vault", str(vault), "mcp", "--http", "127.0.0.1:0"]
    with log.open("wb") as errors:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors, env=env(token))
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        text = log.read_text(encoding="utf-8", errors="replace")
        found = SERVING.search(text)
        if found and "reconciled" in text:
            return process, found.group(1)
        if process.poll() is not None:
            break
        time.sleep(0.05)
    process.kill()
    raise RuntimeError(f"the server did not start:\n{log.read_text(encoding='utf-8', errors='replace')}")


def stop_server(process: subprocess.Popen[bytes]) -> dict[str, Any]:
    started = time.perf_counter()
    process.send_signal(signal.SIGTERM)
    code = process.wait(timeout=60)
    return {"exit_code": code, "stop_seconds": round(time.perf_counter() - started, 2)}


# ------------------------------------------------------------------ the clients (in their own processes)


async def _session_calls(url: str, token: str, plan: list[tuple[str, dict[str, Any]]], ready: Any, go: Any) -> list[dict[str, Any]]:
    import httpx2
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {token}"}
    records: list[dict[str, Any]] = []
    async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(CALL_TIMEOUT_SECONDS)) as client:
        async with streamable_http_client(url, http_client=client) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                ready.release()
                await asyncio.get_running_loop().run_in_executor(None, go.wait)
                for tool, arguments in plan:
                    started = time.perf_counter()
                    result = await session.call_tool(tool, arguments)
                    ended = time.perf_counter()
                    records.append({"tool": tool, "seconds": ended - started, "ended": time.time(), "error": result.is_error,
                                    "id": (result.structured_content or {}).get("id"),
                                    "message": None if not result.is_error else str(result.content)[:300]})
    return records


def client_process(url: str, token: str, plans: list[list[tuple[str, dict[str, Any]]]], ready: Any, go: Any, results: Any) -> None:
    async def run_all() -> list[dict[str, Any]]:
        batches = await asyncio.gather(*(_session_calls(url, token, plan, ready, go) for plan in plans))
        return [record for batch in batches for record in batch]

    results.put(asyncio.run(run_all()))


def plans_for(clients: int, calls: int, remember_every: int, round_name: str) -> list[list[tuple[str, dict[str, Any]]]]:
    queries = make_queries(clients * calls, SEED)
    plans = []
    for client in range(clients):
        plan: list[tuple[str, dict[str, Any]]] = []
        for number in range(calls):
            if remember_every and number % remember_every == remember_every - 1:
                text = f"Benchmark note {round_name} client {client} call {number}: {queries[client * calls + number]}."
                plan.append(("remember", {"text": text, "layer": "L3", "folder": f"bench/{round_name}/client-{client}"}))
            else:
                plan.append(("recall", {"query": queries[client * calls + number], "k": 10}))
        plans.append(plan)
    return plans


def run_clients(url: str, token: str, plans: list[list[tuple[str, dict[str, Any]]]], processes: int) -> tuple[list[dict[str, Any]], float, float]:
    """Run every plan as its own session; (records, start signal time, connect seconds)."""
    context = multiprocessing.get_context("spawn")
    ready, go, results = context.Semaphore(0), context.Event(), context.Queue()
    shares = [plans[index::processes] for index in range(processes) if plans[index::processes]]
    workers = [context.Process(target=client_process, args=(url, token, share, ready, go, results)) for share in shares]
    connecting = time.perf_counter()
    for worker in workers:
        worker.start()
    for _ in plans:
        if not ready.acquire(timeout=START_TIMEOUT_SECONDS):
            raise RuntimeError("the client sessions did not all initialize")
    connect_seconds = time.perf_counter() - connecting
    started = time.time()
    go.set()
    records = [record for _ in workers for record in results.get(timeout=CALL_TIMEOUT_SECONDS * 10)]
    for worker in workers:
        worker.join()
    return records, started, connect_seconds


# ------------------------------------------------------------------ rounds


def server_note_count(vault: Path) -> int:
    output = subprocess.run([sys.executable, "-m", "vaultmem", "--vault", str(vault), "stats", "--json"],
                            capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    return int(json.loads(output.stdout)["notes"])


def lost_writes(vault: Path, round_name: str, acknowledged: list[str], notes_before: int) -> dict[str, Any]:
    files = sorted((vault / "bench" / round_name).rglob("*.md"))
    ids = [match.group(1) for path in files if (match := re.search(r"^id: (\S+)$", path.read_text(encoding="utf-8"), re.MULTILINE))]
    indexed = server_note_count(vault) - notes_before
    return {
        "remembers_acknowledged": len(acknowledged),
        "files_written": len(files),
        "lost": len(set(acknowledged) - set(ids)),
        "duplicate_ids": len(ids) - len(set(ids)),
        "unacknowledged_files": len(set(ids) - set(acknowledged)),
        "notes_indexed": indexed,
    }


def cpu_seconds(pid: int) -> float | None:
    """utime + stime of a process (Linux ``/proc``), or None elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure_round(server: subprocess.Popen[bytes], url: str, token: str, vault: Path, clients: int,
                  options: argparse.Namespace) -> dict[str, Any]:
    round_name = f"c{clients}"
    notes_before = server_note_count(vault)
    plans = plans_for(clients, options.calls, options.remember_every, round_name)
    progress(f"{clients} concurrent sessions × {options.calls} calls")
    cpu_before = cpu_seconds(server.pid)  # session setup included: a small share of the round
    records, started, connect_seconds = run_clients(url, token, plans, min(options.client_processes, clients))
    cpu_after = cpu_seconds(server.pid)
    wall = max(record["ended"] for record in records) - started
    server_cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    by_tool = {tool: summary_ms([r["seconds"] for r in records if r["tool"] == tool and not r["error"]]) for tool in ("recall", "remember")}
    errors = [r for r in records if r["error"]]
    acknowledged = [r["id"] for r in records if r["tool"] == "remember" and not r["error"]]
    return {
        "clients": clients,
        "calls": len(records),
        "wall_seconds": round(wall, 2),
        "throughput_calls_per_second": round(len(records) / wall, 1),
        "latency": {"all": summary_ms([r["seconds"] for r in records if not r["error"]]), **by_tool},
        "errors": len(errors),
        "first_errors": [r["message"] for r in errors[:3]],
        "session_setup_seconds": round(connect_seconds, 2),
        "server_cpu_ms_per_call": None if server_cpu is None else round(1000 * server_cpu / len(records), 2),
        "writes": lost_writes(vault, round_name, acknowledged, notes_before),
    }


def measure_slow_call(url: str, token: str, options: argparse.Namespace) -> dict[str, Any]:
    progress("a whole-vault consolidate dry run beside 8 recalling sessions")
    recallers = plans_for(8, options.calls, 0, "slow")
    slow = [("consolidate", {"all": True})]
    records, started, _ = run_clients(url, token, [slow, *recallers], min(options.client_processes, 9))
    consolidate = next(r for r in records if r["tool"] == "consolidate")
    during = [r["seconds"] for r in records if r["tool"] == "recall" and r["ended"] <= consolidate["ended"] and not r["error"]]
    return {
        "consolidate_seconds": round(consolidate["seconds"], 2),
        "consolidate_error": consolidate["message"],
        "recalls_answered_during_it": len(during),
        "recall_latency_during_it": summary_ms(during),
    }


def run(options: argparse.Namespace) -> dict[str, Any]:
    token = secrets.token_urlsafe(32)
    with tempfile.TemporaryDirectory(prefix="bench-mcp-http-") as scratch:
        vault = Path(scratch) / "vault"
        progress(f"generating {options.notes} notes")
        generate_vault(vault, options.notes, SEED)
        progress("indexing")
        subprocess.run([sys.executable, "-m", "vaultmem", "--vault", str(vault), "index"], check=True,
                       capture_output=True, env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
        process, url = start_server(vault, token, Path(scratch) / "server.log")
        try:
            rounds = [measure_round(process, url, token, vault, clients, options) for clients in options.clients]
            slow = measure_slow_call(url, token, options) if options.slow_call else None
        finally:
            stopped = stop_server(process)
    return {
        "benchmark": "mcp_http",
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
        "options": {"notes": options.notes, "calls_per_session": options.calls, "remember_every": options.remember_every,
                    "client_processes": options.client_processes},
        "rounds": rounds,
        "slow_call": slow,
        "shutdown": stopped,
    }


def parser() -> argparse.ArgumentParser:
    command = argparse.ArgumentParser(prog="python -m benchmarks.bench_mcp_http", description=__doc__,
                                      formatter_class=argparse.RawDescriptionHelpFormatter)
    command.add_argument("--notes", type=int, default=2000, help="Notes in the generated vault (default 2,000).")
    command.add_argument("--clients", type=int, nargs="+", default=[1, 8, 32], help="Concurrent sessions per round.")
    command.add_argument("--calls", type=int, default=40, help="Calls per session (default 40).")
    command.add_argument("--remember-every", type=int, default=4, help="Every Nth call is a remember (default 4: 25 %%).")
    command.add_argument("--client-processes", type=int, default=2, help="Processes the sessions are spread over.")
    command.add_argument("--no-slow-call", dest="slow_call", action="store_false", help="Skip the consolidate-beside-recalls round.")
    return command


def main(argv: list[str] | None = None) -> int:
    print(json.dumps(run(parser().parse_args(argv)), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
