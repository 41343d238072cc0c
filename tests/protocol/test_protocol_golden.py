"""Golden bytes: the example frames and commitment vectors of docs/protocol.md, byte for byte."""

from pathlib import Path

import pytest
import msgpack
from dungeon_twister.protocol import (
    Action,
    ActionRefused,
    Commit,
    Join,
    Joined,
    PlayerConnection,
    ServerConnection,
    Software,
    Welcome,
    commitment_input,
)
from protocol_fixtures import VECTORS, deliver

DOC = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")

GOLDEN = {
    "hello": "0000005385a474797065a568656c6c6fa876657273696f6e739101a6636c69656e7482a46e616d65a964742d636c69656e74a7"
    "76657273696f6ea5302e312e30a4726f6c65a6706c61796572a46e616d65a5616c696365",
    "welcome": "0000004b84a474797065a777656c636f6d65a776657273696f6e01a673657276657282a46e616d65a964742d736572766572"
    "a776657273696f6ea5302e312e30a773657373696f6ea6732d37663361",
    "action": "0000003084a474797065a6616374696f6ea57461626c65a4742d3432a9616374696f6e5f6964a3612d31a474657874a47061"
    "7373",
    "action_refused": "000000e287a474797065ae616374696f6e5f72656675736564a9616374696f6e5f6964a3612d31a4636f6465ae696c6c"
    "6567616c5f616374696f6ea76d657373616765d932612077616c6c206f7220636c6f73656420706f727463756c6c6973206c69657320"
    "6265747765656e20633320616e64206334a472756c65aa42472d4d4f56452d3035a874656d706c617465d93b612077616c6c206f7220"
    "636c6f73656420706f727463756c6c6973206c696573206265747765656e207b686572657d20616e64207b74686572657da676616c75"
    "657382a468657265a26333a57468657265a26334",
    "commit": "0000005684a474797065a6636f6d6d6974a57461626c65a4742d3432a7707572706f7365a8636f6d6261742d37aa636f6d6d"
    "69746d656e74c420e17f20f32697803e561c095fab0de3eaafd08d2aaf8ff4565c7f7327c655fc2f",
}


def hex_dump(data: bytes) -> str:
    """Bytes as docs/protocol.md shows them: 16 per line, in hex, separated by spaces."""
    return "\n".join(" ".join(f"{byte:02x}" for byte in data[i : i + 16]) for i in range(0, len(data), 16))


def example_frames() -> dict[str, bytes]:
    """The frames of the documented example session, each sent through the connections."""
    player = PlayerConnection()
    server = ServerConnection()
    frames = {"hello": player.send_hello("alice", Software("dt-client", "0.1.0"))}
    deliver(frames["hello"], server)
    frames["welcome"] = server.send(Welcome(1, Software("dt-server", "0.1.0"), "s-7f3a"))
    deliver(frames["welcome"], player)
    deliver(player.send(Join("t-42", "Y")), server)
    deliver(server.send(Joined("t-42", "r-19c4", "Y")), player)
    frames["action"] = player.send(Action("t-42", "a-1", "pass"))
    frames["action_refused"] = server.send(ActionRefused(
        "a-1", "illegal_action", "a wall or closed portcullis lies between c3 and c4", "BG-MOVE-05",
        "a wall or closed portcullis lies between {here} and {there}", {"here": "c3", "there": "c4"}))
    frames["commit"] = player.send(Commit("t-42", "combat-7", bytes.fromhex(VECTORS[1][1])))
    return frames


@pytest.mark.parametrize("name", GOLDEN)
def test_example_frames_are_byte_exact(name):
    assert example_frames()[name].hex() == GOLDEN[name]


@pytest.mark.parametrize("name", GOLDEN)
def test_docs_show_the_example_frames(name):
    assert hex_dump(bytes.fromhex(GOLDEN[name])) in DOC


@pytest.mark.parametrize(("inputs", "expected"), VECTORS)
def test_docs_show_the_commitment_vectors(inputs, expected):
    assert hex_dump(commitment_input(*inputs)) in DOC
    assert f"`{expected}`" in DOC
    assert f"`{inputs[4].hex()}`" in DOC


def test_the_action_refused_frame_is_its_fields_in_order_as_msgpack():
    """The documented action_refused frame, built independently: a 4-byte length, then the map of section 6's
    fields in their order ("type" first), the optional template and values after the rule."""
    body = msgpack.packb({"type": "action_refused", "action_id": "a-1", "code": "illegal_action",
                          "message": "a wall or closed portcullis lies between c3 and c4", "rule": "BG-MOVE-05",
                          "template": "a wall or closed portcullis lies between {here} and {there}",
                          "values": {"here": "c3", "there": "c4"}}, use_bin_type=True)
    assert GOLDEN["action_refused"] == (len(body).to_bytes(4, "big") + body).hex()
