"""A Logseq graph as a vault (vaultmem/logseq.py, exclusions.py, config.find_vault; adr/0028).

Logseq keeps pages in ``pages/`` and ``journals/``, its settings and backups of pages in
``logseq/`` (``logseq/config.edn``, ``logseq/bak/``), a page's properties as ``key:: value``
lines at its top instead of YAML, and a block's uuid as an ``id::`` line that ``((uuid))``
refers to. Found on a trial with a real graph. Real files, the real CLI.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import run_cli, run_json, snapshot_files, write_vault

from vaultmem.logseq import edit_fields, naming_meta, property_items, without_field_lines

CONFIG_EDN = '{:meta/version 1\n :journal/page-title-format "yyyy-MM-dd"}\n'
FLINK = "title:: Apache Flink/SQL\nalias:: [[Flink SQL]], Blink\ntags:: [[stream processing]], #database\n\n- Flink SQL runs continuous queries over Kafka topics\n-"
CARGO = "- cargo 是 [[Rust]] 的官方构建工具\n- mold makes linking fast\n"
JOURNAL = ("- [Dare to ask for more](https://example.com) #read\n  id:: 621b05d0-c3c1-405b-9ad8-bb072008bb98\n"
           "  collapsed:: true\n\t- ask for more from the compiler, see ((620226b4-d591-4b2e-8736-859107643564))\n"
           "- {{embed ((621b05d1-578c-4311-b8bd-c34ec4448123))}}\n")


def graph(root: Path) -> Path:
    return write_vault(root, {
        ".vaultmem.toml": 'embedder = "hashing"\n',
        "logseq/config.edn": CONFIG_EDN,
        "logseq/custom.css": "body {}\n",
        "logseq/bak/pages/Cargo/2022-05-01T10_11_12.345Z.Desktop.md": "- cargo old draft: mold makes linking fast\n",
        "pages/Apache Flink%2FSQL.md": FLINK,
        "pages/Cargo.md": CARGO,
        "journals/2022_02_27.md": JOURNAL,
    })


def test_logseqs_own_folder_in_a_graph_holds_no_notes(vault_dir: Path) -> None:
    root = graph(vault_dir)
    index = run_json(root, "index")
    assert index["excluded"]["folders"] == [
        {"path": "logseq", "source": "Logseq's own folder", "pattern": "logseq", "files": 1}]
    hits = run_json(root, "search", "mold makes linking fast", "-k", "5")
    paths = [hit["path"] for hit in hits]
    assert paths[0] == "pages/Cargo.md"
    assert not any(path.startswith("logseq/") for path in paths)
    refused = run_cli(root, "get", "logseq/bak/pages/Cargo/2022-05-01T10_11_12.345Z.Desktop.md")
    assert refused.exit_code == 1
    assert "excluded by Logseq's own folder 'logseq'" in refused.stderr
    assert "the page itself is in pages/" in refused.stderr


def test_a_graphs_logseq_folder_holding_no_note_is_not_reported_as_excluded(vault_dir: Path) -> None:
    """Was (s40): every index of a graph whose ``logseq/`` held only config.edn ended with "not
    notes (excluded): 0 file(s): logseq/ (Logseq's own folder 'logseq')"; with a page backup in it,
    the line still names the folder and its count."""
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', "logseq/config.edn": CONFIG_EDN,
                                   "pages/Cargo.md": CARGO})
    assert "not notes (excluded)" not in run_cli(root, "index").stdout
    write_vault(vault_dir, {"logseq/bak/pages/Cargo/2022-05-01T10_11_12.345Z.Desktop.md": CARGO})
    assert "not notes (excluded): 1 file(s): logseq/ (Logseq's own folder 'logseq')" in run_cli(root, "index").stdout


def test_a_folder_named_logseq_outside_a_logseq_graph_still_holds_notes(vault_dir: Path) -> None:
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n',
                                   "logseq/evaluation.md": "Logseq versus Obsidian: outliner first"})
    run_cli(root, "index")
    assert [hit["path"] for hit in run_json(root, "search", "outliner first")] == ["logseq/evaluation.md"]


def test_a_command_in_a_graphs_journals_folder_works_on_the_graph(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from vaultmem.cli import main

    root = graph(tmp_path / "graph")
    (root / ".vaultmem.toml").unlink()  # only Logseq's own mark of the graph is left
    monkeypatch.delenv("VAULTMEM_VAULT", raising=False)
    monkeypatch.chdir(root / "journals")
    result = CliRunner().invoke(main, ["check", "--json"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("{")
    assert '"files": 3' in result.stdout
    assert not (root / "journals" / ".vaultmem").exists()


def test_page_properties_name_the_page_as_logseq_names_it(vault_dir: Path) -> None:
    root = graph(vault_dir)
    before = snapshot_files(root)
    run_cli(root, "index")
    for name in ("Flink SQL", "Blink", "Apache Flink/SQL"):
        assert run_json(root, "get", name)["path"] == "pages/Apache Flink%2FSQL.md", name
    hits = run_json(root, "search", "continuous queries over Kafka", "--tag", "database")
    assert [(hit["path"], hit["title"], hit["tags"]) for hit in hits] == [
        ("pages/Apache Flink%2FSQL.md", "Apache Flink/SQL", ["stream processing", "database"])]
    assert {path: value for path, value in snapshot_files(root).items() if not path.startswith(".vaultmem/")} == {
        path: value for path, value in before.items() if not path.startswith(".vaultmem/")}  # no page rewritten


def test_only_a_leading_property_block_names_a_page_and_yaml_wins() -> None:
    assert naming_meta("title:: A/B\nid:: 621b05d0-c3c1-405b-9ad8-bb072008bb98\n\n- text") == {"title": "A/B"}
    # under a bullet it is that block's property, not the page's (Logseq's OpenDAL.md)
    assert naming_meta("- https://github.com/datafuselabs/opendal\n  title:: OpenDAL\n-") == {}
    assert property_items("[[Flink SQL]], Blink, #[[a, b]], #rust") == ["Flink SQL", "Blink", "a, b", "rust"]
    from vaultmem.notes import parse_note

    note = parse_note("pages/x.md", b"---\ntitle: From YAML\n---\ntitle:: From Logseq\n")
    assert note.title == "From YAML"


def test_snippets_leave_out_logseqs_block_ids_and_uuid_references(vault_dir: Path) -> None:
    root = graph(vault_dir)
    run_cli(root, "index")
    [hit] = run_json(root, "search", "dare to ask for more from the compiler", "-k", "1")
    assert hit["path"] == "journals/2022_02_27.md"
    assert "ask for more from the compiler, see" in hit["snippet"]
    for noise in ("id::", "collapsed::", "((", "621b05d", "{{embed"):
        assert noise not in hit["snippet"], noise


def test_snippets_leave_out_a_blocks_logbook_drawer(vault_dir: Path) -> None:
    """Was (s40, a public Logseq graph): a hit read "LATER Reread … :LOGBOOK: CLOCK: [2022-12-15
    Thu 09:47:52] :END: No need to …": Logseq folds a block's logbook away."""
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', "logseq/config.edn": CONFIG_EDN,
                                   "journals/2022_12_15.md": (
                                       "- TODO-list\n\t- LATER Reread abstract algebra Galois theory part.\n"
                                       "\t  :LOGBOOK:\n\t  CLOCK: [2022-12-15 Thu 09:47:52]\n"
                                       "\t  CLOCK: [2022-12-14 Wed 10:00:00]--[2022-12-14 Wed 10:05:00] =>  00:05:00\n"
                                       "\t  :END:\n\t\t- No need to understand everything.\n")})
    run_cli(root, "index")
    [hit] = run_json(root, "search", "reread abstract algebra galois theory", "-k", "1")
    assert "Reread abstract algebra Galois theory part. No need to understand everything." in hit["snippet"], hit["snippet"]
    for noise in (":LOGBOOK:", "CLOCK:", ":END:", "09:47:52"):
        assert noise not in hit["snippet"], noise


def test_snippets_show_a_heading_block_without_its_marks(vault_dir: Path) -> None:
    """Was (s40, a public Logseq graph): "### Exploration · Learn new topics and new tools. …" and
    "# Mathematics #card": a block written ``- ### Exploration`` is a heading Logseq shows without
    its ``#`` marks. A ``#tag`` opening a block stays a tag."""
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', "logseq/config.edn": CONFIG_EDN,
                                   "pages/Roadmap.md": ("- # Principles\n\t- ### Exploration\n\t\t- Learn new topics and new tools.\n"
                                                        "\t- #card Algebraic Geometry\n")})
    run_cli(root, "index")
    [hit] = run_json(root, "search", "learn new topics and new tools exploration", "-k", "1")
    assert "Principles · Exploration · Learn new topics and new tools." in hit["snippet"], hit["snippet"]
    assert "#" not in hit["snippet"].replace("#card", ""), hit["snippet"]


def test_a_tag_revised_onto_a_page_goes_on_its_tags_line_and_the_page_keeps_its_title_and_aliases(vault_dir: Path) -> None:
    """Was: ``revise --tag flink`` wrote a YAML block above the page's ``key::`` lines; Logseq
    then showed the YAML as text and the page had two property blocks (adr/0028)."""
    root = graph(vault_dir)
    run_cli(root, "index")
    assert run_cli(root, "revise", "Flink SQL", "--tag", "flink").exit_code == 0
    text = (root / "pages/Apache Flink%2FSQL.md").read_text(encoding="utf-8")
    assert text == FLINK.replace("#database\n", "#database, flink\n")  # that line, in its own form; nothing else
    page = run_json(root, "get", "Flink SQL")
    assert (page["path"], page["title"]) == ("pages/Apache Flink%2FSQL.md", "Apache Flink/SQL")
    assert page["tags"] == ["stream processing", "database", "flink"]


def test_a_tag_revised_onto_a_line_of_hashtags_is_one_more_hashtag(vault_dir: Path) -> None:
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', "logseq/config.edn": CONFIG_EDN,
                                   "pages/Tokio.md": "tags:: #rust #async\n\n- a runtime for async Rust\n"})
    run_cli(root, "index")
    assert run_cli(root, "revise", "Tokio", "--tag", "runtime", "--tag", "io-uring").exit_code == 0
    assert (root / "pages/Tokio.md").read_text(encoding="utf-8") == "tags:: #rust #async #runtime #io-uring\n\n- a runtime for async Rust\n"
    assert run_json(root, "get", "Tokio")["tags"] == ["rust", "async", "runtime", "io-uring"]


def test_a_tag_revised_onto_a_journal_without_properties_opens_it_with_a_tags_line(vault_dir: Path) -> None:
    """A page without property lines gets one, as Logseq writes page properties: no YAML."""
    root = graph(vault_dir)
    run_cli(root, "index")
    assert run_cli(root, "revise", "journals/2022_02_27", "--tag", "reading").exit_code == 0
    assert (root / "journals/2022_02_27.md").read_text(encoding="utf-8") == "tags:: reading\n" + JOURNAL
    assert run_json(root, "get", "journals/2022_02_27")["tags"] == ["reading", "read"]  # the page's, then its text's #read


def test_a_pages_yaml_frontmatter_is_still_where_its_fields_are_written(vault_dir: Path) -> None:
    """Logseq reads a page's YAML frontmatter as its properties too: a page that has one keeps its
    fields there (a second block of `key::` lines would be the two blocks this avoids)."""
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', "logseq/config.edn": CONFIG_EDN,
                                   "pages/Inbox.md": "---\ntitle: Inbox\ntags: system\n---\n\n- ## Unsorted\n"})
    run_cli(root, "index")
    assert run_cli(root, "revise", "Inbox", "--tag", "triage").exit_code == 0
    assert (root / "pages/Inbox.md").read_text(encoding="utf-8").startswith("---\ntitle: Inbox\ntags: system, triage\n---\n")


def test_remember_in_a_graph_writes_a_page_with_its_fields_as_page_properties(vault_dir: Path) -> None:
    """Was: ``memories/<slug>.md`` with YAML frontmatter: outside ``pages/``, and its fields
    shown by Logseq as the text of its first block."""
    root = graph(vault_dir)
    remembered = run_json(root, "remember", "Staging Postgres listens on port 5433", "--layer", "L1", "--tag", "db",
                          "--tag", "infra/pg")
    assert remembered["path"] == "pages/staging-postgres-listens-on-port-5433.md"
    text = (root / remembered["path"]).read_text(encoding="utf-8")
    assert not text.startswith("---")
    assert text == (f"title:: Staging Postgres listens on port 5433\nlayer:: L1\ntags:: db, infra/pg\n"
                    f"created:: {text.split('created:: ')[1].split(chr(10))[0]}\nexpires-at:: {remembered['expires_at']}\n"
                    f"vaultmem-id:: {remembered['id']}\n\nStaging Postgres listens on port 5433\n")
    assert naming_meta(text) == {"title": "Staging Postgres listens on port 5433", "tags": ["db", "infra/pg"]}


def test_a_page_remembered_into_a_graph_is_read_back_with_its_layer_and_expiry(vault_dir: Path) -> None:
    """The round trip: remember → index → get, list, search and expire honour the layer and
    expires_at the page's property lines hold."""
    root = graph(vault_dir)
    one_day = run_json(root, "remember", "Staging Postgres listens on port 5433", "--layer", "L1")
    kept = run_json(root, "remember", "Deploys go out on Tuesdays", "--layer", "L4")
    assert not (root / one_day["path"]).read_text(encoding="utf-8").startswith("---")  # read from its property lines
    assert run_cli(root, "index", "--rebuild").exit_code == 0  # what the index holds, it read from the files
    page = run_json(root, "get", one_day["id"])
    assert (page["path"], page["layer"], page["expires_at"]) == (one_day["path"], "L1", one_day["expires_at"])
    assert page["problems"] == []
    assert [note["path"] for note in run_json(root, "list", "--layer", "L4")["notes"]] == [kept["path"]]
    [hit] = run_json(root, "search", "postgres port", "--layer", "L1")
    assert hit["path"] == one_day["path"]
    for field in ("vaultmem-id::", "layer::", "expires-at::", "created::"):  # the hit carries them as fields
        assert field not in hit["snippet"], hit["snippet"]
    expired = run_json(root, "expire", "--as-of", "+2d")
    assert [note["path"] for note in expired["expired"]] == [one_day["path"]]
    assert run_cli(root, "check").exit_code == 0


def test_revising_a_remembered_page_keeps_its_fields_in_its_property_lines(vault_dir: Path) -> None:
    root = graph(vault_dir)
    remembered = run_json(root, "remember", "Staging Postgres listens on port 5433", "--layer", "L1")
    path = root / remembered["path"]
    assert run_cli(root, "revise", remembered["id"], "--text", "Staging Postgres moved to port 6432").exit_code == 0
    assert run_cli(root, "revise", remembered["id"], "--layer", "L4", "--tag", "db").exit_code == 0
    text = path.read_text(encoding="utf-8")
    assert text == (f"title:: Staging Postgres moved to port 6432\nlayer:: L4\n"  # the L1 deadline gone with L1
                    f"created:: {text.split('created:: ')[1].split(chr(10))[0]}\n"
                    f"vaultmem-id:: {remembered['id']}\ntags:: db\n\nStaging Postgres moved to port 6432\n")
    page = run_json(root, "get", remembered["id"])
    assert (page["title"], page["layer"], page["expires_at"], page["tags"]) == (
        "Staging Postgres moved to port 6432", "L4", None, ["db"])


def test_a_persons_created_property_that_is_no_time_stays_theirs(vault_dir: Path) -> None:
    """Logseq users write ``created:: [[May 1st, 2022]]``: not vaultmem's ``created``, no problem."""
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', "logseq/config.edn": CONFIG_EDN,
                                   "pages/Mold.md": "created:: [[May 1st, 2022]]\n\n- mold makes linking fast\n"})
    assert run_cli(root, "index").exit_code == 0
    page = run_json(root, "get", "Mold")
    assert "created" not in page["meta"] and page["problems"] == []


def test_remember_dir_written_in_the_settings_wins_in_a_graph(vault_dir: Path) -> None:
    root = graph(vault_dir)
    (root / ".vaultmem.toml").write_text('embedder = "hashing"\nremember_dir = "agent"\n', encoding="utf-8")
    assert run_json(root, "remember", "Staging Postgres listens on port 5433")["path"].startswith("agent/")


def test_tags_written_as_hashtags_without_commas_are_each_a_tag(vault_dir: Path) -> None:
    """Was: ``tags:: #alpha #beta`` (Logseq reads two tags) made one tag "alpha #beta"."""
    assert property_items("#alpha #beta") == ["alpha", "beta"]
    assert property_items("rust #async, #c #[[d e]], C# notes") == ["rust", "async", "c", "d e", "C# notes"]
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', "logseq/config.edn": CONFIG_EDN,
                                   "pages/Tokio.md": "tags:: #rust #async\n\n- a runtime for async Rust\n"})
    run_cli(root, "index")
    assert run_json(root, "get", "Tokio")["tags"] == ["rust", "async"]
    assert [hit["path"] for hit in run_json(root, "search", "runtime", "--tag", "async")] == ["pages/Tokio.md"]


def test_untagging_a_tag_the_pages_tags_line_holds_takes_it_off_that_line_in_its_own_form(vault_dir: Path) -> None:
    """Was: refused ("remove it from that line"), and before that a YAML ``tags: [database]``
    written above the page's lines, which still said ``[[stream processing]]``. Now the line itself
    loses the tag, in its own form; every other byte of the page stays (adr/0028)."""
    root = graph(vault_dir)
    run_cli(root, "index")
    assert run_cli(root, "revise", "Flink SQL", "--untag", "Stream Processing").exit_code == 0
    assert (root / "pages/Apache Flink%2FSQL.md").read_text(encoding="utf-8") == FLINK.replace(
        "tags:: [[stream processing]], #database\n", "tags:: #database\n")
    page = run_json(root, "get", "Flink SQL")
    assert (page["title"], page["tags"]) == ("Apache Flink/SQL", ["database"])


@pytest.mark.parametrize(("line", "untag", "after"), [
    ("tags:: #rust #async #[[two words]]", "async", "tags:: #rust #[[two words]]\n"),
    ("tags:: #rust #async", "rust", "tags:: #async\n"),
    ("tags:: a, b, [[c, d]]", "c, d", "tags:: a, b\n"),
    ("tags:: a, b, [[c, d]]", "a", "tags:: b, [[c, d]]\n"),
    ("tags:: solo", "solo", ""),  # `tags::` with nothing after it is no property: the line goes
])
def test_untagging_a_line_of_any_form_keeps_the_rest_of_the_page(vault_dir: Path, line: str, untag: str, after: str) -> None:
    rest = "alias:: Tokio runtime\n\n- a runtime for async Rust #io\n"
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', "logseq/config.edn": CONFIG_EDN,
                                   "pages/Tokio.md": f"title:: Tokio\n{line}\n{rest}"})
    run_cli(root, "index")
    result = run_cli(root, "revise", "Tokio", "--untag", untag)
    assert result.exit_code == 0, result.output
    assert (root / "pages/Tokio.md").read_text(encoding="utf-8") == f"title:: Tokio\n{after}{rest}"
    assert untag not in run_json(root, "get", "Tokio runtime")["tags"]


def test_untagging_a_tag_written_in_the_pages_text_is_still_refused(vault_dir: Path) -> None:
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', "logseq/config.edn": CONFIG_EDN,
                                   "pages/Tokio.md": "tags:: #rust\n\n- a runtime for async Rust #rust\n"})
    run_cli(root, "index")
    refused = run_cli(root, "revise", "Tokio", "--untag", "rust")
    assert refused.exit_code == 2
    assert "as #rust; remove it from the text" in refused.output
    assert (root / "pages/Tokio.md").read_text(encoding="utf-8") == "tags:: #rust\n\n- a runtime for async Rust #rust\n"


def test_a_tags_line_under_yaml_frontmatter_is_still_refused_and_the_page_kept(vault_dir: Path) -> None:
    """A page with YAML keeps its fields in the YAML: a list written there without the tag would
    only hide it from vaultmem while the page's line still says it."""
    page = "---\nlayer: L3\n---\ntags:: [[stream processing]], #database\n\n- Flink\n"
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', "logseq/config.edn": CONFIG_EDN,
                                   "pages/Flink.md": page})
    run_cli(root, "index")
    refused = run_cli(root, "revise", "pages/Flink.md", "--untag", "stream processing")
    assert refused.exit_code == 2, refused.output
    assert "remove it from that line" in refused.output
    assert (root / "pages/Flink.md").read_text(encoding="utf-8") == page


def test_retitling_a_page_its_title_line_names_rewrites_that_line(vault_dir: Path) -> None:
    """Was: refused ("change that line"), and before that a YAML title written above the line,
    which still said the old one. Now the ``title::`` line is rewritten; nothing else changes."""
    root = graph(vault_dir)
    run_cli(root, "index")
    assert run_cli(root, "revise", "Flink SQL", "--title", "Flink SQL notes").exit_code == 0
    assert (root / "pages/Apache Flink%2FSQL.md").read_text(encoding="utf-8") == FLINK.replace(
        "title:: Apache Flink/SQL\n", "title:: Flink SQL notes\n")
    assert run_json(root, "get", "Flink SQL notes")["path"] == "pages/Apache Flink%2FSQL.md"


@pytest.mark.parametrize(("config_edn", "title"), [
    ("{:meta/version 1}\n", "May 16th, 2022"),  # Logseq's default :journal/page-title-format, MMM do, yyyy
    ('{:meta/version 1\n ;; :journal/page-title-format "EEE do, MMM yyyy"\n :journal/page-title-format "E, dd.MM.yyyy"}\n',
     "Mon, 16.05.2022"),  # the one in force, not the commented example
])
def test_a_journal_is_titled_and_found_as_logseq_titles_it(vault_dir: Path, config_edn: str, title: str) -> None:
    """Was: ``journals/2022_05_16.md`` was titled "2022_05_16" and ``get "May 16th, 2022"``, the
    page's name in Logseq, found nothing."""
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', "logseq/config.edn": config_edn,
                                   "journals/2022_05_16.md": "- met the [[Cargo]] team about mold linking\n",
                                   "journals/2022_05_17.md": "title:: Release day\n\n- shipped 0.3\n"})
    run_cli(root, "index")
    page = run_json(root, "get", title)
    assert (page["path"], page["title"]) == ("journals/2022_05_16.md", title)
    assert run_json(root, "get", "2022-05-16")["path"] == "journals/2022_05_16.md"  # the day names it too
    assert run_json(root, "get", "2022_05_16")["path"] == "journals/2022_05_16.md"  # and its file name still
    [hit] = run_json(root, "search", "mold linking", "-k", "1")
    assert hit["title"] == title
    assert run_json(root, "get", "journals/2022_05_17")["title"] == "Release day"  # its own title:: wins


@pytest.mark.parametrize(("config_edn", "file_name", "title"), [
    # Logseq's format since 0.8.9: `___` is a namespace's `/`, other characters are percent-encoded.
    ("{:meta/version 1\n :file/name-format :triple-lowbar}\n", "Academic___Learning Roadmap.md", "Academic/Learning Roadmap"),
    ("{:meta/version 1\n :file/name-format :triple-lowbar}\n", "Article___Why Always Paulis%3F.md", "Article/Why Always Paulis?"),
    ("{:meta/version 1\n :file/name-format :triple-lowbar}\n", "caf%C3%A9 ___ notes.md", "café / notes"),
    # An older graph (no :file/name-format; a commented one does not count): `.` is the namespace's `/`.
    ("{:meta/version 1\n ;; :file/name-format :triple-lowbar\n}\n", "Academic.Learning Roadmap.md", "Academic/Learning Roadmap"),
])
def test_a_page_without_a_title_is_titled_and_found_by_the_name_logseq_reads_in_its_file_name(
        vault_dir: Path, config_edn: str, file_name: str, title: str) -> None:
    """Was (s40, a public Logseq graph): ``pages/Academic___Learning Roadmap.md`` was titled
    "Academic___Learning Roadmap", and ``get "Academic/Learning Roadmap"``, the page's name in
    Logseq, found nothing. A page's own ``title::`` still wins, and its file name still names it."""
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', "logseq/config.edn": config_edn,
                                   f"pages/{file_name}": "- the fundamentals before the research topics\n",
                                   "pages/Apache Flink%2FSQL.md": FLINK})
    run_cli(root, "index")
    page = run_json(root, "get", title)
    assert (page["path"], page["title"]) == (f"pages/{file_name}", title)
    assert run_json(root, "get", f"pages/{file_name}")["title"] == title
    [hit] = run_json(root, "search", "fundamentals research topics", "-k", "1")
    assert hit["title"] == title
    assert run_json(root, "get", "Flink SQL")["title"] == "Apache Flink/SQL"  # its title:: wins


def test_a_folder_of_notes_that_is_no_logseq_graph_keeps_its_file_names_as_titles(vault_dir: Path) -> None:
    """Only a graph's pages are read as Logseq reads file names: elsewhere ``a___b.md`` and
    ``v1.2 notes.md`` are titled as written."""
    root = write_vault(vault_dir, {".vaultmem.toml": 'embedder = "hashing"\n', "a___b.md": "- one\n",
                                   "v1.2 notes.md": "- two\n"})
    run_cli(root, "index")
    assert run_json(root, "get", "a___b.md")["title"] == "a___b"
    assert run_json(root, "get", "v1.2 notes.md")["title"] == "v1.2 notes"


def test_a_new_text_written_as_a_whole_page_must_keep_the_pages_vaultmem_id(vault_dir: Path) -> None:
    """A text opening with property lines replaces the page's lines (how a `tags::` line is
    changed); one that drops ``vaultmem-id::`` would cost the memory its id, and is refused."""
    root = graph(vault_dir)
    remembered = run_json(root, "remember", "Staging Postgres listens on port 5433", "--tag", "db")
    path = root / remembered["path"]
    before = path.read_bytes()
    refused = run_cli(root, "revise", remembered["id"], "--text", "tags:: infra\n\nStaging Postgres moved")
    assert refused.exit_code == 2, refused.output
    assert f"'vaultmem-id:: {remembered['id']}'" in refused.output
    assert path.read_bytes() == before
    whole = before.decode("utf-8").replace("tags:: db\n", "tags:: infra\n").replace("port 5433", "port 6432")
    assert run_cli(root, "revise", remembered["id"], "--text", whole).exit_code == 0
    page = run_json(root, "get", remembered["id"])
    assert (page["tags"], page["body"].endswith("port 6432\n")) == (["infra"], True)


def test_a_property_line_holding_a_line_separator_is_edited_whole() -> None:
    """A value pasted from the web may hold U+2028 or a form feed, which Logseq keeps inside
    the line; split there, the line's rewrite left its tail below it as a line of text."""
    page = "title:: Page\ntags:: x\u2028y\nsource:: a\x0cb\n\n- text\n"
    assert edit_fields(page, {"tags": ["z"]}) == "title:: Page\ntags:: z\nsource:: a\x0cb\n\n- text\n"
    assert edit_fields(page, {}, ["tags"]) == "title:: Page\nsource:: a\x0cb\n\n- text\n"
    assert without_field_lines("layer:: L2\r\ntype:: a\u2028b\r\n\r\n- t") == "type:: a\u2028b\r\n\r\n- t"
