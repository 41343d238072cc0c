"""Fuzzing: whatever bytes arrive, a ServerConnection yields messages or documented errors, and stops."""

from dungeon_twister.protocol import (
    ERROR_CODES,
    MESSAGES,
    Joined,
    Message,
    PlayerConnection,
    ProtocolError,
    ServerConnection,
    State,
)
from dungeon_twister.protocol.codec import encode_message, pack_map
from dungeon_twister.protocol.framing import frame
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from protocol_fixtures import CLIENT, EXAMPLES, SERVER

FUZZ = settings(
    max_examples=300, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow]
)

plain = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=20) | st.binary(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
"""Any msgpack value (without ext types)."""

known_keys = st.sampled_from(sorted({key for example in EXAMPLES for key in encode_message(example)}))
message_like = st.builds(
    lambda name, fields: {**fields, "type": name},
    st.sampled_from(sorted(MESSAGES)),
    st.dictionaries(known_keys, plain, max_size=6),
)
"""Maps that look like messages: a known type and known keys with any values."""

mutated_examples = st.tuples(st.sampled_from(EXAMPLES), known_keys, plain).map(
    lambda case: {**encode_message(case[0]), case[1]: case[2]}
)
"""Valid messages with one field replaced by any value."""

frames = st.one_of(
    st.binary(max_size=64).map(lambda body: len(body).to_bytes(4, "big") + body),
    plain.map(lambda value: frame(pack_map(value))),
    message_like.map(lambda value: frame(pack_map(value))),
    mutated_examples.map(lambda value: frame(pack_map(value))),
)


def drain(server: ServerConnection, data: bytes, chunk: int) -> list:
    """Feed `data` in chunks and collect the events, checking each call makes progress."""
    events = []
    for start in range(0, len(data), chunk):
        server.receive_data(data[start : start + chunk])
        for _ in range(len(data) + 1):
            event = server.next_event()
            if event is None:
                break
            events.append(event)
        else:
            raise AssertionError("next_event() never returned None")
    return events


def check(events: list) -> None:
    for event in events:
        if isinstance(event, ProtocolError):
            assert event.code in ERROR_CODES and event.fault == "remote"
        else:
            assert isinstance(event, Message)


def server_in(state: State) -> ServerConnection:
    """A server connection brought to `state` by a player."""
    server = ServerConnection()
    if state is not State.AWAIT_HELLO:
        server.receive_data(PlayerConnection().send_hello("ann", CLIENT))
        server.next_event()
        server.answer_hello(SERVER, "s")
    if state is State.AT_TABLE:
        server.send(Joined("t-1", "token", "B"))
    assert server.state is state
    return server


STATES = st.sampled_from([State.AWAIT_HELLO, State.LOBBY, State.AT_TABLE])


@FUZZ
@given(st.binary(max_size=300), st.integers(1, 64))
def test_random_bytes(data, chunk):
    check(drain(ServerConnection(), data, chunk))


@FUZZ
@given(STATES, st.lists(frames, max_size=8), st.integers(1, 64))
def test_random_frames_in_every_state(state, stream, chunk):
    check(drain(server_in(state), b"".join(stream), chunk))


@FUZZ
@given(STATES, st.lists(frames, max_size=8), st.binary(max_size=40))
def test_random_frames_then_garbage_can_be_answered(state, stream, tail):
    server = server_in(state)
    for event in drain(server, b"".join(stream) + tail, 7):
        if isinstance(event, ProtocolError):
            assert server.send_error(event)
