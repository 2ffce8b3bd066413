"""consolidate: near-duplicates of one layer become one note, and nothing is lost."""

from __future__ import annotations

import json
import os
import random
import subprocess
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from helpers import NOW, SAMPLE_VAULT, run_cli, snapshot_files, utf16_bytes, write_file
from vaultmem import Vault
from vaultmem.config import DEFAULT_THRESHOLD, ConsolidateSettings
from vaultmem.consolidate import (
    MIN_TEXT_WORDS,
    Candidate,
    ConsolidationReport,
    OwnWords,
    components_and_refusals,
    components_by_day,
    components_kept_apart,
    connected_components,
    different_works,
    exact_similar_pairs,
    make_scope,
    name_numbers,
    name_vocabulary,
    own_pairs_alike_in_words,
    pairs_sharing_words,
    text_numbers,
    text_vocabulary,
    text_words,
    unreliable_reason,
    work_of,
    why_kept,
    without_common_words,
)
from vaultmem.errors import NoteWritten, Surface, UsageError, respelled
from vaultmem.lifecycle import resolve_now, to_epoch_us
from vaultmem.notes import read_note
from vaultmem.storage import Eligibility
from vaultmem.vectors import VectorIndex, blob_to_vector

TRIO = ["preferences/coffee-milk-details.md", "preferences/milk-in-coffee.md", "preferences/oat-milk.md"]
STANDUP = ["conversations/2026-11-25-standup-time-confirmed.md", "conversations/2026-11-24-standup-moved.md"]
LINKING = ["Maya.md", "preferences/coffee-order.md", "projects/Harbor.md"]


def open_vault(root: Path, wordllama: object) -> Vault:
    vault = Vault(root, embedder=wordllama)
    vault.index()
    return vault


@pytest.fixture
def vault(sample_vault: Path, wordllama: object) -> Iterator[Vault]:
    """The sample vault: two clusters (the oat-milk trio, the standup pair)."""
    with open_vault(sample_vault, wordllama) as opened:
        yield opened


def member_sets(report: ConsolidationReport) -> set[frozenset[str]]:
    return {frozenset(cluster.as_dict()["members"]) for cluster in report.clusters}


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True).stdout


def sample_text(relative: str) -> str:
    return (SAMPLE_VAULT / relative).read_text(encoding="utf-8")


def trio_vault(root: Path, edits: dict[str, tuple[str, str]] | None = None) -> Path:
    """The sample's three oat-milk paraphrases alone in a vault, with frontmatter edits."""
    for relative in TRIO:
        text = sample_text(relative)
        old, new = (edits or {}).get(relative, ("", ""))
        if old:
            assert old in text, f"{old!r} not in {relative}"
            text = text.replace(old, new)
        write_file(root, relative, text)
    return root


# ------------------------------------------------------------------ finding clusters


def test_three_paraphrases_form_one_cluster_and_the_longest_is_canonical(vault: Vault) -> None:
    report = vault.consolidate(now=NOW)
    clusters = {cluster.canonical.path: cluster for cluster in report.clusters}
    assert set(clusters) == {TRIO[0], STANDUP[0]}
    trio = clusters[TRIO[0]]
    assert set(trio.as_dict()["members"]) == set(TRIO) and trio.layer == "L3"
    assert trio.canonical.chars == max(member.chars for member in trio.members)
    assert DEFAULT_THRESHOLD <= trio.similarity <= 1 and trio.weakest_pair <= trio.similarity
    assert set(clusters[STANDUP[0]].as_dict()["members"]) == set(STANDUP)


def test_the_same_fact_in_another_layer_and_unrelated_notes_are_not_merged(vault: Vault) -> None:
    clustered = {path for cluster in vault.consolidate(now=NOW).clusters for path in cluster.as_dict()["members"]}
    assert clustered == set(TRIO) | set(STANDUP)
    assert "preferences/coffee-order.md" not in clustered  # L4, 0.83–0.86 to the trio


def test_an_identical_note_in_another_layer_is_not_merged(vault_dir: Path, wordllama: object) -> None:
    body = sample_text("preferences/oat-milk.md").split("---\n", 2)[2]
    write_file(vault_dir, "a/semantic.md", f"---\nlayer: L3\nexpires_at: 2027-05-01\n---\n{body}")
    write_file(vault_dir, "b/procedural.md", f"---\nlayer: L4\n---\n{body}")
    write_file(vault_dir, "c/no-layer.md", body)
    with open_vault(vault_dir, wordllama) as vault:
        assert vault.consolidate(now=NOW).clusters == ()
        write_file(vault_dir, "d/semantic-again.md", f"---\nlayer: semantic\nexpires_at: 2027-06-01\n---\n{body}")
        write_file(vault_dir, "e/no-layer-again.md", body)
        memories = member_sets(vault.consolidate(now=NOW))
        found = member_sets(vault.consolidate(now=NOW, any_note=True))
    # Layer-less notes are the person's: left alone unless asked, then paired only with each other.
    assert memories == {frozenset({"a/semantic.md", "d/semantic-again.md"})}
    assert found == {frozenset({"a/semantic.md", "d/semantic-again.md"}), frozenset({"c/no-layer.md", "e/no-layer-again.md"})}


DAILY = ("## Notes\n\nCalled the plumber about the leaking kitchen tap; he comes Tuesday at 10. "
         "Bought oat milk and the Kevin Kelly book on the way {}.\n\n![[Daily.base]]\n")


def test_the_persons_own_notes_are_consolidated_only_when_asked(vault_dir: Path) -> None:
    # Regression (issue 11 §3): two of the person's daily notes (no layer, cosine 0.97)
    # were proposed for merging by default, and MCP consolidate(apply=true) would have done it.
    # Named without a day here: daily notes of two days are never merged at all (see
    # test_notes_that_record_different_days_are_never_merged_however_alike).
    trio_vault(vault_dir)
    write_file(vault_dir, "Notes/Errands.md", DAILY.format("home"))
    write_file(vault_dir, "Notes/Errands (copy).md", DAILY.format("back"))
    before = snapshot_files(vault_dir)
    result = run_cli(vault_dir, "consolidate", "--json", "--threshold", "0.85")
    report = json.loads(result.stdout)
    assert [set(cluster["members"]) for cluster in report["clusters"]] == [set(TRIO)]
    assert (report["scope"], report["any_note"], report["not_memories"]) == ("memories", False, 2)
    text = run_cli(vault_dir, "consolidate", "--threshold", "0.85").stdout
    assert "scope: memories (notes with a layer); 2 note(s) without a layer not considered (--any-note includes them)" in text
    applied = run_cli(vault_dir, "consolidate", "--apply", "--json", "--threshold", "0.85")
    assert applied.exit_code == 0
    assert {path: value for path, value in snapshot_files(vault_dir).items() if path.startswith("Notes/")} == {
        path: value for path, value in before.items() if path.startswith("Notes/")}
    widened = json.loads(run_cli(vault_dir, "consolidate", "--any-note", "--json", "--threshold", "0.85").stdout)
    assert [cluster["members"] for cluster in widened["clusters"]] == [["Notes/Errands (copy).md", "Notes/Errands.md"]]
    assert (widened["scope"], widened["any_note"], widened["not_memories"]) == ("every note", True, 0)
    any_note = run_cli(vault_dir, "consolidate", "--any-note", "--threshold", "0.85").stdout
    assert "scope: every note" in any_note
    assert "\n1. no layer: 2 notes, similarity" in any_note and "layer -" not in any_note, any_note  # was "1. layer -: …"


WEEKLY = ("Weekly report of the platform team, written on Sunday evening for the Monday sync.\n\n## Wins\n\n"
          "- Shipped the {} to the staging cluster; the team demoed it on Friday.\n\n## Blockers\n\n"
          "- Waiting on {} for the vendor contract review.\n\n## Next week\n\n"
          "- Plan the {}, book the retro and update the weekly report.\n")
APRIL, MAY = ("billing export", "legal", "Q2 roadmap"), ("search rewrite", "finance", "offsite")


@pytest.mark.parametrize(("first", "second", "heads"), [
    # A day in the file name (cosine 0.92: one template, two weeks).
    ("insights/weekly-report/2026-04-12-weekly.md", "insights/weekly-report/2026-05-19-weekly.md", ("", "")),
    # The vault's daily-note format: DD-MM-YYYY is no day by its shape alone.
    ("Journal/12-04-2026.md", "Journal/19-05-2026.md", ("", "")),
    # A date property.
    ("reports/platform weekly.md", "reports/platform weekly (2).md", ("---\ndate: 2026-04-12\n---\n", "---\ndate: 2026-05-19\n---\n")),
], ids=["file name", "daily-note format", "date property"])
def test_notes_that_record_different_days_are_never_merged_however_alike(
        vault_dir: Path, first: str, second: str, heads: tuple[str, str]) -> None:
    # Trial on a real vault: --any-note proposed 2026-04-12-weekly.md for merging into
    # 2026-05-19-weekly.md (0.892), and --apply would have archived a week's report.
    write_file(vault_dir, ".obsidian/daily-notes.json", json.dumps({"folder": "Journal", "format": "DD-MM-YYYY"}))
    write_file(vault_dir, first, heads[0] + WEEKLY.format(*APRIL))
    write_file(vault_dir, second, heads[1] + WEEKLY.format(*MAY))
    before = snapshot_files(vault_dir)
    report = json.loads(run_cli(vault_dir, "consolidate", "--any-note", "--json").stdout)
    assert report["clusters"] == []
    assert report["different_days"] == 1
    assert "kept apart: 1 pair(s) at or above the threshold whose notes record different days" in run_cli(
        vault_dir, "consolidate", "--any-note").stdout
    assert json.loads(run_cli(vault_dir, "consolidate", "--any-note", "--apply", "--json").stdout)["merged"] == []
    assert snapshot_files(vault_dir) == before


def test_notes_of_one_day_and_memories_written_on_different_days_still_merge(vault_dir: Path, wordllama: object) -> None:
    # `created` says when a memory was written, not what day it records: the same fact
    # remembered on two days is what consolidation is for.
    write_file(vault_dir, "hermes-memories/2026-07-15.md", WEEKLY.format(*APRIL))
    write_file(vault_dir, "hermes-memories/2026-07-15-futureproof-vault-plan.md", WEEKLY.format(*MAY))
    write_file(vault_dir, "memories/weekly.md", "---\nlayer: L3\ncreated: 2026-04-12T09:00:00Z\nexpires_at: 2027-04-12\n---\n"
               + WEEKLY.format(*APRIL))
    write_file(vault_dir, "memories/weekly again.md", "---\nlayer: L3\ncreated: 2026-05-19T09:00:00Z\nexpires_at: 2027-05-19\n---\n"
               + WEEKLY.format(*MAY))
    with open_vault(vault_dir, wordllama) as vault:
        report = vault.consolidate(any_note=True, now=NOW)
    assert member_sets(report) == {frozenset({"hermes-memories/2026-07-15.md", "hermes-memories/2026-07-15-futureproof-vault-plan.md"}),
                                   frozenset({"memories/weekly.md", "memories/weekly again.md"})}
    assert report.plan.different_days == 0


def test_memories_named_for_two_days_still_merge_only_a_persons_dated_pages_are_kept_apart(
        sample_vault: Path, wordllama: object) -> None:
    # conversations/2026-11-24-standup-moved.md and 2026-11-25-standup-time-confirmed.md (L2,
    # cosine 0.910) say one decision twice, on two days: what consolidation is for. The day rule
    # is for a person's pages (no layer), not for memories.
    with open_vault(sample_vault, wordllama) as vault:
        report = vault.consolidate(now=NOW)
    assert member_sets(report) == {frozenset(TRIO), frozenset(STANDUP)}
    assert report.plan.different_days == 0


def test_a_very_high_threshold_merges_nothing(vault: Vault) -> None:
    assert vault.consolidate(threshold=0.999, now=NOW).clusters == ()


def test_expired_notes_are_left_out_unless_asked(vault_dir: Path, wordllama: object) -> None:
    trio_vault(vault_dir)
    with open_vault(vault_dir, wordllama) as vault:
        assert len(vault.consolidate(now="2028-01-01").clusters) == 0  # all three expired by then
        assert member_sets(vault.consolidate(now="2028-01-01", include_expired=True)) == {frozenset(TRIO)}


def test_notes_whose_metadata_cannot_be_trusted_are_left_out_and_reported(vault_dir: Path, wordllama: object) -> None:
    trio_vault(vault_dir, {TRIO[2]: ("layer: L3\n", "layer: L3\nnote: a: b\n")})  # YAML that does not load
    write_file(vault_dir, "daily/2026-11-01.md", "## Notes\n\n![[Daily.base]]\n")
    write_file(vault_dir, "daily/2026-11-02.md", "## Notes\n\n![[Daily.base]]\n")
    with open_vault(vault_dir, wordllama) as vault:
        report = vault.consolidate(now=NOW, threshold=0.85, any_note=True)  # the daily notes have no layer
    assert member_sets(report) == {frozenset(TRIO[:2])}
    reasons = {item.path: item.reason for item in report.plan.left_out}
    assert "frontmatter does not load" in reasons[TRIO[2]]
    # Two empty daily notes look identical to the embedder but say nothing twice.
    assert "too little text" in reasons["daily/2026-11-01.md"] and "too little text" in reasons["daily/2026-11-02.md"]



def test_a_memory_in_the_persons_archive_folder_is_never_merged_with_a_current_one(vault_dir: Path, wordllama: object) -> None:
    """Was: a PARA person's 4 Archive/ note, the longer of two, was kept as canonical: the current
    memory went to vaultmem's archive and its fact was found since only as a past note, lowered
    tenfold and warned "set aside" (set_aside.py)."""
    text = "The landlord is Sofia Marques, phone +351 913 222 333, rent due on the first of the month"
    write_file(vault_dir, "memories/landlord.md", f"---\nlayer: L3\nexpires_at: 2027-06-01\n---\n{text}.\n")
    write_file(vault_dir, "4 Archive/landlord old.md", f"---\nlayer: L3\nexpires_at: 2027-06-01\n---\n{text}, paid by transfer.\n")
    with open_vault(vault_dir, wordllama) as vault:
        for everything in (False, True):
            report = vault.consolidate(now=NOW, threshold=0.8, all=everything)
            assert not report.clusters
            reasons = {item.path: item.reason for item in report.plan.left_out}
            assert "4 Archive/, your folder of past notes" in reasons["4 Archive/landlord old.md"]


def test_window_and_all_agree_on_a_small_vault(vault: Vault) -> None:
    by_window = vault.consolidate(now=NOW).as_dict()
    by_all = vault.consolidate(all=True, now=NOW).as_dict()
    assert by_window["clusters"] == by_all["clusters"] and by_window["compared"] == by_all["compared"]
    assert by_all["all"] is True and by_window["window"] == 2000


def test_a_window_source_finds_duplicates_outside_the_window(vault_dir: Path, wordllama: object) -> None:
    trio_vault(vault_dir)
    for relative in STANDUP:
        write_file(vault_dir, relative, sample_text(relative))
    old = 1_577_836_800  # 2020-01-01: recency is then the frontmatter `created` where there is one
    for path in vault_dir.rglob("*.md"):
        os.utime(path, (old, old))
    os.utime(vault_dir / TRIO[2], None)  # oat-milk.md edited just now: the most recent note
    with open_vault(vault_dir, wordllama) as vault:
        newest = vault.consolidate(window=1, now=NOW)
        assert newest.plan.compared == 1
        # Its two paraphrases are older, outside the window, and still merge with it.
        assert member_sets(newest) == {frozenset(TRIO)}
        assert member_sets(vault.consolidate(window=3, now=NOW)) == {frozenset(TRIO), frozenset(STANDUP)}


def test_contradictory_or_bad_arguments_are_refused(vault: Vault) -> None:
    settings = ConsolidateSettings()
    now = resolve_now(NOW)
    for threshold, window, all_notes in ((0.0, None, False), (1.5, None, False), (None, 0, False), (None, 10, True)):
        with pytest.raises(UsageError):
            make_scope(settings, threshold, window, all_notes, False, now)
    with pytest.raises(UsageError, match="contradicts"):
        vault.consolidate(window=10, all=True)


# ------------------------------------------------------------------ dry run


def test_dry_run_touches_no_file(vault: Vault) -> None:
    before = snapshot_files(vault.root)
    report = vault.consolidate(now=NOW)
    assert report.clusters and not report.applied
    assert snapshot_files(vault.root) == before


def test_cli_dry_run_json_has_the_contract_shape(vault: Vault) -> None:
    before = snapshot_files(vault.root)
    result = run_cli(vault.root, "consolidate", "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert {frozenset(cluster["members"]) for cluster in document["clusters"]} == {frozenset(TRIO), frozenset(STANDUP)}
    for cluster in document["clusters"]:
        assert cluster["canonical"] == cluster["members"][0] and isinstance(cluster["similarity"], float)
    assert document["applied"] is False
    assert snapshot_files(vault.root) == before


def test_cli_text_is_readable_before_deciding(vault: Vault) -> None:
    result = run_cli(vault.root, "consolidate")
    assert result.exit_code == 0, result.output
    assert "keep         preferences/coffee-milk-details.md" in result.stdout
    assert "Maya prefers oat milk in coffee, never dairy" in result.stdout  # titles shown
    assert "Dry run: nothing changed" in result.stdout


def test_cli_window_and_all_together_is_a_usage_error(vault: Vault) -> None:
    result = run_cli(vault.root, "consolidate", "--window", "10", "--all")
    assert result.exit_code == 2
    assert "--window" in result.output and "--all" in result.output


# ------------------------------------------------------------------ apply


def test_apply_merges_metadata_into_the_canonical_and_keeps_its_body(vault_dir: Path, wordllama: object) -> None:
    trio_vault(vault_dir, {TRIO[2]: ("expires_at: 2027-05-01T00:00:00Z", "expires_at: 2028-02-01T00:00:00Z")})
    before = (vault_dir / TRIO[0]).read_bytes()
    with open_vault(vault_dir, wordllama) as vault:
        report = vault.consolidate(apply=True, now=NOW)
        view = vault.get(TRIO[0], now=NOW)
    assert report.applied and report.skipped == []
    assert view.tags == ["health", "dairy", "drinks", "food", "preferences", "coffee"]
    assert view.meta["aliases"] == ["Oat milk, not cow milk — Maya's coffee preference", "Maya prefers oat milk in coffee, never dairy"]
    assert view.meta["merged_from"] == ["preferences/milk-in-coffee", "01M1GJZ1X05GQAPENECFSECZP1"]
    assert view.expires_at == "2028-02-01T00:00:00+00:00"  # the latest of the cluster
    after = (vault_dir / TRIO[0]).read_bytes()
    body = before.split(b"\n---\n", 1)[1]
    # The canonical's body stays byte for byte; what only the merged notes said follows it.
    assert after.split(b"\n---\n", 1)[1].startswith(body)
    assert b'### Merged from "Maya prefers oat milk in coffee, never dairy" (preferences/oat-milk.md)' in after
    # The user's keys keep their order; the new ones are appended.
    assert list(read_note(vault_dir, TRIO[0]).meta) == ["id", "title", "layer", "tags", "created", "expires_at", "aliases", "merged_from"]


UPGRADE_LONG = ("---\nid: upgrade-long\ntitle: Postgres upgrade procedure\nlayer: L3\nexpires_at: 2027-03-01T00:00:00Z\n---\n"
                "Before upgrading the Harbor Postgres cluster, take a full backup with pg_dump, check that the replicas "
                "are in sync, run pg_upgrade with --check first, and schedule the upgrade on a Sunday morning when "
                "traffic is low. After the upgrade, run ANALYZE on every database.\n")
UPGRADE_SHORT = ("---\nid: upgrade-short\ntitle: Postgres upgrade\nlayer: L3\nexpires_at: 2027-02-01T00:00:00Z\n---\n"
                 "Before upgrading the Harbor Postgres cluster take a backup and check the replicas.\n"
                 "Ask Dana before upgrading, ticket QX-7731.\n")


def upgrade_vault(root: Path) -> Path:
    write_file(root, "ops/upgrade.md", UPGRADE_LONG)
    write_file(root, "ops/upgrade-short.md", UPGRADE_SHORT)
    return root


def test_a_fact_only_a_shorter_duplicate_held_is_found_in_the_canonical_after_the_merge(vault_dir: Path, wordllama: object) -> None:
    upgrade_vault(vault_dir)
    with open_vault(vault_dir, wordllama) as vault:
        report = vault.consolidate(threshold=0.75, apply=True, now=NOW)
        assert [cluster.canonical.path for cluster in report.clusters] == ["ops/upgrade.md"]
        hits = vault.search("QX-7731", k=1, now=NOW)
        assert {row.note_label for row in vault.store.passages.fts("7731", 5)} == {vault.store.notes.by_path("ops/upgrade.md").label}
    assert hits[0].path == "ops/upgrade.md" and "QX-7731" in (vault_dir / "ops/upgrade.md").read_text(encoding="utf-8")
    body = read_note(vault_dir, "ops/upgrade.md").body
    # Both lines of the short note are new to the long one (its first says less, in other words).
    assert body == (UPGRADE_LONG.split("---\n")[2] + '\n### Merged from "Postgres upgrade" (ops/upgrade-short.md)\n\n'
                    + UPGRADE_SHORT.split("---\n")[2])
    # The archived original stays byte for byte.
    assert (vault_dir / "_archive/ops/upgrade-short.md").read_text(encoding="utf-8") == UPGRADE_SHORT


@pytest.mark.parametrize("copy", ["preferences/oat-milk (conflicted copy 2024-05-01).md", "preferences/oat-milk 2.md"])
def test_an_identical_sync_copy_merges_into_the_original_not_the_original_into_it(vault_dir: Path, wordllama: object, copy: str) -> None:
    """A copy named ``Note (conflicted copy …).md`` or ``Note 2.md`` sorts before ``Note.md``:
    on equal length the path decided, and the note the person links to was archived."""
    text = sample_text(TRIO[2])
    write_file(vault_dir, TRIO[2], text)
    write_file(vault_dir, copy, text)
    with open_vault(vault_dir, wordllama) as vault:
        [cluster] = vault.consolidate(now=NOW).clusters
    assert cluster.canonical.path == TRIO[2] and [member.path for member in cluster.merged] == [copy]


def test_a_longer_syncthing_copy_merges_its_extra_line_into_the_original(vault_dir: Path, wordllama: object) -> None:
    text = sample_text(TRIO[2])
    copy = "preferences/oat-milk.sync-conflict-20240501-123456-ABCDEFG.md"
    write_file(vault_dir, TRIO[2], text)
    write_file(vault_dir, copy, text + "Sometimes a cortado with oat milk.\n")
    with open_vault(vault_dir, wordllama) as vault:
        report = vault.consolidate(apply=True, now=NOW)
    assert [cluster.canonical.path for cluster in report.clusters] == [TRIO[2]]
    assert "Sometimes a cortado with oat milk." in (vault_dir / TRIO[2]).read_text(encoding="utf-8")
    assert not (vault_dir / copy).exists() and (vault_dir / "_archive" / copy).exists()


PORT_NOW = "---\ntitle: Staging Postgres port\nlayer: L4\n---\nStaging Postgres listens on port 6543 (moved from 5433 on Dec 1)\n"
PORT_BEFORE = "---\ntitle: Staging Postgres port\nlayer: L4\n---\nStaging Postgres listens on port 5433\n"


def test_a_sync_copy_and_its_original_that_both_changed_are_never_merged(vault_dir: Path, wordllama: object) -> None:
    # A trial: the memory was revised to port 6543 while Syncthing kept the old version as a
    # conflict copy; the plan appended "listens on port 5433" to the revised memory.
    copy = "memories/staging-postgres-port.sync-conflict-20261201-101010-ABCDEF7.md"
    write_file(vault_dir, "memories/staging-postgres-port.md", PORT_NOW)
    write_file(vault_dir, copy, PORT_BEFORE)
    before = snapshot_files(vault_dir)
    with open_vault(vault_dir, wordllama) as vault:
        report = vault.consolidate(apply=True, now=NOW)
    assert report.clusters == () and report.merged == []
    assert (report.plan.sync_conflicts, report.as_dict()["sync_conflicts"]) == (1, 1)
    assert snapshot_files(vault_dir) == before
    assert "kept apart: 1 pair(s) at or above the threshold that are a sync tool's copy and its original" in run_cli(
        vault_dir, "consolidate").stdout


def test_no_chain_through_a_third_note_joins_a_sync_copy_to_its_original_when_both_changed() -> None:
    # 1 ~ 3 ~ 2, with 1 the original and 2 its copy: strongest first, 3 joins 1, and 2 stays apart.
    pairs = {(1, 3): 0.95, (2, 3): 0.93, (1, 2): 0.91}
    components, refusals = components_and_refusals(pairs, {}, {}, {}, {1: frozenset({2}), 2: frozenset({1})})
    assert components == [[1, 3]] and refusals == [None, "copies", "copies"]


def test_the_dry_run_shows_what_would_be_appended_and_changes_nothing(vault_dir: Path, wordllama: object) -> None:
    upgrade_vault(vault_dir)
    with open_vault(vault_dir, wordllama):
        pass
    before = snapshot_files(vault_dir)
    result = run_cli(vault_dir, "consolidate", "--threshold", "0.75", "--json")
    notes = json.loads(result.stdout)["clusters"][0]["notes"]
    assert [(entry["path"], entry["appended"]) for entry in notes] == [
        ("ops/upgrade.md", []), ("ops/upgrade-short.md", UPGRADE_SHORT.split("---\n")[2].splitlines())]
    text = run_cli(vault_dir, "consolidate", "--threshold", "0.75").stdout
    assert "+ Ask Dana before upgrading, ticket QX-7731." in text
    assert snapshot_files(vault_dir) == before


def test_the_dry_run_skips_the_cluster_apply_would_skip_and_says_why(vault_dir: Path, wordllama: object) -> None:
    """A member whose `aliases` is a mapping loads, so it is clustered, but the merge cannot
    carry it: apply skips the cluster, and the dry run must say so instead of promising it."""
    trio_vault(vault_dir, {TRIO[2]: ("layer: L3\n", "layer: L3\naliases:\n  nick: oat\n")})
    with open_vault(vault_dir, wordllama) as vault:
        planned = vault.consolidate(now=NOW)
        assert member_sets(planned) == {frozenset(TRIO)}
        [skip] = planned.skipped
        assert skip.canonical == TRIO[0] and "aliases is {'nick': 'oat'}, not a list of text" in skip.reason
    before = snapshot_files(vault_dir)
    text = run_cli(vault_dir, "consolidate").stdout
    assert f"would skip the cluster of {TRIO[0]}: " in text and "aliases is {'nick': 'oat'}" in text
    assert "0 cluster(s), 0 note(s) would be merged" in text and "1 cluster(s) would be skipped" in text
    dry = json.loads(run_cli(vault_dir, "consolidate", "--json").stdout)
    applied = json.loads(run_cli(vault_dir, "consolidate", "--apply", "--json").stdout)
    assert dry["skipped"] == applied["skipped"] == [{"canonical": TRIO[0], "reason": skip.reason}]
    assert applied["merged"] == []
    assert snapshot_files(vault_dir) == before


def test_apply_a_permanent_member_makes_the_canonical_permanent(vault_dir: Path, wordllama: object) -> None:
    trio_vault(vault_dir, {TRIO[1]: ("expires_at: 2027-04-01T00:00:00Z\n", "permanent: true\n")})
    with open_vault(vault_dir, wordllama) as vault:
        vault.consolidate(apply=True, now=NOW)
        view = vault.get(TRIO[0], now=NOW)
    assert "expires_at" not in view.meta and view.meta["permanent"] is True and view.expires_at is None


KEPT_TAGS = ("tags:\n  - health\n  - dairy\n  - drinks\n", "tags: [health, dairy, drinks]\n")
ALIASES_ADDED = ["Oat milk, not cow milk — Maya's coffee preference", "Maya prefers oat milk in coffee, never dairy"]


def test_the_dry_run_lists_the_kept_notes_frontmatter_changes_and_apply_says_it_made_them(vault_dir: Path, wordllama: object) -> None:
    # A kept note's own expires_at: 2026-12-20 became 2027-05-01 while the dry run said nothing of it.
    trio_vault(vault_dir, {TRIO[0]: ("expires_at: 2027-07-15T00:00:00Z", "expires_at: 2026-12-20")})
    text = (vault_dir / TRIO[0]).read_text(encoding="utf-8")
    (vault_dir / TRIO[0]).write_text(text.replace(*KEPT_TAGS), encoding="utf-8")
    with open_vault(vault_dir, wordllama):
        pass
    expiry = "expires_at: 2026-12-20 → 2027-05-01T00:00:00+00:00 (the latest in the cluster: preferences/oat-milk.md)"
    lines = ["   frontmatter of the kept note will change:", f"                {expiry}",
             "                tags: + food, preferences, coffee",
             "                aliases: + " + ", ".join(f'"{alias}"' for alias in ALIASES_ADDED),
             "                merged_from: + preferences/milk-in-coffee, 01M1GJZ1X05GQAPENECFSECZP1"]
    dry = run_cli(vault_dir, "consolidate")
    assert "\n".join(lines) in dry.stdout, dry.stdout
    expected = {"expires_at": {"before": "2026-12-20", "after": "2027-05-01T00:00:00+00:00",
                               "why": "the latest in the cluster: preferences/oat-milk.md"},
                "tags": {"added": ["food", "preferences", "coffee"]}, "aliases": {"added": ALIASES_ADDED},
                "merged_from": {"added": ["preferences/milk-in-coffee", "01M1GJZ1X05GQAPENECFSECZP1"]}}
    [cluster] = json.loads(run_cli(vault_dir, "consolidate", "--json").stdout)["clusters"]
    assert cluster["kept_changes"] == expected and cluster["canonical"] == TRIO[0]  # added beside the old keys
    applied = run_cli(vault_dir, "consolidate", "--apply")
    assert "\n".join([lines[0].replace("will change", "changed"), *lines[1:]]) in applied.stdout, applied.stdout
    after = (vault_dir / TRIO[0]).read_text(encoding="utf-8")
    assert "tags: [health, dairy, drinks, food, preferences, coffee]\n" in after  # the flow list stays one
    assert "expires_at: 2027-05-01T00:00:00+00:00\n" in after


GARAGE = "For the North Hill garage job on Saturday, bring trailer + heavy gloves; start at 8, the skip comes at 9."


def test_a_title_remember_made_from_the_text_is_not_made_an_alias_by_a_merge(vault_dir: Path, wordllama: object) -> None:
    # Trial on a real vault: the kept note got `aliases: "For the North Hill garage job on
    # Saturday, bring trailer + heavy gloves; star…"` — the merged note's first line, cut.
    write_file(vault_dir, "memories/garage.md", "---\ntitle: North Hill garage job\naliases: [garage job]\nlayer: L3\n"
               "expires_at: 2027-06-01\n---\nNorth Hill garage job on Saturday: bring the trailer and heavy gloves, "
               "start at 8; the skip arrives at 9.\n")
    with open_vault(vault_dir, wordllama) as vault:
        kept = vault.remember("For the North Hill garage job on Saturday, bring the trailer and heavy gloves; start at 8 sharp, "
                              "because the skip arrives at 9 and the neighbours want the drive clear by noon.", layer="L3", now=NOW)
        merged = vault.remember(GARAGE, layer="L3", now=NOW)
        assert merged.title == "For the North Hill garage job on Saturday, bring trailer + heavy gloves; start…"  # cut at a word's end
        dry = vault.consolidate(now=NOW)
        assert [cluster.canonical.path for cluster in dry.clusters] == [kept.path]
        # Still an alias: a title someone chose, and the merged note's own aliases.
        chosen = ["North Hill garage job", "garage job"]
        assert dry.as_dict()["clusters"][0]["kept_changes"]["aliases"] == {"added": chosen}
        assert '                aliases: + "North Hill garage job", "garage job"\n' in run_cli(vault_dir, "consolidate").stdout
        vault.consolidate(apply=True, now=NOW)
        view = vault.get(kept.path, now=NOW)
        assert view.meta["aliases"] == chosen
        assert vault.get(merged.id, now=NOW).path == kept.path  # through merged_from
        assert GARAGE in view.body  # its first line, which the title was made from, is appended


def test_the_dry_run_says_a_permanent_member_removes_the_kept_notes_expiry(vault_dir: Path, wordllama: object) -> None:
    trio_vault(vault_dir, {TRIO[1]: ("expires_at: 2027-04-01T00:00:00Z\n", "permanent: true\n")})
    with open_vault(vault_dir, wordllama) as vault:
        report = vault.consolidate(now=NOW)
        [cluster] = report.as_dict()["clusters"]
        assert cluster["kept_changes"]["expires_at"] == {"before": "2027-07-15T00:00:00+00:00", "after": None,
                                                         "why": f"permanent wins: {TRIO[1]} is permanent: true"}
        assert cluster["kept_changes"]["permanent"] == {"before": None, "after": "true", "why": f"permanent wins: {TRIO[1]} is permanent: true"}
        applied = vault.consolidate(apply=True, plan=report.plan, now=NOW).as_dict()
    assert applied["merged"][0]["kept_changes"] == cluster["kept_changes"]


def test_a_kept_notes_own_contradiction_is_named_when_permanence_removes_its_expiry(vault_dir: Path, wordllama: object) -> None:
    trio_vault(vault_dir, {TRIO[0]: ("expires_at: 2027-07-15T00:00:00Z\n", "permanent: true\nexpires_at: 2027-07-15T00:00:00Z\n")})
    with open_vault(vault_dir, wordllama):
        pass
    text = run_cli(vault_dir, "consolidate").stdout
    assert "expires_at: 2027-07-15T00:00:00+00:00 → removed (permanent wins: the kept note is permanent: true)" in text


def test_a_skipped_cluster_lists_no_frontmatter_changes(vault_dir: Path, wordllama: object) -> None:
    trio_vault(vault_dir)
    with open_vault(vault_dir, wordllama) as vault:
        report = vault.consolidate(now=NOW)
        (vault_dir / TRIO[2]).write_text(sample_text(TRIO[2]) + "\nEdited.\n", encoding="utf-8")
        applied = vault.consolidate(apply=True, plan=report.plan, now=NOW).as_dict()
    assert applied["skipped"] and applied["merged"] == [] and applied["clusters"][0]["kept_changes"] is None


def test_apply_archives_the_merged_notes_out_of_search(vault: Vault) -> None:
    originals = {path: (vault.root / path).read_bytes() for path in TRIO[1:]}
    report = vault.consolidate(apply=True, now=NOW)
    for path, data in originals.items():
        assert not (vault.root / path).exists()
        assert (vault.root / "_archive" / path).read_bytes() == data  # recoverable, untouched
    merged = {item.path: item.archived_to for entry in report.merged for item in entry.merged}
    assert merged[TRIO[2]] == "_archive/" + TRIO[2]
    # The JSON contract (consolidate --json, MCP): the same keys as before they were typed.
    document = json.loads(json.dumps(report.as_dict()))
    trio = next(entry for entry in document["merged"] if entry["canonical"] == TRIO[0])
    assert sorted(trio["merged"], key=lambda item: item["path"]) == [
        {"path": path, "archived_to": "_archive/" + path} for path in sorted(TRIO[1:])]
    hits = {hit.path for hit in vault.search("Maya oat milk coffee dairy", k=20, now=NOW)}
    assert TRIO[0] in hits and not hits & (set(TRIO[1:]) | {"_archive/" + path for path in TRIO[1:]})


def test_apply_rewrites_every_link_form_and_leaves_other_files_alone(vault: Vault) -> None:
    links = (
        "[[oat-milk]] [[oat-milk|the label]] [[oat-milk#Heading]] [[oat-milk#Heading|label]]\n"
        "[[preferences/oat-milk]] [[preferences/oat-milk.md|p]] ![[oat-milk]] [[Oat-Milk]]\n"
        "| table | [[oat-milk\\|cell]] |\n"
        "`[[oat-milk]]` stays code, [[coffee-order]] stays, [[oat-milk-recipes]] is another note\n"
        "```\n[[oat-milk]] in a fence\n```\n"
        "``[[oat-milk]] ` in a double-backtick span``\n"
    )
    write_file(vault.root, "links.md", f"---\ntitle: Links\nrelated: \"[[milk-in-coffee]]\"\n---\n{links}")
    vault.index()
    before = snapshot_files(vault.root)
    report = vault.consolidate(apply=True, now=NOW)
    assert sorted(report.links_rewritten) == sorted(["links.md", *LINKING])
    text = (vault.root / "links.md").read_text(encoding="utf-8")
    assert text == (
        "---\ntitle: Links\nrelated: \"[[coffee-milk-details]]\"\n---\n"
        "[[coffee-milk-details]] [[coffee-milk-details|the label]] [[coffee-milk-details#Heading]] "
        "[[coffee-milk-details#Heading|label]]\n"
        "[[preferences/coffee-milk-details]] [[preferences/coffee-milk-details|p]] ![[coffee-milk-details]] "
        "[[coffee-milk-details]]\n"
        "| table | [[coffee-milk-details\\|cell]] |\n"
        "`[[oat-milk]]` stays code, [[coffee-order]] stays, [[oat-milk-recipes]] is another note\n"
        "```\n[[oat-milk]] in a fence\n```\n"
        "``[[oat-milk]] ` in a double-backtick span``\n"
    )
    assert "[[2026-11-25-standup-time-confirmed]]" in (vault.root / "projects/Harbor.md").read_text(encoding="utf-8")
    assert "[[coffee-milk-details|the oat milk note]]" in (vault.root / "preferences/coffee-order.md").read_text(encoding="utf-8")
    expected_changes = {*TRIO, *STANDUP, *LINKING, "links.md"}
    after = snapshot_files(vault.root)
    for path, state in before.items():
        if path not in expected_changes:
            assert after[path] == state, f"{path} was modified"


def test_apply_leaves_a_link_in_a_utf16_note_as_it_is_and_says_so(vault: Vault) -> None:
    # Its [[oat-milk]] is indexed now (read as UTF-16), but the rewrite reads UTF-8: it found no
    # link between the NUL bytes and left it dangling without a word.
    windows = vault.root / "imports/windows.md"
    windows.parent.mkdir()
    windows.write_bytes(utf16_bytes("Maya's milk: see [[oat-milk]].\r\n"))
    vault.index()
    before = windows.read_bytes()
    report = vault.consolidate(apply=True, now=NOW)
    assert "preferences/oat-milk.md" in {item.path for merged in report.merged for item in merged.merged}
    assert windows.read_bytes() == before and "imports/windows.md" not in report.links_rewritten
    assert [warning for warning in report.warnings if warning.startswith("imports/windows.md")] == [
        "imports/windows.md: links to merged notes were not rewritten (imports/windows.md is saved as UTF-16 LE, not "
        "UTF-8; nothing was written: vaultmem writes notes only as UTF-8, and Obsidian reads only UTF-8. Re-save it as "
        "UTF-8 (in the editor that saved it: Save As, encoding UTF-8), then try again); point them at the canonical by hand"]


def test_apply_says_nothing_of_a_utf16_note_that_links_to_no_merged_note(vault: Vault) -> None:
    """Was: every UTF-16 note in the vault was reported as "links to merged notes were not
    rewritten", though it linked to none of them."""
    windows = vault.root / "imports/windows.md"
    windows.parent.mkdir()
    windows.write_bytes(utf16_bytes("Installed Git for Windows; see [[Maya]].\r\n"))
    vault.index()
    report = vault.consolidate(apply=True, now=NOW)
    assert "preferences/oat-milk.md" in {item.path for merged in report.merged for item in merged.merged}
    assert [warning for warning in report.warnings if "imports/windows.md" in warning] == []


def test_apply_rewrites_markdown_links_relative_rooted_and_by_name(vault: Vault) -> None:
    links = (
        "[oat](oat-milk.md) [oat](../preferences/oat-milk.md#Heading \"title\") [root](/preferences/oat-milk.md)\n"
        "[path](preferences/oat-milk.md) ![embed](../preferences/oat-milk.md) [angled](<../preferences/oat-milk.md>)\n"
        "[web](https://example.com/oat-milk.md) [image](oat-milk.png) `[code](oat-milk.md)` [other](coffee-order.md)\n"
    )
    write_file(vault.root, "journal/links.md", f"# Links\n{links}")
    vault.index()
    report = vault.consolidate(apply=True, now=NOW)
    assert "journal/links.md" in report.links_rewritten
    assert (vault.root / "journal/links.md").read_text(encoding="utf-8") == "# Links\n" + (
        "[oat](coffee-milk-details.md) [oat](../preferences/coffee-milk-details.md#Heading \"title\") "
        "[root](/preferences/coffee-milk-details.md)\n"
        "[path](preferences/coffee-milk-details.md) ![embed](../preferences/coffee-milk-details.md) "
        "[angled](<../preferences/coffee-milk-details.md>)\n"
        "[web](https://example.com/oat-milk.md) [image](oat-milk.png) `[code](oat-milk.md)` [other](coffee-order.md)\n"
    )


def test_apply_rewrites_canvas_cards_and_leaves_ignored_canvases_alone(vault: Vault) -> None:
    canvas = (
        '{\n\t"nodes":[\n'
        '\t\t{"id":"a1","type":"file","file":"preferences/oat-milk.md","x":0,"y":0,"width":400,"height":400},\n'
        '\t\t{"id":"a2","type":"text","text":"Maya: [[milk-in-coffee]] and [[coffee-order]]\\ncaf\\u00e9","x":500,"y":0},\n'
        '\t\t{"id":"a3","type":"file","file":"preferences/coffee-order.md","x":0,"y":500}\n'
        '\t],\n\t"edges":[{"id":"e1","fromNode":"a1","toNode":"a3"}]\n}'
    )
    write_file(vault.root, "boards/coffee.canvas", canvas)
    write_file(vault.root, ".obsidian/hidden.canvas", canvas)
    write_file(vault.root, "_archive/old.canvas", canvas)
    report = vault.consolidate(apply=True, now=NOW)
    assert "boards/coffee.canvas" in report.links_rewritten and "boards/coffee.canvas" in report.touched
    rewritten = (vault.root / "boards/coffee.canvas").read_text(encoding="utf-8")
    assert rewritten == canvas.replace('"file":"preferences/oat-milk.md"', '"file":"preferences/coffee-milk-details.md"').replace(
        '"text":"Maya: [[milk-in-coffee]] and [[coffee-order]]\\ncaf\\u00e9"', '"text":"Maya: [[coffee-milk-details]] and [[coffee-order]]\\ncafé"')
    assert json.loads(rewritten)["edges"] == json.loads(canvas)["edges"]
    assert (vault.root / ".obsidian/hidden.canvas").read_text(encoding="utf-8") == canvas
    assert (vault.root / "_archive/old.canvas").read_text(encoding="utf-8") == canvas


def test_the_dry_run_names_the_files_and_canvases_whose_links_apply_rewrites(vault: Vault) -> None:
    write_file(vault.root, "links.md", "---\ntitle: Links\n---\nSee [[oat-milk]] and [[coffee-order]].\n")
    write_file(vault.root, "boards/coffee.canvas", '{"nodes":[{"id":"t","type":"text","text":"[[milk-in-coffee]]"}]}')
    vault.index()
    before = snapshot_files(vault.root)
    planned = vault.consolidate(now=NOW)
    assert snapshot_files(vault.root) == before
    assert {"links.md", "boards/coffee.canvas"} <= set(planned.links_rewritten)
    applied = vault.consolidate(apply=True, plan=planned.plan, now=NOW)
    assert sorted(applied.links_rewritten) == sorted(planned.links_rewritten)


def test_a_canvas_text_card_with_half_an_emoji_is_rewritten_and_stays_valid_utf8(vault: Vault) -> None:
    canvas = '{"nodes":[{"id":"t","type":"text","text":"\\ud83d [[oat-milk]] \\ud83d\\ude00"}]}'
    write_file(vault.root, "boards/half.canvas", canvas)
    report = vault.consolidate(apply=True, now=NOW)
    assert "boards/half.canvas" in report.links_rewritten and report.merged
    rewritten = (vault.root / "boards/half.canvas").read_bytes().decode("utf-8")  # strict UTF-8
    assert rewritten == '{"nodes":[{"id":"t","type":"text","text":"\\ud83d [[coffee-milk-details]] \U0001f600"}]}'
    assert json.loads(rewritten)["nodes"][0]["text"] == "\ud83d [[coffee-milk-details]] \U0001f600"


def test_apply_twice_merges_nothing_new(vault: Vault) -> None:
    vault.consolidate(apply=True, now=NOW)
    before = snapshot_files(vault.root)
    again = vault.consolidate(apply=True, now=NOW)
    assert again.clusters == () and again.merged == []
    assert snapshot_files(vault.root) == before


def test_a_file_edited_after_planning_skips_only_its_cluster(vault: Vault) -> None:
    plan = vault.consolidate(now=NOW).plan
    edited = vault.root / TRIO[2]
    edited.write_text(edited.read_text(encoding="utf-8") + "She tried pea milk once.\n", encoding="utf-8")
    edited_bytes, canonical_bytes = edited.read_bytes(), (vault.root / TRIO[0]).read_bytes()
    report = vault.consolidate(apply=True, plan=plan)
    assert [skip.canonical for skip in report.skipped] == [TRIO[0]]
    assert TRIO[2] in report.skipped[0].reason and "changed" in report.skipped[0].reason
    assert json.loads(json.dumps(report.as_dict()))["skipped"] == [{"canonical": TRIO[0], "reason": report.skipped[0].reason}]
    assert edited.read_bytes() == edited_bytes and (vault.root / TRIO[0]).read_bytes() == canonical_bytes
    assert (vault.root / TRIO[1]).exists()  # not archived either
    assert [entry.canonical for entry in report.merged] == [STANDUP[0]]  # the other cluster proceeded


def test_a_member_edited_while_its_cluster_is_merged_undoes_the_cluster_whole(
        sample_vault: Path, tmp_path: Path, wordllama: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """The canonical is written and links rewritten; then the person edits a merged note
    just before it is archived. Its cluster is undone, never "merged" while the new text
    reaches nothing; the other cluster stands."""
    import shutil

    from vaultmem import merge_apply

    # What the vault looks like when only the standup cluster is merged.
    expected_root = shutil.copytree(sample_vault, tmp_path / "expected")
    with open_vault(expected_root, wordllama) as expected_vault:
        plan = expected_vault.consolidate(now=NOW).plan
        only_standup = type(plan)(plan.scope, tuple(c for c in plan.clusters if c.canonical.path == STANDUP[0]), plan.compared, plan.left_out)
        expected_vault.consolidate(apply=True, plan=only_standup, now=NOW)
    edited = sample_vault / TRIO[2]
    real_archive = merge_apply.archive_note

    def archive_after_an_edit(paths: object, relative: str, expected_hash: str) -> object:
        if relative == TRIO[2]:
            with open(edited, "a", encoding="utf-8") as handle:
                handle.write("She tried pea milk once.\n")
        return real_archive(paths, relative, expected_hash)  # type: ignore[arg-type]

    monkeypatch.setattr(merge_apply, "archive_note", archive_after_an_edit)
    with open_vault(sample_vault, wordllama) as vault:
        report = vault.consolidate(apply=True, now=NOW)
    assert [entry.canonical for entry in report.merged] == [STANDUP[0]]
    assert [skip.canonical for skip in report.skipped] == [TRIO[0]] and TRIO[2] in report.skipped[0].reason
    assert "pea milk" in edited.read_text(encoding="utf-8")
    assert not list((sample_vault / "_archive").rglob("oat-milk.md")) and not list((sample_vault / "_archive").rglob("milk-in-coffee.md"))
    for relative in (*TRIO, *STANDUP, *LINKING):
        if relative != TRIO[2] and (expected_root / relative).exists():
            assert (sample_vault / relative).read_bytes() == (expected_root / relative).read_bytes(), relative
    assert set(report.touched) == {change.path for change in report.changes}
    assert not set(TRIO) & set(report.touched)  # written, then undone: nothing of it to index or commit


def test_a_folder_swapped_for_a_symlink_out_during_apply_is_written_nowhere(vault: Vault, tmp_path: Path) -> None:
    import shutil

    plan = vault.consolidate(now=NOW).plan
    outside = tmp_path / "outside-preferences"
    shutil.copytree(vault.root / "preferences", outside)  # the same bytes: only containment can tell
    before = snapshot_files(outside)
    shutil.rmtree(vault.root / "preferences")
    (vault.root / "preferences").symlink_to(outside)
    report = vault.consolidate(apply=True, plan=plan)
    assert snapshot_files(outside) == before  # was: the canonical rewritten outside the vault
    assert [skip.canonical for skip in report.skipped] == [TRIO[0]] and "outside the vault" in report.skipped[0].reason
    assert [entry.canonical for entry in report.merged] == [STANDUP[0]]


def test_auto_commit_makes_one_commit_of_exactly_the_touched_files(sample_vault: Path, wordllama: object) -> None:
    write_file(sample_vault, ".vaultmem.toml", "auto_commit = true\n")
    git(sample_vault, "init", "-q")
    git(sample_vault, "config", "user.email", "maya@example.com")
    git(sample_vault, "config", "user.name", "Maya")
    git(sample_vault, "add", "-A")
    git(sample_vault, "commit", "-qm", "start")
    with open_vault(sample_vault, wordllama) as vault:
        report = vault.consolidate(apply=True, now=NOW)
    assert git(sample_vault, "rev-list", "--count", "HEAD").strip() == "2"
    assert report.commit == git(sample_vault, "rev-parse", "HEAD").strip()
    changed = set(git(sample_vault, "show", "--name-only", "--no-renames", "--format=", "HEAD").split())
    archived = {"_archive/" + path for path in (*TRIO[1:], *STANDUP[1:])}
    assert changed == {*TRIO, *STANDUP, *archived, *LINKING}
    assert git(sample_vault, "status", "--porcelain") == ""
    assert "vaultmem consolidate: merged 3 notes into 2 notes" in git(sample_vault, "log", "-1", "--format=%B")


# ------------------------------------------------------------------ ANN against exact


TOPICS = {
    "sailing": "boat mast sail harbour wind tide anchor keel rope deck knot mooring jib hull dinghy regatta skipper buoy marina gust",
    "baking": "flour yeast dough oven crust loaf sourdough starter knead butter sugar rye crumb pastry icing whisk batter cake scone",
    "garden": "tomato seedling compost soil mulch weed hose trellis basil greenhouse pruning shears bulbs lavender rake spade roots",
    "finance": "invoice budget tax refund pension mortgage savings interest salary receipt expense ledger accountant dividend broker",
    "running": "marathon interval tempo stride shoes pace hill sprint recovery stretch track mileage blister trainer relay lap",
    "astronomy": "telescope eyepiece nebula comet moon orbit galaxy planet tripod meteor eclipse constellation star lens zenith",
    "kitchen": "knife skillet simmer garlic onion broth risotto pepper saucepan lid ladle spatula roast marinade chili stew",
    "travel": "passport luggage boarding gate airport visa hostel itinerary train platform ticket suitcase ferry customs map",
    "music": "guitar chord rehearsal drummer tuning amplifier bass melody lyrics concert setlist metronome piano choir tempo",
    "cars": "engine tyre brake clutch gearbox mechanic oil battery exhaust garage windscreen dashboard mileage coolant jack",
}
COMMON = ("the a we then after before today maya said about with for on at it was is and but so that this next week "
          "morning evening again because while still").split()


def synthetic_note(rng: random.Random, topic: str) -> str:
    words = [rng.choice(TOPICS[topic].split()) if rng.random() < 0.45 else rng.choice(COMMON) for _ in range(70)]
    return " ".join(words).capitalize() + ".\n"


def paraphrase(rng: random.Random, text: str) -> str:
    words = text.split()
    for _ in range(4):
        words[rng.randrange(len(words))] = rng.choice(COMMON)
    return " ".join(words) + "\n"


def synthetic_vault(root: Path, seed: int = 7) -> None:
    """240 notes over ten topics and five layer settings, with paraphrased copies."""
    rng = random.Random(seed)
    layers = ["L1", "L2", "L3", "L4", None]
    for index in range(240):
        topic = list(TOPICS)[index % len(TOPICS)]
        layer = layers[index % len(layers)]
        head = f"---\nlayer: {layer}\n" + ("" if layer == "L4" else "expires_at: 2031-01-01\n") + "---\n" if layer else ""
        body = synthetic_note(rng, topic)
        write_file(root, f"{topic}/note-{index:03d}.md", head + body)
        if index % 12 == 0:
            write_file(root, f"{topic}/copy-{index:03d}.md", head + paraphrase(rng, body))


def exact_clusters(vault: Vault, threshold: float) -> set[frozenset[str]]:
    """Every same-layer pair over all vectors by one exact matrix product, then components."""
    pool = vault.store.notes.recent(Eligibility(now_us=to_epoch_us(resolve_now(NOW))))
    keep = [note for note in pool if unreliable_reason(note) is None]
    vectors = dict(vault.store.vectors.for_labels([note.label for note in keep]))
    labels = np.asarray([note.label for note in keep])
    matrix = np.stack([blob_to_vector(vectors[note.label]) for note in keep])
    pairs = exact_similar_pairs(labels, matrix, [note.layer for note in keep], threshold, block=64)
    paths = {note.label: note.path for note in keep}
    # The same rule as consolidate: your own notes numbered apart by their names (note-019 / note-119) stay apart.
    numbers = {note.label: name_numbers(note.path, set(paths.values())) for note in keep if note.layer is None}
    components, _, _ = components_kept_apart(pairs, {}, numbers)
    return {frozenset(paths[label] for label in component) for component in components}


def test_the_ann_sweep_finds_the_clusters_an_exact_product_finds(vault_dir: Path, wordllama: object) -> None:
    synthetic_vault(vault_dir)
    with open_vault(vault_dir, wordllama) as vault:
        VectorIndex(vault.store, wordllama.dimension).fold(force=True)
        # One more paraphrase after the fold: it lives in the delta, the rest in the HNSW snapshot.
        head, _, body = (vault_dir / "sailing/note-000.md").read_text(encoding="utf-8").rpartition("---\n")
        write_file(vault_dir, "sailing/late-copy.md", head + "---\n" + paraphrase(random.Random(1), body))
        vault.index()
        stats = vault.stats()
        assert stats.vectors_in_snapshot >= 250 and stats.vectors_in_delta == 1
        threshold = 0.93
        by_ann = member_sets(vault.consolidate(all=True, threshold=threshold, now=NOW, any_note=True))
        by_exact = exact_clusters(vault, threshold)
    assert by_ann == by_exact
    assert frozenset({"sailing/note-000.md", "sailing/copy-000.md", "sailing/late-copy.md"}) in by_ann
    assert len(by_ann) >= 20  # every paraphrased copy found its original


def test_sources_the_graph_search_loses_are_answered_exactly(vault: Vault, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = member_sets(vault.consolidate(all=True, now=NOW))

    def lost(self: VectorIndex, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        # What hnswlib returns when it cannot reach a region of the graph: other notes, not the query.
        return np.full((len(queries), k), -1, dtype=np.int64), np.zeros((len(queries), k), dtype=np.float32)

    monkeypatch.setattr(VectorIndex, "neighbours", lost)
    assert member_sets(vault.consolidate(all=True, now=NOW)) == expected == {frozenset(TRIO), frozenset(STANDUP)}


# ------------------------------------------------------------------ pure core


def test_connected_components_chain_transitively() -> None:
    assert connected_components([(1, 2), (2, 3), (7, 8)]) == [[1, 2, 3], [7, 8]]
    assert connected_components([]) == []


def test_a_note_without_a_day_close_to_two_days_joins_the_closer_one() -> None:
    # 2 and 4 have no day of their own; 1 and 3 record different days. Without the rule the
    # chain 1–2–3–4 was one cluster, and a merge put the two days in one note.
    pairs = {(1, 2): 0.95, (2, 3): 0.90, (3, 4): 0.99}
    assert components_by_day(pairs, {1: "2026-04-12", 3: "2026-05-19"}) == ([[1, 2], [3, 4]], 1)
    assert components_by_day(pairs, {1: "2026-04-12", 3: "2026-04-12"}) == ([[1, 2, 3, 4]], 0)
    assert components_by_day(pairs, {}) == (connected_components(pairs), 0)
    # A note whose every pair is refused is in no cluster.
    assert components_by_day({(1, 2): 0.9}, {1: "2026-04-12", 2: "2026-05-19"}) == ([], 1)


def test_text_words_ignore_headings_and_embeds() -> None:
    assert text_words("## Notes\n\n![[Daily.base]]\n") == 0
    assert text_words("# Title\nOat milk, never dairy.\n") >= MIN_TEXT_WORDS


def test_a_superseded_note_is_never_merged_even_with_expired_notes_included(vault_dir: Path, wordllama: object) -> None:
    # Trial (s28-life): with --include-expired the retired "14th" appointment clustered with the
    # note that replaced it (cosine 0.90) and the plan appended the old date to the current note;
    # when the retired note was the longer one, it was the canonical: the current note archived.
    with open_vault(vault_dir, wordllama) as vault:
        old = vault.remember("Maya's dentist appointment is on the 14th at 10:00 with Dr. Sousa at the Alvalade clinic.",
                             layer="L2", now="2026-09-01T09:00:00Z")
        new = vault.remember("Maya's dentist appointment moved to the 21st at 11:30 with Dr. Sousa.",
                             layer="L2", supersedes=[old.id], now="2026-09-05T09:00:00Z")
        assert vault.consolidate(now="2026-09-06", include_expired=True, threshold=0.85).clusters == ()
        report = vault.consolidate(now="2026-09-06", include_expired=True, threshold=0.85, apply=True)
        reasons = {item.path: item.reason for item in report.plan.left_out}
        assert f"superseded by {new.id}" in reasons[old.path]
        assert (vault_dir / new.path).read_text(encoding="utf-8").count("14th") == 0
        assert (vault_dir / old.path).is_file()


def test_memories_that_each_hold_a_number_the_other_does_not_are_never_merged(vault_dir: Path, wordllama: object) -> None:
    # Trial (s28-life): the agent remembered the new locker without --supersedes; the two notes
    # (cosine 0.968) were one cluster, the older one kept (equal length), so recall's first hit
    # said "locker is number 14" with the current 27 under a "Merged from" heading below it.
    with open_vault(vault_dir, wordllama) as vault:
        old = vault.remember("Maya's gym locker is number 14 at the Fitness Hut in Alvalade.", layer="L3", ttl="3650d",
                              now="2026-09-01")
        new = vault.remember("Maya's gym locker is number 27 at the Fitness Hut in Alvalade.", layer="L3", ttl="3650d",
                              now="2026-09-02")
        said_again = vault.remember("Maya's gym locker, number 27, is at the Fitness Hut in Alvalade.", layer="L3",
                                    ttl="3650d", now="2026-09-03")
        report = vault.consolidate(now="2026-09-04")
        assert member_sets(report) == {frozenset({new.path, said_again.path})}  # the same number said twice still merges
        assert report.plan.different_numbers >= 1
        assert json.loads(run_cli(vault_dir, "consolidate", "--json").stdout)["different_numbers"] >= 1
        vault.consolidate(now="2026-09-04", apply=True)
        kept_old = (vault_dir / old.path).read_text(encoding="utf-8")
        assert "27" not in kept_old.split("\n---\n", 1)[1]  # its body: the frontmatter's random id may hold "27"


def test_a_note_that_only_adds_a_number_joins_and_no_chain_carries_one_number_into_another() -> None:
    numbers = {1: frozenset({"14"}), 2: frozenset(), 3: frozenset({"27"}), 4: frozenset({"27", "3"})}
    pairs = {(1, 2): 0.95, (2, 3): 0.90, (3, 4): 0.99}
    assert components_kept_apart(pairs, {}, numbers) == ([[1, 2], [3, 4]], 0, 1)
    assert components_kept_apart(pairs, {}, {}) == ([[1, 2, 3, 4]], 0, 0)


def test_a_merged_notes_uses_become_its_canonicals(vault_dir: Path, wordllama: object) -> None:
    # Trial (s28-life): the memory the agent had used was merged into a longer paraphrase, and
    # the canonical read "used 0×" — stale listed it as a memory nobody used.
    with open_vault(vault_dir, wordllama) as vault:
        used = vault.remember("Maya takes her coffee with oat milk, never dairy, and no sugar.", layer="L3",
                              ttl="3650d", now="2026-09-01")
        kept = vault.remember("Maya drinks coffee with oat milk, no dairy and no sugar. She is lactose intolerant.",
                              layer="L3", ttl="3650d", now="2026-09-02")
        vault.mark_used([kept.id], now="2026-09-02T12:00:00Z")
        vault.mark_used([used.id], now="2026-09-03")
        vault.mark_used([used.id], now="2026-09-04")
        report = vault.consolidate(now="2026-09-05", apply=True)
        assert member_sets(report) == {frozenset({used.path, kept.path})}
        shown = vault.get(kept.id)
        assert (shown.use_count, shown.last_used_at) == (3, "2026-09-04T00:00:00+00:00")
        assert [note.path for note in vault.stale(days=3, now="2026-09-06")] == []


@pytest.mark.parametrize(("one", "other"), [
    ("Dentist on Dec 9 at 14:30 with Dr. Sousa.", "Dentist appointment: 9 December, 2:30pm, with Dr. Sousa."),
    ("Standup every Monday at 09:30 in room B.", "Standup every Monday at 9:30 in room B."),
    ("The grocery budget is 1,000 euros a month.", "The grocery budget is 1000 euros a month."),
    ("Pick up at 7:00 p.m. on the 3rd.", "Pick up on 03 at 19:00."),
    ("Call at 12:15 a.m., lunch at 12:30pm.", "Call at 0:15, lunch at 12:30."),
])
def test_one_number_written_two_ways_is_the_same_number(one: str, other: str) -> None:
    # "09:30" and "9:30", "1,000" and "1000", "2:30pm" and "14:30" are one number each: held as
    # different digits, two notes saying one fact twice were kept apart as different numbers.
    assert text_numbers(one) == text_numbers(other)


def test_numbers_that_differ_still_differ_however_they_are_written() -> None:
    assert text_numbers("at 2:30pm") != text_numbers("at 2:30am")
    assert text_numbers("locker 14") != text_numbers("locker 27")
    assert text_numbers("10,000 steps") != text_numbers("1,000 steps")
    assert text_numbers("5 amps") == frozenset({"5"})  # no "am" in "amps"


def test_two_memories_of_one_appointment_with_its_time_written_two_ways_merge(vault_dir: Path, wordllama: object) -> None:
    with open_vault(vault_dir, wordllama) as vault:
        one = vault.remember("Maya's dentist appointment is on Dec 9 at 14:30 with Dr. Sousa at the Alvalade clinic.",
                             layer="L3", ttl="3650d", now="2026-09-01")
        other = vault.remember("Maya's dentist appointment: 9 December, 2:30pm, with Dr. Sousa at the Alvalade clinic.",
                               layer="L3", ttl="3650d", now="2026-09-02")
        report = vault.consolidate(now="2026-09-04")
        assert member_sets(report) == {frozenset({one.path, other.path})}
        assert report.plan.different_numbers == 0


ESC2_TEXT = ("---\ntags:\n  - windows\n  - security\n---\n"
             "An attack against [[Active Directory Certificate Services]] that can cause [[Privilege Escalation]].\n")
ESC7_TEXT = ("---\ntags:\n  - windows\n  - security\n---\n"
             "An attack against [[Active Directory Certificate Services]] that can cause [[Privilege Escalation]].\n")


@pytest.mark.parametrize(("first", "second", "rule"), [
    ("content/ESC2.md", "content/ESC7.md", "different_names"),  # names that share no word: that rule comes first
    ("content/2-to-1 MUX.md", "content/8-to-1 MUX.md", "different_numbers"),
], ids=["ESC2 / ESC7", "2-to-1 MUX / 8-to-1 MUX"])
def test_your_own_notes_numbered_apart_by_their_names_are_never_merged(vault_dir: Path, wordllama: object, first: str,
                                                                       second: str, rule: str) -> None:
    # Trial (s28-trial2, a Zettelkasten of AD CS attacks): ESC2, ESC6 and ESC7 — stubs saying
    # "an attack against ADCS that can cause privilege escalation" — were planned into ESC5.
    write_file(vault_dir, first, ESC2_TEXT)
    write_file(vault_dir, second, ESC7_TEXT)
    with open_vault(vault_dir, wordllama) as vault:
        report = vault.consolidate(now=NOW, any_note=True)
        assert report.clusters == ()
        counts = {key: report.as_dict()[key] for key in ("different_numbers", "different_names", "few_common_words")}
        assert counts == {"different_numbers": 0, "different_names": 0, "few_common_words": 0, rule: 1}
        if rule == "different_numbers":
            assert "in their names too" in run_cli(vault_dir, "consolidate", "--any-note").stdout


def test_a_sync_copy_of_a_numbered_note_still_merges_into_it(vault_dir: Path, wordllama: object) -> None:
    write_file(vault_dir, "content/ESC2.md", ESC2_TEXT)
    write_file(vault_dir, "content/ESC2 (conflicted copy 2024-05-01).md", ESC2_TEXT)
    write_file(vault_dir, "content/ESC2 1.md", ESC2_TEXT)
    with open_vault(vault_dir, wordllama) as vault:
        report = vault.consolidate(now=NOW, any_note=True)
    assert member_sets(report) == {frozenset({"content/ESC2.md", "content/ESC2 (conflicted copy 2024-05-01).md",
                                              "content/ESC2 1.md"})}
    assert report.clusters[0].canonical.path == "content/ESC2.md"


LUHMANN_IDEA = "Spaced repetition beats massed practice for long-term retention of vocabulary, per the study"


def test_luhmann_addressed_zettels_are_never_merged_however_alike(vault_dir: Path, wordllama: object) -> None:
    # Trial (s30, a Zettelkasten): 1a, its continuation 1a1 and its sibling 1b on one idea were
    # planned into 1b — their names' digits (1, 1 1, 1) were one in the other.
    write_file(vault_dir, "zettel/1a Spaced repetition.md", LUHMANN_IDEA + ".\n")
    write_file(vault_dir, "zettel/1a1 Spaced repetition.md", LUHMANN_IDEA + ". But only for adults.\n")
    write_file(vault_dir, "zettel/1b Spaced repetition.md", LUHMANN_IDEA + ", though not for grammar.\n")
    with open_vault(vault_dir, wordllama) as vault:
        report = vault.consolidate(now=NOW, any_note=True)
        assert report.clusters == ()
        # Since s39 three compared notes' shared words are common (consolidate.FEWEST_WITH_COMMON_WORDS):
        # the word rules keep these pairs apart before their names' numbers are asked
        # (test_a_name_s_codes_of_letters_and_digits_count_beside_its_numbers asks those).
        plan = report.plan
        assert plan.different_numbers + plan.few_common_words + plan.different_names == 3
    assert "no near-duplicates found" in run_cli(vault_dir, "consolidate", "--any-note").stdout


def test_a_name_s_codes_of_letters_and_digits_count_beside_its_numbers() -> None:
    paths = {"1a Idea.md", "1a1 Idea.md", "ESC2.md", "COVID19 notes.md", "COVID-19 notes.md"}
    assert name_numbers("1a1 Idea.md", paths) == frozenset({"name 1", "name code 1a1"})
    assert name_numbers("ESC2.md", paths) == frozenset({"name 2", "name code esc2"})
    # One-sided, as numbers are: the code's note holds more, the other nothing it lacks — they may merge.
    covid, spaced = name_numbers("COVID19 notes.md", paths), name_numbers("COVID-19 notes.md", paths)
    assert spaced < covid
    assert components_kept_apart({(1, 2): 0.95}, {}, {1: covid, 2: spaced}) == ([[1, 2]], 0, 0)


def test_the_numbers_of_a_name_are_never_the_numbers_of_a_text() -> None:
    # ESC8's attack steps "1." to "5." held ESC5's 5: as one set, ESC5 joined ESC8's cluster.
    paths = {"content/ESC5.md", "content/ESC8.md", "Note.md", "Note 2.md"}
    assert name_numbers("content/ESC5.md", paths) == frozenset({"name 5", "name code esc5"})
    assert name_numbers("Note 2.md", paths) == frozenset()  # a sync copy's number is the tool's, not the note's
    assert name_numbers("Chapter 2.md", paths) == frozenset({"name 2"})  # no Chapter.md: a chapter
    esc5, esc8 = name_numbers("content/ESC5.md", paths), text_numbers("1. Coerce\n2. Relay\n5. Authenticate\n")
    assert components_kept_apart({(1, 2): 0.9}, {}, {1: esc5, 2: esc8 | name_numbers("content/ESC8.md", paths)}) == ([], 0, 1)


ACTIVE_DIRECTORY_SECURITY = (
    "---\ntags:\n  - security\n---\n# Auth\n- [[Kerberoasting Attack]]\n- [[NTLMv1 Downgrade Attack]]\n# Escalation\n"
    + "".join(f" - [[ESC{number}]]\n" for number in range(1, 17)) + "# [[Domain Controller]]\n- [[DCSync]]")
ARM_ASSEMBLY_REGISTERS = "---\ntags:\n  - programming\n  - ARM\n---\n- [[r7]]\n- [[rsp|sp]]\n- [[lr]]\n- [[pc]]\n- [[cpsr]]\n- [[spsr]]\n"


def test_two_lists_of_links_that_share_no_word_are_never_merged(vault_dir: Path, wordllama: object) -> None:
    # Trial (s28-trial2): a Zettelkasten's index of AD attacks (ESC1…ESC16) stood at cosine 0.904
    # to the list of ARM registers, and consolidate --any-note planned the registers into it.
    write_file(vault_dir, "content/Active Directory Security.md", ACTIVE_DIRECTORY_SECURITY)
    write_file(vault_dir, "content/ARM Assembly Registers.md", ARM_ASSEMBLY_REGISTERS)
    with open_vault(vault_dir, wordllama) as vault:
        report = vault.consolidate(now=NOW, any_note=True, threshold=0.85)
        assert report.clusters == ()
        assert report.plan.no_common_words == 1
        assert json.loads(run_cli(vault_dir, "consolidate", "--any-note", "--threshold", "0.85",
                                  "--json").stdout)["no_common_words"] == 1


def test_notes_share_a_word_when_their_texts_do_not_count_stopwords_numbers_or_headings() -> None:
    assert text_vocabulary("# Oat\nMaya takes her coffee with oat milk, 2 sugars.\n") == frozenset(
        {"maya", "takes", "coffee", "oat", "milk", "sugars"})
    assert text_vocabulary("我明天去北京") & text_vocabulary("明天我去北京")  # a character each
    vocabularies = {1: frozenset({"oat", "milk"}), 2: frozenset({"milk"}), 3: frozenset({"r7", "lr"})}
    assert pairs_sharing_words({(1, 2): 0.95, (1, 3): 0.9}, vocabularies) == ({(1, 2): 0.95}, 1)


def test_one_fact_in_traditional_and_in_simplified_chinese_shares_its_words() -> None:
    # 頭髮 and 头发 are one word: without folding the two forms, the same fact written by a
    # person in Taiwan and by an agent in simplified characters shared no pair, and was kept apart.
    traditional, simplified = text_vocabulary("每兩個月去理髮店剪一次頭髮"), text_vocabulary("每两个月去理发店剪一次头发")
    assert traditional == simplified
    assert pairs_sharing_words({(1, 2): 0.97}, {1: traditional, 2: simplified}) == ({(1, 2): 0.97}, 0)


def test_notes_without_a_word_of_their_own_are_not_kept_apart_for_sharing_none(vault_dir: Path, wordllama: object) -> None:
    # A saying written twice, all of it stopwords: the same text, yet "their texts share no word" kept it apart.
    assert text_vocabulary("It is what it is.") == frozenset()
    assert pairs_sharing_words({(1, 2): 1.0}, {1: frozenset(), 2: frozenset()}) == ({(1, 2): 1.0}, 0)
    write_file(vault_dir, "memories/motto.md", "---\nlayer: L3\nexpires_at: 2027-05-01\n---\nIt is what it is.\n")
    write_file(vault_dir, "memories/motto again.md", "---\nlayer: L3\nexpires_at: 2027-05-01\n---\nIt is what it is.\n")
    with open_vault(vault_dir, wordllama) as vault:
        report = vault.consolidate(now=NOW)
    assert report.plan.no_common_words == 0
    assert [sorted(note.path for note in cluster.members) for cluster in report.clusters] == [
        ["memories/motto again.md", "memories/motto.md"]]


READING_TEMPLATE = ("---\ntype:\nuid: <% tp.user.uuidv4() %>\ntags:\nsource:\n---\n# <% tp.file.title %>\n\n"
                    "## The gist\n> Write the one sentence your future self needs, so it reads in a second.\n- \n---\n"
                    "## Context\n* What problem were you facing, or what made you think of this?\n- \n---\n"
                    "## Thought and analysis\n> Tips: how it makes you think matters more than what it says; use your own words.\n"
                    "> Ask why it holds, where it stops holding, and what you would do differently tomorrow because of it.\n- \n\n"
                    "---\n## Next steps\n> What will you try this week, and how will you know it worked?\n---\n\n"
                    "## Connections\n> Link the notes this one argues with, extends or depends on.\n---\n- \n")
FROM_THE_TEMPLATE = {
    "Reading/Easy tasks first.md": "Easy items win.",
    "Reading/Systems beat goals.md": "Systems beat goals.",
    "Reading/Sorting a sheet.md": "Sort by two columns.",
}


def templated_note(title: str, own: str) -> str:
    """A note Templater made from READING_TEMPLATE, with one line of its owner's under Context
    (the prompt quoted with ``>``, as an older version of the template wrote it)."""
    body = READING_TEMPLATE.split("---\n", 2)[2].replace("<% tp.file.title %>", title)
    body = body.replace("* What problem", "> What problem").replace("## Context\n> What problem were you facing, or what made you think of this?\n- \n",
                                                                 f"## Context\n> What problem were you facing, or what made you think of this?\n- {own}\n")
    return f"---\ntype:\nuid: {abs(hash(title)) % 10**8}\ntags:\nsource:\n---\n{body}"


def test_notes_alike_only_by_their_template_s_lines_are_not_merged(vault_dir: Path, wordllama: object) -> None:
    # A trial: seven notes of one Templater template on seven topics clustered at 0.89-0.96 by
    # the template's headings and prompts, and --any-note would have merged six into the seventh.
    write_file(vault_dir, ".obsidian/plugins/templater-obsidian/data.json", '{"templates_folder": "Meta/Templates"}')
    write_file(vault_dir, "Meta/Templates/Reading note.md", READING_TEMPLATE)
    for path, own in FROM_THE_TEMPLATE.items():
        write_file(vault_dir, path, templated_note(path.rsplit("/", 1)[1].removesuffix(".md"), own))
    write_file(vault_dir, "Reading/Systems beat goals (copy).md",
               templated_note("Systems beat goals", "Systems beat goals!"))
    with open_vault(vault_dir, wordllama) as vault:
        report = vault.consolidate(now=NOW, any_note=True)
    assert member_sets(report) == {frozenset({"Reading/Systems beat goals.md", "Reading/Systems beat goals (copy).md"})}
    assert report.plan.template_alike >= 3  # the three topics' pairs, alike by the template alone
    assert report.as_dict()["template_alike"] == report.plan.template_alike


NPC_TEMPLATE = ("---\ntype: npc\nxtags:\n- npc/alive\n- iff/neutral\n---\n# {{Name}}\n"
                "*{{gender}} {{race}} {{role/occupation}}, {{alignment}}*  \n*{{location}}*  \n\n"
                "TL;DR description / personality / motivation\n\n"
                "[Details](#Details) | [Relationships](#Relationships) | [Secrets](#Secrets) | [History](#History)\n\n"
                "## Details\n*{{Background}}*, Commoner\n\n* **Ideals**\n* **Bonds**\n* **Flaws**\n* **Motivation**\n\n"
                "## Relationships\n\n**Organization or Faction**\n\n## Secrets\n\n## History\n\n")


def npc_note(name: str, line: str, relation: str) -> str:
    """A note made from NPC_TEMPLATE: its name, one line of its own, one relationship."""
    body = NPC_TEMPLATE.split("---\n", 2)[2].replace("{{Name}}", name).replace("*{{location}}*", f"*{line}*")
    body = body.replace("**Organization or Faction**", relation)
    return f"---\ntype: npc\ntags:\n- npc/alive\n---\n{body}"


def test_notes_alike_only_by_a_template_in_a_folder_named_for_templates_are_not_merged(vault_dir: Path,
                                                                                      wordllama: object) -> None:
    # A trial on a D&D campaign vault: its NPC notes came from `[assets]/templates/NPC.md` while the
    # Templates plugin named a newer folder; `consolidate --any-note --threshold 0.8` planned the
    # blacksmith into the shopkeeper (0.813) and the logging-camp overseer into the template itself.
    write_file(vault_dir, ".obsidian/templates.json", '{"folder":"Meta/Templates"}')
    write_file(vault_dir, "Meta/Templates/folder-npc.md", "---\ntype: npc\n---\n# <% title %>\n- **Trait**\n")
    write_file(vault_dir, "[assets]/templates/NPC.md", NPC_TEMPLATE)
    write_file(vault_dir, "Phandalin/Maccus Strongarm.md", npc_note("Maccus Strongarm", "Blacksmith, Phandalin", "Seamus is his apprentice"))
    write_file(vault_dir, "Phandalin/Elmar Barthen.md", npc_note("Elmar Barthen", "Shopkeeper, Barthen's Provisions", "Friends with Daran"))
    write_file(vault_dir, "Phandalin/Tibor Wester.md", npc_note("Tibor Wester", "Overseer, Logger's Camp", "Harbin is his brother"))
    with open_vault(vault_dir, wordllama) as vault:
        report = vault.consolidate(now=NOW, any_note=True, threshold=0.75)
    assert member_sets(report) == set()
    assert report.plan.template_alike >= 3


def test_chinese_notes_alike_only_to_the_vectors_are_never_merged_and_one_fact_said_twice_is(vault_dir: Path,
                                                                                               wordllama: object) -> None:
    # Trial (s28-trial5, a Chinese LifeOS vault): the English vectors put unrelated Chinese essays
    # at 0.89–0.96, and any two Chinese texts share a character, so "share a word" kept nothing
    # apart: consolidate --any-note planned five Evergreen notes into the vault's map.
    write_file(vault_dir, "Evergreen/模糊.md", "当目标模糊的时候，我们很难开始行动。把大任务拆成小步骤，可以减少拖延，也更容易坚持下去。\n")
    write_file(vault_dir, "Evergreen/CORE.md", "收集、整理、提炼和表达是知识管理的四个步骤，它帮助我们把零散的信息变成可以复用的知识。\n")
    write_file(vault_dir, "memories/咖啡.md", "---\nlayer: L3\nexpires_at: 2027-05-01\n---\n我喜欢喝燕麦奶咖啡，不要牛奶。\n")
    write_file(vault_dir, "memories/咖啡-2.md", "---\nlayer: L3\nexpires_at: 2027-05-01\n---\n我的咖啡要加燕麦奶，从不喝牛奶。\n")
    with open_vault(vault_dir, wordllama) as vault:
        report = vault.consolidate(now=NOW, any_note=True, threshold=0.75)  # the essays stand at 0.78
    assert [sorted(member.path for member in cluster.members) for cluster in report.clusters] == [
        ["memories/咖啡-2.md", "memories/咖啡.md"]]
    assert report.plan.no_common_words >= 1


CNN_NOTE = ("Konvolüsyonel sinir ağları (CNN), görüntü gibi ızgara yapısındaki verileri işlemek için tasarlanmış derin "
            "öğrenme modelleridir. Evrişim katmanları küçük filtreleri görüntü üzerinde kaydırarak kenar, köşe ve doku gibi "
            "yerel özellikleri öğrenir. Havuzlama (pooling) katmanları öznitelik haritalarının boyutunu küçülterek hesaplama "
            "maliyetini azaltır ve modele küçük kaymalara karşı dayanıklılık kazandırır. Son katmanlarda tam bağlantılı "
            "katmanlar, öğrenilen özellikleri sınıflandırma için kullanır. Nesne tanıma, yüz tanıma ve tıbbi görüntü analizi "
            "en yaygın kullanım alanlarıdır.\n")
RNN_NOTE = ("Yinelemeli sinir ağları (RNN), metin, ses ve zaman serileri gibi sıralı verileri işlemek için tasarlanmış derin "
            "öğrenme modelleridir. Her adımda önceki adımların bilgisini gizli durum (hidden state) içinde taşıyarak bağlamı "
            "hatırlarlar. Standart RNN'ler uzun dizilerde kaybolan gradyan sorunu nedeniyle uzak bağımlılıkları öğrenmekte "
            "zorlanır. LSTM ve GRU mimarileri, kapı mekanizmalarıyla hangi bilginin saklanacağını ve hangisinin unutulacağını "
            "kontrol ederek bu sorunu aşar. Makine çevirisi, konuşma tanıma ve duygu analizi en yaygın kullanım alanlarıdır.\n")
TEACHER_NOTE = ("Ayşe Hoca istatistik dersimizi veriyor. Ofis saatleri salı öğleden sonra, sorular için e-posta yerine ofise "
                "gitmek daha iyi sonuç veriyor. Final projesinde hipotez testlerini gerçek bir veri setine uygulamamızı istiyor.\n")


def test_two_turkish_study_notes_on_two_subjects_are_never_merged_and_a_sync_copy_still_is(vault_dir: Path,
                                                                                           wordllama: object) -> None:
    # Trial (s29, a Turkish student's vault): the English embedder put the CNN note and the RNN/LSTM
    # note at 0.891 (these two: 0.912), sharing a ninth of their words, and --any-note planned one
    # into the other; nine more pairs of subjects stood at the threshold.
    write_file(vault_dir, "Derin Öğrenme/DL - Konvolüsyonel Sinir Ağları.md", CNN_NOTE)
    write_file(vault_dir, "Derin Öğrenme/DL - Yinelemeli Sinir Ağları ve LSTM.md", RNN_NOTE)
    write_file(vault_dir, "Kişiler/Ayşe Hoca.md", TEACHER_NOTE)
    write_file(vault_dir, "Kişiler/Ayşe Hoca (conflicted copy 2026-03-02).md", TEACHER_NOTE + "Proje teslimi dönem sonunda.\n")
    with open_vault(vault_dir, wordllama) as vault:
        report = vault.consolidate(now=NOW, any_note=True)
    assert member_sets(report) == {frozenset({"Kişiler/Ayşe Hoca.md", "Kişiler/Ayşe Hoca (conflicted copy 2026-03-02).md"})}
    assert report.clusters[0].canonical.path == "Kişiler/Ayşe Hoca.md"
    assert (report.plan.few_common_words, report.as_dict()["few_common_words"]) == (1, 1)
    assert "kept apart: 1 pair(s) of your own notes at or above the threshold whose texts share under half their words" in (
        run_cli(vault_dir, "consolidate", "--any-note").stdout)


JAPANESE_SPEC = ("## SQLクエリ解析と機械学習によるスキーマ推定ツール\nユーザーがクエリや条件を順に追加していく過程で、その都度スキーマの"
                 "構造推定結果が変化し補完されていくような対話的な推定を行う。入力はユーザーが段階的に入力するクエリ群で、"
                 "結合条件や集約の書き方から表どうしの関係を推定する。\n")
JAPANESE_SURVEY = "利用者五人に週次ダッシュボードを使ってもらい、迷った場面と欲しかった機能を聞き取る。録画は残さず、メモだけを共有フォルダに置く。\n"


def test_a_japanese_diary_day_copied_into_a_page_and_two_notes_of_one_game_are_never_merged(vault_dir: Path,
                                                                                             wordllama: object) -> None:
    # Trial (s29, a Japanese student's vault): a diary day whose text the student had copied into
    # the spec page (cosine 1.000) was planned into that page, archiving the day from the diary.
    # And two notes of one game, its rules and its plan, share a fifth of their pairs of characters.
    write_file(vault_dir, "01_diary/2025-04-07.md", "---\ntags:\n  - diary\n---\n> 雑な思いつきを書いていこう\n\n" + JAPANESE_SPEC)
    write_file(vault_dir, "01_diary/2025-04-07 (conflicted copy 2025-04-09).md",
               "---\ntags:\n  - diary\n---\n> 雑な思いつきを書いていこう\n\n" + JAPANESE_SPEC)
    write_file(vault_dir, "02_notes/卒研_仕様まとめ.md", "---\ntags:\n  - note\n---\n> 企画書の書き方を参照の下、企画書を書くこと。\n\n" + JAPANESE_SPEC)
    write_file(vault_dir, "02_notes/HC ゲームルール.md",
               "プレイヤーは列車の車掌となり、乗客を目的地まで安全に届ける。各駅で乗客の要望カードを引き、手札の行動カードを使って車内の"
               "トラブルを解決する。トラブルを解決すると信頼ポイントが得られ、終点に着いた時点で信頼ポイントが最も多いプレイヤーが勝利する。\n")
    write_file(vault_dir, "02_notes/Hello, Conductor 企画書.md",
               "列車の車掌となって乗客を目的地まで届ける協力型のカードゲーム。対象は十代後半から二十代のボードゲーム初心者。プレイヤーは"
               "乗客の要望カードに応えて信頼ポイントを集める。制作は三人で、夏のイベントでの頒布を目標とし、試遊会で難易度を調整する。\n")
    # The same note kept in two folders: one note, to merge.
    write_file(vault_dir, "02_notes/定性調査.md", "---\ntags:\n  - note\n---\n" + JAPANESE_SURVEY)
    write_file(vault_dir, "03_project/zz/定性調査.md", "---\ntags:\n  - note\n  - pjt/zz\n---\n" + JAPANESE_SURVEY)
    with open_vault(vault_dir, wordllama) as vault:
        report = vault.consolidate(now=NOW, any_note=True)
    assert member_sets(report) == {frozenset({"02_notes/定性調査.md", "03_project/zz/定性調査.md"}),
                                   frozenset({"01_diary/2025-04-07.md", "01_diary/2025-04-07 (conflicted copy 2025-04-09).md"})}
    assert report.plan.few_common_words >= 1  # the game's rules and its plan (0.926, a fifth of their pairs)
    assert report.plan.different_names == 2  # the day and its copy, each beside the spec page
    text = run_cli(vault_dir, "consolidate", "--any-note").stdout
    assert "kept apart: 2 pair(s) of your own notes at or above the threshold whose names share no word" in text


def test_your_own_notes_must_share_half_their_words_and_a_word_of_their_names_memories_need_not() -> None:
    assert name_vocabulary("HC ゲームルール") >= {"hc"}
    assert name_vocabulary("2025-04-07") == frozenset({"2025", "04", "07"})  # a day's name is its day
    assert not name_vocabulary("2025-04-07") & name_vocabulary("卒研_仕様まとめ")
    assert name_vocabulary("卒研_仕様まとめ") <= name_vocabulary("卒研_仕様まとめ (conflicted copy 2025-04-09)")
    page = OwnWords(frozenset({"oat", "milk", "coffee", "maya"}), frozenset({"coffee"}))
    copy = OwnWords(frozenset({"oat", "milk", "coffee", "maya", "sugar"}), frozenset({"coffee", "copy"}))
    subject = OwnWords(frozenset({"oat", "tea", "green", "maya"}), frozenset({"tea"}))
    renamed = OwnWords(page.text, frozenset({"2025", "04", "07"}))
    pairs = {(1, 2): 0.95, (1, 3): 0.9, (1, 4): 0.99, (5, 6): 0.9}
    # 5 and 6 are memories (not in ``own``): one fact said again shares a fifth of its words.
    assert own_pairs_alike_in_words(pairs, {1: page, 2: copy, 3: subject, 4: renamed}) == ({(1, 2): 0.95, (5, 6): 0.9}, 1, 1)
    nameless = OwnWords(frozenset({"it"}), frozenset())
    assert own_pairs_alike_in_words({(1, 2): 1.0}, {1: nameless, 2: nameless}) == ({(1, 2): 1.0}, 0, 0)


def test_apply_in_a_dendron_vault_rewrites_a_link_written_label_first(vault_dir: Path, wordllama: object) -> None:
    # Dendron's [[label|target]]: read as Obsidian's [[target|label]], the link was left
    # pointing at the merged (archived) note, broken in Dendron.
    trio_vault(vault_dir)
    write_file(vault_dir, "dendron.yml", "version: 5\n")
    write_file(vault_dir, "links.md", "---\ntitle: Links\n---\n[[Maya's milk|oat-milk]] [[oat-milk#Heading]] [[oat-milk]]\n")
    with open_vault(vault_dir, wordllama) as vault:
        report = vault.consolidate(apply=True, now=NOW)
    assert "preferences/oat-milk.md" in {item.path for merged in report.merged for item in merged.merged}
    assert (vault_dir / "links.md").read_text(encoding="utf-8") == (
        "---\ntitle: Links\n---\n[[Maya's milk|coffee-milk-details]] [[coffee-milk-details#Heading]] [[coffee-milk-details]]\n")


def test_dry_run_is_accepted_as_the_default_and_refused_beside_apply(tmp_path: Path) -> None:
    """``consolidate --dry-run --any-note`` (and ``expire --dry-run``), as people and agents type
    them, were refused as unknown options (a trial); they report and change nothing, and
    ``--dry-run --apply`` is a usage error that names both."""
    write_file(tmp_path, ".vaultmem.toml", 'embedder = "hashing"\n')
    write_file(tmp_path, "a.md", "---\nlayer: L2\n---\nThe standup moved to 9:45 on Tuesdays.\n")
    write_file(tmp_path, "b.md", "---\nlayer: L2\n---\nThe standup moved to 9:45 on Tuesdays.\n")
    before = snapshot_files(tmp_path)
    dry = run_cli(tmp_path, "consolidate", "--dry-run", "--any-note")
    assert dry.exit_code == 0, dry.output
    assert "a.md" in dry.output
    assert "b.md" in dry.output
    assert run_cli(tmp_path, "expire", "--dry-run").exit_code == 0
    both = run_cli(tmp_path, "consolidate", "--dry-run", "--apply")
    assert both.exit_code == 2
    assert "--dry-run and --apply contradict each other" in both.output
    assert run_cli(tmp_path, "expire", "--dry-run", "--apply").exit_code == 2
    after = {path: state for path, state in snapshot_files(tmp_path).items() if not path.startswith(".vaultmem/")}
    assert after == {path: state for path, state in before.items() if not path.startswith(".vaultmem/")}


def literature_note(citekey: str, title: str, doi: str) -> str:
    """A reference manager's literature note just imported: the work in its frontmatter, the
    template's empty abstract and heading in its body (armoutihansen/research-vault's form)."""
    return (f"---\ncitekey: {citekey}\ntitle: {title}\nauthors: [\"Kőszegi, Botond\", \"Rabin, Matthew\"]\n"
            f"doi: {doi}\ntags: [literature]\n---\n\n> [!abstract] Abstract\n> (no abstract in Zotero)\n\n"
            "%% ─── below is yours; regeneration never touches it ─── %%\n## My notes\n")


def test_two_papers_literature_notes_of_one_template_are_never_merged(vault_dir: Path, wordllama: object) -> None:
    # Trial (s30, a PhD student's Zotero literature notes): two papers' notes named "Author -
    # Title", alike only by the template's body, stood at 0.952 and one was planned into the other.
    write_file(vault_dir, "literature/Kőszegi and Rabin - A Model of Reference-Dependent Preferences.md",
               literature_note("Koszegi2006b", "A Model of Reference-Dependent Preferences", "10.1162/qjec.2006.121.4.1133"))
    write_file(vault_dir, "literature/Kőszegi and Rabin - Reference-Dependent Risk Attitudes.md",
               literature_note("Koszegi2007", "Reference-Dependent Risk Attitudes", "10.1257/aer.97.4.1047"))
    with open_vault(vault_dir, wordllama) as vault:
        report = vault.consolidate(now=NOW, any_note=True)
        assert report.clusters == ()
        assert report.as_dict()["different_works"] == 1
    assert "about two works" in run_cli(vault_dir, "consolidate", "--any-note").stdout


def test_one_paper_s_note_and_its_copy_still_merge(vault_dir: Path, wordllama: object) -> None:
    text = literature_note("Koszegi2007", "Reference-Dependent Risk Attitudes", "10.1257/aer.97.4.1047")
    write_file(vault_dir, "literature/@Koszegi2007.md", text)
    write_file(vault_dir, "literature/@Koszegi2007 (conflicted copy 2026-05-30).md",
               text.replace("doi: 10.1257", "doi: https://doi.org/10.1257").replace("citekey: Koszegi2007", 'citekey: "@Koszegi2007"'))
    with open_vault(vault_dir, wordllama) as vault:
        report = vault.consolidate(now=NOW, any_note=True)
    assert member_sets(report) == {frozenset({"literature/@Koszegi2007.md",
                                              "literature/@Koszegi2007 (conflicted copy 2026-05-30).md"})}


def person_note(name: str, alias: str, context: str, summary: str, email: str = "") -> str:
    """A personal CRM's person note as its template leaves it: most fields empty, a short body
    (chuckblake/chuck-vault's form)."""
    fields = ("pronouns:\n\ntags: [family]\nrelationship_strength: close\nmet_date:\n"
              f"met_context: {context}\n\nemail:{' ' + email if email else ''}\nphone:\nlinkedin:\ntwitter:\n"
              "website:\n\ncity:\ntimezone:\naddress:\n\ncompany:\ntitle:\nindustry:\n\nbirthday:\n"
              "spouse:\nkids: []\ninterests: []\n\nimportant_dates: []\n\ncreated: 2026-01-24\n"
              "updated: 2026-01-24\nlast_contact:\n")
    return (f"---\nname: {name}\naliases: [{alias}]\n{fields}---\n\n# {name}\n\n## Summary\n\n{summary}\n\n"
            "## Notes\n\n-\n\n## Contact Log\n\n| Date | Type | Notes |\n|------|------|-------|\n| | | |\n")


def test_two_people_s_notes_of_one_crm_template_are_never_merged(vault_dir: Path, wordllama: object) -> None:
    # Trial (s31, a personal CRM): the wife's and both children's notes, one template with its
    # fields empty, were planned into the mother's (0.90-0.91); two clients' notes into each other.
    write_file(vault_dir, "people/barbara-blake.md", person_note("Barbara Blake", "mom", "Mother", "My mother."))
    write_file(vault_dir, "people/chee-blake.md", person_note("Chee Blake", "Chee", "Wife", "My wife."))
    write_file(vault_dir, "people/kai-blake.md", person_note("Kai Blake", "Kai", "Child", "My child."))
    write_file(vault_dir, "people/maia-blake.md", person_note("Maia Blake", "Maia", "Child", "My child."))
    with open_vault(vault_dir, wordllama) as vault:
        report = vault.consolidate(now=NOW, any_note=True)
        assert report.clusters == ()
        # Four pages of one template: since s39 the template's words (all four hold them) keep the
        # pairs apart first, before their different names are asked.
        assert report.as_dict()["different_works"] + report.as_dict()["few_common_words"] >= 3
    assert "or under half once the words" in run_cli(vault_dir, "consolidate", "--any-note").stdout


def test_people_differ_by_name_or_email_and_a_person_s_copy_still_merges(vault_dir: Path, wordllama: object) -> None:
    assert work_of({"Name": "  Pamela  Ruiz ", "email": "mailto:Pamela@SFMG.com"}) == {
        "name": frozenset({"pamela ruiz"}), "email": frozenset({"pamela@sfmg.com"})}
    assert different_works(work_of({"name": "Austin"}), work_of({"name": "Pamela"}))
    assert not different_works(work_of({"name": "Austin", "email": "a@sfmg.com"}), work_of({"email": "A@sfmg.com"}))
    assert work_of({"name": "", "email": None}) == {}
    text = person_note("Chee Blake", "Chee", "Wife", "My wife.", email="chee@example.com")
    write_file(vault_dir, "people/chee-blake.md", text)
    write_file(vault_dir, "people/chee-blake (conflicted copy 2026-05-30).md", text.replace("My wife.", "My wife. Loves jazz."))
    with open_vault(vault_dir, wordllama) as vault:
        report = vault.consolidate(now=NOW, any_note=True)
    assert member_sets(report) == {frozenset({"people/chee-blake.md", "people/chee-blake (conflicted copy 2026-05-30).md"})}


def test_works_differ_only_by_a_kind_both_name_and_no_chain_joins_two() -> None:
    paper_a = work_of({"citekey": "@Koszegi2007", "DOI": "doi:10.1257/AER.97.4.1047"})
    assert paper_a == {"citekey": frozenset({"koszegi2007"}), "doi": frozenset({"10.1257/aer.97.4.1047"})}
    paper_b = work_of({"citation_key": "Heidhues2008"})
    doi_only = work_of({"doi": "https://doi.org/10.1257/aer.97.4.1047"})
    assert different_works(paper_a, paper_b) and not different_works(paper_a, doi_only)
    assert not different_works(paper_b, doi_only)  # a citekey beside a DOI: either may be the other's
    assert work_of({"doi": "", "citekey": None}) == {}
    # 1 ~ 3 ~ 2, the note between them citing nothing: strongest first, 3 joins 1, and 2 stays apart.
    pairs = {(1, 3): 0.95, (2, 3): 0.93}
    components, refusals = components_and_refusals(pairs, {}, {}, {1: paper_a, 2: paper_b})
    assert components == [[1, 3]] and refusals == [None, "works"]


# A trial (s32): the agent remembered Maya's coffee twice. The newer note is three characters longer
# ("and no sugar" for ", no sugar") and titled by remember from its first line.
COFFEE_TITLED = ("---\nid: 01M8TEZX8C97KY8R280CQN13Z1\ntitle: 'Coffee: flat white with oat milk'\nlayer: L4\ntags:\n"
                 "  - preferences\ncreated: 2026-11-20T04:07:50+00:00\n---\n"
                 "Maya takes her coffee as a flat white with oat milk, no sugar.\n")
COFFEE_AGAIN = ("---\nid: 01M8TF4GQW4GKXN37WNPZ9K621\ntitle: Maya takes her coffee as a flat white with oat milk and no sugar.\n"
                "layer: L4\ntags:\n  - preferences\ncreated: 2026-11-28T04:10:21+00:00\n---\n"
                "Maya takes her coffee as a flat white with oat milk and no sugar.\n")


def test_a_reworded_duplicate_merges_into_the_older_titled_note_and_its_sentence_is_not_said_twice(vault_dir: Path, wordllama: object) -> None:
    write_file(vault_dir, "memories/coffee-flat-white-with-oat-milk.md", COFFEE_TITLED)
    write_file(vault_dir, "memories/maya-takes-her-coffee-as-a-flat-white.md", COFFEE_AGAIN)
    write_file(vault_dir, "Maya.md", "# Maya\n\nHer coffee: [[maya-takes-her-coffee-as-a-flat-white]].\n")
    with open_vault(vault_dir, wordllama) as vault:
        report = vault.consolidate(apply=True, now=NOW)
    (cluster,) = report.clusters
    assert cluster.canonical.path == "memories/coffee-flat-white-with-oat-milk.md"
    assert "its title was chosen" in cluster.why_kept
    kept = (vault_dir / "memories/coffee-flat-white-with-oat-milk.md").read_text(encoding="utf-8")
    assert kept.count("flat white with oat milk") == 2  # its title and its one sentence: no "Merged from" section
    assert "Merged from" not in kept and "merged_from:\n  - 01M8TF4GQW4GKXN37WNPZ9K621" in kept
    # Nothing is lost: the archived note keeps its sentence byte for byte, and the link follows the kept note.
    assert (vault_dir / "_archive/memories/maya-takes-her-coffee-as-a-flat-white.md").read_text(encoding="utf-8") == COFFEE_AGAIN
    assert "[[coffee-flat-white-with-oat-milk]]" in (vault_dir / "Maya.md").read_text(encoding="utf-8")


def test_why_kept_says_in_plain_words_how_many_words_each_choice_would_add() -> None:
    """A person's trial (s34) read "merged into it the others add 12 word(s), merged into x.md 15" twice."""
    kept = Candidate(copy=False, appended_words=12, generated_title=True, created=1.0, shorter=-48, path="a.md")
    other = Candidate(copy=False, appended_words=15, generated_title=True, created=1.0, shorter=-32, path="b.md")
    assert why_kept(kept, other, "b.md") == ("it already says the most: merging the others into it adds 12 word(s) "
                                             "to it; into b.md, the next best, it would add 15")


def test_the_dry_run_says_which_note_is_kept_why_and_which_sentences_it_leaves_out(vault_dir: Path, wordllama: object) -> None:
    write_file(vault_dir, "memories/coffee-flat-white-with-oat-milk.md", COFFEE_TITLED)
    write_file(vault_dir, "memories/maya-takes-her-coffee-as-a-flat-white.md", COFFEE_AGAIN)
    plan = json.loads(run_cli(vault_dir, "consolidate", "--json").stdout)
    (cluster,) = plan["clusters"]
    assert cluster["canonical"] == "memories/coffee-flat-white-with-oat-milk.md"
    assert cluster["why_kept"].startswith("it says what the others say, and its title was chosen")
    merged = cluster["notes"][1]
    assert merged["appended"] == []
    assert merged["said_already"] == [{"text": "Maya takes her coffee as a flat white with oat milk and no sugar.",
                                       "said_as": ["Maya takes her coffee as a flat white with oat milk, no sugar."]}]
    text = run_cli(vault_dir, "consolidate", "--dry-run").stdout
    assert "kept: it says what the others say, and its title was chosen" in text
    assert "= Maya takes her coffee as a flat white with oat milk and no sugar.  (not appended: the kept note says it:" in text



def test_the_dry_run_skips_a_read_only_kept_note_and_lists_no_read_only_link_rewrite_as_apply_does(vault: Vault) -> None:
    # Was: the dry run listed the cluster as merged into the read-only note and Harbor.md among
    # the files whose links apply rewrites; --apply then skipped the one and warned of the other.
    kept, linking = vault.root / TRIO[0], vault.root / "projects/Harbor.md"
    kept.chmod(0o444)
    linking.chmod(0o444)
    before = snapshot_files(vault.root)
    planned = vault.consolidate(now=NOW)
    assert snapshot_files(vault.root) == before
    assert [(item.canonical, "is read-only (mode 0444)" in item.reason) for item in planned.skipped] == [(TRIO[0], True)]
    assert "projects/Harbor.md" not in planned.links_rewritten
    assert [warning for warning in planned.warnings if warning.startswith("projects/Harbor.md: links to merged notes would not")]
    applied = vault.consolidate(apply=True, plan=planned.plan, now=NOW)
    assert [(item.canonical, item.reason) for item in applied.skipped] == [(item.canonical, item.reason) for item in planned.skipped]
    assert sorted(applied.links_rewritten) == sorted(planned.links_rewritten)
    assert [entry.canonical for entry in applied.merged] == [STANDUP[0]]


def test_the_dry_run_lists_no_link_rewrite_in_a_note_holding_a_git_conflict_as_apply_rewrites_none(vault: Vault) -> None:
    # Was: listed among the files whose links apply rewrites; --apply leaves a note in the
    # middle of the person's merge alone (UnresolvedConflict) and warns.
    linking = vault.root / "projects/Harbor.md"  # it links to the standup pair
    linking.write_bytes(linking.read_bytes() + b"\n<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> other\n")
    vault.index()
    planned = vault.consolidate(now=NOW)
    assert "projects/Harbor.md" not in planned.links_rewritten
    assert [warning for warning in planned.warnings if warning.startswith("projects/Harbor.md: links to merged notes would not")]
    before = linking.read_bytes()
    applied = vault.consolidate(apply=True, plan=planned.plan, now=NOW)
    assert sorted(applied.links_rewritten) == sorted(planned.links_rewritten)
    assert linking.read_bytes() == before


def test_a_failure_carrying_merged_uses_names_the_files_the_merge_changed_and_indexes_them(vault: Vault) -> None:
    # Was: the files were merged and archived before the index refused the usage update, and
    # the error said only that: no NoteWritten naming them, and the index was not told of them.
    import sqlite3

    vault.mark_used([TRIO[1]], now=NOW)
    with sqlite3.connect(vault.store.path) as db:  # a real refusal of the usage table's delete
        db.execute("CREATE TRIGGER refuse_usage_delete BEFORE DELETE ON usage BEGIN SELECT RAISE(ABORT, 'refused'); END")
    with pytest.raises(NoteWritten) as raised:
        vault.consolidate(apply=True, now=NOW)
    assert TRIO[1] in raised.value.paths
    assert f"_archive/{TRIO[1]}" in raised.value.paths
    assert not (vault.root / TRIO[1]).exists()
    assert vault.store.notes.by_path(TRIO[1]) is None  # the index follows the files


def test_a_read_only_kept_note_skips_its_cluster_and_a_read_only_linking_note_is_named(vault: Vault) -> None:
    # Was: the read-only notes were replaced like any other (a rename needs only the folder's
    # permission); refused at the write now (ReadOnlyNote), the kept note's refusal skips its
    # cluster instead of stopping the run half-way.
    kept, linking = vault.root / TRIO[0], vault.root / "projects/Harbor.md"  # it links to the standup pair
    kept.chmod(0o444)
    linking.chmod(0o444)
    before = snapshot_files(vault.root)
    report = vault.consolidate(apply=True, now=NOW)
    assert [(item.canonical, "read-only" in item.reason) for item in report.skipped] == [(TRIO[0], True)]
    assert [entry.canonical for entry in report.merged] == [STANDUP[0]]  # the other cluster is merged
    assert [warning for warning in report.warnings if "projects/Harbor.md is read-only" in warning]
    assert "projects/Harbor.md" not in report.links_rewritten
    after = snapshot_files(vault.root)
    for path in (*TRIO, "projects/Harbor.md"):
        assert after[path] == before[path], f"{path} was modified"
    assert kept.stat().st_mode & 0o777 == 0o444
    # Over MCP (the shell respells the answer so): the person is asked, no chmod an agent cannot run.
    said = json.dumps(respelled(report.as_dict(), Surface.MCP))
    assert "chmod" not in said and said.count("Ask the person to make it writable") == 2, said


def test_an_undo_the_disk_refuses_says_the_disk_not_an_edit(vault_dir: Path, write_note, monkeypatch: pytest.MonkeyPatch) -> None:
    # Was: "standup.md: was edited while consolidating" — when nobody had edited it: writing its old
    # text back failed on a full disk (here EFBIG, from a file size limit), and the person was sent
    # looking for an edit that was never made, with no word of the disk.
    import resource

    from vaultmem import merge_apply

    write_note(".vaultmem.toml", 'embedder = "hashing"\n')
    fact = "The Harbor standup is at 9:30 in the Tejo room.\n"
    kept = write_note("standup.md", f"---\nlayer: L3\ncreated: 2026-01-01\nexpires_at: 2027-06-01\n---\n{fact}")
    write_note("standup-again.md", f"---\nlayer: L3\nexpires_at: 2027-06-01\n---\n{fact}")
    write_note("_archive", "a file where the archive folder goes\n")  # archiving fails: the cluster is undone
    real_undo = merge_apply._Application._undo

    def undo_on_a_full_disk(self: object, *args: object) -> None:
        soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
        resource.setrlimit(resource.RLIMIT_FSIZE, (64, hard))  # Python ignores SIGXFSZ: the write gets EFBIG
        try:
            real_undo(self, *args)  # type: ignore[arg-type]
        finally:
            resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))

    monkeypatch.setattr(merge_apply._Application, "_undo", undo_on_a_full_disk)
    with Vault(vault_dir) as vault:
        report = vault.consolidate(apply=True, all=True, now=NOW)
    assert [skip.canonical for skip in report.skipped] == ["standup.md"]
    assert b"merged_from" in kept.read_bytes()  # the change could not be taken back: said, with why
    said = [str(warning) for warning in report.warnings if str(warning).startswith("standup.md:")]
    assert len(said) == 1, report.warnings
    assert "was edited" not in said[0]
    assert "File too large" in said[0]
    assert "free some space" in said[0]


def test_apply_rewrites_a_link_by_timestamp_id_to_the_kept_zettel(tmp_path: Path) -> None:
    # A trial on a Zettelkasten: `[[202403141300]]` (Zettlr's link by id) still named the archived
    # zettel after the merge, while `[[202403141300 Boat colour]]` was rewritten.
    write_file(tmp_path, ".vaultmem.toml", 'embedder = "hashing"\n')
    zettel = "---\nlayer: L3\nexpires_at: 2027-06-01\n---\nThe harbor boat is painted blue and moored at pier 4 every winter.\n"
    write_file(tmp_path, "202403141205 Boat color.md", zettel)
    write_file(tmp_path, "202403141300 Boat colour.md", zettel)
    write_file(tmp_path, "hub.md", "See [[202403141205]] and [[202403141300]].\n")
    result = run_cli(tmp_path, "consolidate", "--apply")
    assert result.exit_code == 0, result.output
    [kept] = [path.name for path in tmp_path.glob("2024*.md")]
    assert len(list((tmp_path / "_archive").glob("2024*.md"))) == 1
    number = kept.split(" ")[0]
    assert (tmp_path / "hub.md").read_text(encoding="utf-8") == f"See [[{number}]] and [[{number}]].\n"


# A page of a hub's generator template (made up here): badges-like links, an id, a maintainer, a
# donation comment and a footer, the same in every page but for the tool's name, id and one line.
TOOL_PAGE = """---
tool-id: {id}-kit
tags: []
publish: true
---

%% ----- Header: generated, do not edit this section ----- %%

# {name}

Tool ID: `{id}-kit`
Links: [Source repository](https://example.org/toolhub/{id}-kit) or [Open in the hub](toolhub://show-tool?id={id}-kit)
Maintained by: [[Rowan Vale]]
Works offline: [[Offline tools|Yes]]

{summary}

%% ----- Do not edit anything above this line ----- %%

%% Does the maintainer accept donations? Uncomment the next line and add them to the maintainer's note. If they don't, please delete the placeholder tag: #placeholder/maintainer %%
%% ![[Rowan Vale#Support this maintainer]] %%

%% Hub footer: please don't edit anything below this line %%

# This page in the repository

[Edit this page](https://example.org/toolhub/edit/Tools/{id}-kit.md "hub-edit") | [Copy this page](https://example.org/toolhub/raw/Tools/{id}-kit.md "hub-copy") | [Download the hub](https://example.org/toolhub/archive/main.zip "hub-download")
"""
TOOLS = {"chess": ("Chess Kit", "A chess game viewer and editor"),
         "stencil": ("Stencil Kit", "Create and use templates"),
         "ledger": ("Ledger Kit", "Plain text accounting with ledger files"),
         "abacus": ("Abacus Kit", "Calculate sums in tables"),
         "lantern": ("Lantern Kit", "Highlight the current line"),
         "compass": ("Compass Kit", "Show a map of linked places")}


def test_pages_of_one_generator_template_on_different_tools_are_never_merged_and_a_page_and_its_copy_still_are(
        vault_dir: Path, wordllama: object) -> None:
    # Trial (s38, the Obsidian Hub): 19 plugin pages of the hub's generator template (not in the
    # vault's templates folder) were planned into one, and Chesser into Templater at 0.968: their
    # texts shared over half their words, all the template's, and every plugin's name held "obsidian".
    for tool, (name, summary) in TOOLS.items():
        write_file(vault_dir, f"Tools/{tool}-kit.md", TOOL_PAGE.format(id=tool, name=name, summary=summary))
    copy = TOOL_PAGE.format(id="chess", name="Chess Kit", summary=TOOLS["chess"][1]) + "\nPlays blitz too.\n"
    write_file(vault_dir, "Tools/chess-kit (conflicted copy 2026-03-02).md", copy)
    with open_vault(vault_dir, wordllama) as vault:
        report = vault.consolidate(now=NOW, any_note=True)
    assert member_sets(report) == {frozenset({"Tools/chess-kit.md", "Tools/chess-kit (conflicted copy 2026-03-02).md"})}
    assert report.plan.few_common_words >= 5  # the tools' pages, alike by the template's words alone


def test_words_many_of_the_compared_notes_hold_are_no_evidence_two_of_them_say_one_thing() -> None:
    template = frozenset({"tool", "id", "links", "source", "repository", "maintained", "rowan", "vale", "footer"})
    pages = {label: OwnWords(template | own, frozenset({"kit", name})) for label, (own, name) in enumerate(
        [(frozenset({"chess", "game", "viewer"}), "chess"), (frozenset({"create", "templates"}), "stencil"),
         (frozenset({"ledger", "accounting"}), "ledger"), (frozenset({"sums", "tables"}), "abacus"),
         (frozenset({"chess", "game", "viewer", "blitz"}), "chess")], start=1)}
    own = without_common_words(pages)
    assert own[1].own_text == frozenset({"chess", "game", "viewer"}) and own[1].own_name == frozenset({"chess"})
    pairs = {(1, 2): 0.968, (1, 5): 0.99, (3, 4): 0.95}
    assert own_pairs_alike_in_words(pairs, pages) == (pairs, 0, 0)  # whole, they share most words and "kit"
    assert own_pairs_alike_in_words(pairs, own) == ({(1, 5): 0.99}, 2, 0)
    # Three or four notes compared: a word all of them hold is common; two: none (a page and its copy).
    few = without_common_words({label: pages[label] for label in (1, 2, 3)})
    assert few[1].own_text == frozenset({"chess", "game", "viewer"}) and few[1].own_name == frozenset({"chess"})
    two = without_common_words({label: pages[label] for label in (1, 5)})
    assert all(words.own_text == words.text for words in two.values())


@pytest.mark.parametrize("tools", [3, 4])
def test_three_or_four_pages_of_one_generator_template_are_not_merged(vault_dir: Path, wordllama: object,
                                                                      tools: int) -> None:
    # Was (s39 review): a word counted as a template's only when five compared notes held it, so
    # three or four pages of one template (a small vault's, a hub's first pages) were planned into
    # one — Chess Kit, Stencil Kit and Ledger Kit at 0.93 — and --apply archived all but one.
    for tool, (name, summary) in list(TOOLS.items())[:tools]:
        write_file(vault_dir, f"Tools/{tool}-kit.md", TOOL_PAGE.format(id=tool, name=name, summary=summary))
    with open_vault(vault_dir, wordllama) as vault:
        report = vault.consolidate(now=NOW, any_note=True)
    assert member_sets(report) == set()
    assert report.plan.few_common_words == tools * (tools - 1) // 2


def test_a_page_and_its_copy_beside_one_more_page_of_their_template_still_merge(vault_dir: Path, wordllama: object) -> None:
    for tool in ("chess", "stencil"):
        name, summary = TOOLS[tool]
        write_file(vault_dir, f"Tools/{tool}-kit.md", TOOL_PAGE.format(id=tool, name=name, summary=summary))
    copy = TOOL_PAGE.format(id="chess", name="Chess Kit", summary=TOOLS["chess"][1]) + "\nPlays blitz too.\n"
    write_file(vault_dir, "Tools/chess-kit (conflicted copy 2026-03-02).md", copy)
    with open_vault(vault_dir, wordllama) as vault:
        report = vault.consolidate(now=NOW, any_note=True)
    assert member_sets(report) == {frozenset({"Tools/chess-kit.md", "Tools/chess-kit (conflicted copy 2026-03-02).md"})}
