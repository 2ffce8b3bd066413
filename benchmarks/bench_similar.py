"""The threshold of ``remember``'s ``similar`` list: paraphrases caught vs other notes listed.

``remember`` names the live notes of its layer whose whole-note vector is within a cosine
threshold of the new note's (remembering.py ``similar_notes``). This measures, with the
vault's real default embedder and the vectors the index keeps, for thresholds 0.80 … 0.88:

- ``paraphrases``: pairs of short memories an agent writes twice in other words (written
  here, across preferences, people, plans and procedures) — the share ``similar`` catches;
- ``updates``: the same slot with a new value ("window seat" → "now aisle seat") — worth
  listing: the agent should supersede the old note;
- ``related``: different memories on one topic ("Maya's dentist is Dr. Sousa" / "Maya's
  dentist appointment is Friday") — the share listed, which should stay low;
- vaults with no duplicates written on purpose: the sample vault, kepano-obsidian (its
  notes carry no layer, which ``remember`` always gives: ``similar`` never lists them;
  reported for scale), the generated 10k vault (150–300-word notes) and the generated
  conversations vault (2,949 one-line turns, the shape of agent memories) — per note, how
  many ``similar`` entries a ``remember`` of it would list (at most 5) on average, and the
  share of notes with at least one.

Every short memory is written with ``Vault.remember`` into a fresh vault and compared by the
vector its index keeps, as ``remember`` compares it.

    python -m benchmarks.bench_similar [--workdir DIR] [--notes 10000]

Prints one JSON document on stdout; progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from vaultmem import Vault
from vaultmem.consolidate import exact_similar_pairs
from vaultmem.lifecycle import resolve_now, to_epoch_us
from vaultmem.search import SIMILAR_MAX
from vaultmem.storage import Eligibility
from vaultmem.storage.vector_blobs import decode_rows
from vaultmem.vectors import blob_to_vector

from .evalsets.conversations import generate_conversations
from .generate import DEFAULT_SEED, generate_vault

REPOSITORY = Path(__file__).resolve().parent.parent
THRESHOLDS = tuple(round(0.80 + step / 100, 2) for step in range(9))
NOW = "2026-11-30T12:00:00+00:00"  # the generated vaults' notion of today

PARAPHRASES = (  # (topic, first, second): one memory said twice
    ("preference", "User prefers window seats on flights.", "User prefers a window seat when flying."),
    ("preference", "Maya takes oat milk in her coffee, never dairy.", "Maya drinks her coffee with oat milk and avoids dairy."),
    ("preference", "The user likes dark mode in every editor.", "User wants dark themes in all their editors."),
    ("preference", "Prefers meetings after 10am, never early mornings.", "Does not want meetings before 10 in the morning."),
    ("preference", "User is vegetarian and does not eat fish.", "The user eats no meat or fish: vegetarian."),
    ("preference", "Sam prefers tea over coffee in the afternoon.", "In the afternoons Sam would rather have tea than coffee."),
    ("preference", "User wants answers short, without bullet lists.", "Keep replies brief and avoid bullet points for this user."),
    ("preference", "Priya likes to be called Pri.", "Priya prefers the nickname Pri."),
    ("preference", "The user prefers metric units.", "Use metric units for this user, not imperial."),
    ("preference", "User is allergic to peanuts.", "The user has a peanut allergy."),
    ("person", "Maya's dentist is Dr. Sousa.", "Dr. Sousa is Maya's dentist."),
    ("person", "Tom's birthday is on March 14.", "Tom was born on the 14th of March."),
    ("person", "Lena works as a nurse at St. Mary's hospital.", "Lena is a nurse; she works at St Mary's Hospital."),
    ("person", "Kenji lives in Osaka with his two cats.", "Kenji has two cats and lives in Osaka."),
    ("person", "Alice is the team lead for the payments project.", "The payments project is led by Alice."),
    ("person", "Dad's phone number changed to 555-0142.", "Dad has a new phone number: 555-0142."),
    ("person", "Noah is learning Portuguese for his move to Lisbon.", "Noah studies Portuguese because he is moving to Lisbon."),
    ("person", "Grandma cannot climb stairs anymore.", "Grandma is no longer able to use the stairs."),
    ("person", "Yusuf's daughter started school this September.", "This September Yusuf's daughter began school."),
    ("person", "Hannah is allergic to cats.", "Hannah has a cat allergy."),
    ("plan", "Trip to Berlin on November 12, flight at 7am.", "Flying to Berlin on 12 November, departing 7 in the morning."),
    ("plan", "The Harbor standup moves to 9:45 from next week.", "From next week the Harbor standup is at 09:45."),
    ("plan", "Renew the passport before the end of March.", "Passport must be renewed by end of March."),
    ("plan", "Dinner with Lucas on Friday at 8pm at the Thai place.", "Friday 8pm: dinner with Lucas at the Thai restaurant."),
    ("plan", "User plans to run the Lisbon half marathon in October.", "The user is training for the Lisbon half marathon this October."),
    ("plan", "Move the release to Thursday because of the holiday.", "The release is pushed to Thursday due to the holiday."),
    ("plan", "Book the car service for next Tuesday.", "Schedule the car's service appointment next Tuesday."),
    ("plan", "The team offsite is in Porto in May.", "In May the team offsite will be held in Porto."),
    ("plan", "Call the landlord about the broken heater tomorrow.", "Tomorrow, phone the landlord about the heater that is broken."),
    ("plan", "Quarterly review with the board on June 3.", "Board quarterly review scheduled for 3 June."),
    ("procedure", "To deploy Harbor, run make release and then tag the commit.", "Harbor deploys: run make release, then tag the commit."),
    ("procedure", "Restart the VPN client if the build server is unreachable.", "When the build server cannot be reached, restart the VPN client."),
    ("procedure", "Always run the tests before pushing to main.", "Run the test suite before every push to main."),
    ("procedure", "Rotate the API keys every 90 days.", "API keys must be rotated every ninety days."),
    ("procedure", "Back up the database before running migrations.", "Take a database backup before any migration runs."),
    ("procedure", "Use the staging account for load tests, never production.", "Load tests go against the staging account, not production."),
    ("procedure", "Expense reports are due on the last Friday of each month.", "Submit expense reports by the last Friday of the month."),
    ("procedure", "To reset the router, hold the button for ten seconds.", "Hold the router's reset button for 10 seconds to reset it."),
    ("procedure", "Water the plants on Mondays and Thursdays.", "The plants need watering every Monday and Thursday."),
    ("procedure", "Send the weekly report to Maya by Friday noon.", "The weekly report goes to Maya before noon on Friday."),
)

UPDATES = (  # the same slot, a new value: the agent should supersede the old note
    ("preference", "User prefers window seats on flights.", "User now prefers aisle seats on flights."),
    ("person", "Maya's dentist is Dr. Sousa.", "Maya switched dentists: her dentist is now Dr. Alves."),
    ("plan", "The Harbor standup is at 9:30.", "The Harbor standup moved to 9:45."),
    ("person", "Dad's phone number is 555-0142.", "Dad's phone number changed to 555-0177."),
    ("person", "Kenji lives in Osaka.", "Kenji moved from Osaka to Kyoto."),
    ("plan", "Dinner with Lucas on Friday at 8pm.", "Dinner with Lucas moved to Saturday at 7pm."),
    ("person", "Alice leads the payments project.", "Alice handed the payments project lead to Bob."),
    ("procedure", "Rotate the API keys every 90 days.", "Rotate the API keys every 30 days from now on."),
    ("plan", "The team offsite is in Porto in May.", "The team offsite moved from Porto to Braga."),
    ("preference", "Maya takes oat milk in her coffee.", "Maya now takes almond milk in her coffee instead of oat."),
)

RELATED = (  # different memories on one topic: not the same note
    ("person", "Maya's dentist is Dr. Sousa.", "Maya's dentist appointment is Friday."),
    ("preference", "User prefers window seats on flights.", "User prefers aisle seats on trains."),
    ("preference", "User prefers window seats on flights.", "User always flies with carry-on luggage only."),
    ("preference", "Maya takes oat milk in her coffee.", "Maya drinks her coffee at 8am every morning."),
    ("person", "Tom's birthday is on March 14.", "Tom's wedding anniversary is on June 2."),
    ("person", "Lena works as a nurse at St. Mary's hospital.", "Lena's husband works at the city library."),
    ("person", "Kenji lives in Osaka with his two cats.", "Kenji's sister lives in Tokyo."),
    ("person", "Alice is the team lead for the payments project.", "Bob is the team lead for the search project."),
    ("plan", "Trip to Berlin on November 12, flight at 7am.", "Trip to Madrid on December 3, train at 9am."),
    ("plan", "Trip to Berlin on November 12.", "The hotel in Berlin is booked near Alexanderplatz."),
    ("plan", "The Harbor standup moves to 9:45 from next week.", "The Harbor retrospective is every second Thursday."),
    ("plan", "Renew the passport before the end of March.", "Renew the driving licence before the end of June."),
    ("plan", "Dinner with Lucas on Friday at 8pm.", "Lunch with Lucas's sister on Sunday."),
    ("procedure", "To deploy Harbor, run make release and then tag the commit.", "To roll back Harbor, redeploy the previous tag."),
    ("procedure", "Always run the tests before pushing to main.", "Never force-push to main."),
    ("procedure", "Rotate the API keys every 90 days.", "API keys are stored in the team vault."),
    ("procedure", "Back up the database before running migrations.", "The database backups are kept for 30 days."),
    ("person", "User is allergic to peanuts.", "User is allergic to penicillin."),
    ("preference", "User is vegetarian.", "User is trying to cut down on sugar."),
    ("person", "Hannah is allergic to cats.", "Hannah has a dog named Biscuit."),
    ("person", "Dad's phone number changed to 555-0142.", "Mom's phone number is 555-0199."),
    ("person", "Noah is learning Portuguese for his move to Lisbon.", "Noah is learning to play the guitar."),
    ("procedure", "Expense reports are due on the last Friday of each month.", "Timesheets are due every Monday morning."),
    ("procedure", "Water the plants on Mondays and Thursdays.", "Feed the cat twice a day."),
    ("plan", "The team offsite is in Porto in May.", "The company party is in Lisbon in December."),
    ("preference", "User prefers meetings after 10am.", "User blocks Friday afternoons for focus time."),
    ("preference", "User likes dark mode in every editor.", "User uses Vim keybindings in VS Code."),
    ("person", "Priya likes to be called Pri.", "Priya's last name is Raman."),
    ("preference", "User wants answers short, without bullet lists.", "User wants code examples in Python."),
    ("plan", "Quarterly review with the board on June 3.", "Quarterly review with the board on September 9."),
    ("plan", "Call the landlord about the broken heater tomorrow.", "Pay the rent to the landlord on the first of the month."),
    ("preference", "User prefers metric units.", "User prefers the 24-hour clock."),
    ("procedure", "Send the weekly report to Maya by Friday noon.", "Send the monthly invoice to Acme by the 5th."),
    ("person", "Grandma cannot climb stairs anymore.", "Grandma lives in a ground-floor flat in Leeds."),
    ("person", "Yusuf's daughter started school this September.", "Yusuf's son started university this September."),
    ("procedure", "Use the staging account for load tests.", "The staging account is shared with the QA team."),
)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def remembered_vectors(root: Path, texts: Sequence[str]) -> dict[str, np.ndarray]:
    """Each text remembered once into a fresh vault; the whole-note vector its index keeps."""
    root.mkdir(parents=True)
    paths: dict[str, str] = {}
    with Vault(root) as vault:
        for text in texts:
            paths[text] = vault.remember(text, layer="L3", now=NOW).path
        rows = {row.path: row for row in vault.store.notes.all()}
        stored = dict(vault.store.vectors.for_labels([row.label for row in rows.values() if row.label is not None]))
    return {text: blob_to_vector(stored[rows[path].label]) for text, path in paths.items()}


def pair_table(pairs: Sequence[tuple[str, str, str]], vectors: dict[str, np.ndarray]) -> dict[str, Any]:
    cosines = [float(vectors[first] @ vectors[second]) for _, first, second in pairs]
    return {
        "pairs": len(pairs),
        "listed_share": {f"{limit:.2f}": round(sum(cosine >= limit for cosine in cosines) / len(pairs), 3) for limit in THRESHOLDS},
        "cosines": sorted(({"cosine": round(cosine, 3), "topic": topic, "first": first, "second": second}
                           for (topic, first, second), cosine in zip(pairs, cosines, strict=True)),
                          key=lambda item: item["cosine"]),
    }


def vault_listing(vault: Vault, name: str) -> dict[str, Any]:
    """Per live note with a layer: how many ``similar`` entries remembering it would list.

    A note without a layer is counted among layer-less notes, as consolidation pairs them
    (``remember`` always gives a layer, so ``similar`` itself never lists one)."""
    vault.index()
    notes = list(vault.store.notes.recent(Eligibility(now_us=to_epoch_us(resolve_now(NOW)))))
    blobs = dict(vault.store.vectors.for_labels([note.label for note in notes]))
    notes = [note for note in notes if note.label in blobs]
    labels = np.asarray([note.label for note in notes], dtype=np.int64)
    matrix = decode_rows([blobs[note.label] for note in notes])
    layers = [note.layer for note in notes]
    pairs = exact_similar_pairs(labels, matrix, layers, THRESHOLDS[0])
    paths = {note.label: note.path for note in notes}
    with_layer = sum(layer is not None for layer in layers)
    result: dict[str, Any] = {"vault": name, "live_notes": len(notes), "with_layer": with_layer, "by_threshold": {}}
    for limit in THRESHOLDS:
        counts: dict[int, int] = {}
        for (low, high), cosine in pairs.items():
            if cosine >= limit:
                counts[low] = counts.get(low, 0) + 1
                counts[high] = counts.get(high, 0) + 1
        listed = [min(count, SIMILAR_MAX) for count in counts.values()]
        result["by_threshold"][f"{limit:.2f}"] = {
            "pairs": sum(cosine >= limit for cosine in pairs.values()),
            "mean_listed_per_note": round(sum(listed) / len(notes), 4) if notes else 0.0,
            "share_of_notes_with_any": round(len(listed) / len(notes), 4) if notes else 0.0,
        }
    top = sorted(pairs.items(), key=lambda item: -item[1])[:5]
    result["closest_pairs"] = [{"cosine": round(cosine, 3), "pair": [paths[low], paths[high]]} for (low, high), cosine in top]
    return result


def copied_vault(workdir: Path, name: str, source: Path) -> Vault:
    root = workdir / name
    shutil.copytree(source, root, ignore=shutil.ignore_patterns(".vaultmem"))
    return Vault(root)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_similar", description=__doc__.split("\n\n")[0])
    parser.add_argument("--workdir", type=Path, help="build the vaults here and keep them (default: a temp folder)")
    parser.add_argument("--notes", type=int, default=10_000, help="notes of the generated vault (default 10000)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="vaultmem-similar-") as temporary:
        workdir = args.workdir or Path(temporary)
        workdir.mkdir(parents=True, exist_ok=True)
        print(json.dumps(run(workdir, args.notes), indent=1))


def run(workdir: Path, notes: int) -> dict[str, Any]:
    texts = list(dict.fromkeys(text for table in (PARAPHRASES, UPDATES, RELATED) for _, first, second in table
                               for text in (first, second)))
    log(f"remembering {len(texts)} short memories")
    vectors = remembered_vectors(workdir / "memories", texts)
    result: dict[str, Any] = {"thresholds": [f"{limit:.2f}" for limit in THRESHOLDS],
                              "paraphrases": pair_table(PARAPHRASES, vectors),
                              "updates": pair_table(UPDATES, vectors),
                              "related": pair_table(RELATED, vectors), "vaults": []}
    for name, source in (("sample", REPOSITORY / "sample_vault"), ("kepano", REPOSITORY / "tests/data/kepano-obsidian")):
        log(f"indexing {name}")
        with copied_vault(workdir, name, source) as vault:
            result["vaults"].append(vault_listing(vault, name))
    log("generating the conversations vault")
    generate_conversations(workdir / "conversations")
    with Vault(workdir / "conversations") as vault:
        result["vaults"].append(vault_listing(vault, "conversations"))
    log(f"generating {notes} notes")
    generate_vault(workdir / "generated", notes, DEFAULT_SEED)
    with Vault(workdir / "generated") as vault:
        result["vaults"].append(vault_listing(vault, f"generated-{notes}"))
    return result


if __name__ == "__main__":
    main()
