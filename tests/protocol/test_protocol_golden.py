"""Golden bytes: the example frames and commitment vectors of docs/protocol.md, byte for byte."""

from pathlib import Path

import pytest
from dungeon_twister.protocol import (
    Action,
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
