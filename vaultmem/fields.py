"""What a note offers the full-text side besides its text: names, aliases, properties, tags (pure).

A person searches for a note by what Obsidian shows of it: its file name (and folders),
its title, its aliases, and the values of its properties (``twitter: kepano``,
``author: "[[Kevin Kelly]]"``). Every string property and list of strings is searchable,
except the keys vaultmem and Obsidian keep for bookkeeping (:data:`BOOKKEEPING_KEYS`) and those a
plugin keeps its settings in (:func:`is_plugin_setting`: ``excalidraw-…``, ``sr-due``);
a ``[[link]]`` counts as the text it shows, a bare URL, a date, a number or a boolean is
not text a person types. See adr/0004-hybrid-ranking.md.

A note's **name keys** (:func:`name_key`) are its file name, title and aliases as a query is
compared with them: search ranks a note first when the query *is* one of its names
(ranking.py's name bonus). Its **topic keys** (:func:`topic_key`) are the same names without
their stopwords: a question that is only a name in a question's words ("who is Kevin Kelly",
"what are tags") asks for that note too.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from .arabic_script import arabic_folded
from .cjk import han_folded, latin_unmarked
from .marks import marks_folded
from .stems import LANGUAGE_SAMPLE, note_language

if TYPE_CHECKING:
    from .notes import Note

# Frontmatter keys that say how vaultmem or Obsidian treat a note, not what it is about.
# (title, aliases and tags have columns of their own.)
BOOKKEEPING_KEYS = frozenset({
    "layer", "expires_at", "created", "updated", "modified", "id", "permanent", "tags", "tag",
    "aliases", "alias", "title", "superseded_by", "supersedes", "merged_from", "version",
    "cssclasses", "cssclass", "publish",
})
# Properties in which a plugin keeps its own settings for the note, never anyone's words:
# Excalidraw's for a drawing (``excalidraw-plugin: parsed``, ``excalidraw-default-mode: view``,
# ``excalidraw-onload-script: "app.plugins…"``), Spaced Repetition's review schedule for a note
# (``sr-due``, ``sr-interval``, ``sr-ease``) and Kanban's board marker. Searched, "view" or
# "script" found a drawing by its settings, and its snippet opened with the onload script (a trial).
PLUGIN_SETTING_KEYS = frozenset({"sr-due", "sr-interval", "sr-ease", "kanban-plugin"})
PLUGIN_SETTING_PREFIXES = ("excalidraw-",)


def is_plugin_setting(key: str) -> bool:
    """Is ``key`` a property a plugin keeps its settings in (:data:`PLUGIN_SETTING_KEYS`)?"""
    folded = key.casefold()
    return folded in PLUGIN_SETTING_KEYS or folded.startswith(PLUGIN_SETTING_PREFIXES)


# Words so common that matching them scores nearly every note: dropping them from the
# full-text side keeps BM25 from ranking the whole vault (measured: rankings unchanged,
# p95 halved at 10k notes), and a snippet does not look for them. Kept when a query has
# nothing else. The English ones also tell an English query (search.query_words: its endings
# are the stemmer's).
ENGLISH_STOPWORDS = frozenset(
    "a about above after again all am an and any are as at be because been before being below "
    "between both but by can could did do does doing down during each few for from further had "
    "has have having he her here hers herself him himself his how i if in into is it its itself "
    "just me more most my myself no nor not now of off on once only or other our ours ourselves "
    "out over own same she should so some such than that the their theirs them themselves then "
    "there these they this those through to too under until up very was we were what when where "
    "which while who whom why will with would you your yours yourself yourselves".split()
)
OTHER_STOPWORDS = frozenset(
    # The same words of German, French and Spanish, as a bilingual vault asks in them: "Wer ist
    # Jürgen?" ranked a note holding "ist" first, and counted "wer" as a word no note holds (a
    # trial). Left out: a form that is also an English word a query may be about (die, war,
    # man, hat, bin, den, mit, son, pour, par, con, era, sin, mon, ton, la, c, d) or a given
    # name (Ella, Elle, Al, Una, Su, Del, Les; Como, a lake): "who is Ella?" lost its name match.
    "aber auch bei bist bitte das dass dein deine dem der des dich dir doch du ein eine einem einen "
    "einer eines er es euch euer für habe haben hast hatte ich ihm ihn ihr ihre im ist ja kann mein "
    "meine meinem meinen meiner mich mir nach nicht noch nur ob oder sein seine sich sie sind uns und "
    "vom von vor wann warum waren welche welchem welchen welcher welches wem wer weshalb wessen wie "
    "wieso wieviel wo wofür woher wohin womit worüber wozu zu zum zur über "
    "au aux avec ce ces cette comment dans de des du elles est et étaient était êtes il ils je "
    "le leur leurs lui mais mes moi même ne nos notre nous on ou où pas pourquoi qu quand que "
    "quel quelle quelles quels qui quoi sa sans se ses si sommes sont suis sur ta te tes toi tu un "
    "une vos votre vous j l n "
    "algo cómo cual cuál cuando cuándo donde dónde el ellas ellos en eran esa ese "
    "eso esta está estaba estas estos están fue las lo los mi mis muy nos o para pero por porque qué "
    "quien quién quiénes ser sí sobre sus también tengo tiene tus unos unas y yo "
    # Russian and Ukrainian: question words, pronouns, prepositions, conjunctions and "to be",
    # in the forms a question takes ("какой IP у малинки" ranked a note asking "Какой домен у
    # IP?" first by "какой" and "у", a trial). Both spellings of ё, which Russian writes as е at
    # will. Left out: a form that is also a name (Ли, Том) and counting words (два, много), which
    # a note's facts are made of.
    "а без был была были было быть в вам вас вами во вот вы где да для до его ее её ей ему если "
    "есть еще ещё же за зачем и из или им их к как какая какие каким какими каких каков какого какое "
    "какой каком какую когда ко кого кому кто куда меня мне мной мое моё мои мой моя мы на над нам "
    "нас не него нее неё ней нем нём ни них но о об обо он она они оно от откуда перед по под почему "
    "при про с свой своя свое своё свои со сколько так также там тебе тебя то тоже ты тут у уже "
    "чего чем чему что чтобы эта эти это этого этой этом этот я "
    "або але бо був була були було вже він вона вони воно де є з зі із її їй їх йому коли мені мене "
    "ми мій моє мої мою ні про скільки також та ти ту тут це цей ці ця чи чому що як яка яке які "
    "якого який якій яку і й "
    # Portuguese (Brazil's and Portugal's) and Italian, the same kinds of words, each also as it is
    # typed without its accent (você and voce, perché and perche, é and è as e): a query word is
    # compared as typed, a name's word without accents (topic_key). Left out as above: a form that
    # is also an English word or acronym a query may be about (eu for the EU, os, dos, nas, em, com,
    # sem, sim, ate, ci, io, ai, vi, per, con, come, non, ma, ho, ha, dal, col, cos, tue, uno),
    # a given name (Ela, Mia, Sue, Della, Nella, Una, Alla, Ed) or a place's (são of São Paulo),
    # and counting words (muito, sei, quanta).
    "que quê qual quais quando onde aonde quem porquê quanto quantos quantas "
    "você voce vocês voces ele eles elas mim meu minha meus minhas seu sua seus suas nosso nossa "
    "nossos nossas dele dela deles delas isso isto aquilo esse essa esses essas este estes lhe comigo "
    "um uma umas uns da na ao aos às pelo pela pelos pelas entre até pra "
    "e é mas pois também tambem já nem não nao "
    "foi fui sou somos estou estava estão estao tem têm tenho tinha ter há houve "
    "che cosa dove chi perché perche quale quali quanti quante "
    "lei noi voi loro ti gli mio mie miei tuo tua tuoi suo suoi nostro nostri nostre vostro vostra "
    "questo questa questi queste quello quella quelli quelle "
    "di tra fra dalla dai dagli dalle dello dei degli delle nel nei negli nelle sul sulla sui "
    "sugli sulle allo alle agli "
    "è anche quindi però oppure sono siamo siete ero erano sia hai abbiamo avete hanno avevo aveva "
    # Turkish: the function words of the Turkish stop list of Lucene and of the `stop-words` package
    # (python-stop-words, BSD-3-Clause, turkish.txt; after Can et al., "Information retrieval on
    # Turkish texts", JASIST 2008), its ı and ş restored (the file spells them ý, þ), and the ASCII
    # forms a keyboard without them types (icin, nasil). A memory in Turkish sharing "için" or
    # "bir" with a note was named similar to it (stop 38's leftover: own_similar's shared word).
    # Left out as above: counting words (iki, on, yüz, bin, milyon …), a form that is also an
    # English word or acronym (ben, bin, biz, hem, hep, ama, ya, mu, defa, kez, en) or a given
    # name (Kim, Kimi, Su).
    "acaba bana bazı belki benden beni benim bir biri birkaç birşey birşeyi bizden bizi bizim bu buna bunda "
    "bundan bunu bunun çok çünkü dahi daha diye gibi hepsi hiç için ile ise ki kimden kime mı mü nasıl "
    "neden nerde nerede nereye niçin niye ona ondan onlar onlardan onları onların onu sanki senden seni "
    "senin siz sizden sizi sizin şey şeyden şeyi şeyler şu şuna şunda şundan şunu tüm ve veya yani "
    "icin nasil cunku cok hic sey seyler".split()
)
STOPWORDS = ENGLISH_STOPWORDS | OTHER_STOPWORDS
# The one-letter function words of other languages written in Latin letters ("e", "o", "y", "j",
# "l", "n"): stopwords only in a query that holds another function word of those languages
# (search._stopwords_of). Alone they are a letter an English query means: "vitamin e".
LONE_LETTERS = frozenset(word for word in OTHER_STOPWORDS - ENGLISH_STOPWORDS if len(word) == 1 and word.isascii())
# English function words that Spanish, French, Portuguese, Italian or German write as their own:
# "qué me falta resumir", "voy a", "no tengo", "il a", "on a dit", "tu as", "o que eu comprei no
# mercado", "i libri che ho letto", "was ist in". Alone they do not make a question English
# (search._says_english): "qué me falta resumir" was read as English, so "resumir" was not asked
# for by its first letters and missed the note's "resumenes" (a trial on a Spanish vault).
SHARED_FUNCTION_WORDS = frozenset("a am an as do he i in me no on so was".split())
# The first word of a question that asks who someone is (fields.person_asked), in those
# languages and Portuguese and Italian, and the verbs that may follow it ("who is", "who's" is
# "who s" as a name key; "quem é", "chi è": é and è are e, as a name key holds them).
WHO_WORDS = frozenset({"who", "whos", "wer", "qui", "quién", "quien", "quem", "chi"})
COPULAS = frozenset({"is", "was", "s", "ist", "war", "est", "était", "es", "era", "fue", "é", "è", "e", "foi"})
MAX_NAME_WORDS_AFTER = 2  # a person's name: the first name asked, then at most two more words
# Words of a request for what the vault holds on something ("tell me about", "what do I know
# about", "show my notes on"): left out of a query's topic key with the stopwords, never out
# of a note's name (a note named "Show Notes" keeps both words).
REQUEST_WORDS = frozenset(
    "tell know remember recall show find give look anything everything something info information "
    "detail details summary summarise summarize note notes page please".split()
)
# Of those, the words that name what the vault holds rather than what to do: a query opening
# with them ("notes about mimikatz", "tell me everything about Kerberos") does not ask for them
# on the keyword side (search.query_words). The verbs stay: "find every file larger than
# 100 MB", "show the lines around each hit" ask how to find and show (the docs set fell).
REQUESTED_HOLDINGS = frozenset("anything everything something info information note notes".split())
# Verbs a how-to question opens with that say only that something is to be done ("make a box
# that stands out", "show a byte count like 1500000 as 1.5M", "what is the way to …"): a
# question's first words, after its stopwords, that are these are not asked for on the keyword
# side (search.query_words), where they matched any page that makes or shows anything. Not
# `find`, `look`, `tell` (a manual's `find` is a command: an earlier rule that dropped it, with
# `show` and `give`, lost the docs set's "find every file larger than 100 megabytes"), nor a verb
# later in the question ("what milk does Maya take"). Measured: benchmarks/PASSAGES.md §42.
HOW_TO_VERBS = frozenset("make show get use see take give want need way let".split())
# Verbs a question asks what a source or its reader said with ("what did Kahneman say about
# anchoring", "what did I think of Deep Work"): not what the question is about, so they never
# choose which passage of a named note a hit shows (search.Searcher.best_passages).
REPORTING_VERBS = frozenset(
    "say says said saying think thinks thought write writes wrote written mean means meant argue argues "
    "argued claim claims claimed feel felt read".split()  # "what have I read by Pinker": the reader's verb
)
# A line of a metadata list a sync plugin writes in a note's body, as properties it does not put in
# the frontmatter: ``- Author: [[Ibram X. Kendi]]`` (Readwise), ``* ASIN: B07D…`` (Kindle), ``**Url:** …``,
# Dataview's ``Author:: X``, in a callout's ``>`` or not; never indented (a highlight's ``    - Note: …``
# and ``    - Tags: …`` are the reader's, under the highlight).
_PROPERTY_LINE = re.compile(r"(?:>[ \t]*)*(?:[-*+][ \t]+)?(?:\*\*|__)?[^\W\d_][\w .'’-]{0,40}?(?:\*\*|__)?::?(?:\*\*|__)?[ \t]+\S.*")


def metadata_lines(text: str) -> str:
    """The lines of ``text`` (a passage) that form a metadata list: two or more ``key: value``
    lines in a row (:data:`_PROPERTY_LINE`), as a sync plugin writes a book's author and title
    in the body (a Readwise note's ``## Metadata``); they name the note as properties do."""
    found: list[str] = []
    run: list[str] = []
    for line in [*text.splitlines(), ""]:
        if _PROPERTY_LINE.fullmatch(line):
            run.append(line)
            continue
        if len(run) >= 2:
            found += run
        run = []
    return "\n".join(found)
ALIAS_KEYS = ("aliases", "alias")  # lower-cased, as Obsidian matches them (/^alias(es)?$/i)
_POSSESSIVE_END = re.compile(r"['’]s$")  # kelly's is kelly, who's is who
# Smart quotes as a keyboard types them (name_key): ’ ‘ ʼ are ', “ ” are ".
_TYPED_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u201c": '"', "\u201d": '"'})
# Marks nobody types (name_key): the direction marks a right-to-left title is written with
# (U+200E, U+200F, U+061C, the embeddings and isolates) are dropped, and the Persian zero-width
# non-joiner is a space, as a keyboard without it types it (کتاب‌های, کتاب های). A trial on a
# Persian vault: `get "فهرست کتاب‌های ۱۴۰۳"` found no note titled with a right-to-left mark before it.
_UNTYPED_MARKS = str.maketrans({**dict.fromkeys(map(ord, "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e"
                                                          "\u2066\u2067\u2068\u2069")), 0x200C: " "})
_LINK = re.compile(r"!?\[\[([^\]|#^]*)(?:[#^][^\]|]*)?(?:\|([^\]]*))?\]\]")
_URL = re.compile(r"^[a-z][a-z0-9+.-]*://\S+$", re.IGNORECASE)
# A citation key as a file name spells it: an author's name run into a year (`@Abeler2011`,
# `Koszegi2006b`, `vangeen2021hierarchical`, Zotero's `marleCombiningPICMHD2025`).
# A body's opening line when it is a level-1 heading, its closing #s not its words; a heading longer
# than a name's 300 characters names nothing. Above it (at most 50 lines, :func:`opening_heading`)
# only what says no words where the note opens: blank lines, a banner image alone on its line (an
# MkDocs or Obsidian page's `![[banner.png]]`, `![](banner.png)`), a comment reading view hides
# (`<!-- … -->`, `%% … %%`, over lines or not). A folder's page opening with any of these was titled
# by its folder's name, not by its heading (notes.folder_page_title).
_IMAGE = r"[^\]\[|\n]*\.(?:avif|bmp|gif|jpe?g|png|svg|webp)"
_ABOVE_HEADING = re.compile(
    r"[ \t]*(?:"
    rf"!\[\[{_IMAGE}(?:\|[^\]\n]*)?\]\]"  # ![[banner.png|600]]
    rf"|!\[[^\]\n]*\]\(<?{_IMAGE}>?(?:[ \t]+\"[^\"\n]*\")?\)"  # ![Banner](img/banner.png "title")
    r"|<!--(?:(?!-->)[\s\S]){0,2000}-->|%%(?:(?!%%)[\s\S]){0,2000}%%"  # hidden, on one line or over several
    r")?[ \t]*\r?\n", re.IGNORECASE)
_OPENING_H1 = re.compile(r"[ \t]{0,3}#[ \t]+([^\n]{1,300}?)(?:[ \t]+#+)?[ \t]*\r?(?:\n|\Z)")
# A Setext heading of level one (`Title` then `=====`): a line of words, not a list item, a quote, an
# ATX heading, a table row, a fence or HTML (CommonMark reads those otherwise).
_OPENING_SETEXT = re.compile(r"[ \t]{0,3}(?![-*+>#|<`~]|\d{1,9}[.)][ \t]|=)([^\n]{1,300}?)[ \t]*\r?\n[ \t]{0,3}=+[ \t]*\r?(?:\n|\Z)")
_NAME_YEAR = re.compile(r"(?<![^\W\d_])([^\W\d_]{2,})((?:1[5-9]|20)\d\d)(?!\d)([^\W\d_]*)")


@dataclass(frozen=True)
class SearchFields:
    """A note's searchable fields other than its body (one full-text row per passage carries them all)."""

    name: str  # folders and file name, without .md: "References Steph Ango"
    title: str
    aliases: tuple[str, ...]
    props: tuple[tuple[str, str], ...]  # (key, text) of each string property
    tags: tuple[str, ...]
    name_keys: tuple[str, ...] = ()  # its file name, title and aliases as name_key gives them (each once)
    topic_keys: tuple[str, ...] = ()  # the same names as name_topic gives them (each once, none empty)
    language: str | None = None  # the language its words are stemmed in (stems.note_language), None for English
    # (key, text) of each property written in its text (inline_fields.py: `speaker:: Caroline`)
    text_props: tuple[tuple[str, str], ...] = ()

    @property
    def props_text(self) -> str:
        """``key: value`` lines: the properties as they are indexed — the frontmatter's, then
        those written in the text (:attr:`text_props`), which the passages embed already."""
        return "\n".join(f"{key}: {value}" for key, value in (*self.props, *self.text_props))

    @property
    def head_text(self) -> str:
        """What a note's first passage embeds after its title and heading path: its aliases —
        other names of the note, as its title is one — then its frontmatter's properties, as
        ``key: value`` lines (those written in the text are in the passage that holds them). Without the aliases a name only an alias holds is found by the words alone,
        and a vector that happens to sit near the name's subwords outranks it."""
        aliases = f"aliases: {', '.join(self.aliases)}" if self.aliases else ""
        frontmatter = "\n".join(f"{key}: {value}" for key, value in self.props)
        return "\n".join(line for line in (aliases, frontmatter) if line)


def search_fields(note: Note) -> SearchFields:
    folder, _, file_name = note.path.rpartition("/")
    name = file_name.removesuffix(".md")
    aliases = tuple(aliases_of(note.meta))
    names = list(dict.fromkeys(name_key(text) for text in (name, note.title, *aliases)))
    keys = [*names, *(name_key(text) for text in file_names(note.path))]  # a path is a name, not a topic
    return SearchFields(
        name=f"{folder} {with_years_apart(name)}" if folder else with_years_apart(name),
        title=note.title,
        aliases=aliases,
        props=tuple(property_texts(note.meta, note.name_key)),
        tags=tuple(note.tags),
        name_keys=tuple(dict.fromkeys(key for key in keys if key)),
        topic_keys=tuple(dict.fromkeys(topic for topic in map(name_topic, names) if topic)),
        language=note_language(f"{note.title}\n{note.body[:LANGUAGE_SAMPLE]}"),
    )


def with_years_apart(name: str) -> str:
    """A file name, then — when it holds a citation key (:data:`_NAME_YEAR`) — the name again
    with the key's year apart: ``@Abeler2011`` → ``@Abeler2011 @Abeler 2011``. Asked "what did
    Abeler 2011 find", the keyword side found the words in the notes that cite the paper, not in
    the one named for it (one word, ``abeler2011``): the paper's own note ranked second (a trial)."""
    apart = _NAME_YEAR.sub(lambda key: " ".join(part for part in key.groups() if part), name)
    return name if apart == name else f"{name} {apart}"


def file_names(path: str) -> tuple[str, ...]:
    """The note's file as a query may name it: its file name with ``.md``, its vault path, and
    that path without ``.md`` (``GIL.md``, ``Main Notes/GIL.md``, ``Main Notes/GIL``). Asked
    "GIL.md", the keyword side looks for the phrase "gil md", which no note holds: the note
    named so was not even among the hits (a trial); "what is in GIL.md" asks for it too."""
    return tuple(dict.fromkeys((PurePosixPath(path).name, path, path.removesuffix(".md"))))


def alias_key(meta: Mapping[str, Any]) -> str | None:
    """The frontmatter key a note's aliases are read from, as Obsidian picks it: the first key
    named ``aliases`` or ``alias`` (the legacy key Obsidian still reads), in any case."""
    return next((key for key in meta if isinstance(key, str) and key.lower() in ALIAS_KEYS), None)


def aliases_of(meta: Mapping[str, Any]) -> list[str]:
    """A note's aliases as Obsidian reads them (its ``parseFrontMatterAliases``): the value of
    :func:`alias_key`; a list is one alias per item, a string is split on commas
    (``aliases: Tommy, T-Bone`` is two names). Each trimmed, once, none empty; anything else
    (a mapping, a nested list, a date) names nothing. The one reader of a note's aliases:
    resolution, search's name keys, explain and consolidate all ask it."""
    key = alias_key(meta)
    value = None if key is None else meta[key]
    items = value.split(",") if isinstance(value, str) else value if isinstance(value, list) else []
    texts = (str(item).strip() for item in items if isinstance(item, (str, int, float)) and not isinstance(item, bool))
    return list(dict.fromkeys(text for text in texts if text))


def name_form(text: str) -> str:
    """A name (file name, path, id, title, alias) in the one Unicode form names are compared
    in: NFC. macOS writes file names decomposed (``e`` + U+0301), a person types ``é``;
    both are the same name. The only place vaultmem normalizes a name (resolution.py and
    the store's ``vm_nfc`` SQL function use it)."""
    return unicodedata.normalize("NFC", text)


# Turkish writes i/İ and ı/I as two pairs of cases; casefold knows the other languages' pair (I/i)
# alone and makes İ a dotted "i̇". Without this, "ibrahim çelik" did not name İbrahim Çelik.md,
# nor "ışıl öztürk" Işıl Öztürk.md, though the error said names match "in any case"; a tag filter
# #İş missed --tag iş. All four are one letter in any case, as Python's case-insensitive patterns
# pair them and the full text holds ı as i (cjk.fts_form).
ANY_I = str.maketrans({"İ": "i", "ı": "i"})


def case_fold(text: str) -> str:
    """``text`` as two are compared "in any case": ``str.casefold``, Turkish ``İ`` and ``ı``
    read as ``i`` first (:data:`ANY_I`). The store's ``vm_casefold`` SQL function is this."""
    return text.translate(ANY_I).casefold()


def name_fold(text: str) -> str:
    """A file name as two are compared to tell whether they name the same note: :func:`name_form`,
    case folded (:func:`case_fold`). Obsidian takes ``[[Kyoto]]`` and ``[[kyoto]]`` for the same
    link, so ``Kyoto.md`` and ``kyoto.md`` in two folders share one name (resolution's file-name
    step, links.py)."""
    return case_fold(name_form(text))


def opening_heading(body: str) -> str:
    """The text of the ``# heading`` that opens ``body`` — its first line that says anything,
    a level-one heading (``# Title``, or ``Title`` over a line of ``=``), its closing ``#``s left
    out — as written; ``""`` when it opens with none. A banner image or a comment above it says
    nothing (:data:`_ABOVE_HEADING`).
    The name the note goes by last (resolution's heading step: Foam titles a note so, and so do
    the people whose file names are ids or slugs), never its title (notes.title_of)."""
    start = 0
    for _ in range(50):
        above = _ABOVE_HEADING.match(body, start)
        if above is None:
            break
        start = above.end()
    opening = _OPENING_H1.match(body, start) or _OPENING_SETEXT.match(body, start)
    return opening.group(1).strip() if opening is not None else ""


def opening_heading_key(body: str, name_keys: Sequence[str] = ()) -> str:
    """The name key (:func:`name_key`) of the heading that opens ``body`` (:func:`opening_heading`)
    when it is none of the note's ``name_keys``; ``""`` else. What a "no note matches" error
    suggests a part of (a Zettelkasten note ``202301161000.md`` opening with ``# Interleaving
    mixes problem types``, asked for by ``interleaving``), and what finds the notes answering to a
    name by their heading among the others (resolution.also_answering)."""
    key = name_key(opening_heading(body))
    return key if key not in name_keys else ""


def name_key(text: str) -> str:
    """A name or a query as they are compared for an exact-name match: :func:`name_form`,
    case folded, white space collapsed, punctuation
    around it stripped (``"Kevin Kelly?"`` and ``[[Kevin Kelly]]`` are ``kevin kelly``) —
    except a closing ``#``, which names a language (``C#`` is not ``C``). ``""``: no name.
    Latin letters lose their accents and the Turkish dotless ``ı`` is ``i``, as the full text
    holds them (``remove_diacritics``, cjk.fts_form): ``Kadikoy`` and ``Munchen``, typed
    without those keys, name ``Kadıköy`` and ``München``; ``ё`` is ``е`` (``елка`` names ``Ёлка``); traditional Chinese characters are simplified (cjk.han_folded: ``經期`` names ``经期``). Full-width forms are their ASCII
    ones (NFKC): a Chinese keyboard types ``：`` and ``（``, in English mode ``:`` and ``(``, so
    ``見字如晤:中秋書`` and ``靠墙收下巴(Chin Tuck)`` name the notes spelled with the full-width
    marks (a trial on a Chinese vault). Direction marks are dropped and the zero-width non-joiner
    is a space (``‏فهرست کتاب‌های`` is named by ``فهرست کتاب های``). A typographic apostrophe is the typed one (``’``, ``‘``,
    ``ʼ`` are ``'``), as are curly double quotes (``“ ”`` are ``"``): an editor's smart quotes
    write ``Vel’Sharoon``, a keyboard types ``Vel'Sharoon`` (a trial on a campaign vault)."""
    if text.isascii():  # most names: every fold below leaves ASCII as it is, but lower case (10,000 notes: 2 s less)
        folded = " ".join(text.lower().split())
    else:
        folded = " ".join(marks_folded(arabic_folded(han_folded(latin_unmarked(unicodedata.normalize("NFKC", text).casefold()))))
                          .replace("ı", "i").replace("ё", "е").translate(_TYPED_QUOTES).translate(_UNTYPED_MARKS).split())
    start, end = 0, len(folded)
    while start < end and _is_edge(folded[start]):
        start += 1
    while end > start and _is_edge(folded[end - 1]) and folded[end - 1] != "#":
        end -= 1
    return folded[start:end]


# The Greek letters a math note is named with (`λ-system.md`, `σ-algebra.md`), by the names a
# keyboard without them types: "what is a pi-system" (a trial on a math vault: the π-system
# note came 2nd at 0.11, after a theorem that writes `$\pi$-system` five times, at 0.91).
GREEK_LETTERS = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε", "zeta": "ζ",
    "eta": "η", "theta": "θ", "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ",
    "omicron": "ο", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "upsilon": "υ", "phi": "φ", "varphi": "φ",
    "chi": "χ", "psi": "ψ", "omega": "ω",
}
_GREEK_NAME = re.compile(r"(?<!\w)(" + "|".join(sorted(GREEK_LETTERS, key=len, reverse=True)) + r")(?!\w)")
_LONE_GREEK_BEFORE_WORD = re.compile(r"(?<!\w)([α-ω]) (?=\w)")


def greek_spellings(key: str) -> list[str]:
    """``key`` (a name or topic key: case folded) with the names of Greek letters written as the
    letters — as typed (``lambda system`` is ``λ system``), and with a lone letter joined to the
    next word by ``-`` as math names write it (``λ-system``). ``[]`` when it names no letter."""
    if _GREEK_NAME.search(key) is None:
        return []
    lettered = _GREEK_NAME.sub(lambda match: GREEK_LETTERS[match.group(1)], key)
    return list(dict.fromkeys([lettered, _LONE_GREEK_BEFORE_WORD.sub(r"\1-", lettered)]))


def topic_key(text: str) -> str:
    """A name or a query without its stopwords, as a question that only names a note is
    compared with the note's names: ``"Who is Kevin Kelly?"`` and ``Kevin Kelly`` are both
    ``kevin kelly``, ``"what are tags"`` is ``tags``. Each word is :func:`name_key`'s, so
    ``C#``, ``C++`` and ``C`` stay three names; a word's possessive ``'s`` and a stopword
    (``who's`` is ``who``) drop out. ``""``: nothing but stopwords."""
    words = (_POSSESSIVE_END.sub("", name_key(word)) for word in name_key(text).split())
    return " ".join(word for word in words if word and word not in STOPWORDS)


def query_topics(query: str) -> tuple[str, ...]:
    """The topic keys a query may name a note by, longest first: its :func:`topic_key`, then
    the same with each longer run of :data:`REQUEST_WORDS` it starts with dropped (``"tell me
    about Kevin Kelly"`` is ``tell kevin kelly``, then ``kevin kelly``). A query of request
    words alone keeps its whole key: ``show me my notes`` does not name a note called ``Notes``
    (nor ``tell me about show notes`` one called ``Show Notes``: which words are the request
    is not a rule of words)."""
    words = topic_key(query).split()
    lead = next((at for at, word in enumerate(words) if word not in REQUEST_WORDS), len(words))
    if lead == len(words):  # nothing but request words ("show me my notes"): no note is asked for by one of them
        return (" ".join(words),) if words else ()
    return tuple(" ".join(words[start:]) for start in range(lead + 1))


def person_asked(query: str) -> str:
    """The name a "who is …" question asks for (``"who is Steph?"`` is ``steph``): the one or
    two words after the question word and its verb (``is``, ``was``, ``'s``; ``who called``
    asks for no name). ``""`` when the query is no such question,
    or asks for a role: "who is our plumber" holds a word no name holds (a stopword), and lifted
    a note titled "Plumber invoice from March …" (a review). A person is often asked for by a
    first name while their note bears the whole name (search: the name bonus for the one note
    whose name starts so, :func:`starts_person_name`)."""
    words = name_key(query).split()
    if not words or _POSSESSIVE_END.sub("", words[0]) not in WHO_WORDS:
        return ""
    contracted = words[0] != _POSSESSIVE_END.sub("", words[0]) or words[0] == "whos"  # "who's Kevin"
    if not contracted and (len(words) < 3 or words[1] not in COPULAS):  # "who called", "who knows": no name
        return ""
    rest = words[1:] if contracted else words[2:]
    if not rest:
        return ""
    if len(rest) > 2 or any(word in STOPWORDS for word in rest):
        return ""
    return " ".join(rest)


def starts_person_name(name_topic_key: str, first_words: str) -> bool:
    """Is a note's name (its topic key) ``first_words`` and then at most two more words, as a
    person's name is (``steph ango`` for ``steph``; not ``steph``, ``stephen king``, nor
    ``plumber invoice from march was paid`` for ``plumber``)?"""
    if not name_topic_key.startswith(f"{first_words} "):
        return False
    return len(name_topic_key.split()) - len(first_words.split()) <= MAX_NAME_WORDS_AFTER


def name_topic(name_key_text: str) -> str:
    """A note name's topic key, kept only when dropping the stopwords leaves most of the name:
    at least half of its words, and more than one word unless the name is one word — ``Out of
    Control`` is not the topic ``control``, nor ``The Office`` the topic ``office``, which any
    question about an office would name."""
    topic = topic_key(name_key_text)
    kept, words = len(topic.split()), len(name_key_text.split())
    return topic if topic and 2 * kept >= words and (kept > 1 or words == 1) else ""


def _is_edge(character: str) -> bool:
    """Punctuation or white space: what surrounds a name in a typed query, not part of it."""
    return character.isspace() or unicodedata.category(character).startswith("P")


def property_texts(meta: Mapping[str, Any], name_key: str | None = "title") -> Iterator[tuple[str, str]]:
    """(key, text) of every property a person may search by, in frontmatter order. The one that
    names the note (``name_key``: notes.naming_key) is its title, searched as such; a ``title``
    that does not name it (a person's job: ``title: Partner``) is a property like any other."""
    for key, value in meta.items():
        kept_title = key == "title" and name_key != "title"
        if key == name_key or (key.lower() in BOOKKEEPING_KEYS and not kept_title) or is_plugin_setting(key) \
                or isinstance(value, (bool, datetime, date)):
            continue
        texts = string_values(value)
        if texts:
            yield key, ", ".join(texts)


def string_values(value: Any) -> list[str]:
    """A property's text: strings, and strings inside lists; links become their text, URLs drop out.
    A mapping is one text, its strings joined: a paper's authors as a reference manager (CSL)
    writes them, ``- {family: Higgins, given: Irina}``, are "Higgins Irina" — without it "papers
    by Higgins" found the note by its vector alone (a trial with a researcher's vault)."""
    if isinstance(value, str):
        text = link_text(value).strip()
        return [text] if text and not _URL.match(text) else []
    if isinstance(value, list):
        return [text for item in value for text in string_values(item)]
    if isinstance(value, Mapping):
        joined = " ".join(text for item in value.values() for text in string_values(item))
        return [joined] if joined else []
    return []


def link_text(value: str) -> str:
    """``[[Target|Alias]]`` → ``Alias``; ``[[Folder/Target#Part]]`` → ``Target``."""
    return _LINK.sub(lambda match: match.group(2) or PurePosixPath(match.group(1)).name, value)
