"""The mix of the server's seed and the players' contributions (docs/protocol.md section 16, feature
seed_contributions): the implementation against the document's test vectors, which the document's own few lines
of hashlib compute."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from dungeon_twister.protocol.deal import DEAL_TAG, deal_input, deal_seed, is_contribution, make_contribution

DOC = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
SECTION = DOC[DOC.index("### Feature `seed_contributions`"):DOC.index("## 17.")]
A, F = bytes(range(32)).hex(), "ff" * 32
NAMED = {"A": A, "F": F, "none": ""}


def vectors() -> list[tuple[str, int, str, str, str, int]]:
    """(table, server seed, B's, Y's, digest hex, seed) of the document's table, and its extra vector."""
    rows = re.findall(r"^\| (A|F|none) \| (A|F|none) \| `([0-9a-f]{64})` \| (\d+) \|$", SECTION, re.M)
    out = [("t1-3806f2f8", 4, NAMED[b], NAMED[y], digest, int(seed)) for b, y, digest, seed in rows]
    extra = re.search(r"with table `t2-3806f2f8`, B = A, Y = F: `([0-9a-f]{64})`,\s+seed (\d+)", SECTION)
    out.append(("t2-3806f2f8", 4, A, F, extra.group(1), int(extra.group(2))))
    return out


def documented_mix():
    """The document's independent computation (its python block), run as it is written there."""
    code = re.search(r"```python\n(.*?)```", SECTION, re.S).group(1)
    namespace: dict = {}
    exec(code, namespace)  # noqa: S102 - our own document's example
    return namespace["mix"]


def test_the_document_has_five_vectors():
    assert len(vectors()) == 5


@pytest.mark.parametrize("vector", vectors(), ids=lambda v: f"{v[0]}-{v[2][:2] or '-'}-{v[3][:2] or '-'}")
def test_the_implementation_gives_the_documented_seed(vector):
    table, server_seed, blue, yellow, digest, seed = vector
    assert documented_mix()(table, server_seed, blue, yellow) == (digest, seed), "the document agrees with itself"
    assert deal_seed(table, server_seed, blue, yellow) == seed
    assert deal_input(table, server_seed, blue, yellow).startswith(len(DEAL_TAG).to_bytes(4, "big") + DEAL_TAG)


def test_the_mix_depends_on_every_part_and_on_the_seats_order():
    seeds = {deal_seed("t-1", 4, A, F), deal_seed("t-1", 5, A, F), deal_seed("t-2", 4, A, F),
             deal_seed("t-1", 4, F, A), deal_seed("t-1", 4, A, ""), deal_seed("t-1", 4, "", A)}
    assert len(seeds) == 6 and all(0 <= seed < 2 ** 63 for seed in seeds)


def test_a_contribution_is_64_lowercase_hex_digits():
    fresh = make_contribution()
    assert is_contribution(fresh) and fresh != make_contribution()
    for bad in ("", "0" * 63, "0" * 65, "A" * 64, "g" * 64):
        assert not is_contribution(bad)
        if bad:
            with pytest.raises(ValueError):
                deal_input("t-1", 4, bad, "")
