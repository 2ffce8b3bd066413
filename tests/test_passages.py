"""Passages (vaultmem/passages.py), searchable fields (fields.py) and what a note embeds
(searchable.py): the rules are checked on notes whose right answer is known, and on real
files indexed for real (SQLite, FTS5, the default embedder)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from helpers import run_cli
from vaultmem import Vault
from vaultmem.embedders import Embedder, HashingEmbedder, length_factors, normalize_rows
from vaultmem.fields import property_texts, search_fields
from vaultmem.notes import parse_note
from vaultmem.passages import PASSAGE_CHARS, embed_head, sections, split_passages
from vaultmem.searchable import INDEX_RULES, embed_notes, searchable
from vaultmem.vectors import blob_to_vector

LONG_SECTION = "\n\n".join(f"Paragraph {number}: " + "the harbor pipeline moves data every night. " * 6 for number in range(12))


def lines(body: str, passage_start: int, passage_end: int) -> str:
    """The passage's lines of ``body``, without the blank space around them (a passage has none)."""
    return "\n".join(body.split("\n")[passage_start - 1 : passage_end]).strip()


# ---------------------------------------------------------------- splitting


def test_a_note_of_at_most_the_limit_is_one_passage_byte_for_byte_even_with_headings() -> None:
    body = "# A\nshort\n\n## B\nalso short\n"
    [passage] = split_passages(body)
    assert (passage.text, passage.headings, passage.number) == (body, (), 0)
    assert (passage.start_line, passage.end_line) == (1, 5)


def test_a_heading_inside_a_code_fence_does_not_start_a_section() -> None:
    body = "# Install\nintro\n\n```sh\n# not a heading\necho hi\n```\n\n## Linux\ntext\n"
    found = sections(body)
    assert [section.headings for section in found] == [("Install",), ("Install", "Linux")]
    assert "# not a heading" in found[0].text


def test_a_long_note_is_cut_at_headings_and_each_passage_keeps_its_heading_path() -> None:
    body = f"# Guide\nIntro line.\n\n## Install\n{LONG_SECTION}\n\n### Linux\nUse the package.\n\n## Usage\n{LONG_SECTION}\n"
    passages = split_passages(body)
    assert len(passages) > 2 and all(len(passage.text) <= PASSAGE_CHARS for passage in passages)
    assert {passage.headings for passage in passages} >= {("Guide", "Install"), ("Guide", "Usage")}
    assert [passage.number for passage in passages] == list(range(len(passages)))
    for passage in passages:  # each passage is a slice of the body: its lines are exact
        assert lines(body, passage.start_line, passage.end_line) == passage.text


def test_a_paragraph_longer_than_the_limit_is_cut_by_sentences_then_words() -> None:
    body = "# Huge\n\n" + "A sentence of several words. " * 100 + "\n\n" + "x" * 50 + " word" * 400
    passages = split_passages(body, 300)
    assert all(len(passage.text) <= 300 for passage in passages)
    assert " ".join(passage.text for passage in passages).split() == body.split()  # nothing lost or reordered


def test_packing_joins_small_sections_up_to_the_limit_and_keeps_the_first_heading_path() -> None:
    body = "# T\n" + "".join(f"## S{number}\n{'x' * 80}\n" for number in range(10)) + "## Big\n" + "y " * 400
    unpacked, packed = split_passages(body, pack=False), split_passages(body)
    assert len(packed) < len(unpacked)
    assert packed[0].headings == ("T",) and all(len(passage.text) <= PASSAGE_CHARS for passage in packed)
    for passage in packed:
        assert lines(body, passage.start_line, passage.end_line) == passage.text


def test_a_huge_note_is_cut_into_bounded_passages_that_cover_every_word() -> None:
    body = "\n\n".join(f"## Day {number}\n" + "Walked the dog and wrote notes. " * 20 for number in range(3000))
    passages = split_passages(body)
    assert len(passages) > 1000 and max(len(passage.text) for passage in passages) <= PASSAGE_CHARS
    assert sum(passage.text.count("Walked") for passage in passages) == 60_000


def test_one_word_longer_than_the_limit_stays_whole_rather_than_being_cut_mid_word() -> None:
    blob = "A" * 5000
    passages = split_passages(f"# Attachment\n\n{blob}\n\n" + "tail text " * 200)
    assert any(passage.text == blob for passage in passages)


# ---------------------------------------------------------------- fields and what is embedded


def test_string_properties_are_searchable_links_as_their_text_and_bookkeeping_keys_are_not() -> None:
    meta = {"layer": "L3", "expires_at": "2099-01-01", "tags": ["x"], "aliases": ["y"], "created": "2023-09-12",
            "author": "[[Kevin Kelly]]", "cast": ["[[People/Harrison Ford|Harrison Ford]]", "[[Sean Young]]"],
            "url": "https://example.org/a", "rating": 7, "done": True, "twitter": "kepano"}
    assert list(property_texts(meta)) == [("author", "Kevin Kelly"), ("cast", "Harrison Ford, Sean Young"), ("twitter", "kepano")]


def test_a_notes_fields_are_its_folders_and_file_name_title_aliases_properties_and_tags() -> None:
    note = parse_note("References/Steph Ango.md", b"---\naliases: [kepano]\ntwitter: kepano\ntags: [people]\n---\nBody #inline\n")
    fields = search_fields(note)
    assert (fields.name, fields.aliases, fields.props, fields.tags) == ("References Steph Ango", ("kepano",),
                                                                        (("twitter", "kepano"),), ("people", "inline"))


def test_the_first_passage_embeds_title_heading_path_and_properties_the_others_title_and_heading_path() -> None:
    assert embed_head("Guide", ("Guide", "Install"), "author: Kevin") == "Guide > Install\nauthor: Kevin"
    body = f"## Install\n{LONG_SECTION}\n\n## Usage\n{LONG_SECTION}\n"
    note = parse_note("guide.md", f"---\ntitle: Guide\nauthor: Kevin\n---\n{body}".encode())
    found = searchable(note)
    assert found.heads[0] == "Guide > Install\nauthor: Kevin"
    assert all("author" not in head for head in found.heads[1:]) and found.heads[-1].startswith("Guide > Usage")
    # Lines are the file's: the frontmatter's four lines come first.
    assert found.passages[0].start_line == 5


def test_the_first_passage_embeds_the_aliases_before_the_properties() -> None:
    note = parse_note("people/Joana.md", b"---\naliases: [Ribeirinha, Jo]\nrole: cheesemonger\n---\nSells cheese.\n")
    found = searchable(note)
    # An alias is a name of the note, as its title is: a name only an alias holds is found by meaning too.
    assert found.heads == ("Joana\naliases: Ribeirinha, Jo\nrole: cheesemonger",)
    assert found.fields.props_text == "role: cheesemonger"  # the full-text side keeps aliases in their own column


def test_a_short_note_without_properties_has_one_vector_the_whole_notes_text() -> None:
    note = parse_note("a.md", b"---\nlayer: L3\n---\nMaya takes oat milk in her coffee.\n")
    found = searchable(note)
    assert found.embed_texts == [found.note_text] == ["a\n\nMaya takes oat milk in her coffee.\n"]


def test_the_whole_note_vector_is_the_notes_own_text_not_its_passages_heads(wordllama: object) -> None:
    """Consolidation's threshold was measured on vectors of ``title`` + body: the vector kept for
    the whole note must stay that (within tokenisation at passage seams), not a mix of heads."""
    body = f"## Install\n{LONG_SECTION}\n\n## Usage\n{LONG_SECTION.replace('harbor', 'lantern')}\n"
    note = parse_note("guide.md", f"---\nauthor: Kevin Kelly\n---\n{body}".encode())
    found = searchable(note)
    [vectors] = embed_notes(wordllama, [found])  # type: ignore[arg-type]
    direct = wordllama.embed([found.note_text])[0]  # type: ignore[attr-defined]
    assert float(vectors.note @ direct) > 0.995
    assert float(vectors.passages[0] @ direct) < float(vectors.note @ direct)  # a passage is not the note
    each = wordllama.embed(found.embed_texts)  # type: ignore[attr-defined]
    assert np.allclose(np.sum(each * normalize_rows(vectors.passages), axis=1), 1.0, atol=1e-5)  # passages: their texts
    assert np.isclose(float(np.linalg.norm(vectors.note)), 1.0, atol=1e-5)  # the length prior is the passages' alone


def test_the_length_prior_scales_a_passage_by_how_much_text_it_holds_and_leaves_the_whole_note_unit(wordllama: object) -> None:
    """A passage's vector is its text's direction times n / sqrt(n² + β²) (n: the norm of its
    tokens' summed vectors): a ten-word remark keeps less of its cosine than a paragraph."""
    remark = parse_note("remark.md", b"I'm crying just hearing about it.\n")
    fact = parse_note("fact.md", ("I just finished Quiet Machines by Lena Fischer. It's about a robot who works as a night "
                                  "nurse and starts writing poetry, and I cried on the bus.\n").encode())
    short, long = embed_notes(wordllama, [searchable(remark), searchable(fact)])  # type: ignore[arg-type]
    sums = wordllama.sums([searchable(remark).embed_texts[0]])  # type: ignore[attr-defined]
    assert np.isclose(float(np.linalg.norm(short.passages[0])), float(length_factors(sums.totals, wordllama.length_prior)[0]), atol=1e-5)
    assert 0.5 < float(np.linalg.norm(short.passages[0])) < float(np.linalg.norm(long.passages[0])) < 1.0
    assert np.isclose(float(np.linalg.norm(short.note)), 1.0, atol=1e-5)  # consolidation compares unit vectors
    assert np.allclose(length_factors(sums.totals, None), 1.0)  # an embedder without a prior scales nothing


class PlainEmbedder(Embedder):
    """An embedder that is not a mean of token vectors (as a sentence-transformers model is not)."""

    name, dimension = "plain", 32

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        return HashingEmbedder(32).embed_batch(texts)


def test_an_embedder_without_token_sums_embeds_the_whole_note_a_second_time() -> None:
    plain = PlainEmbedder()
    assert not plain.additive and HashingEmbedder(32).additive
    note = parse_note("guide.md", f"## Install\n{LONG_SECTION}\n\n## Usage\n{LONG_SECTION}\n".encode())
    [vectors] = embed_notes(plain, [searchable(note)])
    assert np.allclose(vectors.note, plain.embed([note.embed_text])[0])
    [summed] = embed_notes(HashingEmbedder(32), [searchable(note)])
    assert float(summed.note @ vectors.note) > 0.99


# ---------------------------------------------------------------- indexed for real


@pytest.fixture
def long_note_vault(vault_dir: Path, wordllama: object) -> Vault:
    body = (f"# Formatting\n\nHow to format notes.\n\n{LONG_SECTION.replace('harbor', 'heading')}\n\n## Tables\n\n"
            f"A table is written with pipes: | a | b |, then a row of dashes.\n\n{LONG_SECTION}\n\n"
            f"## Lists\n\n{LONG_SECTION.replace('harbor', 'bullet')}\n")
    (vault_dir / "formatting.md").write_text(f"---\ntags: [docs]\n---\n{body}", encoding="utf-8")
    (vault_dir / "short.md").write_text("A short note about lunch.\n", encoding="utf-8")
    vault = Vault(vault_dir, embedder=wordllama)  # type: ignore[arg-type]
    vault.index()
    return vault


def test_a_long_notes_passages_and_their_full_text_rows_are_indexed(long_note_vault: Vault) -> None:
    with long_note_vault as vault:
        label = vault.store.notes.by_path("formatting.md").label
        passages = vault.store.passages.of_notes([label])[label]
        assert len(passages) > 2 and vault.store.passages.count() == len(passages) + 1
        assert len(vault.store.passage_vectors.for_labels([passage.label for passage in passages])) == len(passages)
        assert {passage.headings for passage in passages} >= {("Formatting", "Tables"), ("Formatting", "Lists")}


def test_the_hit_carries_its_best_passage_with_its_heading_path_and_lines(long_note_vault: Vault) -> None:
    with long_note_vault as vault:
        [hit] = vault.search("how do I write a table with pipes", k=1)
        assert hit.path == "formatting.md" and hit.passage is not None
        assert hit.passage.headings[-1] == "Tables"
        text = (vault.root / "formatting.md").read_text(encoding="utf-8").split("\n")
        first, last = hit.passage.lines
        assert "pipes" in "\n".join(text[first - 1 : last]) and "pipes" in hit.snippet


def test_an_edit_to_one_section_re_embeds_the_note_and_keeps_every_passage_consistent(long_note_vault: Vault) -> None:
    with long_note_vault as vault:
        path = vault.root / "formatting.md"
        path.write_text(path.read_text(encoding="utf-8").replace("pipes", "vertical bars"), encoding="utf-8")
        report = vault.index()
        assert report.updated == ["formatting.md"] and report.embedded == 1
        assert not vault.store.passage_vectors.missing_labels() and not vault.store.vectors.missing_labels()
        [hit] = vault.search("vertical bars", k=1)
        assert hit.path == "formatting.md" and "vertical bars" in hit.snippet


def test_a_tag_change_rewrites_the_full_text_rows_but_embeds_nothing(long_note_vault: Vault) -> None:
    with long_note_vault as vault:
        path = vault.root / "formatting.md"
        label = vault.store.notes.by_path("formatting.md").label
        before = {passage.label for passage in vault.store.passages.of_notes([label])[label]}
        path.write_text(path.read_text(encoding="utf-8").replace("tags: [docs]", "tags: [docs, zebrafish]"), encoding="utf-8")
        assert vault.index().embedded == 0
        assert vault.store.notes.by_path("formatting.md").label == label
        assert {passage.label for passage in vault.store.passages.of_notes([label])[label]} == before
        assert {match.note_label for match in vault.store.passages.fts("zebrafish", 50)} == {label}


def test_deleting_a_note_drops_its_passages_rows_and_vectors(long_note_vault: Vault) -> None:
    with long_note_vault as vault:
        (vault.root / "formatting.md").unlink()
        assert vault.index().removed == ["formatting.md"]
        assert vault.store.passages.count() == 1 and len(vault.store.passage_vectors.labels()) == 1
        assert vault.store.passages.fts("pipes", 10) == []


def test_the_passage_vectors_point_where_the_passages_texts_do(long_note_vault: Vault, wordllama: object) -> None:
    with long_note_vault as vault:
        label = vault.store.notes.by_path("formatting.md").label
        passages = vault.store.passages.of_notes([label])[label]
        stored = dict(vault.store.passage_vectors.for_labels([passage.label for passage in passages]))
        note = parse_note("formatting.md", (vault.root / "formatting.md").read_bytes())
        expected = normalize_rows(wordllama.embed(searchable(note).embed_texts))  # type: ignore[attr-defined]
        matrix = np.vstack([blob_to_vector(stored[passage.label]) for passage in passages])
        assert np.allclose(np.sum(normalize_rows(matrix) * expected, axis=1), 1.0, atol=1e-5)
        # ... each scaled by the length prior: these passages are long, so by little
        assert np.all((np.linalg.norm(matrix, axis=1) > 0.99) & (np.linalg.norm(matrix, axis=1) < 1.0))


def test_an_index_made_under_an_earlier_embed_recipe_embeds_every_note_again(sample_vault: Path, wordllama: object) -> None:
    """Was: a new recipe (the length prior) changed no file, so no file was read again and the
    old vectors stayed — until each note happened to be edited. The index keeps the rules it
    was made under (searchable.INDEX_RULES): a new recipe reads every file again."""
    import sqlite3

    from vaultmem.notes import READER_VERSION

    with Vault(sample_vault, embedder=wordllama) as vault:  # type: ignore[arg-type]
        assert vault.index().reread is False  # a new index is read whole, and says nothing of rules
    # What the previous version left: its reader version alone as the rules, and vectors
    # made by the previous recipe (unit rows; their embed hash is not today's).
    with sqlite3.connect(sample_vault / ".vaultmem" / "index.db") as db:
        db.execute("UPDATE meta SET value = ? WHERE key = 'reader'", (READER_VERSION,))
        db.execute("UPDATE notes SET embed_hash = 'made-by-an-earlier-recipe'")
    shown = run_cli(sample_vault, "index")  # the CLI's own embedder: the default, as the fixture's
    assert shown.exit_code == 0 and "40 updated" in shown.stdout, shown.output
    assert "every note read again: the index was made by another version of vaultmem" in shown.stdout
    with Vault(sample_vault, embedder=wordllama) as vault:  # type: ignore[arg-type]
        assert vault.store.meta.get("reader") == INDEX_RULES
        assert {row.embed_hash for row in vault.store.notes.all()} & {"made-by-an-earlier-recipe"} == set()
        report = vault.index()
        assert (report.embedded, report.reread) == (0, False)  # once
        rows = [blob_to_vector(blob) for _label, blob in vault.store.passage_vectors.for_labels(
            sorted(vault.store.passage_vectors.labels()))]
        assert len(rows) == 40 and all(float(np.linalg.norm(row)) < 0.9999 for row in rows)  # made by today's recipe
    # An index from before the rules were kept at all: rows, no rules.
    with sqlite3.connect(sample_vault / ".vaultmem" / "index.db") as db:
        db.execute("DELETE FROM meta WHERE key = 'reader'")
    with Vault(sample_vault, embedder=wordllama) as vault:  # type: ignore[arg-type]
        assert vault.index().reread is True


def test_an_index_made_before_passages_is_read_again_and_then_answers_with_passages(sample_vault: Path, wordllama: object) -> None:
    import sqlite3

    from helpers import NOW

    with Vault(sample_vault, embedder=wordllama) as vault:  # type: ignore[arg-type]
        vault.index()
    state = sample_vault / ".vaultmem"
    # What the previous version left: whole-note full text, no passages, no passage snapshot.
    with sqlite3.connect(state / "index.db") as db:
        for table in ("passages", "passages_fts", "passage_vectors", "passage_vector_tombstones"):
            db.execute(f"DROP TABLE {table}")
        db.execute("CREATE VIRTUAL TABLE notes_fts USING fts5(title, body, tags)")
        # Nor the later steps that change those tables (an index that old had never seen them).
        db.execute("DELETE FROM _migrations WHERE name IN ('008_passages', '015_stems', '018_combining_marks_in_words', '019_turn_context', "
                   "'022_fact_pieces')")
        db.execute("DELETE FROM meta WHERE key LIKE 'passage_snapshot_%'")
    for old in state.glob("passages-*"):
        old.unlink()
    with Vault(sample_vault, embedder=wordllama) as vault:  # type: ignore[arg-type]
        [hit] = vault.search("how does Maya take her coffee", k=1, now=NOW)
        assert hit.passage is not None and hit.match in ("both", "meaning", "keyword")
        assert vault.store.passages.count() == vault.store.notes.count() == 40
        tables = {row[0] for row in vault.store.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert "notes_fts" not in tables
