"""The server commits to each game's seed before the first action and reveals it after the end (docs/protocol.md
section 16); the client checks the deal against it (client/fairness.py)."""

from pathlib import Path

from dungeon_twister.client.fairness import check_deal
from dungeon_twister.engine import Options, new_game, view
from dungeon_twister.protocol import TableOptions, seed_commitment, verify_seed

from test_server_prison import play_out
from test_server_support import running_server, seated_pair

VECTOR = ("t1-3806f2f8", 4, bytes(range(32)), "9ae35c9ff03af4c20719bad1222fb0d31b0c719653327ab665176d4fe0f6a600")
"""The test vector of docs/protocol.md section 16: table id, seed, nonce (bytes 0..31), commitment."""


def test_the_seed_commitment_test_vector():
    table, seed, nonce, expected = VECTOR
    assert seed_commitment(table, seed, nonce).hex() == expected
    assert verify_seed(bytes.fromhex(expected), table, seed, nonce)
    assert not verify_seed(bytes.fromhex(expected), table, seed + 1, nonce)
    assert not verify_seed(bytes.fromhex(expected), "t2-3806f2f8", seed, nonce), "bound to its table"
    assert expected in (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")


async def test_the_seed_is_committed_before_the_game_and_revealed_after_it(autojump_clock):
    """PR-SCEN-1 seed 4 (38 actions, test_server_prison): every view carries the same commitment; no view before
    the end carries the seed; the last ones reveal seed 4 and its nonce, which open the commitment, and the client's
    check of the deal passes."""
    async with running_server(seeds=(4,)) as server:
        table, blue, yellow = await seated_pair(server, TableOptions(scenario="prison-1"))
        await play_out(table, blue, yellow)
    views = [e.event["view"] for e in blue.received if getattr(e, "event", {}).get("kind") == "view"]
    commitments = {v["table"]["seed_commitment"] for v in views}
    assert len(commitments) == 1
    before_end = [v for v in views if not v.get("outcome")]
    assert before_end and all("seed" not in v["table"] and "seed_nonce" not in v["table"] for v in before_end)
    last = views[-1]["table"]
    assert last["seed"] == 4
    assert verify_seed(bytes.fromhex(last["seed_commitment"]), table, 4, bytes.fromhex(last["seed_nonce"]))
    fair, text = check_deal(views[-1])
    assert fair and text.startswith("fair deal: the seed 4 opens the server's commitment")


def dealt_view(seed: int, nonce: bytes, revealed: tuple[str, ...], table: str = "t-1") -> dict:
    """The spectators' view of a base game dealt from `seed`, with some rooms shown revealed, and the table entry
    of a game over: commitment, seed, nonce."""
    state = new_game(Options(), seed)
    out = view(state, None)
    tiles = {f"{'AB'[p.slot[0]]}{p.slot[1] + 1}": p.tile for p in state.rooms}
    out["rooms"] = [{**room, "revealed": room["slot"] in revealed, "tile": tiles[room["slot"]]
                     if room["slot"] in revealed else None} for room in out["rooms"]]
    out["table"] = {"id": table, "seed_commitment": seed_commitment(table, seed, nonce).hex(), "seed": seed,
                    "seed_nonce": nonce.hex()}
    return out


def test_the_client_alerts_on_a_seed_that_does_not_open_the_commitment_or_a_room_dealt_elsewhere():
    nonce = bytes(32)
    good = dealt_view(7, nonce, ("A1", "B3"))
    assert check_deal(good) == (True, "fair deal: the seed 7 opens the server's commitment made before the game, "
                                      "and every room revealed (2) lies where it dealt it")
    lying = {**good, "table": {**good["table"], "seed": 8}}
    fair, text = check_deal(lying)
    assert not fair and text.startswith("FAIR-PLAY ALERT: the seed the server revealed (8) does not open")
    swapped = {**good, "rooms": [dict(room) for room in good["rooms"]]}
    a1 = next(room for room in swapped["rooms"] if room["slot"] == "A1")
    b3 = next(room for room in swapped["rooms"] if room["slot"] == "B3")
    a1["tile"], b3["tile"] = b3["tile"], a1["tile"]
    fair, text = check_deal(swapped)
    assert not fair and text.startswith("FAIR-PLAY ALERT: rooms A1, B3 are not where the revealed seed deals them")
    assert check_deal(view(new_game(Options(), 7), None) | {"table": {"id": "t-1"}}) is None, "nothing to check"
