"""Embedders: one method to implement, the base class does batching and normalization.

The default is WordLlama, whose weights and tokenizer ship inside the ``wordllama``
wheel. It is loaded from the installed package directory with downloads disabled:
nothing is ever fetched at run time. Heavy imports happen only when a vector is
actually needed, so ``vaultmem search`` in a fresh process stays fast.
"""

from __future__ import annotations

import hashlib
import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .config import CONFIG_FILE, DEFAULT_HASHING_DIMENSION, check_embedder_name, parse_embedder

if TYPE_CHECKING:
    from tokenizers import Encoding

BATCH_SIZE = 256
# Memory is bounded whatever a note's size: a model pads every text of a batch to the
# longest one (WordLlama: 1 KiB per token per text), so a 4.8 MB note took 11.7 GB. Only
# the first MAX_EMBED_CHARS of a text are embedded — the full-text side indexes every
# word — and texts are batched by length so a batch holds at most BATCH_CHARS of padded text.
MAX_EMBED_CHARS = 16_000
BATCH_CHARS = 128_000
# WordLlama sums a batch's token vectors (1 KiB each) this many padded tokens at a time: a
# batch of 128,000 characters of Russian, Persian or CJK is 150,000 tokens or more, whose
# vectors took 146 MB, twice over, at once (a 1,405-note vault peaked at 495 MB RSS).
SUM_TOKENS = 16_384


class Embedder(ABC):
    """Turns texts into L2-normalized float32 rows. Subclasses implement ``embed_batch``.

    An embedder whose vector of a text is the mean of its tokens' vectors (WordLlama, the
    hashing embedder) also implements ``sum_batch``: then the vector of a text made of
    pieces is the sum of the pieces' sums, and one pass over a note's passages gives both
    the passages' vectors and the whole note's (adr/0010).
    """

    name: str
    dimension: int
    # The calibration of a hit's score (search.py, ranking.probability): P(the hit is what was
    # asked for) = 1 / (1 + exp(a - b * fused + c * unheld)), unheld the share of the query's
    # words no note of the vault holds; fitted with WordLlama on four sets and questions written
    # for other vaults (benchmarks/calibrate.py); another embedder keeps this fit unless it
    # brings its own.
    score_calibration: tuple[float, float, float] = (5.541, 1.335, 2.405)
    # The length prior (adr/0004): a passage's vector is scaled by n / sqrt(n² + β²), n the
    # norm of its tokens' summed vectors, so a few generic words ("I'm crying just hearing
    # about it") no longer outrank by chance the longer passage that says what was asked.
    # Only an additive embedder has the sum to measure; None: no prior. Changing β changes
    # every passage vector: bump searchable.EMBED_RECIPE with it (tests/test_embedders.py holds the pairs).
    length_prior: float | None = None
    # The spread of a passage's score over a query's passages where many compete, in the
    # vector side's units: a note is lowered by this × what its number of passages scores by
    # chance (ranking.for_many_passages), so a book pasted into one note does not rank by its
    # length. None: no such correction (an embedder nobody measured).
    chance_spread: float | None = None
    # The meaning side's score (a note's, ranking.py) below which a note is no nearer a query
    # than unrelated notes get: a first hit under it that holds little of the query's words is
    # not read as an answer (confidence.py, rule 6). None: not measured for this embedder, and
    # that rule does not apply.
    meaning_floor: float | None = None

    @abstractmethod
    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        """Raw (not necessarily normalized) vectors for one batch of texts."""

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One normalized row per text, in the order given (each text cut to MAX_EMBED_CHARS)."""
        clipped = [text[:MAX_EMBED_CHARS] for text in texts]
        matrix = np.zeros((len(clipped), self.dimension), dtype=np.float32)
        for batch in length_batches([len(text) for text in clipped]):
            matrix[batch] = np.asarray(self.embed_batch([clipped[index] for index in batch]), dtype=np.float32)
        return normalize_rows(matrix)

    @property
    def identity(self) -> str:
        """Stored next to the vectors: a different identity means re-embed everything."""
        return f"{self.name}:{self.dimension}"

    @property
    def additive(self) -> bool:
        """Does :meth:`sums` work (the vector of a text is the mean of its tokens')?"""
        return type(self).sum_batch is not Embedder.sum_batch

    def sum_batch(self, texts: Sequence[str], tails_from: Sequence[int]) -> TokenSums:
        """Token-vector sums of one batch: of each whole text, and of its tokens that start at or
        after character ``tails_from[i]`` (its tail)."""
        raise NotImplementedError(f"{self.name} is not a mean of token vectors")

    def sums(self, texts: Sequence[str], tails_from: Sequence[int] | None = None) -> TokenSums:
        """:meth:`sum_batch` over every text (each cut to MAX_EMBED_CHARS), batched by length as
        :meth:`embed` is. Normalised, a text's total is its vector; without ``tails_from`` the
        tails are empty."""
        clipped = [text[:MAX_EMBED_CHARS] for text in texts]
        starts = list(tails_from) if tails_from is not None else [len(text) + 1 for text in clipped]
        found = TokenSums.zeros(len(clipped), self.dimension)
        for batch in length_batches([len(text) for text in clipped]):
            found.put(batch, self.sum_batch([clipped[index] for index in batch], [starts[index] for index in batch]))
        return found


@dataclass
class TokenSums:
    """Sums of token vectors and token counts, per text: of the whole text and of its tail."""

    totals: np.ndarray
    counts: np.ndarray
    tail_totals: np.ndarray
    tail_counts: np.ndarray

    @classmethod
    def zeros(cls, rows: int, dimension: int) -> TokenSums:
        return cls(np.zeros((rows, dimension), dtype=np.float32), np.zeros(rows, dtype=np.float32),
                   np.zeros((rows, dimension), dtype=np.float32), np.zeros(rows, dtype=np.float32))

    def put(self, rows: list[int], batch: TokenSums) -> None:
        self.totals[rows], self.counts[rows] = batch.totals, batch.counts
        self.tail_totals[rows], self.tail_counts[rows] = batch.tail_totals, batch.tail_counts


def length_factors(totals: np.ndarray, prior: float | None) -> np.ndarray:
    """Per row of token-vector sums: ``n / sqrt(n² + prior²)``, n the row's norm (all 1 without a prior).

    Below 1 for every text, and lower the less there is of it: with WordLlama and β = 25, a
    ten-word remark (n ≈ 30) keeps 0.77 of its cosine, a two-sentence fact (n ≈ 70) 0.94, a
    paragraph 0.99 or more."""
    if prior is None:
        return np.ones(len(totals), dtype=np.float32)
    norms = np.linalg.norm(np.asarray(totals, dtype=np.float64), axis=1)
    return np.asarray(norms / np.sqrt(norms**2 + prior**2), dtype=np.float32)


def length_batches(lengths: Sequence[int], budget: int = BATCH_CHARS, most: int = BATCH_SIZE) -> list[list[int]]:
    """Indices grouped shortest first, each group's size × its longest length ≤ ``budget``
    (a text longer than the budget alone), at most ``most`` per group."""
    batches: list[list[int]] = []
    current: list[int] = []
    for index in sorted(range(len(lengths)), key=lambda item: lengths[item]):
        longest = max(lengths[index], 1)  # sorted: the newest member is the longest
        if current and ((len(current) + 1) * longest > budget or len(current) >= most):
            batches.append(current)
            current = []
        current.append(index)
    if current:
        batches.append(current)
    return batches


def normalize_rows(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    # A text with no known token embeds to zeros: keep it zero rather than NaN, so it
    # simply never matches anything by vector (BM25 can still find it).
    norms[norms == 0] = 1.0
    return np.ascontiguousarray(matrix / norms, dtype=np.float32)


class WordLlamaEmbedder(Embedder):
    """WordLlama ``l2_supercat`` at 256 dimensions, loaded from the installed wheel."""

    name = "wordllama-l2_supercat"
    dimension = 256
    length_prior = 25.0  # chosen on four sets (benchmarks/PASSAGES.md §7): inside the range (20–30) that costs no set anything
    # Measured: the median over 17 questions of the standard deviation of every passage's score,
    # kepano + three 2.4–4.2 MB notes (11,160 passages, 0.046–0.064); the five sets' own vaults
    # spread wider (0.08–0.10), so this lowers a long note less than their spread would (adr/0004).
    chance_spread = 0.055
    # An unrelated note's score for a question averages 0.008 with a spread of 0.070 (the medians
    # over the sample's and kepano's 148 questions, every note: PASSAGES.md §30): 0.2 is under
    # three spreads above that. Measured beside 0.165 and 0.218 (PASSAGES.md §35).
    meaning_floor = 0.2

    def __init__(self) -> None:
        import wordllama
        from wordllama import WordLlama

        package_dir = Path(wordllama.__file__).parent
        self._model = WordLlama.load(cache_dir=package_dir, disable_download=True, dim=self.dimension)

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        return np.asarray(self._model.embed(list(texts), norm=False, batch_size=64))

    def sum_batch(self, texts: Sequence[str], tails_from: Sequence[int]) -> TokenSums:
        # What WordLlama's embed() computes before it divides by the token count: the
        # tokens' vectors (no special tokens, no truncation) summed under the padding mask,
        # position by position, so the padding a batch adds changes no bit of a sum.
        encoded = self._model.tokenize(list(texts))
        width = len(encoded[0].ids) if encoded else 0  # every row padded to the batch's longest
        found = TokenSums.zeros(len(encoded), self.dimension)
        rows = max(1, SUM_TOKENS // max(width, 1))
        for first in range(0, len(encoded), rows):
            chosen = range(first, min(first + rows, len(encoded)))
            found.put(list(chosen), self._sum_rows([encoded[row] for row in chosen], [tails_from[row] for row in chosen]))
        return found

    def _sum_rows(self, encoded: Sequence[Encoding], tails_from: Sequence[int]) -> TokenSums:
        """:meth:`sum_batch` of a few of its rows, at the batch's padded width: the same
        products and sums in the same order as over the whole batch at once, bit for bit."""
        ids = np.asarray([item.ids for item in encoded], dtype=np.int64)
        mask = np.asarray([item.attention_mask for item in encoded], dtype=np.float32)
        starts = np.asarray([[start for start, _end in item.offsets] for item in encoded], dtype=np.int64)
        head = mask * (starts < np.asarray(tails_from, dtype=np.int64)[:, None])
        table = self._model.embedding
        np.clip(ids, 0, table.shape[0] - 1, out=ids)
        vectors = table[ids]  # a copy: masked in place (a head lies inside the mask, so masking first changes no head's sum)
        vectors *= mask[..., None]
        totals = vectors.sum(axis=1)
        # A head is the first few tokens (a title and heading path): summed over those only.
        width = int(head.sum(axis=1).max(initial=0))
        heads = (vectors[:, :width] * head[:, :width, None]).sum(axis=1)
        counts = mask.sum(axis=1)
        return TokenSums(totals, counts, totals - heads, counts - head.sum(axis=1))


class SentenceTransformerEmbedder(Embedder):
    """A sentence-transformers model from a local path (``pip install vaultmem[sentence-transformers]``)."""

    def __init__(self, model_dir: Path, spec: str) -> None:
        """``model_dir`` as :func:`make_embedder` resolved and checked it; ``spec`` as the
        config file writes it (the identity: the same setting on another machine is the same model)."""
        from sentence_transformers import SentenceTransformer

        self._model = SentenceTransformer(str(model_dir), local_files_only=True)
        self.dimension = int(self._model.get_sentence_embedding_dimension())
        self.name = "sentence-transformers"
        self._spec = spec

    @property
    def identity(self) -> str:
        return self._spec

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        return np.asarray(self._model.encode(list(texts), convert_to_numpy=True, normalize_embeddings=False))


class HashingEmbedder(Embedder):
    """Deterministic bag-of-words hashing embedder: no model, for tests and plumbing.

    Not a toy stand-in for search quality — it exists so the index's bookkeeping (which
    embedder made these vectors, re-embed on change) can be exercised cheaply.
    """

    def __init__(self, dimension: int = DEFAULT_HASHING_DIMENSION) -> None:
        self.dimension = dimension
        self.name = "hashing"

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        return self.sum_batch(texts, [len(text) for text in texts]).totals

    def sum_batch(self, texts: Sequence[str], tails_from: Sequence[int]) -> TokenSums:
        found = TokenSums.zeros(len(texts), self.dimension)
        for row, (text, tail_from) in enumerate(zip(texts, tails_from, strict=True)):
            for word in re.finditer(r"\w+", text.lower()):
                digest = hashlib.blake2b(word.group().encode(), digest_size=8).digest()
                column = int.from_bytes(digest[:4], "little") % self.dimension
                found.totals[row, column] += 1.0
                found.counts[row] += 1
                if word.start() >= tail_from:
                    found.tail_totals[row, column] += 1.0
                    found.tail_counts[row] += 1
        return found


def identity_for_spec(spec: str, vault_root: Path) -> str:
    """The identity an embedder made from ``spec`` will have — known without loading it (nor
    looking for its model: a reconcile that embeds nothing needs no model)."""
    parsed = parse_embedder(spec, vault_root / CONFIG_FILE)  # the one list of names (config.py, which check reads too)
    if parsed.kind == "wordllama":
        return f"{WordLlamaEmbedder.name}:{WordLlamaEmbedder.dimension}"
    if parsed.kind == "hashing":
        return f"hashing:{parsed.dimension}"
    return spec  # sentence-transformers:<model>


def make_embedder(spec: str, vault_root: Path) -> Embedder:
    """``wordllama`` (default), ``sentence-transformers:<dir>`` (relative: to ``vault_root``) or ``hashing[:N]``."""
    parsed = check_embedder_name(spec, vault_root)
    if parsed.kind == "wordllama":
        return WordLlamaEmbedder()
    if parsed.kind == "hashing":
        return HashingEmbedder(parsed.dimension or DEFAULT_HASHING_DIMENSION)
    return SentenceTransformerEmbedder(parsed.model_dir(vault_root), spec)
