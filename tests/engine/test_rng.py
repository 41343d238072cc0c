"""The seeded generator (engine/core/rng.py): SplitMix64, the same numbers on every Python and platform.

Every random draw of a game comes from it (`new_game(options, seed)`), and the property tests, the bots and the
benches pick their actions with `Rng.choice`: its draws are part of what a seed means, so they must never change."""

from __future__ import annotations

from dungeon_twister.engine.core.rng import Rng

_MASK = (1 << 64) - 1


def _reference(seed: int):
    """SplitMix64 as published (Steele, Lea, Flood 2014), one output at a time."""
    state = seed & _MASK
    while True:
        state = (state + 0x9E3779B97F4A7C15) & _MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        yield z ^ (z >> 31)


def _below(outputs, n: int) -> int:
    limit = (1 << 64) - ((1 << 64) % n)  # rejection sampling: no modulo bias
    while True:
        value = next(outputs)
        if value < limit:
            return value % n


def test_splitmix64_outputs_are_the_published_ones():
    """The first outputs of seed 0 (the algorithm's reference values) and of a few other seeds."""
    rng = Rng(0)
    assert [rng.next_u64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    for seed in (1, 2**63, -7):
        outputs, rng = _reference(seed), Rng(seed)
        assert [rng.next_u64() for _ in range(50)] == [next(outputs) for _ in range(50)]


def test_below_and_choice_draw_as_rejection_sampling_of_the_outputs():
    """`below(n)` and `choice(items)` (`items[below(len(items))]`) take outputs until one falls under the largest
    multiple of n, then its remainder; each rejected output is used up. With n = 3 * 2**62 a quarter of the outputs
    are rejected, so the rejection path is walked; the draws of both interleaved stay in step with the reference."""
    for seed in (0, 3, 12345678901234567890):
        outputs, rng = _reference(seed), Rng(seed)
        for i in range(3000):
            n = (1, 2, 7, 53, 3 * 2**62, 2**64 - 1, 2**63 + 1)[i % 7]
            if i % 2:
                items = range(n) if n < 2**62 else range(2**62 - 1) if n < 2**63 else None
                if items is None:
                    assert rng.below(n) == _below(outputs, n)
                else:
                    assert rng.choice(items) == items[_below(outputs, len(items))]
            else:
                assert rng.below(n) == _below(outputs, n)
        assert rng.next_u64() == next(outputs)


def test_an_empty_choice_is_refused():
    """Nothing to choose from: ValueError, as `below(0)`, and no output is used up."""
    rng = Rng(9)
    for call in (lambda: rng.choice([]), lambda: rng.below(0), lambda: rng.below(-1)):
        try:
            call()
        except ValueError as error:
            assert str(error) == "n must be positive"
        else:
            raise AssertionError("no ValueError")
    assert rng.next_u64() == Rng(9).next_u64()
