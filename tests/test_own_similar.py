"""``remember``'s ``similar`` names a note of yours only when it shares a word with the memory
(own_similar.py); words are compared in any case, Turkish İ included (consolidate.text_vocabulary)."""

from __future__ import annotations

from pathlib import Path

from vaultmem import Vault

NOW = "2026-11-30T12:00:00+00:00"


def test_a_note_of_yours_sharing_no_word_with_the_memory_is_not_called_similar(tmp_path: Path) -> None:
    """Was (s38, a trial of a Turkish study vault): the English embedder puts any two Turkish
    texts near 0.75, and a memory about how the person wants their notes written was said to be
    "similar" to study notes on the normal distribution and on virtual environments, which hold
    no word of it. A note that does say it is still named."""
    (tmp_path / "Normal Dağılım.md").write_text(
        "## Özet\nNormal dağılım, istatistiğin en temel dağılımıdır. Simetrik, çan şeklinde yapısıyla çoğu "
        "yöntemin temelidir.\n", encoding="utf-8")
    (tmp_path / "Sanal Ortam.md").write_text(
        "## Özet\nSanal ortam, her proje için bağımsız bir ortam oluşturur. Paket çakışmalarını önler ve "
        "projeleri birbirinden izole eder.\n", encoding="utf-8")
    with Vault(tmp_path) as vault:
        vault.index()
        unrelated = vault.remember("Kullanıcı notlarını Türkçe istiyor; yabancı terimleri sonra verelim.",
                                   layer="L3", now=NOW)
        assert unrelated.similar == []
        said_again = vault.remember("Sanal ortam her proje için bağımsız bir ortam kurar.", layer="L3", now=NOW)
        assert [(note.path, note.yours) for note in said_again.similar] == [("Sanal Ortam.md", True)]


def test_a_turkish_memory_sharing_only_function_words_with_a_note_is_not_called_similar(tmp_path: Path) -> None:
    """Was (stop 38's leftover): the shared-word rule above counted Turkish "için", "bir" and "ve"
    as words — no Turkish stopword was known — so a memory about the person's glossary, near
    every Turkish text in the English embedder, was named similar to the note on virtual
    environments for holding them. Turkish function words are stopwords now (fields.py)."""
    (tmp_path / "Sanal Ortam.md").write_text(
        "## Özet\nSanal ortam, her proje için bağımsız bir ortam oluşturur. Paket çakışmalarını önler ve "
        "projeleri birbirinden izole eder.\n", encoding="utf-8")
    with Vault(tmp_path) as vault:
        vault.index()
        chance = vault.remember("Kullanıcı Türkçe bir sözlük istiyor ve terimler için kaynak verelim.", layer="L3", now=NOW)
        assert chance.similar == []
        said_again = vault.remember("Sanal ortam her proje için bağımsız bir ortam kurar.", layer="L3", now=NOW)
        assert [(note.path, note.yours) for note in said_again.similar] == [("Sanal Ortam.md", True)]


def test_words_are_compared_with_the_turkish_capital_i_as_i() -> None:
    """Was: casefold made İ a dotted i̇, so İstatistik was the words "i" and "statistik" and
    shared nothing with istatistik (nor İstanbul with istanbul) in consolidation's word rules."""
    from vaultmem.consolidate import name_vocabulary, text_vocabulary

    assert text_vocabulary("İstatistik notları İSTANBUL'da") >= {"istatistik", "istanbul"}
    assert "istatistik" in name_vocabulary("STAT - İstatistik Özeti")
