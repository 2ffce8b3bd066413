"""A conversation turn's extra vector passages — the turns around it — measured offline (PASSAGES.md §39).

    python -m benchmarks.proto_windows --workdir /tmp/w                           # both conversation sets, the grid
    python -m benchmarks.proto_windows --workdir /tmp/w --variants "b2+a1|share|0.8" "b2|max|0.8"

A turn (a note whose ``speaker``, ``sender`` or ``from`` names who said it: turns.is_turn) keeps its
own vector; a *window* is one more vector of the note, embedded as the vault embeds a passage (the
turn's head — title and properties — then the texts, each cut at 1,000 characters, of the turns
``before`` it, the turn, and the turns ``after`` it in its folder, in turns.turn_order), its row
normalised, times the embedder's length prior, times ``alpha``. A variant is written
``WINDOWS|MODE|ALPHA[|FUSION]``: WINDOWS ``+``-joined names ``bN`` (N turns before), ``aN`` (N
after), ``bNaM`` (both in one window), empty for none; MODE how a note's score takes its windows:

- ``max``: the better of its own passage and its best window;
- ``share``: that, plus a quarter of the other (positive) — as ranking.note_scores counts a
  note's next passage, with only its best window counted;
- ``share3``: every window a passage like its own: the best plus a quarter of the next two;
- ``mean``: the mean of its own and its best window; ``add``: its own plus its best window.

FUSION (benchmarks/fusion.py) is vaultmem's by default. Each set is built and indexed as
``eval_ranking`` builds it; the text side and the notes the query names a property value of are
the product's (``eval_ranking.side_rankings``); the vector side is scored exactly here over every
note (their stored vectors are float16: so are these). ``offline_equals_fused`` — the share of
questions whose first 10 with no window are ``Vault.search``'s — shows the offline fusion is the
product's. Only vaults of one passage per note are supported (every turn of both sets is one).
Prints one JSON document; progress on stderr.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from vaultmem import Vault
from vaultmem.embedders import Embedder, length_factors, normalize_rows
from vaultmem.notes import read_note
from vaultmem.passages import embed_text
from vaultmem.ranking import NEXT_SHARE, PROPERTY_BONUS
from vaultmem.searchable import SearchableNote, embed_notes, searchable
from vaultmem.turns import CONTEXT_CHARS, chain_keys
from vaultmem.valued import valued_notes

from .eval_ranking import SANITY_FUSION, SETS, K, _fresh, average, question_metrics, side_rankings
from .fusion import Fusion, parse_fusion

DEFAULT_SETS = ("conversations", "conversations-echo")
DEFAULT_VARIANTS = (
    "", "b2|max|1", "b2|max|0.9", "b2|max|0.8", "b2|max|0.7", "b2|share|0.8", "b2|mean|1", "b2|add|0.5",
    "b1|max|0.8", "a1|max|0.8", "b1a1|max|0.8", "b2a1|max|0.8", "b2+a1|max|0.8",
    "b2+a1|share|0.7", "b2+a1|share|0.8", "b2+a1|share|0.9", "b2+a1|share3|0.8",
    "|max|1|zscore:vectors=0.5,text=0.5,depth=100", "|max|1|zscore:vectors=0.6,text=0.4,depth=100",
    "b2|share|0.8|zscore:vectors=0.5,text=0.5,depth=100", "b2+a1|share|0.8|zscore:vectors=0.5,text=0.5,depth=100",
)
_WINDOW = re.compile(r"^(?:b(\d+))?(?:a(\d+))?$")


@dataclass
class Collected:
    """A built set: every note's own passage vector, each window's vectors, the questions' sides."""

    paths: list[str]
    own: np.ndarray  # one row per note (paths' order)
    windows: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)  # name → (rows, has one)
    questions: list[dict[str, Any]] = field(default_factory=list)


def window_span(name: str) -> tuple[int, int]:
    """``b2`` → (2, 0), ``a1`` → (0, 1), ``b1a1`` → (1, 1)."""
    match = _WINDOW.match(name)
    if not name or match is None:
        raise SystemExit(f"window {name!r}: write bN, aN or bNaM (N turns before, M after)")
    return int(match.group(1) or 0), int(match.group(2) or 0)


def folders_of_turns(paths: Sequence[str], keys: Sequence[bytes | None]) -> dict[bytes, list[int]]:
    """Each chain's turns (indices into ``paths``; turns.chain_keys of the index's turn_key), in their order."""
    folders: dict[bytes, list[int]] = {}
    for index, key in enumerate(keys):
        if key is not None:
            folders.setdefault(chain_keys(key)[0], []).append(index)
    for members in folders.values():
        members.sort(key=lambda index: (keys[index], paths[index]))
    return folders


def approximate_windows(embedder: Embedder, own: np.ndarray, folders: dict[bytes, list[int]], span: tuple[int, int],
                        weighted: bool, heads: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Each turn's window from the member turns' stored rows, no embedding: a row is the unit vector
    times the length factor f = n / sqrt(n² + β²) of its token sum's norm n, so n = βf / sqrt(1 − f²)
    and the window's token sum ≈ Σ nᵢ uᵢ (``weighted``; WordLlama is additive) — else Σ uᵢ."""
    before, after = span
    prior = embedder.length_prior or 25.0
    factors = np.clip(np.linalg.norm(own, axis=1), 1e-6, 0.9995)
    units = own / factors[:, None]
    norms = prior * factors / np.sqrt(1 - factors**2)
    rows = np.zeros_like(own)
    has = np.zeros(len(own), dtype=bool)
    for members in folders.values():
        for position, index in enumerate(members):
            chosen = members[max(0, position - before): position + after + 1]
            if len(chosen) > 1:
                total = (units[chosen] * norms[chosen][:, None]).sum(axis=0)
                if heads is not None:  # the neighbours' heads taken off: the window's head is the turn's own once
                    total = total - heads[[member for member in chosen if member != index]].sum(axis=0)
                direction = total if weighted else units[chosen].sum(axis=0)
                factor = length_factors(total[None, :], embedder.length_prior)[0]
                rows[index] = (direction / np.linalg.norm(direction) * factor).astype(np.float16).astype(np.float32)
                has[index] = True
    return rows, has


def window_vectors(embedder: Embedder, notes: Sequence[SearchableNote], folders: dict[bytes, list[int]],
                   span: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Each turn's window (its head, then the texts of the turns ``span`` around it); a turn alone in
    its folder has none. Rows as stored: normalised × length prior, through float16."""
    before, after = span
    texts, owners = [], []
    for members in folders.values():
        for position, index in enumerate(members):
            chosen = members[max(0, position - before): position + after + 1]
            if len(chosen) > 1:
                words = " \n ".join(" ".join(notes[member].words)[:CONTEXT_CHARS] for member in chosen)
                texts.append(embed_text(notes[index].heads[0], words))
                owners.append(index)
    rows = np.zeros((len(notes), embedder.dimension), dtype=np.float32)
    has = np.zeros(len(notes), dtype=bool)
    if texts:
        sums = embedder.sums(texts)
        scaled = normalize_rows(sums.totals) * length_factors(sums.totals, embedder.length_prior)[:, None]
        rows[owners], has[owners] = scaled.astype(np.float16).astype(np.float32), True
    return rows, has


def collect(name: str, folder: Path, windows: Sequence[str], progress: Any) -> Collected:
    prepared = SETS[name](_fresh(folder))
    with Vault(prepared.vault) as vault:
        vault.index()
        embedder = vault.derived.searcher().embedder
        rows = sorted(vault.store.notes.all(), key=lambda row: row.path)
        paths = [row.path for row in rows]
        notes = [searchable(read_note(prepared.vault, path)) for path in paths]
        if any(len(note.passages) != 1 for note in notes):
            raise SystemExit(f"{name}: a note of several passages; this prototype scores one passage per note")
        own = np.vstack([vectors.passages for vectors in embed_notes(embedder, notes)]).astype(np.float16).astype(np.float32)
        found = Collected(paths, own)
        folders = folders_of_turns(paths, [row.turn_key for row in rows])
        for window in windows:
            if window[0] == "^":
                head_sums = embedder.sums([note.heads[0] for note in notes]).totals
                found.windows[window] = approximate_windows(embedder, own, folders, window_span(window[1:]), True, head_sums)
            elif window[0] in "~=":
                found.windows[window] = approximate_windows(embedder, own, folders, window_span(window[1:]), window[0] == "~")
            else:
                found.windows[window] = window_vectors(embedder, notes, folders, window_span(window))
        labels = {row.label: row.path for row in rows}
        props = vault.store.passages.properties_of(list(labels))
        progress(f"{name}: {len(paths)} notes, {sum(len(members) for members in folders.values())} turns; asking")
        for question in prepared.questions:
            sides = side_rankings(vault, question.text, 100, prepared.now)
            found.questions.append({
                "question": question, "text": sides["text"], "vector": embedder.embed([question.text])[0],
                "valued": {labels[label] for label in valued_notes(question.text, props)},
                "fused": [hit.path for hit in vault.search(question.text, k=K, now=prepared.now)],
            })
    return found


def vector_side(found: Collected, query: np.ndarray, windows: Sequence[str], mode: str, alpha: float,
                limit: int = 100) -> list[tuple[str, float]]:
    """The vector side's first ``limit`` notes with their windows counted as ``mode`` says."""
    own = found.own @ query
    window_scores = [np.where(has, (rows @ query) * alpha, -np.inf) for rows, has in (found.windows[w] for w in windows)]
    if not window_scores:
        score = own
    elif mode == "share3":
        ordered = -np.sort(-np.vstack([own, *window_scores]), axis=0)
        following = ordered[1:3]
        score = ordered[0] + NEXT_SHARE * np.where(np.isfinite(following) & (following > 0), following, 0.0).sum(axis=0)
    else:
        best = np.max(np.vstack(window_scores), axis=0)
        held = np.isfinite(best)
        if mode in ("max", "share"):
            low = np.where(held, np.minimum(own, best), 0.0)
            score = np.maximum(own, best) + (NEXT_SHARE * np.where(low > 0, low, 0.0) if mode == "share" else 0.0)
        elif mode == "mean":
            score = np.where(held, (own + best) / 2, own)
        elif mode == "add":
            score = own + np.where(held, best, 0.0)
        else:
            raise SystemExit(f"mode {mode!r}: use max, share, share3, mean or add")
    score = np.asarray(score, dtype=np.float64)
    order = np.lexsort((np.arange(len(score)), -score))[:limit]  # paths are sorted: ties by path, as vaultmem
    return [(found.paths[index], float(score[index])) for index in order.tolist()]


def parse_variant(spec: str) -> tuple[list[str], str, float, Fusion]:
    parts = spec.split("|")
    windows = [window for window in parts[0].split("+") if window]
    mode = parts[1] if len(parts) > 1 else "max"
    alpha = float(parts[2]) if len(parts) > 2 else 1.0
    fusion = parse_fusion(parts[3] if len(parts) > 3 else SANITY_FUSION)
    return windows, mode, alpha, fusion


def score_variant(found: Collected, spec: str) -> dict[str, Any]:
    windows, mode, alpha, fusion = parse_variant(spec)
    rows, kinds, same = [], {}, 0
    for asked in found.questions:
        vectors = vector_side(found, asked["vector"], windows, mode, alpha)
        ranking = fusion.rank(vectors, asked["text"], asked["valued"], PROPERTY_BONUS)
        metrics = question_metrics(ranking, asked["question"].answers)
        rows.append(metrics)
        kinds.setdefault(asked["question"].kind, []).append(metrics)
        same += ranking[:K] == asked["fused"][:K]
    result: dict[str, Any] = {"fused": average(rows), "recall@10_by_kind": {kind: average(items)["recall@10"] for kind, items in kinds.items()}}
    if not windows:
        result["offline_equals_fused"] = round(same / max(1, len(rows)), 3)
    return result


def main(argv: Sequence[str] | None = None) -> None:
    command = argparse.ArgumentParser(prog="python -m benchmarks.proto_windows", description=__doc__,
                                      formatter_class=argparse.RawDescriptionHelpFormatter)
    command.add_argument("--sets", default=",".join(DEFAULT_SETS))
    command.add_argument("--variants", nargs="+", default=list(DEFAULT_VARIANTS))
    command.add_argument("--workdir", type=Path, required=True, help="the sets are built here (each in a folder of its name)")
    arguments = command.parse_args(argv)
    windows = sorted({window for spec in arguments.variants for window in parse_variant(spec)[0]})
    result: dict[str, Any] = {}
    for name in arguments.sets.split(","):
        found = collect(name, arguments.workdir / name, windows, lambda line: print(line, file=sys.stderr, flush=True))
        result[name] = {spec: score_variant(found, spec) for spec in arguments.variants}
        print(f"{name}: scored {len(arguments.variants)} variants", file=sys.stderr, flush=True)
    print(json.dumps(result, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
