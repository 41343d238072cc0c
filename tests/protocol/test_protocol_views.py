"""Feature delta_views (docs/protocol.md section 14): deltas rebuild every view exactly, depend only on the two
views, the compact team choice stands for exactly the engine's list, and the connections negotiate the feature
and hand whole views to the application."""

from __future__ import annotations

import msgpack
import pytest
from dungeon_twister.engine import Handicap, Options, apply, format_action, legal_actions, new_game, view
from dungeon_twister.engine.core.rng import Rng
from dungeon_twister.protocol import (PlayerConnection, ProtocolError, Resume, ServerConnection, Snapshot, Software,
                                      TableEvent, Welcome)
from dungeon_twister.protocol.codec import pack_map
from dungeon_twister.protocol.msg_lobby import Joined
from dungeon_twister.protocol.views import (COMPACT_LEGAL, DELTA_VIEWS, PackedView, apply_view_delta,
                                            expand_prefixed_legal, expand_team_choice, prefixed_legal, team_choice)
from dungeon_twister.protocol.wire_types import Packed

SOFTWARE = Software("test", "0")


def views_of_a_game(seed: int, count: int, viewer):
    state, rng = new_game(Options(beginner=True), seed), Rng(seed)
    out = [view(state, viewer)]
    while len(out) < count and state.outcome is None:
        state, _ = apply(state, rng.choice(legal_actions(state, state.to_act[0])))
        out.append(view(state, viewer))
    return out


@pytest.mark.parametrize("viewer", ["B", "Y", None])
def test_each_delta_rebuilds_the_next_view_exactly(viewer):
    views = views_of_a_game(3, 120, viewer)
    held = views[0]
    sizes = []
    for before, after in zip(views, views[1:]):
        delta = PackedView.of(after).delta(PackedView.of(before))
        held = apply_view_delta(held, msgpack.unpackb(delta))
        assert held == after
        sizes.append((len(delta), len(PackedView.of(after).body())))
    assert sum(d for d, _ in sizes) < sum(w for _, w in sizes) / 2  # the point of it: much less to send


def test_a_packed_view_is_the_msgpack_of_the_view():
    for whole in views_of_a_game(5, 30, "B"):
        packed = PackedView.of(whole)
        assert packed.body() == msgpack.packb(whole)
        assert packed.size() == len(packed.body())  # (its keys' bytes counted once per sequence of keys)
        assert packed.event() == msgpack.packb({"kind": "view", "view": whole})


def test_identical_views_give_identical_deltas_and_an_unchanged_view_an_empty_one():
    first, second = views_of_a_game(9, 3, None)[1:]
    assert PackedView.of(second).delta(PackedView.of(first)) == PackedView.of(dict(second)).delta(
        PackedView.of(dict(first)))
    assert msgpack.unpackb(PackedView.of(first).delta(PackedView.of(first))) == {"kind": "view_delta", "set": {}}


def test_the_documented_example_delta():
    old = {"phase": "main", "ap": 3, "tokens": [{"id": "bTH", "square": "c4"}, {"id": "bWA", "square": "d5"},
                                                {"id": "yTR", "square": "e7"}], "legal": ["move bTH c5", "end"]}
    new = {"phase": "main", "ap": 2, "tokens": [{"id": "bTH", "square": "c5"}, {"id": "bWA", "square": "d5"},
                                                {"id": "yTR", "square": "e7"}], "legal": ["end"]}
    delta = PackedView.of(new).delta(PackedView.of(old))
    assert msgpack.unpackb(delta) == {"kind": "view_delta", "set": {"ap": 2, "legal": ["end"]},
                                      "tokens": [{"id": "bTH", "square": "c5"}, [1, 3]]}
    assert len(delta) == 66
    removed = PackedView.of({"phase": "main"}).delta(PackedView.of(old))
    assert apply_view_delta(old, msgpack.unpackb(removed)) == {"phase": "main"}


@pytest.mark.parametrize("bad", [{"kind": "view_delta"}, {"kind": "view_delta", "set": {}, "tokens": [[0, 9]]},
                                 {"kind": "view_delta", "set": {}, "tokens": [[1, 1]]},
                                 {"kind": "view_delta", "set": {}, "tokens": ["x"]},
                                 # a key that is no str: a TypeError that ended the client (red team rt25)
                                 {"kind": "view_delta", "set": {}, "unset": [["tokens"]]},
                                 {"kind": "view_delta", "set": {}, "unset": 5}])
def test_a_delta_that_does_not_fit_is_refused(bad):
    with pytest.raises(ValueError):
        apply_view_delta({"tokens": [{"id": "a"}]}, bad)


@pytest.mark.parametrize("options", [Options(), Options(handicap=Handicap("B", 6))])
def test_the_compact_team_choice_stands_for_exactly_the_engines_list(options):
    state = new_game(options, 7)
    texts = [format_action(action) for action in legal_actions(state, "B")]
    form = team_choice(texts)
    assert form is not None and expand_team_choice(form) == texts
    assert len(msgpack.packb(form)) < 100 < len(msgpack.packb(texts)) / 100
    assert team_choice(texts[:-1]) is None  # a list the form cannot give exactly is sent as it is


def test_a_packed_map_field_sends_the_bytes_of_the_map():
    event = {"kind": "hidden", "seat": "Y", "slot": "A2"}
    plain, packed = TableEvent("t-1", 3, event), TableEvent("t-1", 3, Packed(pack_map(event)))
    server = _at_table(ServerConnection(), features=())
    other = _at_table(ServerConnection(), features=())
    assert server.send(plain) == other.send(packed)


def _at_table(server: ServerConnection, features) -> ServerConnection:
    client = PlayerConnection(features=features)
    server.receive_data(client.send_hello("ann", SOFTWARE))
    assert server.next_event() is not None
    server.answer_hello(SOFTWARE, "s-1", (DELTA_VIEWS,))
    server.send(Joined("t-1", "token", "B"))
    return server


def _pair(client_features, server_features=(DELTA_VIEWS,)):
    client, server = PlayerConnection(features=client_features), ServerConnection()
    server.receive_data(client.send_hello("ann", SOFTWARE))
    server.next_event()
    client.receive_data(server.answer_hello(SOFTWARE, "s-1", server_features))
    welcome = client.next_event()
    client.receive_data(server.send(Joined("t-1", "token", "B")))
    client.next_event()
    return client, server, welcome


def test_the_feature_is_used_only_when_both_ends_name_it():
    client, server, welcome = _pair(())
    assert welcome == Welcome(1, SOFTWARE, "s-1") and client.features == server.features == frozenset()
    client, server, welcome = _pair((DELTA_VIEWS,), ())
    assert welcome.features is None and client.features == frozenset()
    client, server, welcome = _pair((DELTA_VIEWS, "some-future-feature"))
    assert welcome.features == (DELTA_VIEWS,) and client.features == server.features == {DELTA_VIEWS}


def test_the_client_connection_turns_deltas_into_whole_views_and_asks_for_a_snapshot_when_lost():
    client, server, _ = _pair((DELTA_VIEWS,))
    views = views_of_a_game(4, 4, "B")
    base = PackedView.of(views[0])
    client.receive_data(server.send(Snapshot("t-1", 1, Packed(base.body()))))
    assert client.next_event().view == views[0]
    for n, after in enumerate(views[1:3], start=2):
        packed = PackedView.of(after)
        client.receive_data(server.send(TableEvent("t-1", n, Packed(packed.delta(base)))))
        assert client.next_event().event == {"kind": "view", "view": after}
        base = packed
    wrong = PackedView.of(views[3]).delta(PackedView.of({"tokens": []}))
    client.receive_data(server.send(TableEvent("t-1", 4, {**msgpack.unpackb(wrong), "tokens": [[0, 99]]})))
    error = client.next_event()
    assert isinstance(error, ProtocolError) and error.code == "event_gap" and client.last_event == 3
    server.receive_data(client.send(Resume("t-1", client.last_event)))
    assert server.next_event() == Resume("t-1", 3, True)


def test_a_compact_team_choice_reaches_the_application_as_its_list():
    client, server, _ = _pair((DELTA_VIEWS,))
    state = new_game(Options(), 7)
    texts = [format_action(action) for action in legal_actions(state, "B")]
    whole = {**view(state, "B"), "legal": [], "team_choice": team_choice(texts)}
    client.receive_data(server.send(Snapshot("t-1", 1, whole)))
    assert client.next_event().view["legal"] == texts


def test_a_compact_form_standing_for_more_than_a_client_should_list_is_refused_not_listed():
    """Red team rt25: the compact forms are a server's, and they expanded without a bound: 11 squares and 11
    characters stood for 11! = 40 million team texts, front-coded items [k, "a"] (k = 0, 1, 2, ...) for texts one
    word longer each, whose 30,000 took 6 s and a frame of them hours; the client froze listing them. A team choice
    stands for MAX_TEAM_TEXTS texts at most (a real one for 10,080), a front-coded text is an action's length at most;
    beyond, the view reaches the application unexpanded, its legal list empty."""
    from dungeon_twister.protocol.views import MAX_TEAM_TEXTS

    nine = {"squares": [f"s{n}" for n in range(9)], "characters": [f"C{n}" for n in range(9)], "out": 0}  # 9!
    assert MAX_TEAM_TEXTS < 362_880
    for form in (nine, {**nine, "out": -1}, {**nine, "squares": 5}, {"squares": ["a"], "characters": ["b"], "out": 3}):
        with pytest.raises(ValueError):
            expand_team_choice(form)
    assert len(expand_team_choice({"squares": ["b0", "d0", "g0", "i0"], "characters": [f"C{n}" for n in range(8)],
                                   "out": 2})) == 1680 * 6  # a handicap's 10,080
    growing = [[0, "a"]] + [[k, "a"] for k in range(1, 400)]
    with pytest.raises(ValueError):
        expand_prefixed_legal(growing)
    assert len(expand_prefixed_legal(growing[:128])[-1]) == 255  # 128 words "a": an action's length, within it
    client, server, _ = _pair((DELTA_VIEWS, COMPACT_LEGAL))
    client.receive_data(server.send(Snapshot("t-1", 1, {"legal": [], "team_choice": nine})))
    assert client.next_event().view["legal"] == []
    client.receive_data(server.send(TableEvent("t-1", 2, {"kind": "view", "view": {"legal": [],
                                                                                 "legal_prefixed": growing}})))
    assert client.next_event().event["view"]["legal"] == []


# --- feature compact_legal: the front-coded legal list ------------------------------------------------------------
def _heaviest_card_texts() -> list[str]:
    """The legal texts of the heaviest card-game position known (5,773 actions, tests/engine/cards/data)."""
    import json
    from pathlib import Path

    from dungeon_twister.engine.cards.notation import parse_position
    from dungeon_twister.engine.cards.typed import legal_texts

    entry = json.loads((Path(__file__).parents[1] / "engine" / "cards" / "data" / "exchanges.json").read_text())[0]
    return legal_texts(parse_position(entry["position"]))


def test_the_front_coded_legal_list_stands_for_exactly_the_list_and_is_far_smaller():
    """docs/protocol.md section 14, feature compact_legal: each text as [k, rest], its first k words those of the
    text before. The card game's moves with exchanges (DT-206) share most of their words with the move before:
    the form is worth sending only if it is much smaller, here under a third of the list."""
    texts = _heaviest_card_texts()
    items = prefixed_legal(texts)
    assert expand_prefixed_legal(items) == texts
    assert items[0] == [0, "end"] and all(type(k) is int and type(rest) is str for k, rest in items)
    assert len(msgpack.packb(items)) * 3 < len(msgpack.packb(texts))


def test_the_front_coded_form_of_edge_cases():
    """A text that is the first words of the one before ([k, ""]), the same text twice (its last word written
    out), and what cannot be front-coded exactly (a double space, an empty text: the list goes as it is)."""
    texts = ["end", "move bMK a2 a1", "move bMK a2", "move bMK a2", "move bTH a2"]
    assert prefixed_legal(texts) == [[0, "end"], [0, "move bMK a2 a1"], [3, ""], [2, "a2"], [1, "bTH a2"]]
    assert expand_prefixed_legal(prefixed_legal(texts)) == texts
    assert prefixed_legal(["move  bMK a2"]) is None and prefixed_legal(["end", ""]) is None
    for bad in ([[1, "a2"]], [[0, ""]], [["0", "end"]], [[0, "end", 1]], ["end"]):
        with pytest.raises(ValueError):
            expand_prefixed_legal(bad)


def test_a_front_coded_list_reaches_the_application_as_its_list():
    client, server, _ = _pair((DELTA_VIEWS, COMPACT_LEGAL), (DELTA_VIEWS, COMPACT_LEGAL))
    assert client.features == frozenset({DELTA_VIEWS, COMPACT_LEGAL})
    texts = ["end", "move bMK a2", "move bMK a2 a1", "move bMK b1"]
    whole = {"phase": "main", "legal": [], "legal_prefixed": prefixed_legal(texts)}
    client.receive_data(server.send(Snapshot("t-1", 1, whole)))
    assert client.next_event().view["legal"] == texts
