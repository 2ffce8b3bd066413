"""Scripts written without spaces between words — Chinese, Japanese, and Korean's syllable
blocks — as the full-text side reads them (pure).

SQLite FTS5's ``unicode61`` tokenizer takes a run of letters as one token, and a Chinese
sentence has no spaces: ``我每天早上喝一杯手冲咖啡`` was one token, so no query word ever
matched a note written in it, and every hit came from the vector side alone. Full-text
engines index these scripts without a dictionary by neighbouring characters (Lucene's CJK
bigrams); here:

- the full text holds each such character as a token of its own (:func:`spaced`);
- a query asks for each pair of neighbouring characters of a run as a phrase
  (:func:`bigrams`): a two-character word matches where those two stand together, whatever
  surrounds them, and BM25 weighs each pair by how many passages hold it.

A run is a maximal stretch of these characters; punctuation (``，`` ``。`` ``「``) and
every other script end it. Latin, Cyrillic and the rest are left exactly as they were.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from .arabic_script import arabic_either, arabic_folded
from .combining import COMBINING, has_combining
from .marks import STROKED_FORMS, ligatures_either, marks_either, marks_folded, strokes_either

# Thai and Lao letters and their marks (not their digits, folded to ASCII ones, nor ฿ and the
# punctuation ๏ ๚ ๛: marks.py), Hangul Jamo, CJK radicals, 々〆〇, kana (not the punctuation ゠ and ・ among them), bopomofo, compatibility Jamo, kanbun, CJK strokes and
# katakana extensions, Extension A, unified ideographs, Hangul Jamo extensions and syllables,
# compatibility ideographs, halfwidth katakana, and the supplementary ideograph planes.
_CHARACTERS = (
    "\u0e01-\u0e3a\u0e40-\u0e4e\u0e81-\u0ebd\u0ec0-\u0ece"
    "\u1100-\u11ff\u2e80-\u2fdf\u3005-\u3007\u3040-\u309f\u30a1-\u30fa\u30fc-\u30ff\u3100-\u312f\u3130-\u318f\u3190-\u31ff"
    "\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003134f"
)
RUN = re.compile(f"[{_CHARACTERS}]+")  # a run written without spaces
# Where a word of another script ends or starts beside such a run: ``SQL`` in ``SQLクエリ`` is a
# word of its own, as the full text holds it (:func:`spaced`), though ``ク`` is a word character.
# Their class of some 170,000 characters costs a pattern about 7 ms to compile (case-insensitive):
# only a text that holds such a run is looked at with them (:class:`TextForms`).
WORD_START = f"(?<![^\\W{_CHARACTERS}])"
WORD_END = f"(?![^\\W{_CHARACTERS}])"
PLAIN_WORD_START = r"(?<!\w)"
PLAIN_WORD_END = r"(?!\w)"
# A combining mark is part of its word, as the full text reads it (combining.py): Python's \w leaves
# the marks out. Only for a text that holds one (:class:`TextForms`), the class costing each pattern.
MARKED_WORD_START = f"(?<![{COMBINING}])"
MARKED_WORD_END = f"(?![{COMBINING}])"


@dataclass(frozen=True)
class TextForms:
    """What a text holds that a pattern looking for a query's words in it must allow for, each
    costly to compile into every pattern: full-width letters or digits (``ＳＱＬ``), and runs
    written without spaces (``SQLクエリ``: its word boundaries). :func:`text_forms` tells."""

    wide: bool = False
    joined: bool = False
    marked: bool = False  # combining marks: a word goes on through its vowel signs (दान is not दाना's start)

    @property
    def word_start(self) -> str:
        return (WORD_START if self.joined else PLAIN_WORD_START) + (MARKED_WORD_START if self.marked else "")

    @property
    def word_end(self) -> str:
        return (WORD_END if self.joined else PLAIN_WORD_END) + (MARKED_WORD_END if self.marked else "")


PLAIN = TextForms()


def text_forms(text: str) -> TextForms:
    """The :class:`TextForms` of ``text``."""
    return TextForms(wide=has_wide(text), joined=has_run(text), marked=has_combining(text))


def has_run(text: str) -> bool:
    """Does ``text`` hold a character of these scripts?"""
    return RUN.search(text) is not None


def cjk_runs(text: str) -> list[str]:
    """The runs of ``text`` written without spaces (Chinese, Japanese, Korean characters)."""
    return RUN.findall(text)


def spaced(text: str) -> str:
    """``text`` with every character of these scripts a word of its own (``喝咖啡`` →
    `` 喝 咖 啡 ``); any other text unchanged."""
    if not has_run(text):
        return text
    return RUN.sub(lambda run: " " + " ".join(run.group()) + " ", text)


# The blocks of Chinese characters a traditional form is found in: Extension A, the unified
# ideographs, the compatibility ideographs, Extension B.
_HAN_BLOCKS = ((0x3400, 0x4DC0), (0x4E00, 0xA000), (0xF900, 0xFB00), (0x20000, 0x2A6E0))


@functools.cache
def _simplified_table() -> dict[int, str]:
    """Each traditional Chinese character that has a simplified form → that form, as OpenCC's
    ``t2s`` writes the character standing alone (經 → 经, 髮 and 發 → 发). Built once, on the
    first text holding such characters (about 15 ms)."""
    import opencc  # here, not at the top: a search whose text holds no Han characters never needs it

    converter = opencc.OpenCC("t2s.json")
    characters = [chr(code) for start, end in _HAN_BLOCKS for code in range(start, end)]
    converted = str(converter.convert("\n".join(characters))).split("\n")
    if len(converted) != len(characters):
        raise RuntimeError(f"OpenCC's t2s gave {len(converted)} characters for {len(characters)}: "
                           "reinstall the opencc package (pip install --force-reinstall opencc)")
    return {ord(char): simple for char, simple in zip(characters, converted, strict=True)
            if simple != char and len(simple) == 1}


@functools.cache
def _traditional_forms() -> dict[str, str]:
    """A simplified character → it and every traditional character written so (发 → 发發髮)."""
    forms: dict[str, str] = {}
    for code, simple in _simplified_table().items():
        forms[simple] = forms.get(simple, simple) + chr(code)
    return forms


def han_folded(text: str) -> str:
    """``text`` with traditional Chinese characters in their simplified forms (``經期`` →
    ``经期``): the full text, a query's words and the names hold one form, so a question in
    either finds a note in the other. Taiwan and Hong Kong write traditional characters, the
    mainland and most agents simplified ones: ``经期`` found nothing in a vault writing ``經期``
    (a trial). Japanese kanji fold alike on both sides (時間 and 时间 find each other)."""
    if not has_run(text):
        return text
    return text.translate(_simplified_table())


def han_either(pair: str) -> str:
    """A regular expression for the characters of ``pair`` in either form (``经期`` →
    ``[经經]期``): where a snippet finds the words the folded full text matched."""
    forms = _traditional_forms()
    parts: list[str] = []
    for char in pair:
        spellings = forms.get(han_folded(char), char)
        parts.append(f"[{spellings}]" if len(spellings) > 1 else re.escape(char))
    return marks_either("".join(parts))  # a Thai letter with its marks (marks.py)


# Full-width Latin letters, digits and marks (ＳＱＬ, １２日, ＡＢＣ) and half-width katakana (ﾐﾙｸ)
# and Hangul: forms a Japanese, Chinese or Korean keyboard types for the same characters.
_WIDTH_FORMS = re.compile("[\uff01-\uffee]+")


def width_folded(text: str) -> str:
    """``text`` with its full-width and half-width forms as the plain characters they stand for
    (NFKC of those alone, as Lucene's CJK width filter reads them): ``ＳＱＬ`` is ``SQL``,
    ``ﾐﾙｸ`` is ``ミルク`` (``ﾊﾞ`` is one ``バ``). FTS5's ``unicode61`` folds neither: a query
    typed ``ﾐﾙｸ`` or ``ＳＱＬ`` found no note writing ``ミルク`` or ``SQL``, and a note saying
    ``１２日`` was not found by ``12日`` (a trial on a Japanese vault). Nothing else of NFKC is
    applied (``①``, ``㍿``, ligatures stay as written)."""
    if not _WIDTH_FORMS.search(text):
        return text
    return _WIDTH_FORMS.sub(lambda forms: unicodedata.normalize("NFKC", forms.group()), text)


def fts_form(text: str) -> str:
    """Text as the full text holds it and a query's words ask for it: :func:`spaced`, full-width
    and half-width forms as their plain characters (:func:`width_folded`), traditional Chinese
    characters as simplified (:func:`han_folded`), the
    German sharp s as ``ss``, the Turkish dotless ``ı`` as ``i``, the Russian ``ё`` as ``е``.
    FTS5's ``unicode61`` folds ``é`` to ``e`` but keeps ``ß``, so ``Strasse``, as Germans type it
    without the key, missed a note's ``Straße`` (a trial); it keeps ``ı`` too, and lowers ``I``
    to ``i``, so ``KADIKÖY`` (capitals) and ``Kadikoy`` (typed without a Turkish keyboard)
    missed ``Kadıköy`` (a trial); and it keeps ``ё``, which Russian writes as ``е`` at will:
    a question's ``жильё`` was in no note of a vault that wrote ``жилье`` (a trial). Arabic-script
    marks, tatweel, letters and digits are folded to one spelling (arabic_script.arabic_folded);
    Hebrew points, Thai marks, Indic nuktas and Latin letters with a stroke (``đ``) are dropped
    or plain (marks.marks_folded), and a run of Thai is spaced as Chinese is."""
    if text.isascii():  # most texts: none of the folds below can apply to one (each folds other letters)
        return signs_spelled(text)
    # Composed first (NFC): a text saved decomposed (macOS, a PDF's copy) held Й as И and a breve,
    # which the tokenizer read as И alone, so the Й a person types found nothing.
    folded = marks_folded(arabic_folded(width_folded(unicodedata.normalize("NFC", text)))).replace("ß", "ss").replace("ẞ", "SS").replace("ı", "i").replace("ё", "е").replace("Ё", "Е")
    folded = signs_spelled(folded)
    if not has_run(folded):
        return folded
    return RUN.sub(lambda run: " " + " ".join(run.group()) + " ", folded.translate(_simplified_table()))


# A language named by one letter and a sign: C++, C#, F#, g++ (and C++17). The tokenizer drops
# the sign, so `C++`, `C#` and `C` were one word `c`: asked "C++", a note on C structs (`char c`)
# outranked the one note that says C++ (a trial). Spelled out, both sides hold `cpp`, `csharp`.
_SIGNED_LETTER = re.compile(r"(?<![\w+#])([^\W\d_])(\+\+|#)(?![+#\w])|(?<![\w+#])([^\W\d_])(\+\+|#)(?=\d)")


def signs_spelled(text: str) -> str:
    """``text`` with a language named by one letter and ``++`` or ``#`` as one word of letters
    (``C++`` → ``Cpp``, ``C#`` → ``Csharp``, ``C++17`` → ``Cpp 17``), as the full text holds it
    and a query asks for it: FTS5's tokenizer would keep only the letter."""
    if not _sign_after_letter(text):  # most texts: the pattern scans a text at about 60 ns a character
        return text
    return _SIGNED_LETTER.sub(_spelled, text)


def _sign_after_letter(text: str) -> bool:
    """Does a ``++`` or ``#`` stand right after a letter anywhere in ``text`` (``C#``, ``g++``; not a
    ``# heading`` or a ``#tag``)? The cheap question :func:`signs_spelled` asks first."""
    for sign in ("++", "#"):
        at = text.find(sign, 1)
        while at != -1:
            if text[at - 1].isalpha():
                return True
            at = text.find(sign, at + 1)
    return False


def _spelled(found: re.Match[str]) -> str:
    letter, sign = (found.group(1), found.group(2)) if found.group(1) else (found.group(3), found.group(4))
    return letter + ("pp" if sign == "++" else "sharp") + ("" if found.group(1) else " ")


_ASCII_LETTER_OR_DIGIT = re.compile("[A-Za-z0-9]")
_WIDE_LETTER_OR_DIGIT = re.compile("[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]")  # ０-９, Ａ-Ｚ, ａ-ｚ


def has_wide(text: str) -> bool:
    """Does ``text`` hold a full-width letter or digit (``ＳＱＬ``, ``１２``)? Only such a text needs
    :func:`spellings_either`'s ``wide`` patterns, whose character classes cost some 15 times a plain
    pattern to compile: asked of every hit, they tripled a search's time at 10,000 notes."""
    return _WIDE_LETTER_OR_DIGIT.search(text) is not None


_UMLAUT_WRITTEN = {"ä": "ae", "ö": "oe", "ü": "ue"}


def spellings_either(pattern: str, wide: bool = False) -> str:
    """A regular expression's ``ss`` and ``ß``, its ``е`` and ``ё``, and — ``wide``, for a text
    that holds full-width forms (:func:`has_wide`) — each ASCII letter and digit and its
    full-width form (``S`` and ``Ｓ``), each matching either spelling, as the full text holds
    them alike (:func:`fts_form`; snippets look for the word where the full text found it:
    ``SQL`` found a note writing ``ＳＱＬ`` and its snippet showed another part); and its ``ä``,
    ``ö``, ``ü`` as written out too (``ae``: a query's ``Händler`` finds a note's ``Haendler``,
    search.query_words); and an Arabic-script letter or a digit in any of its spellings
    (arabic_script.arabic_either)."""
    # þorn asked thorn, Æsir asked aesir (marks.py); first, as the umlauts' alternatives hold an "ae"
    either = re.sub("[еёЕЁ]", "[её]", re.sub("ss|ß|ẞ", "(?:ss|ß)", ligatures_either(pattern), flags=re.IGNORECASE))
    either = re.sub("[äöü]", lambda umlaut: f"(?:{umlaut.group()}|{_UMLAUT_WRITTEN[umlaut.group().lower()]})", either,
                    flags=re.IGNORECASE)
    either = marks_either(arabic_either(either))  # ظلام finds ظَلامٌ, 45 finds ۴۵, ברוך finds בָּרוּךְ (marks.py)
    if not wide:
        return strokes_either(either)  # Soren and Søren find Søren, as the full text holds both as soren
    return _ASCII_LETTER_OR_DIGIT.sub(
        lambda plain: f"[{plain.group()}{chr(ord(plain.group()) + 0xFEE0)}{STROKED_FORMS.get(plain.group().lower(), '')}]", either)


def pieces(text: str) -> Iterator[tuple[str, bool]]:
    """``text`` cut into its runs of these scripts and what lies between them, in order:
    (piece, is a run). Empty pieces are left out."""
    at = 0
    for run in RUN.finditer(text):
        if run.start() > at:
            yield text[at : run.start()], False
        yield run.group(), True
        at = run.end()
    if at < len(text):
        yield text[at:], False


MAX_PAIRS = 64  # pairs a query asks for, all runs together: a pasted page of Chinese is not 1,000 FTS terms


def bigrams(run: str) -> list[str]:
    """A run's neighbouring pairs, each as the phrase the full text holds (``咖啡店`` →
    ``咖 啡``, ``啡 店``); a run of one character is that character."""
    if len(run) == 1:
        return [run]
    return [f"{run[at]} {run[at + 1]}" for at in range(len(run) - 1)]


# Pairs of a Chinese question that ask rather than say (what, why, how, which, where, how
# many or long, what time, when: 什么, 为什么, 怎么, 哪些, 多少, 几点, 什么时候 / 的时候), in
# simplified and traditional characters. They are left out of a query as English "what" and
# "when" are (fields.STOPWORDS): a note's text holds them too, and in a vault where few notes
# do, BM25 weighed them high — 收下巴的时候最常见的错误是什么 ("the most common mistake when
# tucking the chin") ranked first a note saying 时候 seven times (a trial on a Chinese vault).
# Only pairs no content word is made of: 如何 and 是不 also begin words. 的 goes with 时候 only
# when the three stand together (的时间, "the time of", asks nothing), and 时候 is no question
# word in 小时候 ("childhood").
QUESTION_PAIRS = frozenset(
    "什么 是什 为什 怎么 怎样 怎麼 哪些 哪个 哪個 哪里 哪裡 哪儿 哪兒 哪天 哪位 多少 多久 几点 幾點 几个 幾個 几天 幾天 "
    "时候 時候 什麼 為什".split()
)
_QUESTION_TRIPLES = frozenset(("的时候", "的時候"))
_CONTENT_WORDS = ("小时候", "小時候")  # words a question pair is part of: never cut


def content_pairs(run: str) -> list[str]:
    """:func:`bigrams` of what a run says once its question words (:data:`QUESTION_PAIRS`) are
    cut out, each stretch between them on its own, a lone character left out:
    ``收下巴的时候最常见的错误是什么`` → the pairs of ``收下巴`` and ``最常见的错误``;
    ``[]`` when the run only asks (``什么``). A Japanese run: :func:`japanese_terms`; a Korean
    one: :func:`korean_terms`."""
    if _HIRAGANA.search(run) and not _HIRAGANA.fullmatch(run):
        return japanese_terms(run)
    if _HANGUL.search(run):
        return korean_terms(run)
    asked = [False] * len(run)
    kept = [False] * len(run)
    for word in _CONTENT_WORDS:
        for found in re.finditer(word, run):
            kept[found.start() : found.end()] = [True] * len(word)
    for at in range(len(run) - 1):
        width = 3 if run[at : at + 3] in _QUESTION_TRIPLES else 2 if run[at : at + 2] in QUESTION_PAIRS else 0
        if width and not any(kept[at : at + width]):
            asked[at : at + width] = [True] * width
    if not any(asked):
        return bigrams(run)
    said = "".join(" " if is_asked else char for char, is_asked in zip(run, asked, strict=True))
    return [pair for stretch in said.split() if len(stretch) > 1 for pair in bigrams(stretch)]


_HIRAGANA = re.compile("[\u3041-\u309f]+")
# Japanese question words (何 what, 誰 who, いつ when, どこ where, どう / どうやって how, なぜ why,
# どんな, どれ, どの which, いくつ, いくら how many): cut out as the Chinese ones are.
_JAPANESE_QUESTIONS = re.compile("何|誰|どうやって|どうして|どうすれば|いつ|どこ|どう|なぜ|なに|どんな|どれ|どの|どちら|だれ|いくつ|いくら")
# Hiragana between words, at most this many: a particle or an ending (は, が, から, には, がある,
# ている, ですか). Measured on the trial's 20 questions that say more than a name: leaving out
# one or two first-hit 11 → 14, up to three 15, every stretch 14 (しんどかった, "was tough", is a
# word of its own and was lost).
_PARTICLE_KANA = 3


def particle_beside(text: str, start: int, end: int) -> bool:
    """Is the run ``text[start:end]`` a particle written against a word of another script: one
    to three hiragana (:data:`_PARTICLE_KANA`) with no space on a side (``の`` in ``Reactのhooks``,
    ``を`` in ``SQLを``), or a Korean particle after one (``가`` of ``CSS가``, ``에서`` of
    ``GitHub에서``: :data:`KOREAN_PARTICLES`)? Such a run says nothing of its own, as a particle
    inside a Japanese run does not (:func:`japanese_terms`): asked for, ``Reactのhooks`` ranked a
    note saying の five times above the note saying "React hooks" (found in review)."""
    run = text[start:end]
    if run in KOREAN_PARTICLES:
        return start > 0 and not text[start - 1].isspace()
    if len(run) > _PARTICLE_KANA or not _HIRAGANA.fullmatch(run):
        return False
    return (start > 0 and not text[start - 1].isspace()) or (end < len(text) and not text[end].isspace())


_HANGUL = re.compile("[\uac00-\ud7a3]")
# Korean writes a space between words, but a word carries its particles and endings: 모던플러스에는
# ("in Modern Plus"), 회의를, 설치했어 ("did install"). Asked for by all its pairs, a question's
# word asked for pairs no note holds (스에, 에는), and BM25 weighed the particles' pairs as words:
# `모던플러스에는 어떤 색상 코드를 써?` ranked the colour table fourth (a trial on a Korean vault).
# The particles and the endings of a 하다/되다 verb after a noun, longest first; cut from a query
# word only when two syllables or more are left (회의 keeps its 의, 도로 its 로, 가을 its 을).
KOREAN_PARTICLES = frozenset(
    "은 는 이 가 을 를 에 의 와 과 도 로 으로 만 랑 이랑 에서 에게 한테 께 께서 까지 부터 처럼 보다 하고 "
    "에는 에도 에서는 에서도 에서의 에게는 으로는 로는 으로도 로도 까지는 부터는 만의 이나 나 이라는 라는 "
    "이란 란 의는 과는 와는 이며 이고".split()
)
_KOREAN_ENDINGS = (
    "했었어 했어요 했나요 했는지 했는데 했어 했니 했지 했다 했던 했을 했음 합니다 했습니다 하나요 하는지 하는 하고 해서 하기 "
    "하면 하려면 할까 해요 해야 한 할 해 됐어 됐나요 되었나요 되나요 되는 된 돼 됨 함 인가요 인지 이야 이에요 예요 였어 였나요 이었어 입니다 이다"
).split()
_KOREAN_CUTS = sorted(set(KOREAN_PARTICLES) | set(_KOREAN_ENDINGS), key=len, reverse=True)
# Korean question words (뭐/무엇 what, 무슨/어떤/어느 which, 언제 when, 어디 where, 누구/누가 who,
# 어떻게 how, 왜 why, 몇/얼마 how many), whole or with a particle or an ending after them
# (무엇을, 뭐였어, 어디서, 누구랑): cut out as the Chinese and Japanese ones are.
_KOREAN_QUESTION = re.compile("(?:뭐|뭘|무엇|무슨|어떤|어느|언제|어디|누구|누가|어떻게|왜|몇|얼마나|얼마|어때|어땠)"
                              "[은는이가을를에서의도야요지였어나까랑와과로으든니냐죠인데고라]*")
# Words of a Korean question that say no more than that it asks (did, is it, tell me): stopwords.
KOREAN_STOPWORDS = frozenset(
    "했어 했나요 했니 했지 했었어 했어요 했던 했을까 해 해야 해줘 해요 돼 됐어 되나요 있어 있었어 있나요 있니 없어 없나요 "
    "인가요 이야 야 줘 알려줘 알려 하나요 할까 써 봐 거야 건가요 거 것 수 때 좀 더 안 못 잘 다 및 그 저 이 "
    "그리고 그런데 나 내 제 우리 대해 대해서 대한 관해 관한 한 할 된 될 하는 되는 있는 없는 같은".split()
)


def korean_terms(run: str) -> list[str]:
    """What a Korean query word asks for: the pairs of its stem, the particles and endings after
    it cut (:data:`KOREAN_PARTICLES`: ``모던플러스에는`` → 모던플러스, ``설치했어`` → 설치), or
    ``[]`` for a question word (``언제``, ``무엇을``, ``뭐였어``), a word that only asks
    (``했나요``, ``알려줘``) or a particle standing alone (``에`` after a day: :func:`days_said`).
    The stem's pairs are some of the word's, so a note holding the whole word is found as before;
    what goes is the pairs only the particle makes (스에, 에는). Endings are cut one after another
    (``기록하기로`` → 기록), each only when two syllables or more are left: a one-syllable stem
    (``집에``) is asked for as written, since one syllable matches inside any word."""
    if run in KOREAN_STOPWORDS or run in KOREAN_PARTICLES or _KOREAN_QUESTION.fullmatch(run):
        return []
    stem = run
    while cut := next((cut for cut in _KOREAN_CUTS if stem.endswith(cut) and len(stem) - len(cut) >= 2), ""):
        stem = stem[: -len(cut)]  # one after another: 기록하기로 is 기록 + 하기 + 로
    return bigrams(stem)


def japanese_terms(run: str) -> list[str]:
    """What a Japanese query run asks for: the pairs of each stretch of kanji or katakana, a
    lone kanji as itself, the pairs inside a stretch of four hiragana or more; question words
    (:data:`_JAPANESE_QUESTIONS`) cut out, and particles and endings (a stretch of one to three
    hiragana) left out with the pairs that straddle them. ``兄の名前`` asks for 兄 and 名前: its pairs
    ``兄の`` and ``の名`` are in no note saying アオイの兄, and the note was found by meaning
    alone (ranked 5); ``8/31に何がある`` ranked first a note holding ``ある`` eleven times,
    above the note with the date (a trial on a Japanese vault). A stem's ending goes with the
    particles (``寝る`` asks for 寝). ``[]`` when the run only asks (``何ですか``)."""
    said = _JAPANESE_QUESTIONS.sub(" ", run)
    terms: list[str] = []
    for stretch in re.findall(f"{_HIRAGANA.pattern}|[^ \u3041-\u309f]+", said):
        if _HIRAGANA.fullmatch(stretch):
            terms += bigrams(stretch) if len(stretch) > _PARTICLE_KANA else []
        else:
            terms += bigrams(stretch)  # a lone character is itself
    return terms


def latin_unmarked(text: str) -> str:
    """``text`` with the accents of Latin letters dropped (``ö`` is ``o``), in NFC; the marks
    of other scripts stay (Japanese ``が`` is not ``か``)."""
    if text.isascii():
        return text
    kept: list[str] = []
    for char in unicodedata.normalize("NFD", text):
        if unicodedata.combining(char) and kept and _is_latin(kept[-1]):
            continue
        kept.append(char)
    return unicodedata.normalize("NFC", "".join(kept))


def _is_latin(char: str) -> bool:
    """A letter of the Latin blocks (Basic Latin to IPA Extensions, Latin Extended Additional)."""
    code = ord(char)
    return code < 0x0250 or 0x1E00 <= code < 0x1F00


# A day as Chinese, Japanese and Korean write it in a question, with or without its year:
# 2026년 4월 12일, 2026年4月12日, 4월 12일, 12号. The full text holds it as its characters
# (2026 년 4 월 12 일), and a note written as ISO writes 2026-04-12: asked for as digits and
# characters, `2026년 4월 12일에 뭐 했어?` asked for 2026, 4, 12, 년, 월 and 일 one by one, and
# ranked first a production table whose rows say "| 12 |" (a trial on a Korean vault).
_CJK_DAY = re.compile(r"(?<!\d)(?:(\d{4})\s*[年년]\s*)?(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일号號](?!\d)")


def days_said(text: str) -> tuple[str, list[tuple[str, int | None, int, int]]]:
    """``text`` with each day written in CJK numbers (``2026년 4월 12일``, ``4月12日``) taken out,
    and each such day as it was written with its year (None when not said), month and day: the
    query asks for it as one word, as written or in another spelling (day_spellings.day_term).
    A month or a day no calendar has (13월) is left as it is."""
    days: list[tuple[str, int | None, int, int]] = []

    def taken(found: re.Match[str]) -> str:
        year, month, day = found.group(1), int(found.group(2)), int(found.group(3))
        if not (1 <= month <= 12 and 1 <= day <= 31):
            return found.group()
        days.append((found.group(), None if year is None else int(year), month, day))
        return " "

    return _CJK_DAY.sub(taken, text), days
