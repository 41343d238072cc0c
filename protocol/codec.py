"""Frame bodies: one msgpack map per message, with a "type" key holding the message's wire name."""

from __future__ import annotations

from typing import Any, NoReturn

import msgpack

# (every message registered before decode_message looks one up, however this module was reached: the package's
# __init__ loads its names only when first asked for, ops32)
from . import msg_game, msg_handshake, msg_lobby, msg_secret, msg_session
from .errors import ProtocolError
from .fields import decode_fields, encode_fields
from .registry import MESSAGES, Message
from .wire_types import FieldError, Packed

REGISTERING = (msg_game, msg_handshake, msg_lobby, msg_secret, msg_session)
"""The modules whose message classes fill the registry (MESSAGES) as they load: imported here for that alone."""


def _refuse_ext(code: int, data: bytes) -> NoReturn:
    raise ValueError(f"ext type {code} is not allowed")


def _unpack_options(max_size: int) -> dict[str, Any]:
    """Explicit msgpack options: str is UTF-8 text, map keys are str or bin, no ext types, sizes capped."""
    return {
        "raw": False,
        "strict_map_key": True,
        "use_list": True,
        "max_str_len": max_size,
        "max_bin_len": max_size,
        "max_array_len": max_size,
        "max_map_len": max_size,
        "max_ext_len": 0,
        "ext_hook": _refuse_ext,
    }


_pack = msgpack.Packer(use_bin_type=True, datetime=False).pack
"""msgpack.packb's packing with one Packer, reused (packb makes one per call); as in views.py: sans-IO code runs in
one thread per connection end, and a Packer with autoreset holds nothing between calls (nor after a failure)."""


def pack_map(raw: dict[str, Any]) -> bytes:
    """msgpack with str as str and bytes as bin; keys keep their order. The last value may be Packed (the
    bytes of a map packed before): it is put in as it is."""
    try:
        if type(raw) is dict and raw and type(last := raw[next(reversed(raw))]) is Packed:
            body = _pack({**raw, next(reversed(raw)): None})
            return body[:-1] + last.data  # the nil packed for the last value is one byte, 0xc0
        return _pack(raw)
    except (TypeError, ValueError, OverflowError) as exc:
        raise ProtocolError("bad_field", f"cannot pack: {exc}", fault="local") from None


_options_by_size: dict[int, dict[str, Any]] = {}


def unpack_map(body: bytes, max_size: int) -> dict[Any, Any]:
    """The map a body holds; ProtocolError bad_msgpack or not_a_map (fault "remote") otherwise."""
    options = _options_by_size.get(max_size)
    if options is None:
        options = _options_by_size[max_size] = _unpack_options(max_size)
    try:
        raw = msgpack.unpackb(body, **options)
    except (ValueError, msgpack.UnpackException) as exc:
        raise ProtocolError("bad_msgpack", f"invalid msgpack: {str(exc) or type(exc).__name__}") from None
    if type(raw) is not dict:
        raise ProtocolError("not_a_map", f"the body is a {type(raw).__name__}, not a map")
    return raw


def encode_message(message: Message) -> dict[str, Any]:
    """The map of a message: "type" first, then its fields in declaration order, nil optional fields omitted.

    Raises ProtocolError (fault "local") if a field is invalid.
    """
    name = message.spec.name
    try:
        return {"type": name, **encode_fields(message, name)}
    except FieldError as exc:
        raise ProtocolError(exc.code, str(exc), fault="local") from None


def decode_message(raw: dict[Any, Any]) -> Message:
    """The message a map holds (ProtocolError, fault "remote", if not); unknown keys are ignored."""
    name = raw.get("type")
    if name is None:
        raise ProtocolError("missing_field", 'no "type" key')
    if type(name) is not str:
        raise ProtocolError("bad_field", '"type" is not a str')
    spec = MESSAGES.get(name)
    if spec is None:
        raise ProtocolError("unknown_type", f"unknown message type {name[:64]!r}")
    try:
        return decode_fields(spec.cls, raw, name)
    except FieldError as exc:
        raise ProtocolError(exc.code, str(exc)) from None
