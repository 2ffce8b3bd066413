"""HTML tags' names and attributes are no words of a note (html_tags.py); their text is."""

from __future__ import annotations

from pathlib import Path

import pytest

from vaultmem import Vault

NOW = "2026-11-30T12:00:00+00:00"
# The end a script puts on every note of a community vault (the shape of the Obsidian Hub's).
FOOTER = ('\n# This note on the web\n\n<span class="git-footer">[Edit online](https://example.org/edit "edit-note") | '
          '[Download this vault](https://example.org/vault.zip "download-vault") </span>\n')
VIDEO = ('<iframe width="100%" height="400px" src="https://www.youtube.com/embed/x" title="YouTube video player" '
         'allow="accelerometer; autoplay; gyroscope; picture-in-picture" allowfullscreen></iframe>\n')


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ('<span class="git-footer">Edit</span>', "Edit"),
        ("Press <kbd>Ctrl</kbd>-<kbd>I</kbd> now", "Press Ctrl-I now"),
        ("H<sub>2</sub>O and 5 m<sup>2</sup>", "H2O and 5 m2"),  # an inline tag joins what it stands between
        ("<p>one</p><p>two</p> a<br>b <td>x</td><td>y</td>", " one  two  a b  x  y "),  # a block's or cell's: a space
        ('<img src="a.png" alt="a red kite"> over the hill', " a red kite  over the hill"),
        ('<iframe\n  src="v" allow="gyroscope"></iframe>\nnext line', " \n \nnext line"),  # lines stay
        ("`<span class=\"zebra\">` in code stays", "`<span class=\"zebra\">` in code stays"),
        ("List<String> and press <Tab> are words", "List<String> and press <Tab> are words"),
        ("an autolink <https://example.org/a> stays", "an autolink <https://example.org/a> stays"),
        ('see <a title="x>y" href="u">the page</a>', "see the page"),  # a quoted value's > ends no tag
        ("<img alt='1 > 0' src=x>", " 1 > 0 "),
        ('<span class="never closed>text</span>', "text"),  # a quote never closed is a character, as before
        ("write \\<b> for bold", "write \\<b> for bold"),  # escaped: the text <b>, as reading view shows it
        ("a \\\\<b>bold</b>", "a \\\\bold"),  # an escaped backslash escapes no tag
    ],
)
def test_html_tags_read_as_their_text_and_every_line_stays(text: str, shown: str) -> None:
    from vaultmem.html_tags import without_html_tags

    assert without_html_tags(text) == shown
    assert without_html_tags(text).count("\n") == text.count("\n")


def test_a_tags_attribute_is_no_word_of_the_note_but_its_text_and_code_are(tmp_path: Path) -> None:
    """Was: `class="git-footer"` and an iframe's `allow="accelerometer; gyroscope"` were words of
    the note (search and explain found them in it), though reading view shows neither."""
    (tmp_path / "Shortcuts.md").write_text(
        "Press <kbd>Ctrl</kbd> with `<span class=\"zebra\">` to fold a heading.\n\n" + VIDEO + FOOTER, encoding="utf-8")
    with Vault(tmp_path) as vault:
        vault.index()
        for word in ("footer", "gyroscope", "accelerometer", "iframe"):  # found by meaning alone, if at all
            assert [hit.match for hit in vault.search(word, k=3, now=NOW)] in ([], ["meaning"]), word
        for word in ("Ctrl", "zebra", "fold"):
            assert [(hit.path, hit.match) for hit in vault.search(word, k=3, now=NOW)] == [("Shortcuts.md", "both")], word


def test_a_footer_on_every_note_no_longer_hides_the_word_its_class_holds(tmp_path: Path) -> None:
    """Was (s38, a trial of the Obsidian Hub): every note ended with `<span class="git-footer">`,
    so `git` was a word of every note and told none apart; "backup my vault with git" ranked
    a Dropbox backup plugin first and the one whose description is "Backup your vault with git."
    third."""
    for number, topic in enumerate(("spaced repetition flashcards", "kanban boards", "dice rolling",
                                    "interactive maps", "calendar of daily notes", "chess games")):
        (tmp_path / f"plugin-{number}.md").write_text(f"# Plugin {number}\n\nA plugin for {topic}.\n" + FOOTER,
                                                      encoding="utf-8")
    (tmp_path / "obsidian-dropbox-backups.md").write_text(
        "---\naliases:\n- Aut-O-Backups\n---\n# Aut-O-Backups\n\nAutomated backups to Dropbox for your enjoyment.\n"
        + FOOTER, encoding="utf-8")
    (tmp_path / "obsidian-git.md").write_text(
        "---\naliases:\n- Obsidian Git\n---\n# Obsidian Git\n\nBackup your vault with git.\n" + FOOTER, encoding="utf-8")
    with Vault(tmp_path) as vault:
        vault.index()
        hits = vault.search("backup my vault with git", k=3, now=NOW)
        assert hits[0].path == "obsidian-git.md", [hit.path for hit in hits]


def test_a_word_an_inline_tag_stands_inside_is_found_by_its_words_as_its_snippet_shows_it(tmp_path: Path) -> None:
    """Was (s39 review): every tag read as a space, so `H<sub>2</sub>O` and `CO<sub>2</sub>` were
    the words "h", "2", "o" — a search for H2O found the note by meaning alone (0.01) and the
    full text ranked one saying "CO 2" first for CO2 — while the snippet (snippets.py, tag_text) showed H2O."""
    (tmp_path / "Chemistry.md").write_text("# Chemistry\n\nWater is H<sub>2</sub>O; the air holds CO<sub>2</sub>.\n",
                                            encoding="utf-8")
    (tmp_path / "Lake.md").write_text("# Lake\n\nThe CO 2 level of the lake and the H 2 O of it.\n", encoding="utf-8")
    with Vault(tmp_path) as vault:
        vault.index()
        hits = vault.search("H2O", k=2, now=NOW)
        assert (hits[0].path, hits[0].match) == ("Chemistry.md", "both"), [(hit.path, hit.match) for hit in hits]
        assert "H2O" in hits[0].snippet
        assert vault.explain("Chemistry.md", "CO2", now=NOW).rank["text"] == 1


def test_a_quoted_greater_than_and_an_escaped_tag_leave_the_words_reading_view_shows(tmp_path: Path) -> None:
    """Was (s39): ``<a title="x>y" href=…>`` ended at the title's ``>``, so ``y" href="…">`` was
    text of the note — its attribute's words found it and its snippet showed them — and an
    escaped ``\\<b>``, which reading view shows as the text ``<b>``, was read as a tag: the word
    "b" was lost."""
    (tmp_path / "Links.md").write_text(
        '# Links\n\nSee <a title="old>new" href="https://example.org/wombat">the zebra page</a> now.\n\n'
        "Write \\<kbd> around a key, says the quokka.\n", encoding="utf-8")
    with Vault(tmp_path) as vault:
        vault.index()
        for word in ("wombat", "href"):  # an attribute's words: found by meaning alone, if at all
            assert [hit.match for hit in vault.search(word, k=3, now=NOW)] in ([], ["meaning"]), word
        hits = vault.search("zebra", k=1, now=NOW)
        assert [(hit.path, hit.match) for hit in hits] == [("Links.md", "both")]
        assert "href" not in hits[0].snippet and '">' not in hits[0].snippet, hits[0].snippet
        assert "See the zebra page now." in hits[0].snippet
        assert [(hit.path, hit.match) for hit in vault.search("kbd", k=1, now=NOW)] == [("Links.md", "both")]
