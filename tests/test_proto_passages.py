"""The passage prototype (benchmarks/passages.py, proto_sides.py, proto_passages.py).

Its splitting and field rules are what the product will port, so they are checked on
notes whose right answer is known; the FTS side on a real FTS5 table; the whole prototype
runs for real on the sample set through its command line (the real default embedder).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from benchmarks.passages import (
    Split,
    embed_text,
    make_doc,
    property_texts,
    sections,
    split_passages,
)
from benchmarks.proto_passages import FusionSpec, fuse
from benchmarks.proto_sides import TextLayout, TextSide, weights_for

REPO = Path(__file__).resolve().parent.parent


def test_a_heading_inside_a_code_block_does_not_start_a_section() -> None:
    body = "# Title\nintro\n\n```sh\n# not a heading\necho hi\n```\n\n## Real\ntext\n"
    found = sections(body)
    assert [section.headings for section in found] == [("Title",), ("Title", "Real")]
    assert "# not a heading" in found[0].text


def test_heading_path_drops_deeper_headings_when_a_shallower_one_comes() -> None:
    body = "# A\na\n## B\nb\n### C\nc\n## D\nd\n"
    assert [section.headings for section in sections(body)] == [("A",), ("A", "B"), ("A", "B", "C"), ("A", "D")]


def test_a_note_no_longer_than_the_limit_stays_one_passage_even_with_headings() -> None:
    body = "# A\nshort\n## B\nalso short\n"
    passages = split_passages(0, body, Split("1000", 1000))
    assert len(passages) == 1
    assert passages[0].text == body
    assert passages[0].headings == ()


def test_a_long_section_becomes_paragraph_groups_no_longer_than_the_limit() -> None:
    paragraphs = [f"Paragraph {number} " + "word " * 40 for number in range(12)]
    body = "# Long\n\n" + "\n\n".join(paragraphs) + "\n"
    passages = split_passages(0, body, Split("500", 500))
    assert len(passages) > 1
    assert all(len(passage.text) <= 500 for passage in passages)
    assert all(passage.headings == ("Long",) for passage in passages)
    joined = " ".join(passage.text for passage in passages)
    assert all(paragraph.strip() in joined for paragraph in paragraphs)  # nothing lost, no paragraph cut
    assert [passage.number for passage in passages] == list(range(len(passages)))


def test_a_paragraph_longer_than_the_limit_is_cut_by_sentences_and_words() -> None:
    body = "# Huge\n\n" + "A sentence of several words. " * 100
    passages = split_passages(0, body, Split("300", 300))
    assert all(len(passage.text) <= 300 for passage in passages)


def test_packing_joins_small_sections_up_to_the_limit_and_keeps_the_first_heading() -> None:
    body = "# T\n" + "".join(f"## S{n}\n{'x' * 80}\n" for n in range(10)) + "## Big\n" + "y " * 400
    unpacked = split_passages(0, body, Split("1000", 1000))
    packed = split_passages(0, body, Split("1000+pack", 1000, merge=True))
    assert len(packed) < len(unpacked)
    assert all(len(passage.text) <= 1000 for passage in packed)
    assert packed[0].headings == ("T",)


def test_properties_become_text_links_their_alias_and_bookkeeping_keys_stay_out() -> None:
    meta = {"layer": "L3", "expires_at": "2099-01-01", "tags": ["x"], "aliases": ["y"], "author": "[[Kevin Kelly]]",
            "cast": ["[[People/Harrison Ford|Harrison Ford]]", "[[Sean Young]]"], "cover": "https://example.org/a.jpg",
            "rating": 7, "done": True}
    assert list(property_texts(meta)) == [("author", "Kevin Kelly"), ("cast", "Harrison Ford, Sean Young")]


def test_context_and_properties_are_embedded_with_the_first_passage_only() -> None:
    raw = b"---\nauthor: Ann Lee\n---\n# Guide\n" + b"intro\n\n" + b"## Part\n" + b"words " * 300
    doc = make_doc("notes/Guide.md", raw, None)  # named by its file name (adr/0020)
    passages = split_passages(0, doc.body, Split("1000", 1000))
    first, later = embed_text(doc, passages[0], "context+props"), embed_text(doc, passages[-1], "context+props")
    assert first.startswith("Guide\nauthor: Ann Lee\n\n")
    assert later.startswith("Guide > Part\n\n")
    assert "Ann Lee" not in later
    assert embed_text(doc, passages[-1], "passage") == passages[-1].text


def test_text_side_finds_a_note_by_a_property_and_scores_its_best_passage(tmp_path: Path) -> None:
    docs = [
        make_doc("a.md", b"---\ndirector: Ridley Scott\n---\nA film about replicants.\n", None),
        make_doc("b.md", b"# Manual\n\n" + b"filler text here. " * 80 + b"\n\n## Tables\n\nHow to write a table with pipes.\n", None),
    ]
    passages = [p for index, doc in enumerate(docs) for p in split_passages(index, doc.body, Split("500", 500))]
    side = TextSide(docs, passages, TextLayout("passage-every", per_passage=True))
    weights = weights_for({"name": 5, "title": 5, "props": 2, "headings": 2, "body": 1})
    by_property = side.note_scores('"ridley" AND "scott"', weights)
    assert np.isfinite(by_property[0])
    assert not np.isfinite(by_property[1])
    by_section = side.note_scores('"table"', weights)
    assert np.isfinite(by_section[1])
    assert not np.isfinite(by_section[0])


def test_zscore_fusion_puts_a_note_first_on_both_sides_first_and_keeps_one_side_only_notes() -> None:
    vector_scores = np.asarray([0.9, 0.5, 0.4, -np.inf])
    text_scores = np.asarray([12.0, -np.inf, 3.0, 2.0])
    order = fuse(FusionSpec("zscore", "zscore", vectors=0.6, text=0.4), [0, 1, 2], [0, 2, 3], vector_scores, text_scores)
    assert order[0] == 0
    assert set(order) == {0, 1, 2, 3}


def test_prototype_runs_on_the_sample_set_and_reports_the_recommended_design(tmp_path: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "benchmarks.proto_passages", "--sets", "sample", "--designs-only", "--workdir", str(tmp_path)],
        cwd=REPO, capture_output=True, text=True, timeout=600, check=False,
    )
    assert completed.returncode == 0, completed.stderr
    result = json.loads(completed.stdout)
    recommended = result["recommended"]["sets"]["sample"]
    for figures in (recommended["today"]["fused"], recommended["recommended"]["fused"]):
        assert 0.0 < figures["mrr"] <= 1.0
        assert 0.0 < figures["recall@10"] <= 1.0
    # Today's design rebuilt in the prototype gives the harness's figures (benchmarks/README.md).
    assert result["checks"]["sample"]["today_rrf60_with_templates"] == {"hit@1": 0.8, "hit@3": 1.0, "mrr": 0.9, "recall@10": 1.0}
