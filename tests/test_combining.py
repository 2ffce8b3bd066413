"""Combining marks (vowel signs, viramas, anusvara …) stay inside their word on the full-text
side (vaultmem/combining.py, storage m018; adr/0027 "Vowel signs and other combining marks").

FTS5's ``unicode61`` ended a word at any mark but a Latin accent: Hindi ``किताब`` was the tokens
``क``, ``त``, ``ब``, so a word was found by its consonants and ``सीटी`` (whistle) found ``सिटी``
(city) and ``केमिस्ट`` (chemist) as well.
"""

from __future__ import annotations

import re
import sqlite3
import unicodedata
from pathlib import Path

import pytest
from helpers import keyword_side, write_vault

from vaultmem import Vault
from vaultmem.cjk import text_forms
from vaultmem.combining import COMBINING, VIRAMAS, WORD
from vaultmem.embedders import HashingEmbedder
from vaultmem.endings import prefix_of
from vaultmem.snippets import SNIPPET_CHARS, query_pattern, window

NOTES = {
    "रसोई/राजमा.md": "# राजमा की विधि\n\nकुकर में नमक और हल्दी डालकर छह सीटी तक पकाएँ।\n",
    "यात्रा/जयपुर.md": "# जयपुर यात्रा\n\nहोटल हवा महल के पास है। सिटी पैलेस और आमेर का किला देखना है।\n",
    "परिवार/दवाइयाँ.md": "# दादी की दवाइयाँ\n\nहर महीने की पाँच तारीख़ को केमिस्ट से दवाइयाँ लानी हैं।\n",
    "घर/सफ़ाई.md": "# सफ़ाई\n\nबच्चों के कमरे में पुराने खिलौने एक डिब्बे में रखे, जो दान करने हैं।\n",
    "किताबें.md": "# पढ़ने की सूची\n\nइस साल पढ़ी किताबें: प्रेमचंद की गोदान, बच्चन की मधुशाला।\n",
}


@pytest.fixture
def hindi_vault(tmp_path: Path) -> Path:
    return write_vault(tmp_path / "vault", NOTES)


def test_a_hindi_word_finds_only_the_notes_that_write_it_not_those_with_its_consonants(hindi_vault: Path) -> None:
    with Vault(hindi_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, "सीटी") == ["रसोई/राजमा.md"]  # was also सिटी (city) and केमिस्ट (chemist)
        assert keyword_side(vault, "दान") == ["घर/सफ़ाई.md"]  # was also गोदान


def test_a_hindi_word_no_note_holds_as_typed_finds_its_other_forms(hindi_vault: Path) -> None:
    # कमरा (room) is कमरे in the note, किताब (book) किताबें: asked for by the first letters
    # (endings.signed_prefix), as they matched while the tokenizer kept the consonants alone.
    with Vault(hindi_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, "कमरा") == ["घर/सफ़ाई.md"]
        assert keyword_side(vault, "किताब") == ["किताबें.md"]


# A word of each script, and the mark its twin writes in place of each of the word's marks: the
# same letters with other vowels, which the tokenizer read as the same word.
SCRIPTS = [
    ("devanagari", "किताब", "\u0947"),
    ("bengali", "বাংলা", "\u09bf"),
    ("tamil", "தமிழ்", "\u0bc1"),
    ("telugu", "తెలుగు", "\u0c3e"),
    ("gujarati", "ગુજરાતી", "\u0ac7"),
    ("gurmukhi", "ਪੰਜਾਬੀ", "\u0a47"),
    ("kannada", "ಕನ್ನಡ", "\u0cbf"),
    ("malayalam", "മലയാളം", "\u0d46"),
    ("sinhala", "සිංහල", "\u0dd4"),
    ("myanmar", "မြန်မာ", "\u102d"),
    ("khmer", "ខ្មែរ", "\u17b7"),
    ("tibetan", "བོད", "\u0f72"),
]


@pytest.mark.parametrize(("script", "word", "other_mark"), SCRIPTS, ids=[script for script, _, _ in SCRIPTS])
def test_a_word_keeps_its_marks_in_every_script_that_writes_them(tmp_path: Path, script: str, word: str, other_mark: str) -> None:
    twin = re.sub(f"[{COMBINING}]", other_mark, word)
    assert twin != word
    root = write_vault(tmp_path / "vault", {"word.md": f"# Note\n\nThe word {word} here.\n",
                                            "twin.md": f"# Other\n\nAnother word {twin} there.\n"})
    with Vault(root, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, word) == ["word.md"], script  # was both: the same letters
        assert keyword_side(vault, twin) == ["twin.md"], script


def test_an_emoji_variation_selector_is_no_part_of_a_word(tmp_path: Path) -> None:
    # U+FE0F (category Mn) picks an emoji's look: 1️⃣ is still the word 1, ❤️ no word at all.
    root = write_vault(tmp_path / "vault", {"steps.md": "# Steps\n\n1\ufe0f\u20e3 Preheat the oven \u2764\ufe0f\n"})
    with Vault(root, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, "1 preheat") == ["steps.md"]
    database = sqlite3.connect(root / ".vaultmem" / "index.db")
    database.execute("CREATE VIRTUAL TABLE temp.terms USING fts5vocab(main, passages_fts, row)")
    terms = {row[0] for row in database.execute("SELECT term FROM temp.terms")}
    database.close()
    assert "1" in terms and not any("\ufe0f" in term for term in terms), terms


def test_a_snippet_opens_at_the_hindi_word_not_at_its_consonants_elsewhere() -> None:
    text = "शहर की सिटी बस से केमिस्ट की दुकान तक गए। " * 30 + "कुकर में छह सीटी तक पकाएँ। " + "बाकी बातें। " * 20
    shown = window(text, query_pattern("सीटी", text_forms(text)))
    assert "सीटी" in shown and len(shown) <= SNIPPET_CHARS + 2  # was the passage's first characters
    given = "गोदान उपन्यास पढ़ा। " * 40 + "पुराने खिलौने दान करने हैं। " + "और कुछ। " * 20
    assert "खिलौने दान" in window(given, query_pattern("दान", text_forms(given)))  # not गोदान, where the word only ends


def test_an_index_made_before_reads_its_notes_again_with_the_marks_kept(hindi_vault: Path) -> None:
    with Vault(hindi_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
    database = sqlite3.connect(hindi_vault / ".vaultmem" / "index.db")
    with database:  # what the previous version left: the tokenizer that parts a word at its marks
        database.execute("DROP TABLE passages_fts")
        database.execute("CREATE VIRTUAL TABLE passages_fts USING fts5(name, title, aliases, headings, props, tags, body, "
                         "stems, tokenize = 'porter unicode61 remove_diacritics 2')")
        database.execute("DELETE FROM _migrations WHERE name IN ('018_combining_marks_in_words', '019_turn_context')")
        embedded = database.execute("SELECT max(seq) FROM passage_vectors").fetchone()[0]
    database.close()
    with Vault(hindi_vault, embedder=HashingEmbedder()) as vault:
        assert vault.search("सीटी", k=1)[0].path == "रसोई/राजमा.md"  # the command reads every note again first
        assert keyword_side(vault, "सीटी") == ["रसोई/राजमा.md"]
        assert "'L* N* Co Mc Mn'" in vault.store.db.execute(
            "SELECT sql FROM sqlite_master WHERE name = 'passages_fts'").fetchone()[0]
    database = sqlite3.connect(hindi_vault / ".vaultmem" / "index.db")
    assert database.execute("SELECT max(seq) FROM passage_vectors").fetchone()[0] == embedded  # nothing embedded again
    database.close()


def test_a_rebuilt_index_keeps_the_marks_in_words(hindi_vault: Path) -> None:
    with Vault(hindi_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
        vault.index(rebuild=True)
        assert keyword_side(vault, "सीटी") == ["रसोई/राजमा.md"]


def test_query_words_and_first_letters_keep_the_marks() -> None:
    assert WORD.findall("छह सीटी तक। पढ़ना") == ["छह", "सीटी", "तक", "पढ़ना"]
    assert prefix_of("कमरा") == "कमर"  # its last vowel sign, where endings change it
    assert prefix_of("किताब") == "किताब"
    assert prefix_of("है") is None  # one letter left


def test_the_combining_class_is_every_mark_but_the_variation_selectors() -> None:
    selectors = {*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)}
    marks = {code for code in range(0x110000)
             if unicodedata.category(chr(code)) in ("Mn", "Mc") and code not in selectors}
    matched = re.compile(f"[{COMBINING}]")
    assert {code for code in range(0x110000) if matched.match(chr(code))} == marks


# A zero-width joiner or non-joiner after a virama picks how the letters are drawn (a half form,
# Marathi's eyelash ra, Sinhala's yansaya and rakaransaya) and not what the word is: one keyboard
# writes it, another does not. The tokenizer parts a word at it (category Cf), so with the marks
# kept in words the two spellings were no longer the same words (before m018 both were parted
# into the same pieces at the virama).
JOINED = {
    "marathi/pavsala.md": "# सह्याद्री\n\nपावसाळ्यात कर्‍हाडच्या जवळच्या दर्‍या धुक्यात असतात।\n",
    "sinhala/gamana.md": "# ගමන\n\nශ්‍රී ලංකාවේ කඳුකරයේ තේ වතු බැලුවෙමු.\n",
    "hindi/path.md": "# पाठ\n\nसंस्कृत में विद्‌या और क्‌ष्‌मा का उच्चारण।\n",
    "filler.md": "# Notes\n\nNothing here but English words about the weather.\n",
}


@pytest.mark.parametrize(("query", "path"), [
    ("दर्या", "marathi/pavsala.md"),  # typed without the joiner the note writes after the virama
    ("ශ්රී", "sinhala/gamana.md"),
    ("विद्या", "hindi/path.md"),  # the note's non-joiner (an explicit virama), typed without
])
def test_a_word_typed_without_the_joiner_after_its_virama_finds_the_note_that_writes_it(
        tmp_path: Path, query: str, path: str) -> None:
    with Vault(write_vault(tmp_path / "vault", JOINED), embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, query) == [path]


def test_a_word_typed_with_a_joiner_after_its_virama_finds_the_note_that_writes_none(tmp_path: Path) -> None:
    notes = {"hindi/aaj.md": "# आज\n\nशाम को स्कूल का कार्यक्रम है।\n", "filler.md": "# Notes\n\nweather\n"}
    with Vault(write_vault(tmp_path / "vault", notes), embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, "कार्\u200dयक्रम") == ["hindi/aaj.md"]
        assert keyword_side(vault, "कार्\u200cयक्रम") == ["hindi/aaj.md"]


def test_a_snippet_opens_at_the_word_written_with_a_joiner_asked_without_it() -> None:
    text = "पहाड़ों की बातें। " * 40 + "पावसाळ्यात दर्\u200dया धुक्यात असतात। " + "और कुछ। " * 20
    shown = window(text, query_pattern("दर्या", text_forms(text)))
    assert "दर्\u200dया" in shown
    assert len(shown) <= SNIPPET_CHARS + 2


def test_the_viramas_are_every_character_of_combining_class_nine() -> None:
    assert set(VIRAMAS) == {chr(code) for code in range(0x110000) if unicodedata.combining(chr(code)) == 9}
