"""``explain``: why a note is or is not in the answer to a query (vaultmem/explain.py).

Each kind of reason on real files, a real index and the real default embedder, through the
Python API and the CLI (``--json``); the MCP tool is exercised in test_mcp.py. What
``explain`` says about membership must agree with what ``search`` returns.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import NOW, copy_sample_vault, run_cli

from vaultmem import Vault
from vaultmem.errors import NoteNotFound, PathOutsideVault, UsageError


@pytest.fixture
def vault(tmp_path: Path, wordllama: object) -> Vault:
    root = copy_sample_vault(tmp_path / "vault")
    opened = Vault(root, embedder=wordllama)  # type: ignore[arg-type]
    opened.index()
    return opened


def test_a_note_in_the_answer_says_its_rank_on_each_side_and_agrees_with_search(vault: Vault) -> None:
    with vault:
        hits = vault.search("how does Maya take her coffee", k=3, now=NOW)
        for position, hit in enumerate(hits, start=1):
            explained = vault.explain(hit.path, "how does Maya take her coffee", k=3, now=NOW)
            assert explained.in_answer and explained.rank["fused"] == position
            assert explained.score["fused"] == hit.score and explained.match == hit.match
            assert explained.reasons[-1].startswith(f"in the answer: ranked {position} of the 3 asked for")
            assert explained.passage is not None and explained.passage.lines == hit.passage.lines  # type: ignore[union-attr]


def test_a_note_ranked_below_k_says_its_rank_and_the_k_that_would_include_it(vault: Vault) -> None:
    with vault:
        query = "how does Maya take her coffee"
        fourth = vault.search(query, k=4, now=NOW)[3].path
        explained = vault.explain(fourth, query, k=3, now=NOW)
        assert not explained.in_answer and explained.rank["fused"] == 4
        assert explained.reasons == [explained.reasons[-1]] and "ranked 4, below the 3 asked for (k=4 would include it" in explained.reasons[0]


def test_an_expired_note_says_when_it_expired_and_where_include_expired_would_rank_it(vault: Vault) -> None:
    with vault:
        explained = vault.explain("scratch/flight-berlin", "flight to Berlin gate", k=5, now=NOW)
        assert not explained.in_answer
        assert explained.reasons[0].startswith("expired at 2026-11-13T00:00:00+00:00")
        with_expired = [hit.path for hit in vault.search("flight to Berlin gate", k=5, include_expired=True, now=NOW)]
        assert explained.rank["fused"] == with_expired.index("scratch/flight-berlin.md") + 1
        assert explained.reasons[-1].startswith(f"with include_expired=True the same search ranks it {explained.rank['fused']}")
        assert vault.explain("scratch/flight-berlin", "flight to Berlin gate", k=5, include_expired=True, now=NOW).in_answer


def test_layer_and_tag_filters_are_named_with_what_the_note_carries(vault: Vault) -> None:
    with vault:
        by_layer = vault.explain("preferences/oat-milk", "oat milk coffee", layers=["L4"], now=NOW)
        assert not by_layer.in_answer and by_layer.reasons[0] == "filtered out by layers L4: its layer is L3"
        assert by_layer.reasons[-1].startswith("without layers the same search ranks it")
        by_tag = vault.explain("preferences/oat-milk", "oat milk coffee", tags=["coffee", "travel"], now=NOW)
        assert by_tag.reasons[0] == "filtered out by tags travel: it does not carry that tag (its tags: coffee)"
        assert by_tag.reasons[-1].startswith("without tags travel the same search ranks it")
        assert vault.explain("preferences/oat-milk", "oat milk coffee", tags=["coffee"], now=NOW).in_answer


def test_a_superseded_note_says_what_replaced_it(vault: Vault) -> None:
    with vault:
        new = vault.remember("Maya now takes her coffee black, no milk at all.", layer="L3", supersedes=["preferences/oat-milk"])
        explained = vault.explain("preferences/oat-milk", "oat milk coffee")
        assert not explained.in_answer
        assert explained.reasons[0].startswith(f"superseded by {new.id}") and explained.reasons[1].startswith("expired at")


def test_a_note_a_running_rebuild_has_not_reached_is_not_indexed_yet(vault: Vault) -> None:
    with vault, Vault(vault.root) as rebuilder, rebuilder.store.meta.rebuilding():
        rebuilder.derived.drop()  # the rebuild has dropped the index and re-added one note
        rebuilder.indexer.sync_paths(["preferences/oat-milk.md"])
        explained = vault.explain("preferences/milk-in-coffee", "oat milk coffee")
        assert (explained.path, explained.in_answer, explained.rank) == (
            "preferences/milk-in-coffee.md", False, {"vectors": None, "text": None, "fused": None})
        assert explained.reasons[0].startswith("not indexed yet: preferences/milk-in-coffee.md is in the vault but not "
                                               "in the index (the `index --rebuild` running now has not reached it")
        assert vault.explain("preferences/oat-milk", "oat milk coffee").in_answer  # what it has rebuilt answers


def test_a_note_written_by_hand_is_explained_as_search_would_see_it_now(vault: Vault) -> None:
    with vault:
        (vault.root / "inbox-new.md").write_text("Rui's new bike is a green Brompton.\n", encoding="utf-8")
        explained = vault.explain("inbox-new", "Rui green Brompton bike")
        assert explained.in_answer and explained.rank["fused"] == 1  # brought in line with the files first, as search is


def test_a_file_vaultmem_never_reads_says_why(vault: Vault) -> None:
    with vault:
        (vault.root / "_archive").mkdir()
        (vault.root / "_archive" / "old.md").write_text("An archived note about coffee.\n", encoding="utf-8")
        archived = vault.explain("_archive/old.md", "coffee")
        assert archived.reasons == ["not a note vaultmem reads: it is in the archive folder (_archive/), where forget, "
                                    "expire and consolidate move notes, so it is never indexed or searched"]
        (vault.root / ".hidden").mkdir()
        (vault.root / ".hidden" / "secret.md").write_text("coffee\n", encoding="utf-8")
        assert "hidden folder (.hidden/)" in vault.explain(".hidden/secret", "coffee").reasons[0]


def test_a_note_neither_side_proposes_says_how_far_each_side_puts_it(vault: Vault) -> None:
    with vault:
        explained = vault.explain("procedures/feeding-pimenta", "zxqv quarterly kafka retro", k=1, now=NOW)
        assert not explained.in_answer
        assert any("no passage of it holds any of the query's words" in reason for reason in explained.reasons)


def test_unknown_notes_paths_outside_the_vault_and_empty_queries_are_refused(vault: Vault) -> None:
    with vault:
        with pytest.raises(NoteNotFound):
            vault.explain("no/such/note", "coffee")
        with pytest.raises(PathOutsideVault):
            vault.explain("../outside", "coffee")
        with pytest.raises(UsageError):
            vault.explain("preferences/oat-milk", "   ")


def test_cli_json_prints_path_in_answer_ranks_and_plain_sentence_reasons(vault: Vault) -> None:
    result = run_cli(vault.root, "explain", "scratch/flight-berlin", "flight to Berlin", "--as-of", NOW, "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert {"path", "in_answer", "rank", "score", "match", "passage", "reasons"} <= set(document)
    assert document["path"] == "scratch/flight-berlin.md" and document["in_answer"] is False
    assert set(document["rank"]) == {"vectors", "text", "fused"}
    assert all(isinstance(reason, str) and reason for reason in document["reasons"])
    text = run_cli(vault.root, "explain", "scratch/flight-berlin", "flight to Berlin", "--as-of", NOW)
    assert text.exit_code == 0 and "not in the answer" in text.stdout and "- expired at 2026-11-13" in text.stdout
    missing = run_cli(vault.root, "explain", "no/such/note", "coffee")
    assert missing.exit_code == 1 and "no note matches" in missing.stderr


def test_the_query_typed_before_the_note_is_refused_with_the_command_the_other_way_round(vault: Vault) -> None:
    """Was (s40): ``explain "a fishmonger wants …" decisions/ADR-031….md``, the order ``search``
    takes its words in, said "no note matches 'a fishmonger wants …'" and listed every way of
    naming a note."""
    swapped = run_cli(vault.root, "explain", "flight to Berlin", "scratch/flight-berlin", "--as-of", NOW)
    assert swapped.exit_code == 2, swapped.output
    assert ("explain takes the note first, then the query: 'flight to Berlin' names no note and 'scratch/flight-berlin' "
            "does; run `vaultmem explain scratch/flight-berlin 'flight to Berlin'`") in swapped.stderr
    neither = run_cli(vault.root, "explain", "no/such/note", "coffee")  # a query that names no note either: as before
    assert neither.exit_code == 1 and "no note matches 'no/such/note'" in neither.stderr


def test_a_note_asked_for_by_its_name_says_the_name_match_lifted_it(tmp_path: Path, wordllama: object) -> None:
    import shutil

    from helpers import REAL_VAULTS

    root = shutil.copytree(REAL_VAULTS / "kepano-obsidian", tmp_path / "kepano")
    with Vault(root, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        [hit] = vault.search("Kevin Kelly", k=1)
        explained = vault.explain("References/Kevin Kelly", "Kevin Kelly", k=1)
        assert explained.in_answer and explained.rank["fused"] == 1 and explained.score["fused"] == hit.score
        [named] = [reason for reason in explained.reasons if reason.startswith("name match:")]
        assert "the query is its file name ('Kevin Kelly')" in named and "raised by" in named
        assert explained.reasons[-1].startswith("in the answer: ranked 1 of the 1 asked for")
        partly = vault.explain("References/Kevin Kelly", "Kevin", k=10)
        assert not any(reason.startswith("name match:") for reason in partly.reasons)


def test_a_filtered_out_note_says_its_rank_is_the_one_without_the_filter_before_giving_it(vault: Vault) -> None:
    """`not in the answer` followed by `rank: … fused 1` read as if it were in it: the rank
    line of a note a filter keeps out says first that it is the rank without that filter."""
    args = ("explain", "preferences/oat-milk", "oat milk coffee", "--as-of", NOW)
    filtered = run_cli(vault.root, *args, "--layer", "L4")
    assert filtered.exit_code == 0, filtered.output
    lines = filtered.stdout.splitlines()
    assert lines[1].endswith("not in the answer")
    assert lines[2].startswith("rank without the filters that keep it out: vectors "), lines[2]
    assert not any(line.startswith("rank: ") for line in lines)
    document = json.loads(run_cli(vault.root, *args, "--layer", "L4", "--json").stdout)
    assert document["ranked_without_filters"] is True and document["rank"]["fused"] is not None
    kept = run_cli(vault.root, *args)
    assert kept.stdout.splitlines()[2].startswith("rank: vectors "), kept.stdout
    assert json.loads(run_cli(vault.root, *args, "--json").stdout)["ranked_without_filters"] is False


# ---------------------------------------------------------------- each surface names its own options

CLI_FLAGS = ("-k ", "--include-expired", "--layer", "--tag", "--since", "--until", "`vaultmem check`")
# MCP's and Python's names where a reason would use them (a bare "tags" is also plain English: "its tags: …").
ARGUMENT_NAMES = ("(k)", "k=", "include_expired", "(layers)", "(tags)", "(since", "by layers", "by tags", "by since",
                  "by until", "without layers", "without tags", "without since")


def test_cli_reasons_name_only_the_flags_a_person_types(vault: Vault) -> None:
    """Was: "--include-expired (include_expired) shows them", "-k (k) 4 would include it": the
    shell's reasons also spelled each option as MCP and Python take it."""
    query = "how does Maya take her coffee"
    with vault:
        fourth = vault.search(query, k=4, now=NOW)[3].path
    runs = {
        "expired": ("explain", "scratch/flight-berlin", "flight to Berlin gate", "-k", "5", "--as-of", NOW),
        "below k": ("explain", fourth, query, "-k", "3", "--as-of", NOW),
        "layer and tag": ("explain", "preferences/oat-milk", "oat milk coffee", "--layer", "L4", "--tag", "travel",
                          "--since", "2030-01-01", "--as-of", NOW),
    }
    said = {}
    for name, args in runs.items():
        text = run_cli(vault.root, *args)
        document = run_cli(vault.root, *args, "--json")
        assert text.exit_code == 0 and document.exit_code == 0, (text.output, document.output)
        reasons = json.loads(document.stdout)["reasons"]
        assert all(f"- {reason}" in text.stdout for reason in reasons)  # --json says what the text says
        said[name] = " ".join(reasons)
        assert not any(spelling in said[name] for spelling in ARGUMENT_NAMES), (name, reasons)
    assert "search hides expired notes; --include-expired shows them" in said["expired"]
    assert "with --include-expired the same search ranks it" in said["expired"]
    assert "(-k 4 would include it;" in said["below k"]
    assert "filtered out by --layer L4: its layer is L3" in said["layer and tag"]
    assert "filtered out by --tag travel: it does not carry that tag" in said["layer and tag"]
    assert "filtered out by --since 2030-01-01T00:00:00" in said["layer and tag"]
    assert "without --layer and without --tag travel and without --since/--until the same search" in said["layer and tag"]
    (vault.root / "notes").mkdir(exist_ok=True)
    (vault.root / "notes/someday.md").write_text("---\nlayer: L3\nexpires_at: someday\n---\nOat milk, someday.\n", encoding="utf-8")
    unparsed = json.loads(run_cli(vault.root, "explain", "notes/someday", "oat milk", "--json").stdout)["reasons"]
    assert any(reason.endswith("until it is fixed (see `vaultmem check`)") for reason in unparsed), unparsed


def test_python_reasons_name_the_keyword_arguments(vault: Vault) -> None:
    with vault:
        explained = vault.explain("preferences/oat-milk", "oat milk coffee", layers=["L4"], tags=["travel"],
                                  since="2030-01-01", now=NOW)
        expired = vault.explain("scratch/flight-berlin", "flight to Berlin gate", k=5, now=NOW)
    said = " ".join(explained.reasons + expired.reasons)
    assert not any(flag in said for flag in CLI_FLAGS), said
    assert "without layers and without tags travel and without since/until the same search" in said
    assert "search hides expired notes; include_expired=True shows them" in said
    (vault.root / "notes").mkdir(exist_ok=True)
    (vault.root / "notes/someday.md").write_text("---\nlayer: L3\nexpires_at: someday\n---\nOat milk, someday.\n", encoding="utf-8")
    with vault:
        unparsed = vault.explain("notes/someday", "oat milk", now=NOW).reasons
    assert any(reason.endswith("until it is fixed (see Vault.check())") for reason in unparsed), unparsed


def test_a_note_whose_file_shows_conflict_markers_says_so_as_its_hits_do(tmp_path: Path, wordllama: object) -> None:
    # Was: its hits warned that both sides of a merge are read as one note, and explain, where a
    # person asks why the agent answered what it did, said nothing of it.
    root = tmp_path / "vault"
    root.mkdir()
    (root / "wifi.md").write_text("---\ntitle: Wifi\n---\n<<<<<<< HEAD\nThe wifi password is tulip-42.\n=======\n"
                                  "The wifi password is orchid-77.\n>>>>>>> other\n", encoding="utf-8")
    (root / "milk.md").write_text("Oat milk, never dairy.\n", encoding="utf-8")
    with Vault(root, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        [hit] = vault.search("wifi password", k=1, now=NOW)
        [warning] = hit.warnings
        assert warning.startswith("conflict: an unresolved git merge conflict")
        explained = vault.explain("wifi.md", "wifi password", k=1, now=NOW)
        assert explained.in_answer and f"its hits warn: {warning}" in explained.reasons
    result = run_cli(root, "explain", "wifi.md", "wifi password", "--json")
    assert any(reason.startswith("its hits warn: conflict:") for reason in json.loads(result.stdout)["reasons"]), result.output


def test_the_query_words_no_note_holds_are_named_as_typed(tmp_path: Path) -> None:
    # Trial (s29-tr5): "the query's only word (src main rs) is in no note" named a word nobody
    # typed; a path, a dotted name or a language with a sign is named as the query has it.
    from helpers import write_vault

    from vaultmem.embedders import HashingEmbedder

    root = write_vault(tmp_path / "vault", {"GIL.md": "Global Interpreter Lock: one thread runs bytecode.\n"})
    with Vault(root, embedder=HashingEmbedder()) as vault:
        vault.index()
        reasons = vault.explain("GIL", "open src/main.rs and node.js in C#", k=1, now=NOW).reasons
    assert any("(open, src/main.rs, node.js, C#) are in no unexpired note of the vault" in reason for reason in reasons), reasons


def test_a_note_left_out_by_a_range_names_its_tasks_whose_days_are_in_it(tmp_path: Path) -> None:
    # Trial (s30, a task vault): "what is due on the 5th" left out the daily note of the 3rd that
    # planned a task for the 5th, and explain said only the note's own date. A task's days do not
    # date its note; explain says which of them fall in the range.
    from helpers import write_vault

    from vaultmem.embedders import HashingEmbedder

    root = write_vault(tmp_path / "vault", {
        "Daily/2025-12-03.md": ("---\ntags: [daily]\n---\n## TODO\n\n"
                                "- [ ] Debug the animations 📅 2025-12-05\n"
                                "- [x] Refactor the code 📅 2025-12-03 ✅ 2025-12-05\n"
                                "- [ ] Call Dana [due:: 2025-12-05]\n"
                                "- [ ] Order parts 📅 2025-12-09\n"
                                "```\n- [ ] an example in code 📅 2025-12-05\n```\n"),
        "Daily/2025-12-01.md": "- [ ] Plan the week 📅 2025-12-02\n",
    })
    with Vault(root, embedder=HashingEmbedder()) as vault:
        vault.index()
        reasons = vault.explain("Daily/2025-12-03", "animations", k=5, now=NOW, since="2025-12-05", until="2025-12-05").reasons
        other = vault.explain("Daily/2025-12-01", "week", k=5, now=NOW, since="2025-12-05", until="2025-12-05").reasons
    assert ("a task's day is in the range, but a task's days do not date its note: line 6 ('Debug the animations') is due "
            "2025-12-05; line 7 ('Refactor the code') is done 2025-12-05; line 8 ('Call Dana') is due 2025-12-05") in reasons, reasons
    assert not any("a task's day" in reason for reason in other), other  # its task is due outside the range


def test_explain_names_no_task_day_of_a_draft_in_a_percent_comment_nor_of_an_unfiltered_item(tmp_path: Path) -> None:
    # A `%% … %%` comment is what reading view hides (the tasks table already left it out), and
    # under the Tasks plugin's global filter an item without it is no task: explain said both were.
    from helpers import write_vault

    from vaultmem.embedders import HashingEmbedder

    root = write_vault(tmp_path / "vault", {
        "Daily/2025-12-03.md": ("# Plans\n\n%% - [ ] a hidden draft about animations 📅 2025-12-05 %%\n"
                                "%%\n- [ ] another draft 📅 2025-12-05\n%%\n"
                                "- [ ] Buy the animations book 📅 2025-12-05\n"
                                "- [ ] Debug the animations #task 📅 2025-12-05\n"),
        ".obsidian/plugins/obsidian-tasks-plugin/data.json": '{"globalFilter": "#task"}',
    })
    with Vault(root, embedder=HashingEmbedder()) as vault:
        vault.index()
        reasons = vault.explain("Daily/2025-12-03", "animations", k=5, now=NOW, since="2025-12-05", until="2025-12-05").reasons
    assert ("a task's day is in the range, but a task's days do not date its note: line 8 ('Debug the animations #task') "
            "is due 2025-12-05") in reasons, reasons


def test_a_note_of_hundreds_of_passages_says_what_the_vector_side_took_off_for_its_length(tmp_path: Path,
                                                                                        wordllama: object) -> None:
    """A long note is lowered on the vector side by what a note of its passage count scores by
    chance (ranking.for_many_passages). Was: explain showed the lowered value as its "similarity"
    and never said why a note whose best passage reads 0.48 scored 0.19; here it says what was
    taken off, and its ranks agree with search's."""
    from pydoc_data.topics import topics

    from vaultmem.ranking import chance_share

    root = copy_sample_vault(tmp_path / "vault")
    pasted = "\n\n".join(f"## {name}\n\n{text}" for name, text in sorted(topics.items())[:60])
    (root / "Python reference.md").write_text(pasted, encoding="utf-8")
    query = "what does the global statement do"
    with Vault(root, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
        count = vault.derived.searcher().passage_table.current().counts([vault.store.notes.by_path("Python reference.md").label])
        [passages] = count.values()
        lowered = wordllama.chance_spread * chance_share(passages)  # type: ignore[attr-defined]
        paths = [hit.path for hit in vault.search(query, k=5, now=NOW)]
        explained = vault.explain("Python reference.md", query, k=5, now=NOW)
    assert passages > 50 and lowered > 0.15
    assert explained.rank["fused"] == paths.index("Python reference.md") + 1
    said = f"(similarity {explained.score['vectors']:.3f}: {lowered:.3f} taken off for its {passages:,} passages"
    assert said in explained.reasons[-1]


def test_explain_says_whether_the_answer_is_confident_and_why_as_search_decides(vault: Vault) -> None:
    """An agent told `confident: false` could not see why (confidence.judge): explain says the
    verdict search reached, in words, beside the note's rank; the CLI prints it as `the answer:`."""
    with vault:
        unanswered = "when is my mortgage payment due"  # the Inbox holds "due" only, and is not the nearest in meaning
        hits = vault.search(unanswered, k=10, now=NOW)
        explained = vault.explain(hits[0].path, unanswered, k=10, now=NOW)
        assert hits.confident is False
        assert explained.confidence is not None and explained.confidence.startswith(
            "not confident: the first hit holds one (due) of the query's 3 words (mortgage, payment, due)")
        answered = vault.explain("preferences/oat-milk.md", "oat milk in coffee", k=10, now=NOW)
        assert vault.search("oat milk in coffee", k=10, now=NOW).confident is True
        assert answered.confidence is not None and answered.confidence.startswith("confident: the best score is 0.")
        printed = run_cli(vault.root, "explain", hits[0].path, unanswered, "--as-of", NOW).stdout.splitlines()
        assert printed[3] == f"the answer: {explained.confidence}"
        document = json.loads(run_cli(vault.root, "explain", hits[0].path, unanswered, "--as-of", NOW, "--json").stdout)
        assert document["confidence"] == explained.confidence


def test_explain_of_a_filtered_out_note_says_no_verdict_for_a_search_not_asked(vault: Vault) -> None:
    with vault:
        explained = vault.explain("scratch/flight-berlin.md", "flight to Berlin", k=10, now=NOW)  # expired at NOW
        assert explained.ranked_without_filters is True
        assert explained.confidence is None
