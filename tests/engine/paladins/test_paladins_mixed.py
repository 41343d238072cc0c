"""Where Prison's rules meet Paladins & Dragons' terrain, in a mixed game (DT-119): the synthetic rooms with terrain
(tests/engine/paladins/builders.py: an obstacle on d3, Rockfall on b18, fog on b17 and b16)."""

from __future__ import annotations

from ..builders import act, assert_refused, legal_set, where
from .builders import all_position


def test_PD_GLOS_03_the_banshee_pushes_nobody_onto_an_obstacle():
    state = all_position("bBS@d1 yGB@d2 yWA@h4")
    assert "push bBS yGB" not in legal_set(state, verb="push")
    assert_refused(state, "push bBS yGB", "PD-GLOS-03")


def test_PD_TERR_ROCKFALL_01_pushed_onto_rockfall_the_figure_dies():
    after = act(all_position("bBS@b20 yGB@b19 yWA@h4"), "push bBS yGB")
    assert where(after, "yGB") == "eliminated" and after.vp("B") == 1


def test_PD_TERR_FOG_01_RUL_089_the_lance_cannot_reach_into_fog():
    """The Colossus with the lance on b19: two squares south, over the empty Rockfall b18, the Goblin stands in the
    fog on b17: no lance attack (PD-TERR-FOG-01); one file east, with no fog, the same reach works."""
    state = all_position("bCO@b19 bLN@b19 yGB@b17 yWA@h4")
    assert "lance bCO yGB" not in legal_set(state, verb="lance")
    assert_refused(state, "lance bCO yGB", "PD-TERR-FOG-01")
    clear = all_position("bCO@c19 bLN@c19 yGB@c17 yWA@h4")
    assert "lance bCO yGB" in legal_set(clear, verb="lance")


def test_PD_CHAR_ILLUS_03_05_PR_CHAR_BANSHEE_01_the_illusionist_is_not_pushed_onto_his_own_illusion():
    """An illusion pit is a real pit for all but the Illusionist who made it, and he may not stop on it
    (PD-CHAR-ILLUS-05): the Banshee may not push him there (he fell and died, Blue scoring); another character
    pushed onto it falls, as onto any pit (PR-CHAR-BANSHEE-06)."""
    state = all_position("bBS@c2 yIL@c3 yWA@h4", ports="- ; marks illusion:Y:pit=c4")
    assert "push bBS yIL" not in legal_set(state, verb="push")
    assert_refused(state, "push bBS yIL", "PD-CHAR-ILLUS-05")
    other = act(all_position("bBS@c2 yGB@c3 yWA@h4", ports="- ; marks illusion:B:pit=c4"), "push bBS yGB")
    assert where(other, "yGB") == "eliminated"
