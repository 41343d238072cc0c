"""Commit-reveal: the byte layout, the server's round, the player's bookkeeping, and the messages."""

import hashlib
import struct

import pytest
from dungeon_twister.protocol import (
    DOMAIN_TAG,
    Commit,
    CommitRevealRound,
    OpponentCommit,
    OpponentReveal,
    PlayerCommitments,
    ProtocolError,
    Reveal,
    RevealMismatch,
    commitment,
    commitment_input,
    make_nonce,
    verify,
)
from protocol_fixtures import VECTORS, deliver, seated


@pytest.mark.parametrize(("inputs", "expected"), VECTORS)
def test_vectors(inputs, expected):
    assert commitment(*inputs).hex() == expected


@pytest.mark.parametrize(("inputs", "expected"), VECTORS)
def test_layout_is_length_prefixed_fields_in_order(inputs, expected):
    game_id, seat, purpose, choice, nonce = inputs
    parts = [b"dungeon-twister/commit/v1", game_id.encode(), seat.encode(), purpose.encode(), choice.encode(), nonce]
    data = b"".join(struct.pack(">I", len(part)) + part for part in parts)
    assert commitment_input(*inputs) == data
    assert hashlib.sha256(data).hexdigest() == expected


def test_lengths_count_utf8_bytes():
    data = commitment_input("é", "B", "team", "x", bytes(32))
    assert data[4 + len(DOMAIN_TAG) :][:6] == b"\x00\x00\x00\x02\xc3\xa9"


def test_every_field_is_bound():
    inputs = ("t-42", "B", "team", "team A", bytes(32))
    reference = commitment(*inputs)
    for i, other in enumerate(("t-43", "Y", "combat-1", "team B", b"\x01" * 32)):
        changed = list(inputs)
        changed[i] = other
        assert commitment(*changed) != reference
    # The length prefixes keep fields from sliding into each other.
    assert commitment("t-4", "B", "2team", "team A", bytes(32)) != commitment("t-42", "B", "team", "team A", bytes(32))


def test_verify():
    nonce = make_nonce()
    assert len(nonce) == 32 and make_nonce() != nonce
    sealed = commitment("g", "B", "team", "team A", nonce)
    assert verify(sealed, "g", "B", "team", "team A", nonce)
    assert not verify(sealed, "g", "B", "team", "team B", nonce)
    assert not verify(sealed, "g", "Y", "team", "team A", nonce)
    assert not verify(sealed, "g", "B", "team", "team A", nonce[:31])
    with pytest.raises(ValueError):
        commitment("g", "B", "team", "team A", b"short")


# The server's round


def sealed(seat: str, choice: str, purpose: str = "combat-7") -> tuple[bytes, bytes]:
    nonce = make_nonce()
    return commitment("t-1", seat, purpose, choice, nonce), nonce


def test_round_until_complete():
    game = CommitRevealRound("t-1", "combat-7")
    blue, blue_nonce = sealed("B", "card 3")
    yellow, yellow_nonce = sealed("Y", "card 5")
    game.commit("B", blue)
    assert not game.both_committed
    game.commit("Y", yellow)
    assert game.both_committed and game.commitment_of("B") == blue
    game.reveal("Y", "card 5", yellow_nonce)
    assert not game.complete and game.choices == {"Y": "card 5"}
    game.reveal("B", "card 3", blue_nonce)
    assert game.complete and game.choices == {"B": "card 3", "Y": "card 5"}


def error_code(call, *args) -> tuple[str, str]:
    with pytest.raises(ProtocolError) as caught:
        call(*args)
    return caught.value.code, caught.value.fault


def test_round_refuses_a_second_commit():
    game = CommitRevealRound("t-1", "combat-7")
    game.commit("B", sealed("B", "card 3")[0])
    assert error_code(game.commit, "B", sealed("B", "card 4")[0]) == ("commit_twice", "remote")


def test_round_refuses_a_reveal_before_both_commits():
    game = CommitRevealRound("t-1", "combat-7")
    blue, nonce = sealed("B", "card 3")
    game.commit("B", blue)
    assert error_code(game.reveal, "B", "card 3", nonce) == ("reveal_early", "remote")


def test_round_refuses_a_reveal_that_does_not_match_and_a_second_reveal():
    game = CommitRevealRound("t-1", "combat-7")
    blue, blue_nonce = sealed("B", "card 3")
    game.commit("B", blue)
    game.commit("Y", sealed("Y", "card 5")[0])
    assert error_code(game.reveal, "B", "card 4", blue_nonce) == ("reveal_mismatch", "remote")
    assert error_code(game.reveal, "B", "card 3", make_nonce()) == ("reveal_mismatch", "remote")
    game.reveal("B", "card 3", blue_nonce)
    assert error_code(game.reveal, "B", "card 3", blue_nonce) == ("reveal_twice", "remote")
    assert not game.complete


def test_round_binds_the_game_and_the_purpose():
    game = CommitRevealRound("t-1", "combat-8")
    blue, nonce = sealed("B", "card 3", purpose="combat-7")
    game.commit("B", blue)
    game.commit("Y", sealed("Y", "card 5", purpose="combat-8")[0])
    assert error_code(game.reveal, "B", "card 3", nonce) == ("reveal_mismatch", "remote")


# The player's side


def test_player_commitments_keep_the_secret_until_the_opponent_committed():
    mine = PlayerCommitments("t-1", "B")
    assert mine.opponent == "Y"
    sealed_choice = mine.commit("team", "team A")
    assert error_code(mine.commit, "team", "team B") == ("commit_twice", "local")
    assert error_code(mine.reveal, "team") == ("reveal_early", "local")
    assert error_code(mine.reveal, "combat-1") == ("reveal_early", "local")
    mine.opponent_committed("team", bytes(32))
    choice, nonce = mine.reveal("team")
    assert choice == "team A" and verify(sealed_choice, "t-1", "B", "team", "team A", nonce)
    mine.opponent_committed("team", bytes(32))  # the same one again, as after a resume: fine
    assert error_code(mine.opponent_committed, "team", bytes([1]) * 32) == ("commit_twice", "remote")


def test_player_commitments_verify_the_opponents_reveal():
    mine = PlayerCommitments("t-1", "Y")
    theirs, nonce = sealed("B", "card 3")
    assert not mine.opponent_reveal_matches("combat-7", "card 3", nonce)
    mine.opponent_committed("combat-7", theirs)
    assert mine.opponent_reveal_matches("combat-7", "card 3", nonce)
    assert not mine.opponent_reveal_matches("combat-7", "card 4", nonce)


# Messages through connections, with a server holding the round


def test_commit_reveal_between_two_players_through_the_server():
    blue, blue_server = seated("t-1", "B")
    yellow, yellow_server = seated("t-1", "Y")
    game = CommitRevealRound("t-1", "combat-7")

    [commit] = deliver(blue.commit("combat-7", "card 3"), blue_server)
    game.commit("B", commit.commitment)
    with pytest.raises(ProtocolError) as caught:
        blue.reveal("combat-7")
    assert (caught.value.code, caught.value.fault) == ("reveal_early", "local")
    [commit] = deliver(yellow.commit("combat-7", "card 5"), yellow_server)
    game.commit("Y", commit.commitment)
    assert game.both_committed

    deliver(blue_server.send(OpponentCommit("t-1", "combat-7", "Y", game.commitment_of("Y"))), blue)
    deliver(yellow_server.send(OpponentCommit("t-1", "combat-7", "B", game.commitment_of("B"))), yellow)
    [reveal] = deliver(blue.reveal("combat-7"), blue_server)
    game.reveal("B", reveal.choice, reveal.nonce)
    [seen] = deliver(yellow_server.send(OpponentReveal("t-1", "combat-7", "B", reveal.choice, reveal.nonce)), yellow)
    assert seen == OpponentReveal("t-1", "combat-7", "B", "card 3", reveal.nonce)
    [reveal] = deliver(yellow.reveal("combat-7"), yellow_server)
    game.reveal("Y", reveal.choice, reveal.nonce)
    assert game.complete and game.choices == {"B": "card 3", "Y": "card 5"}


def test_a_forged_reveal_surfaces_as_reveal_mismatch():
    blue, server = seated("t-1", "B")
    theirs, nonce = sealed("Y", "card 5")
    deliver(server.send(OpponentCommit("t-1", "combat-7", "Y", theirs)), blue)
    forged = OpponentReveal("t-1", "combat-7", "Y", "card 1", nonce)
    assert deliver(server.send(forged), blue) == [RevealMismatch("t-1", "combat-7", "Y", "card 1")]
    assert deliver(server.send(OpponentReveal("t-1", "combat-8", "Y", "card 1", nonce)), blue) == [
        RevealMismatch("t-1", "combat-8", "Y", "card 1")
    ]


def test_the_opponent_commitment_must_be_the_opponents_and_never_change():
    blue, server = seated("t-1", "B")
    [error] = deliver(server.send(OpponentCommit("t-1", "team", "B", bytes(32))), blue)
    assert (error.code, error.fault) == ("bad_field", "remote")
    deliver(server.send(OpponentCommit("t-1", "team", "Y", bytes(32))), blue)
    repeat = deliver(server.send(OpponentCommit("t-1", "team", "Y", bytes(32))), blue)
    assert all(not isinstance(e, ProtocolError) for e in repeat)  # resent after a resume
    [error] = deliver(server.send(OpponentCommit("t-1", "team", "Y", bytes([1]) * 32)), blue)
    assert (error.code, error.fault, error.fatal) == ("commit_twice", "remote", False)


def test_a_hand_made_reveal_still_waits_for_the_opponents_commitment():
    blue, _ = seated("t-1", "B")
    with pytest.raises(ProtocolError, match="reveal_early"):
        blue.send(Reveal("t-1", "team", "team A", bytes(32)))


def test_the_server_answers_round_errors_with_error_frames():
    blue, server = seated("t-1", "B")
    game = CommitRevealRound("t-1", "team")
    [commit] = deliver(blue.send(Commit("t-1", "team", bytes(32))), server)
    game.commit("B", commit.commitment)
    [commit] = deliver(blue.send(Commit("t-1", "team", bytes(32))), server)
    with pytest.raises(ProtocolError) as caught:
        game.commit("B", commit.commitment)
    [error] = deliver(server.send_error(caught.value), blue)
    assert (error.code, error.fault, error.fatal) == ("commit_twice", "client", False)
    assert blue.state == server.state == "at_table"
