"""benchmarks/docs_misses.py: where a question's answering section stands, on a real vault.

A real vault in tmp_path (real files, index, default embedder): a long manual page whose
second section answers, and a short page that shares the question's words only in its title.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from benchmarks.docs_misses import Passages, diagnose, summary
from benchmarks.evalsets.model import Question
from vaultmem import Vault
from vaultmem.lifecycle import resolve_now, to_epoch_us
from vaultmem.storage import Eligibility

FILLER = ("The tool reads its input line by line and writes the result to standard output, "
          "so it can be used at the end of a pipeline as well as on its own. ")


def manual(write_note: Callable[..., Path]) -> None:
    counting = "## Counting\n\n" + "wc counts the newlines, words and bytes of each file it is given. " * 12 + FILLER * 4
    shuffling = ("## Shuffling\n\n" + "shuf writes a random permutation of its input lines, each order equally likely. " * 12
                 + FILLER * 4)
    write_note("coreutils/Text utilities.md", f"# Text utilities\n\n{counting}\n\n{shuffling}\n")
    write_note("other/Random numbers.md", "# Random numbers\n\nHow the generator is seeded.\n")


def test_the_answering_section_is_found_among_the_vaults_passages_and_named_by_its_heading(
        vault_dir: Path, write_note: Callable[..., Path]) -> None:
    manual(write_note)
    question = Question("put the lines of a file in a random order", ("coreutils/Text utilities.md",), "howto",
                        section="Shuffling")
    with Vault(vault_dir) as vault:
        vault.index()
        eligibility = Eligibility(now_us=to_epoch_us(resolve_now(None)))
        passages = Passages(vault.derived.searcher(), eligibility)
        row = diagnose(passages, question, eligibility)
    assert row["passages"] >= 2  # the page was cut into sections
    assert row["section_passages"] >= 1  # and the Shuffling section is one of them, by its heading path
    assert row["text_section"] == 1  # "random" and "order" are that section's words, no other passage's both
    assert row["vectors_section"] == 1
    assert row["text_section_is_best"]
    assert row["vectors_section_is_best"]
    assert row["fused"] == 1
    assert row["shape"] is None  # answered first: no miss to classify
    assert row["first_heading"] == ["Text utilities", "Shuffling"]


def test_a_section_no_passage_names_is_a_paraphrase_miss_when_the_note_is_not_first(
        vault_dir: Path, write_note: Callable[..., Path]) -> None:
    manual(write_note)
    question = Question("how is the generator seeded", ("coreutils/Text utilities.md",), "howto", section="Sorting")
    with Vault(vault_dir) as vault:
        vault.index()
        eligibility = Eligibility(now_us=to_epoch_us(resolve_now(None)))
        row = diagnose(Passages(vault.derived.searcher(), eligibility), question, eligibility)
    assert row["section_passages"] == 0
    assert (row["vectors_section"], row["text_section"]) == (None, None)
    assert row["first"] == "other/Random numbers.md"
    assert row["shape"] == "paraphrase"
    assert summary([row])["paraphrase"]["misses"] == 1
