"""Marks a person may or may not type (vaultmem/marks.py), and Thai written without spaces
(vaultmem/cjk.py): a trial on Thai, Hebrew, Hindi and Vietnamese notes. Each word typed as a
person types it finds the note that writes it with its marks, and the snippet shows the note's
own spelling."""

from __future__ import annotations

import re
import sqlite3
import sys
from pathlib import Path

import pytest
from helpers import keyword_side, run_cli, write_vault

from vaultmem import Vault
from vaultmem.cjk import text_forms
from vaultmem.embedders import HashingEmbedder
from vaultmem.marks import STROKED_FORMS, marks_folded, strokes_either
from vaultmem.notes import READER_VERSION
from vaultmem.slugs import named_from_title, slugify
from vaultmem.snippets import SNIPPET_CHARS, query_pattern, window

NOTES = {
    "th/ทริปเชียงใหม่.md": "# ทริปเชียงใหม่\n\nวันแรกขึ้นดอยสุเทพ ไหว้พระธาตุ แล้วกินข้าวซอยร้านลำดวนฟ้าฮ่าม\n"
                          "วันที่สองไปตลาดวโรรสซื้อแคบหมูกับไส้อั่วเป็นของฝาก\n",
    "th/สูตรต้มยำกุ้ง.md": "# สูตรต้มยำกุ้ง\n\nต้มน้ำให้เดือด ใส่ข่าตะไคร้ก่อน แล้วค่อยใส่กุ้ง ปิดไฟแล้วค่อยบีบมะนาว\n",
    "he/ברכות לשבת.md": "# ברכות לשבת\n\nקִדּוּשׁ לְלֵיל שַׁבָּת — בָּרוּךְ אַתָּה ה׳ אֱלֹהֵינוּ מֶלֶךְ הָעוֹלָם, בּוֹרֵא פְּרִי הַגָּפֶן.\n",
    "he/שיר.md": "# שיר\n\nשֶׁלֹּא יִגָּמֵר לְעוֹלָם — הַחוֹל וְהַיָּם, רִשְׁרוּשׁ שֶׁל הַמַּיִם.\n",
    "vi/Phở bò.md": "# Phở bò\n\nBánh phở tươi mua ở chợ Đồng Xuân. Ăn kèm rau thơm, chanh, ớt.\n",
    "vi/Chuyến đi Đà Nẵng.md": "# Chuyến đi Đà Nẵng\n\nChủ nhật đi Hội An. Đường đèn lồng rất đẹp.\n",
    "pl/Łódź.md": "Spacer po ulicy Piotrkowskiej w Łodzi, potem kawa.\n",
    "hi/दिल्ली.md": "# दिल्ली\n\nपहले दिन \u0958ुतुब मीनार देखा।\n",  # क़ as one character (U+0958), as some keyboards write it
    "other.md": "Nothing in those scripts here at all.\n",
}


@pytest.fixture
def vault_root(tmp_path: Path) -> Path:
    return write_vault(tmp_path / "vault", NOTES)


@pytest.mark.parametrize(("query", "path"), [
    ("แคบหมู", "th/ทริปเชียงใหม่.md"),  # a word inside a run of Thai with no space: the run was one token
    ("ดอยสุเทพ", "th/ทริปเชียงใหม่.md"),
    ("ข้าวซอยร้านไหน", "th/ทริปเชียงใหม่.md"),  # a question written without spaces
    ("ใส่มะนาวตอนไหน", "th/สูตรต้มยำกุ้ง.md"),
    ("ברוך אתה", "he/ברכות לשבת.md"),  # typed without the points the note writes
    ("שלא יגמר לעולם", "he/שיר.md"),
    ("Dong", "vi/Phở bò.md"),  # đ typed as d, without a Vietnamese keyboard (Đồng)
    ("duong den", "vi/Chuyến đi Đà Nẵng.md"),  # Đường đèn
    ("Lodzi", "pl/Łódź.md"),  # ł typed as l
    ("कुतुब", "hi/दिल्ली.md"),  # the nukta left out; the note writes क़ in one character
    ("क\u093cुतुब", "hi/दिल्ली.md"),  # ... or typed as the letter and the sign
])
def test_a_word_typed_without_its_marks_is_found_by_the_keyword_side(vault_root: Path, query: str, path: str) -> None:
    with Vault(vault_root, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, query)[:1] == [path], query  # was []: the note's tokens were other pieces


def test_a_word_typed_with_its_marks_is_found_as_before(vault_root: Path) -> None:
    with Vault(vault_root, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, "בָּרוּךְ")[:1] == ["he/ברכות לשבת.md"]
        assert keyword_side(vault, "Đồng Xuân")[:1] == ["vi/Phở bò.md"]
        assert keyword_side(vault, "ฝรั่งเศส") == []  # no pair of its letters stands together in any note


def test_the_hit_shows_the_notes_own_spelling_and_reads_as_a_keyword_match(vault_root: Path) -> None:
    with Vault(vault_root, embedder=HashingEmbedder()) as vault:
        vault.index()
        for query, path, said in (("ברוך", "he/ברכות לשבת.md", "בָּרוּךְ"), ("แคบหมู", "th/ทริปเชียงใหม่.md", "แคบหมู"),
                                  ("Dong Xuan", "vi/Phở bò.md", "Đồng Xuân")):
            [first, *_] = vault.search(query, k=2)
            assert first.path == path and first.match in ("keyword", "both"), (query, first.path, first.match)
            assert said in first.snippet, (query, first.snippet)
    assert (vault_root / "he/ברכות לשבת.md").read_text(encoding="utf-8") == NOTES["he/ברכות לשבת.md"]  # the file keeps its points


def test_a_snippet_opens_at_the_word_asked_for_with_its_marks() -> None:
    text = "ข้อความยาวมากที่ไม่เกี่ยวข้อง " * 40 + "วันที่สองไปตลาดวโรรสซื้อแคบหมูกับไส้อั่ว " + "เรื่องอื่นอีกมาก " * 20
    shown = window(text, query_pattern("ไส้อั่ว"))
    assert "ไส้อั่ว" in shown and len(shown) <= SNIPPET_CHARS + 2  # was the passage's first characters
    pointed = "שורה ארוכה שאין בה דבר. " * 40 + "בָּרוּךְ אַתָּה ה׳ אֱלֹהֵינוּ. " + "עוד שורה. " * 20
    assert "בָּרוּךְ" in window(pointed, query_pattern("ברוך"))


def test_a_title_typed_without_its_marks_is_offered_as_the_note_meant(vault_root: Path) -> None:
    # A name matches as the note spells it (as Obsidian's links do); typed on an English keyboard,
    # its đ was no d, and the note was not offered.
    result = run_cli(vault_root, "get", "Chuyen di Da Nang")
    assert "did you mean 'vi/Chuyến đi Đà Nẵng.md'" in result.output, result.output


def test_what_is_folded_and_what_is_left() -> None:
    assert marks_folded("בָּרוּךְ אַתָּה") == "ברוך אתה"
    assert marks_folded("\ufb2aבת") == "שבת"  # a presentation form (שׁ) is its letter
    assert marks_folded("แคบหมู ๒๕๖๙") == "แคบหม 2569"  # Thai digits are ASCII ones
    assert marks_folded("Đồng Łódź Ørsted") == "Dồng Lódź Orsted"  # accents are the tokenizer's (remove_diacritics)
    assert marks_folded("\u0958ुतुब") == marks_folded("क\u093cुतुब") == "कुतुब"
    assert marks_folded("plain English, русский, 中文") == "plain English, русский, 中文"


def test_an_index_made_before_the_marks_were_folded_learns_them_without_embedding(vault_root: Path) -> None:
    with Vault(vault_root, embedder=HashingEmbedder()) as vault:
        vault.index()
    database = sqlite3.connect(vault_root / ".vaultmem" / "index.db")
    with database:  # what reader 83 wrote: the pointed Hebrew as it stands
        database.execute("UPDATE meta SET value = replace(value, ?, 'reader-83/') WHERE key = 'reader'", (f"reader-{READER_VERSION}/",))
        database.execute("UPDATE passages_fts SET body = 'קִדּוּשׁ בָּרוּךְ', stems = '' WHERE body LIKE '%ברוך%'")
        embedded = database.execute("SELECT max(seq) FROM passage_vectors").fetchone()[0]
    database.close()
    with Vault(vault_root, embedder=HashingEmbedder()) as vault:
        assert keyword_side(vault, "ברוך") == []  # as the older index answers, until it is read again
        report = vault.index()
        found = keyword_side(vault, "ברוך")
    database = sqlite3.connect(vault_root / ".vaultmem" / "index.db")
    assert database.execute("SELECT max(seq) FROM passage_vectors").fetchone()[0] == embedded  # nothing embedded again
    database.close()
    assert report.reread and found[:1] == ["he/ברכות לשבת.md"]


def test_a_hebrew_word_is_found_in_a_note_that_writes_it_after_and_the_in_or_to(tmp_path: Path) -> None:
    # Hebrew writes "and", "the", "in", "to" … as one letter before the word: the note's
    # הקידוש ("the kiddush") and וְהַיָּם ("and the sea") were no answer to קידוש or ים.
    root = write_vault(tmp_path / "vault", {
        "he/ברכות.md": "# ברכות לשבת\n\nלפני הקידוש מדליקים נרות. את החלות מכסים במפית.\n",
        "he/שיר.md": "# שיר\n\nשֶׁלֹּא יִגָּמֵר לְעוֹלָם — הַחוֹל וְהַיָּם, רִשְׁרוּשׁ שֶׁל הַמַּיִם.\n",
        "he/רופא.md": "# רופא שיניים\n\nתור לרופא השיניים ביום שלישי, סתימה בשן טוחנת.\n",
    })
    with Vault(root, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, "קידוש")[:1] == ["he/ברכות.md"]
        assert keyword_side(vault, "חלות")[:1] == ["he/ברכות.md"]
        assert keyword_side(vault, "ים")[:1] == ["he/שיר.md"]
        [first, *_] = vault.search("ים", k=1)
        assert "וְהַיָּם" in first.snippet, first.snippet
    pointed = "שורה ארוכה שאין בה דבר. " * 40 + "הַחוֹל וְהַיָּם. " + "עוד שורה. " * 20
    assert "וְהַיָּם" in window(pointed, query_pattern("ים"))  # the snippet opens where the word is


def test_a_memory_in_thai_hindi_or_pointed_hebrew_is_named_by_its_whole_words(tmp_path: Path) -> None:
    # `\w` is no combining mark: a Thai memory was written as memories/น-ดต-ดผมท-ร-านพ-ต-อย-ว.md,
    # each word parted at its vowel and tone marks.
    root = write_vault(tmp_path / "vault", {"other.md": "Nothing here.\n"})
    result = run_cli(root, "remember", "นัดตัดผมที่ร้านพี่ต้อย วันเสาร์ บ่ายสามโมง")
    assert result.exit_code == 0, result.output
    assert (root / "memories" / "นัดตัดผมที่ร้านพี่ต้อย-วันเสาร์-บ่ายสามโมง.md").is_file(), sorted(p.name for p in (root / "memories").iterdir())
    assert slugify("दफ़्तर का काम") == "दफ़्तर-का-काम" and slugify("בָּרוּךְ אַתָּה") == "בָּרוּךְ-אַתָּה"
    assert slugify("ข" * 60 + "ี") == "ข" * 59  # cut before a letter whose mark would be cut off
    assert slugify("Hello, World! co_op") == "hello-world-co_op"  # other titles as before
    assert named_from_title("น-ดต-ดผมท-ร-านพ-ต-อย-ว", "นัดตัดผมที่ร้านพี่ต้อย วันเสาร์ บ่ายสามโมง")  # as an older version named it


@pytest.mark.parametrize(("query", "said"), [
    ("Søren", "Søren"), ("Soren", "Søren"),  # Danish ø typed as it is written, or as o
    ("koło", "Koło"), ("kolo", "Koło"),  # Polish ł
    ("Đồng", "Đồng"), ("đường", "Đường"),  # Vietnamese đ, typed with it
    ("með", "með"),  # Icelandic ð
])
def test_a_snippet_opens_at_a_word_with_a_stroked_letter_typed_with_it_or_without(query: str, said: str) -> None:
    # The query is folded as the full text is (ø is o): its pattern looked for "Soren" only, so a
    # long passage's snippet opened at its start, not at the Søren the full text had found there.
    text = "Noget helt andet her. " * 40 + f"{said} ringede om mødet. " + "Mere tekst. " * 20
    assert said in window(text, query_pattern(query)), query
    wide = text + "ＳＱＬ"
    assert said in window(wide, query_pattern(query, text_forms(wide))), query  # a text with full-width forms too


def test_a_stroked_letter_query_does_not_change_other_snippets() -> None:
    text = "Noget helt andet her. " * 40 + "the dog and the hotel. " + "Mere tekst. " * 20
    assert "the dog" in window(text, query_pattern("dog hotel"))


def test_a_danish_word_that_folds_to_an_english_stopword_still_counts(tmp_path: Path) -> None:
    # "dø" (die) and "før" (before) are folded as the full text holds them, "do" and "for": the
    # query then dropped them as English stopwords, and read as English it asked no other word by
    # its first letters, so "hvornår før mødelokale" no longer found "mødelokalet".
    root = write_vault(tmp_path / "vault", {
        "da/planten.md": "Planten skal ikke dø i vinter.\n",
        "da/vinter.md": "Vinter, vinter og mere vinter: om vinteren i haven.\n",
        "da/referat.md": "Referat: vi sad i mødelokalet hele dagen.\n",
        "other.md": "Nothing in Danish here.\n",
    })
    with Vault(root, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, "dø vinter")[:1] == ["da/planten.md"]  # was da/vinter.md: "dø" asked nothing
        assert keyword_side(vault, "hvornår før mødelokale")[:1] == ["da/referat.md"]  # was []
        assert keyword_side(vault, "do vinter")[:1] == ["da/vinter.md"]  # a typed "do" is still a stopword


def test_a_turkish_capital_i_with_a_dot_names_a_memory_with_a_plain_i() -> None:
    # "İ".lower() is i and U+0307: kept as a word's mark, the name was i̇stanbul-gezisi (before
    # words kept their marks, i-stanbul-gezisi); an older name is still told as made from the title.
    assert slugify("İstanbul gezisi") == "istanbul-gezisi"
    assert named_from_title("i-stanbul-gezisi", "İstanbul gezisi")
    assert slugify("Søren på søen, Þingvellir, Łódź") == "søren-på-søen-þingvellir-łódź"  # other letters as before


LIGATURE_NOTES = {
    "is/Þingvellir.md": "# Þingvellir\n\nÞingvellir er þjóðgarður. Við gengum um Almannagjá og sáum þorn við veginn.\n",
    "myths/Æsir.md": "# Æsir\n\nThe Æsir live in Ásgarðr; Óðinn rules them, Þórr guards them.\n",
    "fr/Œuvres.md": "# Lectures\n\nLire les œuvres complètes de Maupassant cet été, et le cœur de Balzac.\n",
    "other.md": "# Other\n\nNothing of those letters: a trip to the coast, and a bird's nest.\n",
}


@pytest.mark.parametrize(("query", "path"), [
    ("Thingvellir", "is/Þingvellir.md"),  # þ typed as th, without an Icelandic keyboard
    ("thorn", "is/Þingvellir.md"),
    ("aesir", "myths/Æsir.md"),  # æ typed as ae
    ("Thorr", "myths/Æsir.md"),
    ("oeuvres", "fr/Œuvres.md"),  # œ typed as oe
    ("coeur", "fr/Œuvres.md"),
    ("Æsir", "myths/Æsir.md"),  # typed with the letter, as before
    ("Þingvellir", "is/Þingvellir.md"),
])
def test_a_word_with_thorn_ash_or_oe_is_found_typed_with_two_letters(tmp_path: Path, query: str, path: str) -> None:
    root = write_vault(tmp_path / "vault", LIGATURE_NOTES)
    with Vault(root, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, query)[:1] == [path], query  # was []: the full text held þingvellir, æsir, œuvres


def test_a_snippet_opens_at_the_word_with_thorn_or_ash_typed_as_two_letters() -> None:
    text = "Langur texti um eitthvað allt annað. " * 40 + "Við sáum þorn við veginn. " + "Meira annað. " * 20
    shown = window(text, query_pattern("thorn", text_forms(text)))
    assert "þorn" in shown and len(shown) <= SNIPPET_CHARS + 2  # was the passage's first characters
    told = "A long passage about something else entirely. " * 40 + "The Æsir live in Ásgarðr. " + "More. " * 20
    assert "Æsir" in window(told, query_pattern("aesir", text_forms(told)))
    assert "Goethe" in window("x " * 400 + "Goethe wrote it. " + "y " * 100, query_pattern("goethe"))  # oe, th as before


def test_a_note_named_with_thorn_is_the_exact_name_typed_with_th(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", LIGATURE_NOTES)
    with Vault(root, embedder=HashingEmbedder()) as vault:
        vault.index()
        [first, *_] = vault.search("Thingvellir", k=3)
    assert first.path == "is/Þingvellir.md" and "Þingvellir" in first.snippet, (first.path, first.snippet)


def test_ligature_letters_fold_to_two_letters() -> None:
    assert marks_folded("Þingvellir, Æsir, œuvre, þæœ") == "Thingvellir, Aesir, oeuvre, thaeoe"


_EVERY_CHARACTER = "".join(chr(code) for code in range(sys.maxunicode + 1) if not 0xD800 <= code < 0xE000)


@pytest.mark.parametrize("plain", sorted(STROKED_FORMS))
def test_a_letter_or_its_stroked_forms_match_what_their_one_class_matched(plain: str) -> None:
    either = re.compile(strokes_either(plain), re.IGNORECASE)
    one_class = re.compile(f"[{plain}{STROKED_FORMS[plain]}]", re.IGNORECASE)
    assert [found.group() for found in either.finditer(_EVERY_CHARACTER)] == \
        [found.group() for found in one_class.finditer(_EVERY_CHARACTER)]


def test_a_query_word_with_a_d_compiles_without_a_bitmap_of_every_character(capsys: pytest.CaptureFixture[str]) -> None:
    # re compiled [dđð] (three runs of code points once lower-cased) as a 64K-entry bitmap, in Python:
    # 0.15 ms for each d of each new query's snippet pattern ("what did we decide" paid it twice).
    re.compile(strokes_either("decide"), re.IGNORECASE | re.DEBUG)
    assert "BIGCHARSET" not in capsys.readouterr().out
