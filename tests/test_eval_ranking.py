"""The ranking evaluation harness (benchmarks/eval_ranking.py): its JSON, its metrics, its fusions.

The harness runs for real on the sample set (real files, real index, the real default
embedder) through its command line; the metric and fusion functions are pure and are
checked on rankings whose right answer is known.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.eval_ranking import METRICS, SANITY_FUSION, question_metrics
from benchmarks.fusion import FusionSpecError, parse_fusion

REPO = Path(__file__).resolve().parent.parent


def run_harness(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "benchmarks.eval_ranking", *arguments],
        cwd=REPO, capture_output=True, text=True, timeout=300, check=False,
    )


@pytest.fixture(scope="module")
def sample_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, list[dict]]:
    dump = tmp_path_factory.mktemp("eval") / "rows.jsonl"
    completed = run_harness("--sets", "sample", "--fusions", "rrf:k=10 minmax:vectors=0.3,text=0.7 zscore", "--dump", str(dump))
    assert completed.returncode == 0, completed.stderr
    rows = [json.loads(line) for line in dump.read_text(encoding="utf-8").splitlines()]
    return json.loads(completed.stdout), rows


def test_sample_set_reports_every_metric_of_every_method_between_0_and_1(sample_run: tuple[dict, list[dict]]) -> None:
    result, _ = sample_run
    assert list(result["sets"]) == ["sample"]
    sample = result["sets"]["sample"]
    tables = {**sample["methods"], **sample["fusions"]}
    assert set(sample["methods"]) == {"vectors", "text", "fused"}
    assert set(sample["fusions"]) == {"rrf:k=10", "minmax:vectors=0.3,text=0.7", "zscore"}
    for method, metrics in tables.items():
        assert set(metrics) == set(METRICS), method
        for name, value in metrics.items():
            assert 0.0 <= value <= 1.0, (method, name, value)
    for kind in sample["by_kind"].values():
        assert {"vectors", "text", "fused"} <= set(kind)


def test_sample_set_answers_at_least_one_question_with_each_method(sample_run: tuple[dict, list[dict]]) -> None:
    result, rows = sample_run
    sample = result["sets"]["sample"]
    assert sample["questions"] == len(rows) > 0
    for method in ("vectors", "text", "fused"):
        assert sample["methods"][method]["recall@10"] > 0, method
        assert any(row["ranks"][method][0] is not None for row in rows), method


def test_offline_fusion_of_the_collected_sides_reproduces_the_fused_search(sample_run: tuple[dict, list[dict]]) -> None:
    # Every question's dumped rankings: fused is exactly what Vault.search returned, and the
    # z-score mix vaultmem uses (SANITY_FUSION: vectors 0.55, pools of 100) over the collected
    # sides gives the same top 10 — the sides are the real ones.
    result, rows = sample_run
    assert result["sets"]["sample"]["checks"]["offline_fusion_equals_fused"] == 1.0
    assert all(row["top"][SANITY_FUSION] == row["top"]["fused"] for row in rows)


def test_fused_is_at_least_the_better_side_on_every_metric_of_the_sample_set(sample_run: tuple[dict, list[dict]]) -> None:
    # Issue 13 §2: fusion must earn its place on every set; the sample set is the one CI runs.
    methods = sample_run[0]["sets"]["sample"]["methods"]
    for metric in METRICS:
        assert methods["fused"][metric] >= max(methods["vectors"][metric], methods["text"][metric]), metric


def test_a_side_that_matched_few_notes_still_counts_in_the_z_score_mix() -> None:
    # One note holds the booking code (one text candidate, a spread of 0): the other
    # candidates score 0 on the text side, so the exact match beats a closer meaning — as
    # in tests/test_search.py's zxqv-4471 (cosines from that vault; 40 notes, all proposed).
    vectors = [("decoy.md", 0.37), ("pet.md", 0.15), ("review.md", 0.13), ("locker.md", 0.11)]
    vectors += [(f"n{number}.md", 0.10 - 0.006 * number) for number in range(36)]
    text = [("locker.md", 3.3)]
    assert parse_fusion(SANITY_FUSION).rank(vectors, text)[:2] == ["locker.md", "decoy.md"]


def test_unknown_set_is_a_usage_error_naming_the_choices() -> None:
    completed = run_harness("--sets", "sample,nope")
    assert completed.returncode == 2
    assert "nope" in completed.stderr and "kepano" in completed.stderr
    assert completed.stdout == ""


def test_the_help_set_runs_only_when_asked_and_says_which_variable_names_its_pages() -> None:
    listed = run_harness("--help").stdout
    assert "VAULTMEM_EVAL_HELP" in listed
    completed = subprocess.run([sys.executable, "-m", "benchmarks.eval_ranking", "--sets", "help"], cwd=REPO, capture_output=True,
                               text=True, timeout=300, check=False, env={**os.environ, "VAULTMEM_EVAL_HELP": ""})
    assert completed.returncode == 1
    assert "VAULTMEM_EVAL_HELP" in completed.stderr and "Traceback" not in completed.stderr
    assert completed.stdout == ""


def test_the_help_set_refuses_a_copy_without_a_page_its_questions_name(tmp_path: Path) -> None:
    copy = tmp_path / "en"
    (copy / "Plugins").mkdir(parents=True)
    (copy / "Plugins" / "Canvas.md").write_text("# Canvas\n", encoding="utf-8")
    completed = subprocess.run([sys.executable, "-m", "benchmarks.eval_ranking", "--sets", "help", "--workdir", str(tmp_path / "work")],
                               cwd=REPO, capture_output=True, text=True, timeout=300, check=False,
                               env={**os.environ, "VAULTMEM_EVAL_HELP": str(copy)})
    assert completed.returncode == 1
    assert "does not hold" in completed.stderr and "another version of the help" in completed.stderr


def test_the_help_set_copies_every_page_and_keeps_the_questions_whose_pages_and_sections_are_there(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from benchmarks.evalsets import obsidian_help

    copy = tmp_path / "en"
    questions = json.loads(obsidian_help.QUESTIONS.read_text(encoding="utf-8"))["questions"]
    for item in questions:
        for answer in item["answers"]:
            page = copy / answer
            page.parent.mkdir(parents=True, exist_ok=True)
            heading = f"\n## {item['section']}\n" if "section" in item else ""
            page.write_text((page.read_text(encoding="utf-8") if page.exists() else "Text.\n") + heading, encoding="utf-8")
    (copy / "Extra page.md").write_text("Not an answer.\n", encoding="utf-8")
    (copy / "image.png").write_bytes(b"\x89PNG")
    monkeypatch.setenv("VAULTMEM_EVAL_HELP", str(copy))
    prepared = obsidian_help.prepare(tmp_path / "work")
    pages = {path.relative_to(copy).as_posix() for path in copy.rglob("*.md")}
    assert {path.relative_to(prepared.vault).as_posix() for path in prepared.vault.rglob("*") if path.is_file()} == pages
    assert len(prepared.questions) == len(questions) and prepared.info["notes"] == len(pages)


def test_recall_counts_the_share_of_evidence_in_the_top_10_and_mrr_stops_at_10() -> None:
    ranking = [f"n{i}.md" for i in range(1, 21)]
    metrics = question_metrics(ranking, ["n2.md", "n9.md", "n15.md"])
    assert metrics == {"hit@1": 0.0, "hit@3": 1.0, "mrr": 0.5, "recall@10": pytest.approx(2 / 3)}
    assert question_metrics(ranking, ["n11.md"]) == {"hit@1": 0.0, "hit@3": 0.0, "mrr": 0.0, "recall@10": 0.0}


def test_rrf_k_and_side_weights_change_the_order_and_ties_break_on_path() -> None:
    vectors = [("a.md", 0.9), ("b.md", 0.8), ("c.md", 0.7)]
    text = [("c.md", 12.0), ("d.md", 11.0), ("b.md", 3.0)]
    # c is 3rd and 1st, b 2nd and 3rd: c wins at any k; weights can hand the lead to one side.
    assert parse_fusion("rrf:k=60").rank(vectors, text)[:2] == ["c.md", "b.md"]
    assert parse_fusion("rrf:k=1,text=3").rank(vectors, text)[0] == "c.md"
    assert parse_fusion("rrf:k=1,vectors=3,text=0").rank(vectors, text)[:3] == ["a.md", "b.md", "c.md"]
    assert parse_fusion("rrf:k=60,depth=1").rank([("z.md", 1.0)], [("y.md", 1.0)]) == ["y.md", "z.md"]


def test_score_normalised_fusions_use_the_raw_scores() -> None:
    vectors = [("a.md", 0.90), ("b.md", 0.89), ("c.md", 0.10)]
    text = [("b.md", 30.0), ("c.md", 29.0), ("a.md", 1.0)]
    # By rank a and b are level-ish; by score b is near the top on both sides.
    assert parse_fusion("minmax").rank(vectors, text)[0] == "b.md"
    assert parse_fusion("zscore").rank(vectors, text)[0] == "b.md"
    assert parse_fusion("minmax:vectors=1,text=0").rank(vectors, text)[0] == "a.md"


@pytest.mark.parametrize("spec, words", [
    ("bm25", "unknown method 'bm25'"),
    ("rrf:kk=10", "unknown option 'kk'"),
    ("rrf:k=ten", "k='ten' is not a number"),
    ("rrf:depth=0", "depth must be"),
])
def test_a_bad_fusion_spec_says_what_is_wrong(spec: str, words: str) -> None:
    with pytest.raises(FusionSpecError, match=words):
        parse_fusion(spec)


def test_echo_questions_repeat_a_word_of_each_evidence_turn_but_never_the_answer(tmp_path: Path) -> None:
    # conversations-echo: the text-led regime (adr/0004, "Weights and pool, revisited"). Each
    # question is the plain one plus words its evidence turns say — never a form of a word of
    # the question or the answer, nor a name, or the set would measure a give-away.
    import re

    from benchmarks.evalsets import conversations
    from benchmarks.evalsets.conversation_people import PEOPLE

    def words(text: str) -> set[str]:
        return {word.lower() for word in re.findall(r"[A-Za-z]+", text)}

    def one_form(word: str, other: str) -> bool:  # a stemmer's view, written out again here
        return word == other or (len(word) >= 5 and len(other) >= 5 and word[:5] == other[:5])

    plain = conversations.prepare(tmp_path / "plain").questions
    echoed = conversations.prepare_echo(tmp_path / "echo")
    names = words(" ".join([*PEOPLE, *(value for person in PEOPLE.values() for value in person.values()
                                      if isinstance(value, str) and value[:1].isupper() and len(value.split()) <= 3)]))
    assert {"ana", "luis", "porto", "priyanka"} <= names
    assert len(echoed.questions) == len(plain) > 100
    changed = 0
    for before, after in zip(plain, echoed.questions, strict=True):
        assert after.answers == before.answers
        assert after.kind == before.kind
        if after.text == before.text:
            continue  # a list question, or turns with nothing left to echo: asked as it is
        changed += 1
        assert after.text.startswith(before.text.rstrip("?") + " (")
        added = after.text[len(before.text.rstrip("?")) + 2 : -2].split()
        said = set().union(*(words(conversations.turn_text(echoed.vault / path)) for path in after.answers))
        assert "speaker" not in said  # the turn's text, not its frontmatter
        assert 1 <= len(added) <= len(after.answers), after.text
        assert set(added) <= said, after.text
        withheld = words(before.text) | words(before.answer) | names
        assert not [word for word in added if any(one_form(word, other) for other in withheld)], after.text
    assert changed > 0.9 * len(plain)


def test_the_conversations_in_other_exports_layouts_keep_every_turn_and_question_and_say_the_same(tmp_path: Path) -> None:
    # conversations-<layout> (evalsets/conversation_exports.py): does vaultmem still read a
    # conversation's order when its files are named otherwise? Only if each layout holds the same
    # turns, said by the same people, and the questions' answers are those turns at their new paths.
    from benchmarks.eval_ranking import DEFAULT_SETS, SETS
    from benchmarks.evalsets import conversation_exports, conversations

    plain = conversations.prepare(tmp_path / "plain")
    said = {path: conversations.turn_text(plain.vault / path) for path in {a for q in plain.questions for a in q.answers}}
    for layout in ("onefolder", "slugs", "ids", "role"):
        assert f"conversations-{layout}" in SETS and f"conversations-{layout}" not in DEFAULT_SETS
        moved = conversation_exports.prepare(tmp_path / layout, layout)
        assert moved.info["turns"] == plain.info["turns"] == len(list(moved.vault.rglob("*.md")))
        assert [q.text for q in moved.questions] == [q.text for q in plain.questions]
        for before, after in zip(plain.questions, moved.questions, strict=True):
            assert [said[path] for path in before.answers] == [conversations.turn_text(moved.vault / path) for path in after.answers]
        if layout in ("slugs", "ids"):  # the order is in the frontmatter alone
            assert not any(re.search(r"t\d{3}|D\d+_\d+", path.name) for path in moved.vault.rglob("*.md"))


def test_the_calibration_script_fits_the_shipped_kind_of_curve_on_the_sample_set() -> None:
    # benchmarks/calibrate.py refits Embedder.score_calibration; on the sample set alone its
    # fit must still say what the shipped one says: a higher fused value, a likelier answer;
    # more of the question's words in no note, a less likely one; and scores that are a fair
    # guess of the share of answers.
    completed = subprocess.run(
        [sys.executable, "-m", "benchmarks.calibrate", "--sets", "sample", "--fit-on", "sample"],
        cwd=REPO, capture_output=True, text=True, timeout=300, check=False,
    )
    assert completed.returncode == 0, completed.stderr
    result = json.loads(completed.stdout)
    sample = result["sets"]["sample"]
    assert result["b"] > 0
    assert result["c"] > 0
    assert sample["hits"] == 200  # 20 questions × their first 10 candidates
    assert sample["brier"] <= sample["brier_shipped"] + 1e-9  # fitted on this set: at least as good here
    assert abs(sample["mean_score"] - sample["answer_rate"]) < 0.05
    assert sample["foreign_first_at_least_0.5"] < sample["own_first_at_least_0.5"] - 0.5


def test_the_score_probe_asks_foreign_questions_and_they_read_lower_than_the_sets_own(sample_run: tuple[dict, list[dict]]) -> None:
    # `scores`: the manuals' how-to questions asked of the sample vault (nothing there answers
    # them) beside the sample's own. On this vault the first hit's score tells them apart.
    from benchmarks.eval_ranking import _score_spread, foreign_questions

    scores = sample_run[0]["sets"]["sample"]["scores"]
    assert scores["asked_from"] == "docs"
    assert scores["questions"] == len(foreign_questions("sample")[1]) == 48
    for spread in (scores["no_answer"], scores["own_questions"]):
        assert all(0.0 <= value <= 1.0 for value in spread.values())
    assert scores["own_questions"]["top1_mean"] > scores["no_answer"]["top1_mean"] + 0.2
    assert foreign_questions("docs")[0] == "kepano"
    assert _score_spread([]) == {}
    assert _score_spread([0.1, 0.3, 0.6, 0.9]) == {"top1_mean": 0.475, "top1_median": 0.45, "share_at_least_0.2": 0.75, "share_at_least_0.5": 0.5}


def test_the_calibration_script_leaves_the_help_set_out_unless_asked_and_says_why_it_cannot_run_it() -> None:
    # docs/development.md runs `python -m benchmarks.calibrate` bare: it took every set, the help set whose pages
    # are not in the repository too, and died in a traceback after minutes of work on the others (s37).
    listed = subprocess.run([sys.executable, "-m", "benchmarks.calibrate", "--help"], cwd=REPO, capture_output=True,
                            text=True, timeout=300, check=False).stdout
    default = " ".join(listed.split()).split("(default: ", 1)[1].split(";", 1)[0]
    assert default.split(",") == ["sample", "kepano", "conversations", "docs", "conversations-echo"]
    completed = subprocess.run([sys.executable, "-m", "benchmarks.calibrate", "--sets", "help", "--fit-on", "help"], cwd=REPO,
                               capture_output=True, text=True, timeout=300, check=False, env={**os.environ, "VAULTMEM_EVAL_HELP": ""})
    assert completed.returncode == 1
    assert "VAULTMEM_EVAL_HELP" in completed.stderr
    assert "Traceback" not in completed.stderr
    assert completed.stdout == ""
