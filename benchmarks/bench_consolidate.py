"""Consolidation at scale: the ANN sweep (``--all``) beside exact all-pairs numpy.

For each size, a vault is generated with ``benchmarks.generate.generate_vault``, then
1 % of its notes get a lightly paraphrased copy (a fifth of those two copies) — the
"same fact written again" that consolidation exists for — and it is indexed. Then:

- ``ann``: ``Vault.consolidate(all=True)``, a dry run through the library, timed end to
  end (it starts with the no-op reconcile of the index), with its peak memory;
- ``all_pairs_full``: one n×n similarity matrix of the pool (the naive O(n²) approach),
  run only while the matrix fits a memory budget — beyond it, the bytes it would need;
- ``all_pairs_blocked``: the exact same-layer pairs by blocked matrix products
  (``exact_similar_pairs``: O(n²) time, O(n·block) memory), on growing prefixes of the
  pool, so the quadratic growth shows; the full pool's clusters are compared with ANN's.

Then ``threshold``: the pairs ADR 0010 sets the default threshold by, on the real vaults
(the sample vault's duplicates and closest non-duplicates, kepano's closest pair the rules
admit): their cosine between the whole-note vectors the index keeps (searchable.py: one
pass over the passages) and between each note's ``title + body`` embedded whole — the
vector consolidation compared before passages — so the threshold is seen to keep its
meaning. Each generated size also reports its closest pair that was not planted.

    python -m benchmarks.bench_consolidate [--sizes 10000 100000] [--workdir DIR] [--seed 42]

Prints one JSON document on stdout; progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from vaultmem import Vault
from vaultmem.consolidate import connected_components, exact_similar_pairs, unreliable_reason
from vaultmem.lifecycle import resolve_now, to_epoch_us
from vaultmem.storage import Eligibility
from vaultmem.storage.vector_blobs import decode_rows
from vaultmem.vectors import blob_to_vector

from .generate import DEFAULT_SEED, generate_vault

REPOSITORY = Path(__file__).resolve().parent.parent
# ADR 0010's pairs: (what, first note, second note) of the sample vault.
SAMPLE_PAIRS = (
    ("duplicates: oat-milk trio, details ~ oat-milk", "preferences/coffee-milk-details.md", "preferences/oat-milk.md"),
    ("duplicates: oat-milk trio, milk-in-coffee ~ oat-milk", "preferences/milk-in-coffee.md", "preferences/oat-milk.md"),
    ("duplicates: oat-milk trio, details ~ milk-in-coffee", "preferences/coffee-milk-details.md", "preferences/milk-in-coffee.md"),
    ("duplicates: standup pair", "conversations/2026-11-24-standup-moved.md", "conversations/2026-11-25-standup-time-confirmed.md"),
    ("other layer (L4), never paired: coffee-order ~ oat-milk", "preferences/coffee-order.md", "preferences/oat-milk.md"),
    ("other layer (L4), never paired: coffee-order ~ details", "preferences/coffee-order.md", "preferences/coffee-milk-details.md"),
    ("closest non-duplicates: Harbor ~ harbor-architecture", "projects/Harbor.md", "projects/harbor-architecture.md"),
    ("closest non-duplicates: deploy ~ on-call runbook", "procedures/deploy-harbor.md", "procedures/harbor-oncall-runbook.md"),
)

NOW = "2026-11-30T12:00:00+00:00"  # the generated vaults' notion of today (live notes expire 2031+)
DUPLICATE_SHARE = 0.01
TRIPLE_SHARE = 0.2  # of the duplicated notes, this share gets a second copy
FULL_MATRIX_BUDGET = 6 * 2**30  # bytes: the n×n matrix plus its boolean mask must fit comfortably
SCALING_SIZES = (2_500, 5_000, 10_000, 20_000, 40_000)
_WORD = re.compile(r"[A-Za-z]{4,}")
T = TypeVar("T")


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def timed(function: Callable[[], T]) -> tuple[T, float]:
    started = time.perf_counter()
    result = function()
    return result, round(time.perf_counter() - started, 3)


def reset_peak_memory() -> None:
    """Reset the kernel's high-water mark of this process (Linux ≥ 4.0)."""
    with open("/proc/self/clear_refs", "w") as handle:
        handle.write("5")


def peak_memory_mib() -> float:
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    raise RuntimeError("VmHWM missing from /proc/self/status; this benchmark measures memory on Linux only")


# ------------------------------------------------------------------ the vault


def paraphrase(text: str, rng: random.Random) -> str:
    """A light rewording: no id (a new memory), a new title, ~6 % of the words swapped."""
    head, separator, body = text.rpartition("\n---\n")  # no frontmatter: all body
    lines = [line for line in head.split("\n") if not line.startswith("id:")]
    head = "\n".join(f"{line} (noted again)" if line.startswith("title:") else line for line in lines)
    words = _WORD.findall(body)
    for _ in range(max(1, len(words) // 16) if words else 0):
        old, new = rng.choice(words), rng.choice(words)
        body = body.replace(f" {old} ", f" {new} ", 1)
    return head + separator + body


def plant_duplicates(root: Path, seed: int) -> list[list[str]]:
    """Copy 1 % of the notes, lightly paraphrased, next to their originals; returns the groups."""
    rng = random.Random(seed)
    notes = sorted(path for path in root.rglob("*.md"))
    groups = []
    for original in rng.sample(notes, max(1, int(len(notes) * DUPLICATE_SHARE))):
        text = original.read_text(encoding="utf-8")
        copies = 2 if rng.random() < TRIPLE_SHARE else 1
        group = [original.relative_to(root).as_posix()]
        for number in range(1, copies + 1):
            copy = original.with_name(f"{original.stem} again {number}.md")
            copy.write_text(paraphrase(text, rng), encoding="utf-8")
            group.append(copy.relative_to(root).as_posix())
        groups.append(group)
    return groups


def build(root: Path, notes: int, seed: int) -> tuple[Vault, dict[str, Any], list[list[str]]]:
    log(f"generating {notes} notes in {root}")
    summary, generate_seconds = timed(lambda: generate_vault(root, notes, seed))
    groups, plant_seconds = timed(lambda: plant_duplicates(root, seed))
    vault = Vault(root)
    log(f"indexing {summary.notes + sum(len(group) - 1 for group in groups)} notes")
    _, index_seconds = timed(vault.index)
    facts = {
        "notes": summary.notes + sum(len(group) - 1 for group in groups),
        "generated": summary.notes,
        "planted_groups": len(groups),
        "planted_copies": sum(len(group) - 1 for group in groups),
        "generate_seconds": generate_seconds,
        "plant_seconds": plant_seconds,
        "index_seconds": index_seconds,
        "vectors_in_snapshot": vault.stats().vectors_in_snapshot,
    }
    return vault, facts, groups


# ------------------------------------------------------------------ the two approaches


def run_ann(vault: Vault) -> tuple[dict[str, Any], set[frozenset[str]]]:
    reset_peak_memory()
    # Every note, as the all-pairs pool below: the generated vault gives 5 % of its notes no
    # frontmatter (no layer), which consolidation leaves out unless asked (adr/0010).
    report, seconds = timed(lambda: vault.consolidate(all=True, any_note=True, now=NOW))
    found = {frozenset(member.path for member in cluster.members) for cluster in report.clusters}
    return {
        "seconds": seconds,
        "peak_memory_mib": peak_memory_mib(),
        "compared": report.plan.compared,
        "clusters": len(report.clusters),
        "notes_in_clusters": sum(len(cluster.members) for cluster in report.clusters),
        "left_out": len(report.plan.left_out),
        "threshold": report.plan.scope.threshold,
    }, found


def pool(vault: Vault) -> tuple[np.ndarray, np.ndarray, list[str | None], dict[int, str]]:
    """The notes consolidation considers (alive, reliable metadata) and their vectors."""
    notes = [note for note in vault.store.notes.recent(Eligibility(now_us=to_epoch_us(resolve_now(NOW))))
             if unreliable_reason(note) is None]
    blobs = dict(vault.store.vectors.for_labels([note.label for note in notes]))
    notes = [note for note in notes if note.label in blobs]
    labels = np.asarray([note.label for note in notes], dtype=np.int64)
    matrix = decode_rows([blobs[note.label] for note in notes])
    return labels, matrix, [note.layer for note in notes], {note.label: note.path for note in notes}


def all_pairs_full(matrix: np.ndarray, layers: Sequence[str | None], threshold: float) -> dict[str, Any]:
    """The naive way: one n×n matrix, a same-layer mask, and np.nonzero."""
    count = len(matrix)
    needed = count * count * 7  # float32 scores + boolean mask, same-layer mask and triu temporaries
    if needed > FULL_MATRIX_BUDGET:
        return {"n": count, "ran": False, "would_need_gib": round(needed / 2**30, 1)}
    reset_peak_memory()
    started = time.perf_counter()
    codes = np.unique(np.asarray([layer or "" for layer in layers]), return_inverse=True)[1]
    scores = matrix @ matrix.T
    hits = np.nonzero(np.triu((scores >= threshold) & (codes[:, None] == codes[None, :]), k=1))
    pairs = len(hits[0])
    del scores
    return {"n": count, "ran": True, "seconds": round(time.perf_counter() - started, 3),
            "peak_memory_mib": peak_memory_mib(), "pairs": pairs}


def all_pairs_blocked(labels: np.ndarray, matrix: np.ndarray, layers: Sequence[str | None],
                      threshold: float) -> tuple[dict[str, Any], dict[tuple[int, int], float]]:
    reset_peak_memory()
    pairs, seconds = timed(lambda: exact_similar_pairs(labels, matrix, layers, threshold))
    return {"n": len(labels), "seconds": seconds, "peak_memory_mib": peak_memory_mib(), "pairs": len(pairs)}, pairs


def planted_recall(groups: list[list[str]], found: set[frozenset[str]], in_pool: set[str]) -> dict[str, Any]:
    """How many planted groups (the members alive and reliable) came out as exactly one cluster."""
    expected = [frozenset(path for path in group if path in in_pool) for group in groups]
    expected = [group for group in expected if len(group) >= 2]
    return {"expected": len(expected), "found_exactly": sum(group in found for group in expected),
            "unplanted_clusters": len(found - set(expected))}


# ------------------------------------------------------------------ one size


def bench_size(workdir: Path, notes: int, seed: int) -> dict[str, Any]:
    vault, facts, groups = build(workdir / f"vault-{notes}", notes, seed)
    log(f"consolidate --all over {facts['notes']} notes")
    _, reconcile_seconds = timed(vault.index)  # the no-op reconcile every consolidate starts with
    ann, found_by_ann = run_ann(vault)
    ann["of_which_reconcile_seconds"] = reconcile_seconds
    labels, matrix, layers, paths = pool(vault)
    threshold = ann["threshold"]
    log(f"all-pairs over a pool of {len(labels)} notes")
    blocked, pairs = all_pairs_blocked(labels, matrix, layers, threshold)
    found_exactly = {frozenset(paths[label] for label in component) for component in connected_components(pairs)}
    result = {
        "vault": facts,
        "ann": ann,
        "planted": planted_recall(groups, found_by_ann, set(paths.values())),
        "all_pairs_blocked": blocked,
        "ann_equals_exact": found_by_ann == found_exactly,
        "exact_clusters_missed_by_ann": len(found_exactly - found_by_ann),
        "closest_unplanted_pair": closest_unplanted(labels, matrix, layers, paths, groups),
        "all_pairs_full": all_pairs_full(matrix, layers, threshold),
        "scaling": scaling(labels, matrix, layers, threshold),
        "extrapolated_10x": extrapolate(ann, blocked, 10 * len(labels)),
    }
    vault.close()
    return result


def scaling(labels: np.ndarray, matrix: np.ndarray, layers: Sequence[str | None], threshold: float) -> list[dict[str, Any]]:
    """Both all-pairs variants on growing prefixes of the pool: time grows with n²."""
    rows = []
    for size in (size for size in SCALING_SIZES if size < len(labels)):
        blocked, _ = all_pairs_blocked(labels[:size], matrix[:size], layers[:size], threshold)
        full = all_pairs_full(matrix[:size], layers[:size], threshold)
        rows.append({"n": size, "blocked_seconds": blocked["seconds"], "full_seconds": full.get("seconds"),
                     "full_peak_memory_mib": full.get("peak_memory_mib"), "full_would_need_gib": full.get("would_need_gib")})
    return rows


def extrapolate(ann: dict[str, Any], blocked: dict[str, Any], pool_size: int) -> dict[str, Any]:
    """A vault ten times larger, by each method's growth law (measured, not run)."""
    factor = pool_size / blocked["n"]
    return {
        "pool": pool_size,
        "ann_seconds": round(ann["seconds"] * factor, 1),  # n queries of ~log n each: at most linear-ish
        "all_pairs_blocked_seconds": round(blocked["seconds"] * factor**2, 1),
        "all_pairs_full_would_need_gib": round(pool_size**2 * 7 / 2**30, 1),
    }


# ------------------------------------------------------------------ the threshold on real vaults


def threshold_pairs(workdir: Path) -> dict[str, Any]:
    """ADR 0010's pairs, with the vectors the index keeps and with whole notes embedded at once."""
    import shutil

    found: dict[str, Any] = {}
    for name, source in (("sample", REPOSITORY / "sample_vault"), ("kepano", REPOSITORY / "tests/data/kepano-obsidian")):
        root = workdir / f"real-{name}"
        shutil.copytree(source, root, ignore=shutil.ignore_patterns(".vaultmem"))
        with Vault(root) as vault:
            vault.index()
            kept, whole = _note_vectors(vault)
            if name == "sample":
                found[name] = [{"pair": what, "kept": _cosine(kept, first, second), "whole_note": _cosine(whole, first, second)}
                               for what, first, second in SAMPLE_PAIRS]
            else:
                found[name] = {"closest_pair_the_rules_admit": _closest(vault, kept), "same_pair_whole_note": None}
                pair = found[name]["closest_pair_the_rules_admit"]["pair"]
                found[name]["same_pair_whole_note"] = _cosine(whole, *pair)
                found[name]["closest_pair_whole_notes"] = _closest(vault, whole)
    return found


def _note_vectors(vault: Vault) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    from vaultmem.notes import read_note

    rows = list(vault.store.notes.all())
    stored = dict(vault.store.vectors.for_labels([row.label for row in rows if row.label is not None]))
    kept = {row.path: blob_to_vector(stored[row.label]) for row in rows if row.label in stored}
    texts = [read_note(vault.root, row.path).embed_text for row in rows]
    whole = dict(zip([row.path for row in rows], vault.embedder().embed(texts), strict=True))
    return kept, whole


def _cosine(vectors: dict[str, np.ndarray], first: str, second: str) -> float:
    return round(float(vectors[first] @ vectors[second]), 3)


def _closest(vault: Vault, vectors: dict[str, np.ndarray]) -> dict[str, Any]:
    """The most similar pair consolidation would consider (same layer, reliable, enough text)."""
    from vaultmem.consolidate import MIN_TEXT_WORDS, text_words
    from vaultmem.notes import read_note

    notes = [note for note in vault.store.notes.recent(Eligibility(now_us=to_epoch_us(resolve_now(NOW))))
             if unreliable_reason(note) is None and text_words(read_note(vault.root, note.path).body) >= MIN_TEXT_WORDS]
    best: tuple[float, str, str] = (-1.0, "", "")
    for index, first in enumerate(notes):
        for second in notes[index + 1 :]:
            if first.layer == second.layer:
                best = max(best, (float(vectors[first.path] @ vectors[second.path]), first.path, second.path))
    return {"pair": [best[1], best[2]], "cosine": round(best[0], 3), "notes_considered": len(notes)}


def closest_unplanted(labels: np.ndarray, matrix: np.ndarray, layers: Sequence[str | None], paths: dict[int, str],
                      groups: list[list[str]]) -> dict[str, Any]:
    """The most similar pair of the generated vault that was not planted as a duplicate."""
    planted = {frozenset(pair) for group in groups for pair in ((a, b) for a in group for b in group if a != b)}
    pairs = exact_similar_pairs(labels, matrix, layers, 0.8)
    unplanted = sorted(((score, low, high) for (low, high), score in pairs.items()
                        if frozenset((paths[low], paths[high])) not in planted), reverse=True)
    return {"cosine": round(unplanted[0][0], 3) if unplanted else None,
            "pairs_at_or_above": {str(limit): sum(score >= limit for score, _, _ in unplanted) for limit in (0.86, 0.87, 0.88)}}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_consolidate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--workdir", type=Path, help="Where to generate the vaults (default: a temporary folder, removed after).")
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-consolidate-") as scratch:
        workdir = options.workdir or Path(scratch)
        results = {str(notes): bench_size(workdir, notes, options.seed) for notes in options.sizes}
        real = threshold_pairs(workdir)
    print(json.dumps({"benchmark": "consolidate", "now": NOW, "seed": options.seed, "sizes": results, "threshold": real}, indent=2))


if __name__ == "__main__":
    main()
