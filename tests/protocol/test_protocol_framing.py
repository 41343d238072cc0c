"""Framing and msgpack decoding: length prefix, size cap, unpacker limits."""

import msgpack
import pytest
from dungeon_twister.protocol import DEFAULT_MAX_FRAME_SIZE, ProtocolError
from dungeon_twister.protocol.codec import pack_map, unpack_map
from dungeon_twister.protocol.framing import FrameReader, frame


def test_frames_split_a_stream_fed_byte_by_byte():
    stream = frame(b"one") + frame(b"second body")
    reader = FrameReader()
    bodies = []
    for byte in stream:
        reader.feed(bytes([byte]))
        if (body := reader.next_frame()) is not None:
            bodies.append(body)
    assert bodies == [b"one", b"second body"]
    assert reader.next_frame() is None


def test_several_frames_in_one_chunk():
    reader = FrameReader()
    reader.feed(frame(b"a") + frame(b"bb") + frame(b"ccc")[:5])
    assert [reader.next_frame(), reader.next_frame(), reader.next_frame()] == [b"a", b"bb", None]


def test_oversized_frame_is_refused_from_its_header_alone():
    reader = FrameReader(max_size=100)
    reader.feed((101).to_bytes(4, "big"))
    with pytest.raises(ProtocolError) as caught:
        reader.next_frame()
    assert (caught.value.code, caught.value.fault, caught.value.fatal) == ("frame_too_large", "remote", True)


def test_a_broken_stream_stays_broken():
    reader = FrameReader(max_size=100)
    reader.feed((2**32 - 1).to_bytes(4, "big"))
    with pytest.raises(ProtocolError, match="frame_too_large"):
        reader.next_frame()
    reader.feed(frame(b"valid"))
    with pytest.raises(ProtocolError, match="frame_too_large"):
        reader.next_frame()


def test_zero_length_frame_is_refused():
    reader = FrameReader()
    reader.feed(b"\x00\x00\x00\x00")
    with pytest.raises(ProtocolError) as caught:
        reader.next_frame()
    assert (caught.value.code, caught.value.fatal) == ("empty_frame", True)


def test_default_cap_is_one_mebibyte():
    reader = FrameReader()
    reader.feed(DEFAULT_MAX_FRAME_SIZE.to_bytes(4, "big"))
    assert reader.next_frame() is None
    reader = FrameReader()
    reader.feed((DEFAULT_MAX_FRAME_SIZE + 1).to_bytes(4, "big"))
    with pytest.raises(ProtocolError, match="frame_too_large"):
        reader.next_frame()


def test_sending_refuses_empty_and_oversized_bodies():
    with pytest.raises(ProtocolError) as caught:
        frame(b"x" * 11, max_size=10)
    assert (caught.value.code, caught.value.fault) == ("frame_too_large", "local")
    with pytest.raises(ProtocolError, match="empty_frame"):
        frame(b"")


def test_maps_round_trip_with_str_and_bin_kept_apart():
    raw = {"type": "x", "text": "héllo", "blob": b"\x00\xff", "list": [1, None, True], "map": {"k": -3}}
    assert unpack_map(pack_map(raw), 1000) == raw


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"\xc1", "bad_msgpack"),  # a byte msgpack never uses
        (b"\x81\xa1a", "bad_msgpack"),  # truncated
        (pack_map({"a": 1}) + b"\x00", "bad_msgpack"),  # trailing data
        (msgpack.packb({1: 2}), "bad_msgpack"),  # int map key
        (msgpack.packb(msgpack.ExtType(5, b"ab")), "bad_msgpack"),
        (b"\xc7\x00\x05", "bad_msgpack"),  # an empty ext
        (msgpack.packb(msgpack.Timestamp(1, 0)), "bad_msgpack"),
        (b"\xa4\xff\xfe\xfd\xfc", "bad_msgpack"),  # a str that is not UTF-8
        (b"\xdd\xff\xff\xff\xff", "bad_msgpack"),  # an array claiming 2**32-1 items
        (msgpack.packb([1, 2]), "not_a_map"),
        (msgpack.packb("text"), "not_a_map"),
    ],
)
def test_bodies_that_are_not_one_plain_map(body, code):
    with pytest.raises(ProtocolError) as caught:
        unpack_map(body, 1000)
    assert (caught.value.code, caught.value.fault, caught.value.fatal) == (code, "remote", True)


def test_a_bad_body_says_what_is_wrong_with_it():
    """A play-test's error for a byte msgpack never uses read "invalid msgpack: " and nothing: msgpack's
    FormatError has no message, and an exception object is true, so its empty text was used."""
    with pytest.raises(ProtocolError) as caught:
        unpack_map(b"\xc1", 1000)
    assert caught.value.message == "invalid msgpack: FormatError"


def test_unpacker_limits_follow_the_frame_cap():
    with pytest.raises(ProtocolError, match="bad_msgpack"):
        unpack_map(pack_map({"s": "x" * 50}), 40)
    assert unpack_map(pack_map({"s": "x" * 40}), 40) == {"s": "x" * 40}
