"""Embedders: bounded memory whatever the texts' sizes, the same vector whatever the batch."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vaultmem import UsageError, Vault
from vaultmem.embedders import BATCH_CHARS, BATCH_SIZE, MAX_EMBED_CHARS, HashingEmbedder, length_batches


class RecordingEmbedder(HashingEmbedder):
    """The hashing embedder, recording the batches the base class hands it."""

    def __init__(self) -> None:
        super().__init__(32)
        self.batches: list[list[int]] = []

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        self.batches.append([len(text) for text in texts])
        return super().embed_batch(texts)


@given(st.lists(st.integers(min_value=0, max_value=3 * BATCH_CHARS), max_size=400))
def test_length_batches_cover_every_text_once_within_the_padding_budget(lengths: list[int]) -> None:
    batches = length_batches(lengths)
    assert sorted(index for batch in batches for index in batch) == list(range(len(lengths)))
    for batch in batches:
        assert len(batch) <= BATCH_SIZE
        assert len(batch) == 1 or len(batch) * max(lengths[index] for index in batch) <= BATCH_CHARS


def test_no_batch_holds_more_padded_text_than_the_budget_whatever_the_notes() -> None:
    embedder = RecordingEmbedder()
    texts = ["short note"] * 300 + ["x " * 10 * MAX_EMBED_CHARS] * 20 + ["a medium note " * 200] * 50
    embedder.embed(texts)
    assert all(len(batch) * max(batch) <= max(BATCH_CHARS, MAX_EMBED_CHARS) for batch in embedder.batches)
    assert max(max(batch) for batch in embedder.batches) == MAX_EMBED_CHARS  # a 200 KB text reaches the model cut


def test_rows_come_back_in_the_order_given_and_a_long_text_embeds_as_its_first_part() -> None:
    embedder = HashingEmbedder(64)
    long_text = "alpha beta " * MAX_EMBED_CHARS + "omega"
    texts = ["gamma delta", long_text, "epsilon", long_text[:MAX_EMBED_CHARS]]
    together = embedder.embed(texts)
    alone = np.vstack([embedder.embed([text]) for text in texts])
    assert np.array_equal(together, alone)
    assert np.array_equal(together[1], together[3])


@pytest.mark.parametrize("count", [1, 7, 70])
def test_wordllama_gives_each_text_the_same_vector_in_any_batch(wordllama: object, count: int) -> None:
    texts = [f"note {number}: " + "oat milk in coffee " * (number % 9 + 1) for number in range(count)]
    together = wordllama.embed(texts)  # type: ignore[attr-defined]
    alone = np.vstack([wordllama.embed([text]) for text in texts])  # type: ignore[attr-defined]
    assert np.allclose(together, alone, atol=1e-6)


# Every embed recipe shipped, with the length prior its vectors were made under. The prior
# scales every passage vector, but an index notices a new recipe only by EMBED_RECIPE: a
# change of β without a new recipe would leave old vectors beside new ones, silently.
# The factors pin the formula too: norms 30 and 70 (a ten-word remark, a two-sentence fact).
RECIPES_AND_PRIORS = {"passages-1000-pack/head+aliases+props/length-prior/3": (25.0, (0.7682, 0.9417)),
                      "passages-1000-pack/head+aliases+props/length-prior/link-sites/4": (25.0, (0.7682, 0.9417)),
                      "passages-1000-pack/head+aliases+props/length-prior/link-sites/math-words/5": (25.0, (0.7682, 0.9417)),
                      "passages-1000-pack/head+aliases+props/length-prior/link-sites/math-words/no-terminal-codes/6":
                          (25.0, (0.7682, 0.9417)),
                      "passages-1000-pack/head+aliases+props/length-prior/link-sites/math-words/no-terminal-codes/no-html-tags/7":
                          (25.0, (0.7682, 0.9417)),
                      "passages-1000-pack/head+aliases+props/length-prior/link-sites/math-words/no-terminal-codes/no-html-tags/float16/8":
                          (25.0, (0.7682, 0.9417))}


def test_a_change_of_the_length_prior_comes_with_a_new_embed_recipe() -> None:
    from vaultmem.embedders import WordLlamaEmbedder, length_factors
    from vaultmem.searchable import EMBED_RECIPE

    prior = WordLlamaEmbedder.length_prior
    factors = length_factors(np.array([[30.0, 0.0], [0.0, 70.0]]), prior)
    assert RECIPES_AND_PRIORS.get(EMBED_RECIPE) == (prior, tuple(round(float(factor), 4) for factor in factors)), (
        "WordLlama's length prior (its β or length_factors' formula) changed without a new searchable.EMBED_RECIPE "
        "(or the recipe changed): bump EMBED_RECIPE so existing indexes embed every note again, then add the pair "
        "to RECIPES_AND_PRIORS"
    )


def test_a_vault_given_an_embedder_by_name_says_how_to_give_one(vault_dir: Path) -> None:
    # A trial: Vault(path, embedder="hashing") was taken, and the first search failed deep in the
    # index with "'str' object has no attribute 'identity'".
    with pytest.raises(UsageError) as refused:
        Vault(vault_dir, embedder="hashing")  # type: ignore[arg-type]
    assert "embedder='hashing' is not an Embedder object" in str(refused.value)
    assert 'embedder = "hashing"' in str(refused.value)
    assert not (vault_dir / ".vaultmem").exists()


def test_wordllama_sums_a_batch_of_many_tokens_within_a_bounded_memory_and_to_the_same_bits(wordllama: object) -> None:
    import tracemalloc

    # 128 texts of 1,000 rare CJK characters: one batch of the budget's 128,000 characters, but
    # several tokens a character — its token vectors alone were 1 KiB each, all at once, twice over.
    texts = ["".join(chr(0x4E00 + (row * 1000 + column) * 7919 % 20_000) for column in range(1000)) for row in range(128)]
    tracemalloc.start()
    try:
        together = wordllama.sums(texts, [50] * len(texts))  # type: ignore[attr-defined]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20, f"summing one batch took {peak / 2**20:.0f} MiB"
    for row in (0, 63, 127):
        alone = wordllama.sums([texts[row]], [50])  # type: ignore[attr-defined]
        assert np.array_equal(together.totals[row], alone.totals[0])
        assert np.array_equal(together.tail_totals[row], alone.tail_totals[0])
