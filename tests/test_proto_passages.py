"""The passage prototype (benchmarks/passages.py, proto_sides.py, proto_passages.py).

Its splitting and field rules are the product's now (tests/test_passages.py checks them);
here: its embedded-text variants, its FTS side on a real FTS5 table, its fusion, and the
whole prototype run for real on the sample set through its command line (the real
default embedder).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from benchmarks.passages import Split, embed_text, make_doc, split_passages
from benchmarks.proto_passages import FusionSpec, fuse
from benchmarks.proto_sides import TextLayout, TextSide, weights_for

REPO = Path(__file__).resolve().parent.parent


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
