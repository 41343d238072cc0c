"""Rules that only appear when board-game sets meet (review mix30): a mix's data and modules, checked on positions of
the real mixes (engine/mixes, engine/prison/data/mixed.json)."""

from __future__ import annotations

import pytest

from dungeon_twister.engine import IllegalAction, parse_position

from .builders import apply_texts

# prison_paladins' team of seed 1 is in play; the rest of both pools is in the box (DT-109's random mix)
PRISON_PALADINS_UNUSED = " ".join(
    f"{colour}{code}>unused" for colour in "by"
    for code in ("AS", "BS", "BW", "CL", "DS", "ES", "FH", "GH", "IL", "KY2", "LN", "PA", "RG", "TP"))


def prison_paladins(tokens: str, ports: str = "-"):
    """A main-phase position of the mix of Prison and Paladins & Dragons (no base-set character in it), every
    room revealed; room A1 is Prison's 40D, whose portcullis lies between c3 and d3."""
    return parse_position(
        "DT1 prison_paladins vp=5 ; rooms A1=40D/0 B1=40G/0 A2=39D/0 B2=39G/0 A3=44D/0 B3=44G/0 A4=41D/0 B4=41G/0 ; "
        f"ports {ports} ; tokens {tokens} {PRISON_PALADINS_UNUSED} ; cards B:2345/-/012233456/3 "
        "Y:2345/-/012233456/3 ; turn 5 B main ap=5 high=5 four=1 first=B placer=- combats=0")


@pytest.mark.parametrize("tokens, ports, action, rule", [
    ("bMK@c3 yNG@j1", "-", "open bMK e", "PR-OBJ-KEY-01"),
    ("bMK@c3 yNG@j1", "40D=o", "close bMK e", "PR-OBJ-KEY-02"),
    ("bCO@c3 yNG@j1", "40D=b", "break bCO e", "PR-CHAR-COLOSSUS-02"),
    ("bMK@c3 bKY@c3 yNG@j1", "40D=b", "close bMK e", "PR-CHAR-COLOSSUS-02"),
])
def test_PR_OBJ_KEY_01_02_PR_CHAR_COLOSSUS_02_DT_104_prison_and_paladins_cite_no_base_set_character(
        tokens, ports, action, rule):
    """DT-104: a portcullis refusal of a figure without the ability cites its set's rule. The mix of Prison and
    Paladins & Dragons has no Thief and no Warrior; it cited BG-CHAR-THIEF-04 and BG-CHAR-WARRIOR-02 (the base
    set's), where Prison alone cites its Key and its Colossus: {DE} « Eine Figur, die einen Schlüssel trägt, kann
    ein angrenzendes Fallgitter für 1AP öffnen », « Ein zerstörtes Fallgitter kann niemals repariert werden »."""
    state = prison_paladins(tokens, ports)
    with pytest.raises(IllegalAction) as refused:
        apply_texts(state, action)
    assert refused.value.rule == rule


def test_PR_OBJ_KEY_01_PD_OBJ_KEY_01_edge_the_key_still_opens_and_closes_in_the_mix():
    state, _ = apply_texts(prison_paladins("bMK@c3 bKY@c3 yNG@j1"), "open bMK e")
    assert state.portcullis["40D"] == "o"
    state, _ = apply_texts(state, "close bMK e")
    assert state.portcullis["40D"] == "c"
