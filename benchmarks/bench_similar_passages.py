"""Should ``remember``'s ``similar`` name your own notes (no layer), by their best passage?

Two trials: a daily note "Went climbing with Priya. She says the new bouldering wall opens in
January." and the agent's new memory "Priya says the new bouldering wall at the gym opens in
January" — ``similar: []``, as the list held memories only and compared whole notes. This
measures, with the vault's real default embedder and the vectors its index keeps, the new
memory's whole-note vector (as ``remember`` has it) against each note without a layer:

- ``whole``: the note's whole-note vector (what ``similar`` compares for memories);
- ``passage``: its best passage's stored vector made a unit vector again (the index keeps each
  passage's unit vector times the length prior's factor, adr/0004: dividing by the row's norm
  gives back the cosine of the passage's embedded text — its head, ``title > headings`` and
  the first passage's properties, and its text);
- ``scaled``: that passage's stored row as it is (the cosine times the factor);
- ``sentence``: every sentence of every passage, embedded alone (the finest unit, exact);
- ``shipped``: what ``remember`` does (own_similar.own_matches: the notes a search for the
  memory proposes, their best passages' sentences and pairs of sentences).

Pairs, each a memory and the note it is about: ``true`` when the note already holds the fact,
``false`` when the note is on the same thing but the memory says another fact. Two sets:

- ``planted``: bench_similar's paraphrases (true), updates (true: worth a look) and related
  pairs (false), the first sentence written into a person's daily note among other lines;
- ``real``: facts of real vaults' notes (copies of the vaults named, never the vaults).

And ``noise``: every one of bench_similar's memories remembered into each real vault (they are
about none of its notes): how many of the vault's own notes each would list.

    python -m benchmarks.bench_similar_passages [--workdir DIR] [--vault NAME=PATH]…

The ``real`` pairs name notes of trial vaults kept outside the repository (``big``: the union of
the s31/s32 trial vaults, ``bm``: a Basic Memory vault); one not given is listed in
``missing_vaults`` and its pairs are left out. adr/0010 has the figures.

Prints one JSON document on stdout; progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from vaultmem import Vault
from vaultmem.lifecycle import resolve_now, to_epoch_us
from vaultmem.own_similar import OwnMatch, own_matches
from vaultmem.storage import PASSAGE_SPACE, Eligibility
from vaultmem.vectors import blob_to_vector

from .bench_similar import NOW, PARAPHRASES, RELATED, REPOSITORY, UPDATES

THRESHOLDS = tuple(round(0.40 + step / 100, 2) for step in range(51))
FILLERS = (  # a day's other lines: ordinary, about nothing the memories say
    "Slept badly, up at six.", "Rain most of the afternoon.", "Groceries: eggs, bread, tomatoes.",
    "Finished the second half of the novel.", "Long walk by the river after lunch.", "Laundry and ironing done.",
    "Watched an old film in the evening.", "The bus was late again.", "Fixed the squeaky door hinge.",
)
CLIMBING = ("Went climbing with Priya. She says the new bouldering wall opens in January.",
            "Priya says the new bouldering wall at the gym opens in January")

# (vault, note path, memory, the note holds the fact). The vaults: copies of real vaults of
# trials (``--vault``), the sample vault and kepano-obsidian.
REAL = (
    ("big", "home/daily/2026-11-30.md", "Spare keys are kept in the blue pot by the back door.", True),
    ("big", "home/daily/2026-11-30.md", "Jasper's room was painted in Farrow & Ball Skylight.", True),
    ("big", "home/daily/2026-11-30.md", "Jasper's football training is on Tuesday evenings.", False),
    ("big", "home/daily/2026-11-30.md", "The spare car key is with the neighbour at number 12.", False),
    ("big", "home/household/maintenance.md", "The boiler was serviced by British Gas on 28 November.", True),
    ("big", "home/household/maintenance.md", "The gutters need cleaning again before winter.", False),
    ("big", "home/household/maintenance.md", "The smoke detector batteries are due for replacement in April.", True),
    ("big", "home/people/sam.md", "Sam is allergic to peanuts.", True),
    ("big", "home/people/sam.md", "Sam is training for a marathon in April.", False),
    ("big", "home/people/mum.md", "Mum's birthday is on 9 September.", True),
    ("big", "home/people/mum.md", "Mum is coming to stay with us for Christmas.", False),
    ("big", "home/household/notes.md", "The plumber's number is 555-1234.", True),
    ("big", "home/household/notes.md", "The electrician's number is 555-8890.", False),
    ("big", "people/journal/2026/01/2026-01-27.md", "Set David up with 1Password after his Vanta clearance.", True),
    ("big", "people/journal/2026/01/2026-01-27.md", "Lenny meetup at Time Out Market on Wednesday at 6pm.", True),
    ("big", "people/journal/2026/01/2026-01-27.md", "David is the new DevOps hire starting in February.", False),
    ("big", "people/USER.md", "Chuck wants information as quick bullet points, not detailed reports.", True),
    ("big", "people/USER.md", "Chuck's work email is chuck@lea-legal.com.", False),
    ("big", "people/people/barbara-blake.md", "Barbara Blake is Chuck's mother.", True),
    ("big", "people/people/barbara-blake.md", "Barbara Blake lives in Florida.", False),
    ("big", "jr/Journal/2023-01-21.md", "Someone finally joined me in my office, but they didn't stay.", True),
    ("big", "jr/Journal/2023-01-21.md", "I work from the office on Mondays and Thursdays.", False),
    ("bm", "engineering/Keeping Vitest setup inside test config.md",
     "Vitest reads setupFiles and exclude only from the nested test block of vite.config.ts.", True),
    ("bm", "engineering/Keeping Vitest setup inside test config.md",
     "Vitest runs component tests in jsdom and API tests in node.", False),
    ("bm", "decisions/2026-04-22 - keep durable memory in basic-memory and move transient tracking to archive.md",
     "Durable knowledge stays in basic-memory; transient tracking moves to the repo-root archive.", True),
    ("bm", "decisions/2026-04-22 - keep durable memory in basic-memory and move transient tracking to archive.md",
     "Backlog tasks are reviewed every Monday morning.", False),
    ("bm", "backend/Startup indexing test seam.md",
     "Test startup indexing by patching VIDEO_SOURCE_DIR and extract_video_metadata in app.main and entering "
     "TestClient(create_app()).", True),
    ("bm", "backend/Startup indexing test seam.md", "Startup indexing skips videos shorter than one second.", False),
    ("bm", "engineering/Repairing legacy local SQLite before dev.md",
     "If the app on 5173 shows Review unavailable, inspect the backend manifest route first.", True),
    ("bm", "engineering/Repairing legacy local SQLite before dev.md",
     "The backend dev server reloads automatically when Python files change.", False),
    ("sample", "Inbox.md", "Ask Lars Becker for the slides from the Berlin offsite.", True),
    ("sample", "Inbox.md", "Maya wants the dentist on Rua de Arroios, not the one in Saldanha.", True),
    ("sample", "Inbox.md", "Lars Becker is moving to the Munich office in March.", False),
    ("sample", "Inbox.md", "Maya's dentist appointment is on Friday at 10am.", False),
    ("sample", "Open questions.md", "Maya and Rui have not decided whether to spend Easter in Porto or somewhere new.", True),
    ("sample", "Open questions.md", "Rui wants to visit Seville in the spring.", False),
    ("kepano", "Notes/Evergreen notes turn ideas into objects that you can manipulate.md",
     "Evergreen notes let you build complex ideas up from smaller composable ideas.", True),
    ("kepano", "Notes/Evergreen notes turn ideas into objects that you can manipulate.md",
     "Evergreen notes should be reviewed every week.", False),
    ("kepano", "Notes/2023-09-12 Meeting with Steph.md", "Discussed the book Out of Control with Steph, on emergence.", True),
    ("kepano", "Notes/2023-09-12 Meeting with Steph.md", "Steph recommended reading Thinking in Systems next.", False),
)
DEFAULT_VAULTS = {"sample": REPOSITORY / "sample_vault", "kepano": REPOSITORY / "tests/data/kepano-obsidian"}


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@dataclass(frozen=True)
class OwnNotes:
    """The vault's notes without a layer: each passage's unit and stored vector, each note's whole vector."""

    paths: list[str]  # by note row
    passage_notes: np.ndarray  # the note row of each passage
    passage_where: list[str]  # each passage's headings and lines
    unit: np.ndarray  # passages' vectors made unit again
    stored: np.ndarray  # passages' rows as the index keeps them
    whole: np.ndarray  # notes' whole vectors
    sentence_notes: np.ndarray  # the note row of each sentence
    sentences: np.ndarray  # each sentence of each passage, embedded alone (unit)


def own_notes(vault: Vault) -> OwnNotes:
    store = vault.store
    rows = [row for row in store.notes.all() if row.layer is None and row.label is not None]
    paths = [row.path for row in rows]
    whole_blobs = dict(store.vectors.for_labels([row.label for row in rows if row.label is not None]))
    whole = np.vstack([blob_to_vector(whole_blobs[row.label]) for row in rows if row.label is not None])
    owned = store.passages.of_notes([row.label for row in rows if row.label is not None])
    index = {row.label: number for number, row in enumerate(rows)}
    passages = [(index[note], passage) for note, found in owned.items() for passage in found]
    blobs = dict(store.vector_store(PASSAGE_SPACE).for_labels([passage.label for _, passage in passages]))
    kept = [(note, passage) for note, passage in passages if passage.label in blobs]
    stored = np.vstack([blob_to_vector(blobs[passage.label]) for _, passage in kept])
    norms = np.linalg.norm(stored, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    where = [f"{' > '.join(passage.headings)} lines {passage.start_line}-{passage.end_line}" for _, passage in kept]
    bodies = store.passages.bodies([passage.label for _, passage in kept])
    split = [(note, sentence) for note, passage in kept for sentence in sentences_of(bodies.get(passage.label, ""))]
    embedded = vault.derived.embedder().embed([sentence for _, sentence in split]) if split else np.zeros((0, whole.shape[1]), np.float32)
    return OwnNotes(paths, np.asarray([note for note, _ in kept]), where, stored / norms, stored, whole,
                    np.asarray([note for note, _ in split], dtype=np.int64), embedded)


def sentences_of(text: str) -> list[str]:
    """A passage's lines, each cut at its sentences' ends: the finest unit a fact is said in."""
    found = []
    for line in text.splitlines():
        for sentence in re.split(r"(?<=[.!?])\s+", line.strip().lstrip("-*#> ").strip()):
            if len(sentence.split()) >= 3:
                found.append(sentence)
    return found


def memory_vectors(vault: Vault, texts: Sequence[str]) -> dict[str, np.ndarray]:
    """Each text remembered (L3) into the vault; the whole-note vector its index keeps."""
    paths = {text: vault.remember(text, layer="L3", now=NOW).path for text in texts}
    rows = {row.path: row for row in vault.store.notes.all()}
    blobs = dict(vault.store.vectors.for_labels([rows[path].label for path in paths.values() if rows[path].label is not None]))
    REMEMBERED.update(paths)
    return {text: blob_to_vector(blobs[rows[path].label]) for text, path in paths.items()}


REMEMBERED: dict[str, str] = {}  # each memory's path in the vault it was last remembered into


def shipped(vault: Vault, memory: str) -> list[OwnMatch]:
    """What ``remember`` itself compares (own_similar.own_matches): the candidates' best pieces."""
    eligibility = Eligibility(now_us=to_epoch_us(resolve_now(NOW)))
    return own_matches(vault.derived.searcher(), REMEMBERED[memory], memory, eligibility)


def shipped_rows(vault: Vault, pairs: Sequence[tuple[str, str, bool]]) -> list[dict[str, Any]]:
    """Per pair: the shipped method's cosine to its note (None: not among the candidates read),
    and its best other note's."""
    found = []
    for path, memory, holds in pairs:
        matches = shipped(vault, memory)
        mine = [match for match in matches if match.row.path == path]
        others = [match for match in matches if match.row.path != path]
        found.append({"note": path, "memory": memory, "true": holds,
                      "shipped": round(mine[0].score, 3) if mine else None, "says": mine[0].piece.text if mine else None,
                      "shipped_other": {"cosine": round(others[0].score, 3), "note": others[0].row.path,
                                        "says": others[0].piece.text} if others else {"cosine": -1.0, "note": None}})
    return found


def shipped_noise(vault: Vault, texts: Sequence[str], name: str) -> dict[str, Any]:
    bests = [(max((match.score for match in shipped(vault, text)), default=-1.0), text) for text in texts]
    closest = sorted(bests, reverse=True)[:5]
    return {"vault": name, "memories": len(texts),
            "memories_listing_any": {f"{limit:.2f}": sum(score >= limit for score, _ in bests) for limit in THRESHOLDS},
            "closest": [{"cosine": round(score, 3), "memory": text} for score, text in closest]}


def best_per_note(notes: OwnNotes, vector: np.ndarray, kind: str) -> np.ndarray:
    """Per own note, its best cosine to ``vector`` by ``kind`` (whole, passage, scaled)."""
    if kind == "whole":
        result: np.ndarray = notes.whole @ vector
        return result
    if kind == "sentence":
        best = np.full(len(notes.paths), -1.0, dtype=np.float32)
        np.maximum.at(best, notes.sentence_notes, notes.sentences @ vector)
        return best
    scores = (notes.unit if kind == "passage" else notes.stored) @ vector
    best = np.full(len(notes.paths), -1.0, dtype=np.float32)
    np.maximum.at(best, notes.passage_notes, scores)
    return best


KINDS = ("whole", "passage", "scaled", "sentence")
SHIPPED = "shipped"  # own_similar.own_matches: what remember compares


def pair_rows(notes: OwnNotes, vectors: dict[str, np.ndarray], pairs: Sequence[tuple[str, str, bool]]) -> list[dict[str, Any]]:
    """Per pair (note path, memory, true): each kind's cosine to its note, and the best other note's."""
    at = {path: row for row, path in enumerate(notes.paths)}
    found = []
    for path, memory, holds in pairs:
        row: dict[str, Any] = {"note": path, "memory": memory, "true": holds}
        for kind in KINDS:
            best = best_per_note(notes, vectors[memory], kind)
            own = float(best[at[path]])
            best[at[path]] = -1.0
            other = int(np.argmax(best))
            row[kind] = round(own, 3)
            row[f"{kind}_other"] = {"cosine": round(float(best[other]), 3), "note": notes.paths[other]}
        scores = notes.unit @ vectors[memory]
        mine = np.flatnonzero(notes.passage_notes == at[path])
        row["passage_where"] = notes.passage_where[int(mine[np.argmax(scores[mine])])]
        found.append(row)
    return found


def rates(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Per kind and threshold: the share of true pairs caught, of false pairs listed, and of pairs
    that list another note of the vault (of which none was written to match)."""
    table: dict[str, Any] = {}
    trues = [row for row in rows if row["true"]]
    falses = [row for row in rows if not row["true"]]
    for kind in KINDS:
        table[kind] = {f"{limit:.2f}": {
            "true_caught": round(sum(row[kind] >= limit for row in trues) / max(len(trues), 1), 3),
            "false_listed": round(sum(row[kind] >= limit for row in falses) / max(len(falses), 1), 3),
            "other_listed": round(sum(row[f"{kind}_other"]["cosine"] >= limit for row in rows) / max(len(rows), 1), 3),
        } for limit in THRESHOLDS}
    if rows and SHIPPED in rows[0]:
        table[SHIPPED] = {f"{limit:.2f}": {
            "true_caught": round(sum((row[SHIPPED] or -1) >= limit for row in trues) / max(len(trues), 1), 3),
            "false_listed": round(sum((row[SHIPPED] or -1) >= limit for row in falses) / max(len(falses), 1), 3),
            "other_listed": round(sum(row[f"{SHIPPED}_other"]["cosine"] >= limit for row in rows) / max(len(rows), 1), 3),
        } for limit in THRESHOLDS}
    return {"true": len(trues), "false": len(falses), "not_a_candidate": sum(row.get(SHIPPED, 0) is None for row in trues),
            "by_kind": table}


def noise(notes: OwnNotes, vectors: dict[str, np.ndarray], name: str) -> dict[str, Any]:
    """Memories about none of the vault's notes: how many own notes each would list, per kind."""
    result: dict[str, Any] = {"vault": name, "own_notes": len(notes.paths), "passages": len(notes.unit),
                              "memories": len(vectors), "by_kind": {}}
    for kind in KINDS:
        bests = np.vstack([best_per_note(notes, vector, kind) for vector in vectors.values()])
        result["by_kind"][kind] = {f"{limit:.2f}": {
            "mean_listed": round(float(np.minimum((bests >= limit).sum(axis=1), 5).mean()), 4),
            "memories_listing_any": int((bests >= limit).any(axis=1).sum()),
        } for limit in THRESHOLDS}
        top = np.argsort(-bests.max(axis=1))[:5]
        texts = list(vectors)
        result["by_kind"][kind]["closest"] = [
            {"cosine": round(float(bests[row].max()), 3), "memory": texts[row], "note": notes.paths[int(np.argmax(bests[row]))]}
            for row in top]
    return result


def planted_vault(root: Path) -> list[tuple[str, str, bool]]:
    """A person's daily notes, each holding one first sentence among ordinary lines; the pairs."""
    (root / "daily").mkdir(parents=True)
    pairs: list[tuple[str, str, bool]] = []
    table = [(first, second, True) for _, first, second in PARAPHRASES] + [(first, second, True) for _, first, second in UPDATES]
    table += [(first, second, False) for _, first, second in RELATED] + [(*CLIMBING, True)]
    for number, (first, second, holds) in enumerate(table):
        day = f"2026-{1 + number // 28:02d}-{1 + number % 28:02d}"
        lines = [FILLERS[(number + step) % len(FILLERS)] for step in range(3)]
        body = f"# {day}\n\n{lines[0]} {first} {lines[1]}\n\n- {lines[2]}\n"
        (root / "daily" / f"{day}.md").write_text(body, encoding="utf-8")
        pairs.append((f"daily/{day}.md", second, holds))
    return pairs


def copied(workdir: Path, name: str, source: Path) -> Path:
    root = workdir / name
    shutil.copytree(source, root, ignore=shutil.ignore_patterns(".vaultmem"))
    return root


def run(workdir: Path, vaults: dict[str, Path]) -> dict[str, Any]:
    result: dict[str, Any] = {"thresholds": [f"{limit:.2f}" for limit in THRESHOLDS], "missing_vaults": [],
                              "planted": {}, "real": {}, "noise": []}
    log("planting daily notes")
    root = workdir / "planted"
    pairs = planted_vault(root)
    with Vault(root) as vault:
        vault.index()
        vectors = memory_vectors(vault, list(dict.fromkeys(memory for _, memory, _ in pairs)))
        rows = [{**row, **extra} for row, extra in zip(pair_rows(own_notes(vault), vectors, pairs), shipped_rows(vault, pairs),
                                                       strict=True)]
    result["planted"] = {**rates(rows), "pairs": rows}
    noise_texts = list(dict.fromkeys(text for table in (PARAPHRASES, UPDATES, RELATED) for _, first, second in table
                                     for text in (first, second)))
    real_rows: list[dict[str, Any]] = []
    for name, source in vaults.items():
        if not source.is_dir():
            result["missing_vaults"].append({"vault": name, "path": str(source)})
            log(f"vault {name} not found at {source}: its pairs are left out (said in missing_vaults)")
            continue
        log(f"indexing {name}")
        with Vault(copied(workdir, name, source)) as vault:
            vault.index()
            asked = [(path, memory, holds) for vault_name, path, memory, holds in REAL if vault_name == name]
            vectors = memory_vectors(vault, [memory for _, memory, _ in asked] + noise_texts)
            notes = own_notes(vault)
            real_rows.extend({"vault": name, **row, **extra} for row, extra in zip(pair_rows(notes, vectors, asked),
                                                                                   shipped_rows(vault, asked), strict=True))
            result["noise"].append({**noise(notes, {text: vectors[text] for text in noise_texts}, name),
                                    SHIPPED: shipped_noise(vault, noise_texts, name)})
    result["real"] = {**rates(real_rows), "pairs": real_rows}
    return result


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_similar_passages", description=__doc__.split("\n\n")[0])
    parser.add_argument("--workdir", type=Path, help="build the vaults here and keep them (default: a temp folder)")
    parser.add_argument("--vault", action="append", default=[], metavar="NAME=PATH",
                        help="a real vault to copy, by the name REAL's pairs use (big, bm); sample and kepano are the repo's")
    args = parser.parse_args(argv)
    vaults = dict(DEFAULT_VAULTS)
    for item in args.vault:
        name, _, path = item.partition("=")
        vaults[name] = Path(path)
    with tempfile.TemporaryDirectory(prefix="vaultmem-similar-passages-") as temporary:
        workdir = args.workdir or Path(temporary)
        workdir.mkdir(parents=True, exist_ok=True)
        print(json.dumps(run(workdir, vaults), indent=1))


if __name__ == "__main__":
    main()
