"""Chinese, Japanese and Korean notes on the full-text side (vaultmem/cjk.py): a word written
without spaces around it is found by its characters, as a person types it."""

from __future__ import annotations

import sqlite3
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from helpers import NOW, keyword_side, write_vault

from vaultmem import Vault
from vaultmem.cjk import MAX_PAIRS, bigrams, content_pairs, pieces, spaced, text_forms
from vaultmem.embedders import HashingEmbedder
from vaultmem.notes import READER_VERSION
from vaultmem.search import query_terms, query_words, search_filters
from vaultmem.snippets import SNIPPET_CHARS, query_pattern, window

NOTES = {
    "咖啡.md": "# 咖啡\n我每天早上喝一杯手冲咖啡，喜欢埃塞俄比亚的豆子。\n",
    "旅行计划.md": "---\ntags: [旅行]\n---\n十二月去京都旅行，住在祇园附近的酒店，参观清水寺。\n",
    "会议记录.md": "和小王讨论了项目的预算问题，下周三之前要交报告。\n",
    "日本語メモ.md": "東京で新しいラーメン屋を見つけた。味噌ラーメンがとても美味しかった。\n",
    "한국어.md": "어제 친구와 학교에서 김치찌개를 먹었다.\n",
    "english.md": "Notes on the budget review, written in English.\n",
}


@pytest.fixture
def cjk_vault(tmp_path: Path) -> Path:
    return write_vault(tmp_path / "vault", NOTES)



def test_runs_are_spaced_into_characters_and_asked_for_by_neighbouring_pairs() -> None:
    assert spaced("喝咖啡 and tea") == " 喝 咖 啡  and tea"
    assert spaced("plain English, Ελληνικά, русский") == "plain English, Ελληνικά, русский"  # other scripts untouched
    assert list(pieces("Python教程，入门")) == [("Python", False), ("教程", True), ("，", False), ("入门", True)]
    assert bigrams("咖啡店") == ["咖 啡", "啡 店"] and bigrams("茶") == ["茶"]
    assert query_terms("咖啡店") == ['"咖 啡"', '"啡 店"']
    assert query_terms("Python教程") == ['"Python"', '"教 程"']
    [word] = query_words("报告什么时候交")
    assert word.shown == "报告什么时候交" and word.terms == ('"报 告"',)  # 什么时候 only asks; 交 alone says little
    assert query_terms("Harbor・Maya") == ['"Harbor Maya"']  # ・ is punctuation, as the tokenizer reads it (not a run)
    assert len(query_terms("报告" * 500)) <= MAX_PAIRS  # a pasted page is not a thousand FTS terms


@pytest.mark.parametrize(("query", "path"), [
    ("预算", "会议记录.md"),  # two characters in the middle of a sentence: was one token with the whole sentence
    ("报告什么时候交", "会议记录.md"),  # a question with no spaces, sharing one word with the note
    ("清水寺", "旅行计划.md"),
    ("ラーメン", "日本語メモ.md"),  # katakana
    ("味噌", "日本語メモ.md"),  # kanji inside a Japanese sentence
    ("학교", "한국어.md"),  # a Korean word with its particle attached (학교에서)
    ("旅行", "旅行计划.md"),
])
def test_a_word_inside_a_sentence_without_spaces_is_found_by_the_keyword_side(cjk_vault: Path, query: str, path: str) -> None:
    with Vault(cjk_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, query)[:1] == [path], query  # was []: no note's token was the query


def test_pairs_no_word_of_the_note_makes_are_not_a_match(cjk_vault: Path) -> None:
    with Vault(cjk_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, "咖京") == []  # 咖 and 京 are both in the vault, never side by side
        assert keyword_side(vault, "budget") == ["english.md"]  # English is read as before


def test_a_chinese_question_is_not_lowered_for_pairs_that_straddle_its_words(cjk_vault: Path) -> None:
    with Vault(cjk_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
        searcher = vault.derived.searcher()
        asked = searcher.candidates("报告什么时候交", 10, search_filters(None, None, False, NOW))
        unknown = searcher.candidates("火星基地", 10, search_filters(None, None, False, NOW))
    assert asked.unheld_words == ()  # 告什, 么时 and 候交 are in no note, but 报告 is: the run is held
    assert unknown.unheld_words == ("火星基地",)  # no pair of it is in any note: said as written


def test_a_chinese_hit_reads_as_a_keyword_match_with_the_default_embedder(cjk_vault: Path) -> None:
    with Vault(cjk_vault) as vault:
        vault.index()
        [first, *_] = vault.search("预算", k=3, now=NOW)
    assert first.path == "会议记录.md" and first.match == "both" and first.score >= 0.5, (first.match, first.score)  # was meaning, 0.01


def test_a_snippet_opens_at_the_chinese_word_asked_for() -> None:
    text = "这是一段很长的笔记。" * 40 + "最后我们决定把预算提高百分之十。" + "后面还有很多别的内容。" * 20
    shown = window(text, query_pattern("预算"))
    assert "预算" in shown and len(shown) <= SNIPPET_CHARS + 2  # was the passage's first characters
    assert query_pattern("Python教程", text_forms("学习Python的教程")).search("学习Python的教程") is not None  # each part by its own rule


def test_an_index_made_before_characters_were_tokens_learns_them_without_embedding(cjk_vault: Path) -> None:
    with Vault(cjk_vault, embedder=HashingEmbedder()) as vault:
        vault.index()
    database = sqlite3.connect(cjk_vault / ".vaultmem" / "index.db")
    with database:  # what reader 9 wrote: each sentence one token
        database.execute("UPDATE meta SET value = replace(value, ?, 'reader-9/') WHERE key = 'reader'", (f"reader-{READER_VERSION}/",))
        database.execute("UPDATE passages_fts SET body = replace(body, ' ', '')")
        embedded = database.execute("SELECT max(seq) FROM passage_vectors").fetchone()[0]
    database.close()
    with Vault(cjk_vault, embedder=HashingEmbedder()) as vault:
        assert keyword_side(vault, "预算") == []  # as the older index answers, until it is read again
        report = vault.index()
        found = keyword_side(vault, "预算")
    database = sqlite3.connect(cjk_vault / ".vaultmem" / "index.db")
    assert database.execute("SELECT max(seq) FROM passage_vectors").fetchone()[0] == embedded  # nothing embedded again
    database.close()
    assert report.reread and found == ["会议记录.md"]


def test_the_pairs_of_a_chinese_question_word_are_left_out_as_english_question_words_are() -> None:
    assert content_pairs("收下巴的时候最常见的错误是什么") == ["收 下", "下 巴", "最 常", "常 见", "见 的", "的 错", "错 误"]
    assert content_pairs("预算") == ["预 算"] and content_pairs("茶") == ["茶"]  # a run that does not ask: as before
    assert content_pairs("為什麼") == [] and content_pairs("什么") == []  # traditional too; a run that only asks
    [word] = query_words("什么")  # ... is still asked for when the query holds nothing else
    assert word.terms == ('"什 么"',)
    assert [word.shown for word in query_words("什么 预算")] == ["预算"]
    text = "什么时候开会？下周三交报告。"  # a snippet opens where the note says what was asked, not at its 什么时候
    assert query_pattern("什么时候交报告").search(text).start() == text.index("交报告")


def test_a_chinese_question_keeps_the_words_its_question_characters_are_part_of() -> None:
    # 的时 was cut as the start of 的时候 ("when") wherever it stood, and 时候 in 小时候
    # ("childhood"): 我的时间管理方法 ("my time management method") was asked without 时间 ("time").
    assert "时 间" in content_pairs("我的时间管理方法") and "時 間" in content_pairs("我的時間管理")
    assert {"小 时", "时 候"} <= set(content_pairs("我小时候的照片是什么"))
    assert '"时 间"' in query_words("我的时间管理方法")[0].terms
    assert content_pairs("收下巴的时候最常见的错误是什么") == ["收 下", "下 巴", "最 常", "常 见", "见 的", "的 错", "错 误"]


def test_a_note_saying_when_many_times_does_not_outrank_the_one_the_chinese_question_is_about(tmp_path: Path) -> None:
    # A trial on a Chinese vault: "the most common mistake when tucking the chin" ranked first a
    # note on giving gifts, which says 的时候 ("when") seven times and 收下 ("accept") twice.
    vault_dir = write_vault(tmp_path / "vault", {
        "靠墙收下巴.md": "# 靠墙收下巴\n下巴水平后收。常见错误：低头代替平移，耸肩代偿。收下巴练的是颈深屈肌。\n",
        "一厢情愿.md": "给的时候是热的，等的时候是苦的。收下的时候他没说什么，走的时候也没说什么。"
                     "难受的时候不说，想起来的时候才说，说的时候已经晚了。对方收下了。\n",
        "番茄.md": "番茄要去皮，炒出红油。\n",
    })
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, "收下巴的时候最常见的错误是什么")[:1] == ["靠墙收下巴.md"]


def test_full_width_and_half_width_forms_are_the_characters_they_stand_for(tmp_path: Path) -> None:
    # A trial on a Japanese vault: ﾐﾙｸ (half-width katakana), ＳＱＬ and Ｃｏｌｕｍｎ２Ｖｅｃ (full-width,
    # as a Japanese keyboard types them) found no note by keyword, and a note's １２日 was not 12日.
    vault_dir = write_vault(tmp_path / "vault", {
        "バザール.md": "素材は砂糖とミルク。\n",
        "研究.md": "SQLクエリからスキーマを推定する。Column2Vecを読む。\n",
        "予定.md": "１２日に個別面談。\n",
        "english.md": "Notes on the budget review.\n",
    })
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, "ﾐﾙｸ")[:1] == ["バザール.md"]
        assert keyword_side(vault, "ＳＱＬ")[:1] == ["研究.md"]
        assert keyword_side(vault, "Ｃｏｌｕｍｎ２Ｖｅｃ")[:1] == ["研究.md"]
        assert keyword_side(vault, "12日")[:1] == ["予定.md"]
        assert keyword_side(vault, "ｽｷｰﾏ")[:1] == ["研究.md"]  # ｰ is the long vowel ー
    assert query_pattern("ＳＱＬ", text_forms("SQLクエリ")).search("SQLクエリ") is not None  # the snippet looks where the full text found it
    assert query_pattern("ChatGPT", text_forms("終わったらChatGPTに突っ込む")).search("終わったらChatGPTに突っ込む") is not None  # a word beside Japanese is a word
    assert query_pattern("go").search("good") is None  # still a word, not a prefix


def test_a_japanese_question_asks_for_its_words_and_not_its_particles_or_question_words() -> None:
    assert content_pairs("兄の名前") == ["兄", "名 前"]  # a lone kanji is a word; 兄の and の名 straddle a particle
    assert content_pairs("赤き血って何") == ["赤", "血"]  # 何 asks; って is a particle
    assert content_pairs("ハードコミットがしんどかった") == ["ハ ー", "ー ド", "ド コ", "コ ミ", "ミ ッ", "ッ ト", "が し",
                                                         "し ん", "ん ど", "ど か", "か っ", "っ た"]  # a word in hiragana stays
    assert content_pairs("独房からどうやって復帰する") == ["独 房", "復 帰"]
    assert content_pairs("何ですか") == []  # a run that only asks
    assert content_pairs("しんどかった") == bigrams("しんどかった")  # all hiragana: as before
    assert [word.terms for word in query_words("何ですか")] == [('"何 で"', '"で す"', '"す か"')]  # asked whole when nothing else is
    assert [word.shown for word in query_words("何ですか 偏差祭")] == ["偏差祭"]  # ... and not beside a word that says something


def test_a_note_saying_aru_many_times_does_not_outrank_the_one_a_japanese_question_is_about(tmp_path: Path) -> None:
    # The trial: 8/31に何がある？ ("what is on 8/31?") ranked first a note holding ある ("there
    # is") eleven times, and 兄の名前 ("the brother's name") a note saying 名前 by its meaning alone.
    vault_dir = write_vault(tmp_path / "vault", {
        "スケジュール.md": "8/31 双峰祭 先行版 10セット完成\n",
        "背景.md": "問題がある。課題がある。例がある。理由がある。差がある。意味がある。\n",
        "登場人物.md": "ユウ：アオイの兄。かつては天才。\n",
        "設計.md": "カラムの名前から意味を推定する。名前の類似度。\n",
    })
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, "8/31に何がある？")[:1] == ["スケジュール.md"]
        assert "登場人物.md" in keyword_side(vault, "兄の名前")  # was found by meaning only: 兄の, の名 are in no note


def test_a_snippet_shows_where_a_note_writes_the_words_full_width(tmp_path: Path) -> None:
    # Found in review: SQL found a note writing ＳＱＬ (the full text folds widths), but the
    # snippet looked for SQL alone and showed the passage's start, far from the word.
    filler = " ".join(f"Sentence {number} about gardening, tomatoes and compost in spring." for number in range(30))
    vault_dir = write_vault(tmp_path / "vault", {"long.md": f"{filler} We migrated the ＳＱＬ database. {filler}\n"})
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        vault.index()
        [hit] = vault.search("SQL", k=1, now=NOW)
    assert "We migrated the ＳＱＬ database." in hit.snippet
    assert query_pattern("sql 12", text_forms("ＳＱＬ")).search("ＳＱＬ") is not None  # patterns for the text they look in
    assert query_pattern("12", text_forms("１２日")).search("１２日") is not None
    assert query_pattern("sql 12").search("ＳＱＬ") is None  # a plain text's pattern (the costly classes only where needed)


def test_a_particle_written_against_english_words_asks_for_nothing(tmp_path: Path) -> None:
    # Found in review: Reactのhooks asked for の as a word, and the full text ranked two notes
    # saying の (one of them about Vue) above the note saying "React hooks"; one saying only の
    # was a keyword hit at all.
    vault_dir = write_vault(tmp_path / "vault", {
        "react.md": "React hooks let function components keep state.\n",
        "vue.md": "hooksの使い方のメモ。Reactではなく、Vueのcomposition APIの話。\n",
        "neko.md": "今日の天気の話の続きの話。猫の名前の由来の話。\n",
    })
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, "Reactのhooks")[:1] == ["react.md"]
        assert "neko.md" not in keyword_side(vault, "Reactのhooks")
    assert [word.shown for word in query_words("Reactのhooks")] == ["React", "hooks"]
    assert [word.shown for word in query_words("React すし")] == ["React", "すし"]  # a word of its own stays
    assert [word.terms for word in query_words("の")] == [('"の"',)]  # asked whole when nothing else is
    pattern = query_pattern("Reactのhooks", text_forms("猫の名前"))
    assert pattern is not None and pattern.search("猫の名前") is None


def test_a_korean_question_asks_for_its_words_without_their_particles_and_question_words() -> None:
    # A trial on a Korean vault: 모던플러스에는 ("in Modern Plus") was asked for by the pairs 스에
    # and 에는 too, which no note holds, and 어떤 ("which"), 써 ("use") as words of their own.
    words = query_words("모던플러스에는 어떤 색상 코드를 써?")
    assert [(word.shown, word.terms) for word in words] == [
        ("모던플러스에는", ('"모 던"', '"던 플"', '"플 러"', '"러 스"')), ("색상", ('"색 상"',)), ("코드를", ('"코 드"',))]
    assert [word.terms for word in query_words("Hermes-agent는 언제 설치했어?")] == [('"Hermes agent"',), ('"설 치"',)]
    assert [word.shown for word in query_words("윈도우에서 CSS가 안 먹던 이유는?")] == ["윈도우에서", "CSS", "먹던", "이유는"]
    assert [word.shown for word in query_words("무엇을 했나요 뭐였어 누구랑 어디서")] == ["무엇을", "했나요", "뭐였어", "누구랑", "어디서"]  # only asks: all kept
    assert content_pairs("회의를") == ["회 의"]
    assert content_pairs("기록하기로") == ["기 록"]  # 하기 and 로, one after the other
    assert content_pairs("회의") == ["회 의"]  # 의 of 회의 is no particle: two syllables stay
    assert content_pairs("집에") == ["집 에"]  # a one-syllable stem is asked as written
    assert content_pairs("도로") == ["도 로"]
    assert content_pairs("왜곡") == ["왜 곡"]  # a word that begins as a question word does is a word


def test_a_note_saying_korean_particles_many_times_does_not_outrank_the_one_a_question_is_about(tmp_path: Path) -> None:
    vault_dir = write_vault(tmp_path / "vault", {
        "색상.md": "# 색상 기준\n모던플러스 아이보리 색상은 IVORY 5516-2 코드를 쓴다.\n",
        "잡담.md": "회의에는 어떤 사람이 오는지, 점심에는 어떤 메뉴를 먹을지, 저녁에는 어떤 책을 읽을지, 주말에는 어떤 영화를 볼지 몰랐다.\n",
        "서랍.md": "모던플러스 서랍을 기계 4번에서 생산.\n",
    })
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, "모던플러스에는 어떤 색상 코드를 써?")[:1] == ["색상.md"]
        assert "잡담.md" not in keyword_side(vault, "모던플러스에는 어떤 색상 코드를 써?")  # it says 에는, 어떤 and nothing asked


def test_a_day_written_as_korean_writes_it_in_a_question_is_asked_for_as_that_day(tmp_path: Path) -> None:
    # The trial: "2026년 4월 12일에 무엇을 했나요?" asked for 2026, 년, 4, 월, 12, 일 one by one,
    # and the keyword side ranked first a production table whose rows say "| 12 |"; `search
    # 2026-04-12` found the day's session log.
    rows = "".join(f"| 2026-04-18 | 12 | 40 | 로코스 L | {number} BOX |\n" for number in range(30))
    vault_dir = write_vault(tmp_path / "vault", {
        "생산계획-2026-04-18.md": f"# 생산 계획 - 2026년 4월 18일\n\n| 일자 | 기계 | 금형 | 제품 | 단위 |\n|--|--|--|--|--|\n{rows}",
        "세션로그.md": "# 2026-04-12 VF 프로젝트 세션로그\n\n재고 확인 탭을 추가했다.\n",
        "회의.md": "# 회의\n2026년 4월 13일 회의에서 서버 이전을 결정했다.\n",
    })
    with Vault(vault_dir, embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, "2026년 4월 12일에 무엇을 했나요?") == ["세션로그.md"]
        assert keyword_side(vault, "4월 12일")[:1] == ["세션로그.md"]  # without its year
        assert keyword_side(vault, "2026年4月12日做了什么")[:1] == ["세션로그.md"]  # as Chinese writes it
        assert keyword_side(vault, "2026년 4월 13일 결정")[:1] == ["회의.md"]  # a note writing the day so
    [day] = query_words("2026년 4월 12일에 무엇을 했나요?")
    assert day.shown == "2026년 4월 12일"
    [term] = day.terms  # as written, as ISO writes it, and the other spellings (day_spellings.py)
    assert term.startswith('("2026 년 4 월 12 일" OR "2026-04-12" OR ') and '"12 April 2026"' in term
    assert [word.shown for word in query_words("13월 40일")] == ["13", "월", "40", "일"]  # no month 13: words as before


@settings(max_examples=3_000, deadline=None)
@given(st.text(alphabet="cCgF#+ 1_\n-é", max_size=40))
def test_the_quick_look_for_a_sign_after_a_letter_misses_no_text_the_pattern_would_change(text: str) -> None:
    # signs_spelled asks a cheap question before running its pattern (the pattern alone cost a
    # 10,000-note index 0.6 s): whatever it skips, the pattern leaves unchanged.
    from vaultmem.cjk import _SIGNED_LETTER, _spelled, signs_spelled

    assert signs_spelled(text) == _SIGNED_LETTER.sub(_spelled, text)


# A text written decomposed (NFD: a letter, then its marks as characters of their own), as macOS
# and some editors and PDF copies save it, held other words than the same text typed composed:
# the tokenizer drops a Latin accent either way, but a Cyrillic Й written И + breve lost its
# breve (иогурт) and a Greek ή written η + tonos its tonos, so the composed query found nothing.
DECOMPOSED = {
    "ru.md": unicodedata.normalize("NFD", "# Завтрак\n\nЙогурт с мёдом и чай.\n"),
    "el.md": unicodedata.normalize("NFD", "# Ταξίδι\n\nΗ Αθήνα τον Μάιο.\n"),
    "filler.md": "# Notes\n\nweather report\n",
}


@pytest.mark.parametrize(("query", "path"), [("Йогурт", "ru.md"), ("йогурт", "ru.md"), ("Αθήνα", "el.md")])
def test_a_note_written_decomposed_is_found_by_its_words_typed_composed(tmp_path: Path, query: str, path: str) -> None:
    with Vault(write_vault(tmp_path / "vault", DECOMPOSED), embedder=HashingEmbedder()) as vault:
        vault.index()
        assert keyword_side(vault, query) == [path]
        assert keyword_side(vault, unicodedata.normalize("NFD", query)) == [path]  # and typed decomposed as well


def test_a_hit_on_a_note_written_decomposed_shows_the_word_in_its_snippet(tmp_path: Path) -> None:
    notes = {"ru.md": unicodedata.normalize("NFD", "# Завтрак\n\n" + "Каша и хлеб по утрам. " * 30 + "Йогурт с мёдом.\n"),
             "filler.md": "# Notes\n\nweather report\n"}
    with Vault(write_vault(tmp_path / "vault", notes), embedder=HashingEmbedder()) as vault:
        vault.index()
        hit = vault.search("Йогурт", k=1)[0]
    assert hit.path == "ru.md"
    assert "Йогурт" in hit.snippet


def test_a_fresh_search_of_notes_without_han_text_loads_no_opencc_mcp_or_watchdog(sample_vault: Path) -> None:
    # A one-shot `vaultmem search` pays for every module it imports (stop 36: a big vault's fresh
    # search spent a third of its time importing). OpenCC is only for traditional Chinese text.
    import os
    import subprocess
    import sys

    script = ("import sys\nfrom vaultmem.cli import main\n"
              f"sys.argv = ['vaultmem', '--vault', {str(sample_vault)!r}, 'search', 'deploy', '--json']\n"
              "try:\n    main()\nexcept SystemExit as end:\n    assert not end.code, end.code\n"
              "print(sorted({name.split('.')[0] for name in sys.modules} & {'opencc', 'mcp', 'watchdog'}))\n")
    checkout = str(Path(__file__).resolve().parent.parent)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=checkout,
                          env={**os.environ, "PYTHONPATH": checkout}, check=True, timeout=300)
    assert done.stdout.splitlines()[-1] == "[]", done.stdout[-2000:]
    assert '"path"' in done.stdout  # the search answered (its JSON hits came first)
