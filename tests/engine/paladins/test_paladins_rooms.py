"""Paladins & Dragons rooms 41-44: original designs of this project (docs/paladins-rooms.md,
engine/paladins/data/paladins.json), checked like Prison's (tests/engine/test_prison_rooms.py): the drawings are the
data; every room is one piece with the terrain a walker may not cross blocking; every terrain kind is present and each
terrain square touches a square a walker reaches (PD-COMP-01, PD-TERR, PD-GLOS-03)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dungeon_twister.engine import Options, new_game
from dungeon_twister.engine.boardgame.catalogue import TERRAIN_KINDS, load

from ..roomgraph import (BLOCKING, DELTA, TERRAIN, Placed, draw, edge, parse_document, parse_drawing, reach,
                         room_report, side_centres_connected, square)

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "paladins-rooms.md"
RAW = json.loads((ROOT / "engine" / "paladins" / "data" / "paladins.json").read_text())
ROOMS = RAW["rooms"]


def test_PD_COMP_01_eight_rooms_in_four_pairs_marked_as_original_designs():
    assert list(ROOMS) == ["41G", "41D", "42G", "42D", "43G", "43D", "44G", "44D"]
    for tile, room in ROOMS.items():
        assert room["number"] == int(tile[:2])
        assert room["arrow"] == ("counter-clockwise" if tile.endswith("G") else "clockwise")
    assert "original design" in RAW["source"].lower() and "not the published" in RAW["source"].lower()


def test_the_drawings_in_docs_paladins_rooms_md_are_the_data():
    assert parse_document(DOC.read_text()) == ROOMS
    for tile, room in ROOMS.items():
        assert parse_drawing(draw(tile, room)) == (tile, room)


def test_the_terrain_letters_are_the_catalogues_kinds_and_the_engine_loads_them():
    """Each letter of the document names a kind the catalogue knows; the engine's tiles hold the same squares."""
    assert set(TERRAIN.values()) == set(TERRAIN_KINDS)
    cat = load("paladins")
    for tile, room in ROOMS.items():
        for kind in TERRAIN_KINDS:
            assert cat.rooms[tile].terrain.get(kind, frozenset()) == frozenset(square(s) for s in room.get(kind, ()))


@pytest.mark.parametrize("tile", list(ROOMS))
def test_every_room_is_one_piece_with_its_terrain_blocking(tile):
    """Walls, closed portcullises, pits, Rockfall, crevasses, 3D obstacles and fountains all blocking: every opening
    reaches every other, the gear is reached, no floor square is sealed, and the four side middles are open and
    joined (so every arrangement connects the start zones)."""
    room = ROOMS[tile]
    report = room_report(room)
    assert report["opening_components"] == 1 and report["sealed"] == [] and report["gear_reached"]
    assert side_centres_connected(room)


@pytest.mark.parametrize("tile", list(ROOMS))
def test_terrain_lies_off_the_gear_and_portcullises_and_each_square_can_matter(tile):
    """No terrain on the gear, on a pit or on a portcullis's square; each terrain square touches (across no wall) a
    square a walker reaches inside the room, so it can be crossed, stood beside or looked through."""
    room = ROOMS[tile]
    terrain = {s for kind in TERRAIN_KINDS for s in room.get(kind, ())}
    assert room["rotation"] not in terrain and not terrain & set(room["pits"])
    for text in room["portcullises"]:
        assert not set(text.split("-")) & terrain, text
    placed = Placed(room, 0, 0, 0)
    nodes = placed.squares - placed.pits
    nbrs = {sq: [o for dx, dy in DELTA.values() if (o := (sq[0] + dx, sq[1] + dy)) in nodes
                 and edge(sq, o) not in placed.blocked] for sq in nodes}
    reached = reach(nbrs, next(iter(sorted(nodes))))
    for kind in TERRAIN_KINDS:
        for text in room.get(kind, ()):
            r, c = square(text)
            here = (c, 4 - r)  # Placed's global coordinates at orientation 0: x = column, y up from row 5
            touching = [o for dx, dy in DELTA.values() if (o := (here[0] + dx, here[1] + dy)) in reached
                        and edge(here, o) not in placed.blocked]
            assert touching, f"{tile} {kind} {text} touches no square a walker reaches"


def test_each_terrain_kind_appears_and_the_pentacle_has_4_squares():
    """PD-TERR: every kind is in some room; the Pentacle is 4 squares (PD-TERR-PENTACLE-01); blocking kinds are the
    ones the walker refuses to stop on or (unprotected) pass."""
    for kind in TERRAIN_KINDS:
        assert any(room.get(kind) for room in ROOMS.values()), kind
    assert [len(room["pentacle"]) for room in ROOMS.values() if room.get("pentacle")] == [4]
    assert set(BLOCKING) < set(TERRAIN_KINDS)


def test_PD_COMP_04_RUL_071_RUL_075_the_characters_objects_and_their_stats():
    cat = load("paladins")
    stats = {code: (c.name, c.move, c.combat) for code, c in cat.characters.items()}
    assert stats == {"RD": ("Red Dragon", 0, 6), "ES": ("Elf Scout", 7, 1), "GH": ("Ghost", 3, 0),
                     "GO": ("Golem", 2, 4), "IL": ("Illusionist", 4, 1), "PA": ("Paladin", 4, 3),
                     "PP": ("Pickpocket", 6, 2), "WM": ("Weapon Master", 3, 3)}
    assert [o.name for o in cat.objects.values()] == ["Ring of Teleportation", "Fire Shield", "Key", "Charm Scroll",
                                                      "Dragon-Slayer Sword", "Treasure"]
    assert cat.objects["TS"] == load("base_set").objects["TS"]  # the sixth object is the base set's Treasure


def test_PD_COMP_02_the_markers_one_golem_3_breaks_and_one_pit_and_one_rubble_a_colour():
    """6 broken-wall markers for two Golems of 3 breaks each (PD-CHAR-GOLEM-03); 2 illusion pits and 2 rubble: one of
    each per Illusionist (PD-CHAR-ILLUS-02)."""
    from dungeon_twister.engine.paladins import golem, illusionist

    assert 2 * golem.MAX_BREAKS == 6 and illusionist.KINDS == ("pit", "rubble")


def test_PD_TEAM_01_PD_COMP_03_RUL_070_a_paladins_game_uses_the_eight_rooms_its_team_and_the_base_decks():
    """PD-TEAM-01: 8 characters and 6 objects a player, 8 rooms; the base set's decks (RUL-070)."""
    state = new_game(Options(set_name="paladins"), seed=3)
    assert sorted(place.tile for place in state.rooms) == sorted(ROOMS)
    blue = [t for t in state.tokens.values() if t.colour == "B" and t.where == "screen"]
    assert sum(t.is_character for t in blue) == 8 and sum(not t.is_character for t in blue) == 6
    assert state.players["B"].combat == tuple(sorted(load("base_set").combat_cards))
