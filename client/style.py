"""Colours of the client: one style class per thing drawn (board, tokens, panel, prompt, messages)."""

from __future__ import annotations

from prompt_toolkit.styles import Style

BLUE = "#3b7dd8"
YELLOW = "#e0b020"

STYLE = Style.from_dict({
    # board
    "board.label": "#8a8a8a",
    "board.wall": "#d0d0d0 bold",
    "board.closed": "#e05050 bold",
    "board.open": "#50c050",
    "board.broken": "#8a8a8a",
    "board.slit": "#d0a040 bold",
    "board.seam": "#5a5a5a",
    "board.hidden": "#4a4a4a",
    "board.hidden-label": "bg:#303030 #c0c0c0",
    "board.floor": "",
    "board.pit": "bg:#402818 #c08040",
    "board.gear": "bg:#203848 #80c0e0",
    # Paladins & Dragons terrain and illusions
    "board.fog": "bg:#3a3a44 #b0b0c0",
    "board.rockfall": "bg:#4a3020 #e09060 bold",
    "board.crevasses": "bg:#1a1a1a #a07050",
    "board.obstacles": "bg:#505050 #e0e0e0",
    "board.fountains": "bg:#183848 #60d0f0 bold",
    "board.pentacle": "bg:#301838 #e070f0 bold",
    "board.illusion": "bg:#2a2040 #c0a0ff italic",
    "board.trail-b": "bg:#1a2740",
    "board.trail-y": "bg:#34301a",
    "board.zone-b": f"bg:#101c30 {BLUE}",
    "board.zone-y": f"bg:#2a2410 {YELLOW}",
    # tokens: characters on their colour, wounded ones in their colour on grey, objects in their colour
    "token.b": f"bg:{BLUE} #ffffff bold",
    "token.y": f"bg:{YELLOW} #000000 bold",
    "token.b.wounded": f"bg:#505050 {BLUE} italic",
    "token.y.wounded": f"bg:#505050 {YELLOW} italic",
    "object.b": f"{BLUE} bold underline",
    "object.y": f"{YELLOW} bold underline",
    # panel and lobby
    "title": "bold",
    "seat.b": f"{BLUE} bold",
    "seat.y": f"{YELLOW} bold",
    "dim": "#8a8a8a",
    "active": "reverse bold",
    "log": "",
    "chat": "#a0c0ff",
    "rule": "#8a8a8a",
    # messages and prompt
    "notice": "#c0c0c0",
    "refusal": "#ff6060 bold",
    "alert": "bg:#c00000 #ffffff bold",
    "help": "bg:#202830 #e0e0e0",
    "prompt": "bold",
    "hints": "bg:#303030 #b0b0b0",
})
