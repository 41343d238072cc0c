"""The board of a view (engine.views.view) as styled text lines, drawn the way the rules draw it.

Yellow's start zone is at the top, Blue's at the bottom; ranks are numbered on the left, room rows on the right.
Each square is 5 characters wide:

  ` bWA `  a character (its token id, as typed in actions); ` bwa ` lower-case code: wounded
  `bWARP`  a character with what it carries (`RP` an object; `tr` lower-case: a wounded character)
  ` yRP `  an object;  `(bTH)` a token on a pit;  ` bWA?` / ` y?? ` face-down start-zone tokens
  ` ( ) `  a pit;  ` @3↻ ` a rotation mechanism with its pair number and arrow (↻ clockwise, ↺ counter-clockwise)
  `  ◦  `  a marked start square;  `░░░░░` a face-down room (its hidden tokens are shown by colour)

Edges: `│ ─` wall, `║ ═` closed portcullis, `╎ ╌` open portcullis, `╱` broken portcullis.
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples

from .names import catalogue

FILES = "abcdefghij"
ROOM = 5
WIDTH = 2 * ROOM
CELL = 5
ROOM_SPAN = ROOM * CELL + ROOM - 1
"""Characters from the first to the last square of a room, inner edges included."""

Square = tuple[int, int]
LINES = ("wall", "border", "closed", "open", "broken")
VERTICAL = {"wall": "│", "border": "│", "closed": "║", "open": "╎", "broken": "╱", "hidden": "░"}
HORIZONTAL = {"wall": "─", "border": "─", "closed": "═", "open": "╌", "broken": "╱", "hidden": "░"}
JUNCTIONS = {  # (up, down, left, right) -> box-drawing character
    (1, 1, 0, 0): "│", (0, 0, 1, 1): "─", (1, 0, 0, 0): "╵", (0, 1, 0, 0): "╷", (0, 0, 1, 0): "╴",
    (0, 0, 0, 1): "╶", (0, 1, 0, 1): "┌", (0, 1, 1, 0): "┐", (1, 0, 0, 1): "└", (1, 0, 1, 0): "┘",
    (1, 1, 0, 1): "├", (1, 1, 1, 0): "┤", (0, 1, 1, 1): "┬", (1, 0, 1, 1): "┴", (1, 1, 1, 1): "┼",
}
EDGE_STYLE = {"wall": "class:board.wall", "border": "class:board.wall", "closed": "class:board.closed",
              "open": "class:board.open", "broken": "class:board.broken", "hidden": "class:board.hidden"}


def square_of(name: str) -> Square:
    """'c4' -> (2, 3); Blue's start zone is rank 0, so y = -1."""
    return FILES.index(name[0]), int(name[1:]) - 1


def square_name(square: Square) -> str:
    return f"{FILES[square[0]]}{square[1] + 1}"


def render_board(view: dict) -> list[StyleAndTextTuples]:
    """The board as lines of (style, text) fragments."""
    return _Board(view).lines()


def board_text(view: dict) -> str:
    """The board as plain text (no colours)."""
    return "\n".join("".join(text for _, text in line) for line in render_board(view))


class _Board:
    def __init__(self, view: dict) -> None:
        self.view = view
        self.height = ROOM * view["rows"]
        self.catalogue = catalogue(view.get("set"))
        self.rooms = {room["slot"]: room for room in view["rooms"]}
        self.pits = {square_of(name) for name in view["pits"]}
        self.gears = {square_of(name): slot for slot, name in view["gears"].items()}
        self.edges: dict[frozenset[Square], str] = {}
        for a, b, _ in view["walls"]:
            self.edges[frozenset((square_of(a), square_of(b)))] = "wall"
        for a, b, state in view["portcullises"]:
            self.edges[frozenset((square_of(a), square_of(b)))] = state
        self.tokens: dict[Square, list[dict]] = {}
        for token in view["tokens"]:
            self.tokens.setdefault(square_of(token["square"]), []).append(token)
        self.hidden: dict[str, list[str]] = {}
        for token in view["hidden"]:
            self.hidden.setdefault(token["slot"], []).append(token["colour"])
        marked = [n - 1 for n in self.catalogue.board.get("start_squares", [])]
        self.marked = {(x, y) for x in marked for y in (-1, self.height)}

    # --- geometry ---------------------------------------------------------------------------------
    def on_board(self, square: Square) -> bool:
        return 0 <= square[0] < WIDTH and -1 <= square[1] <= self.height

    def slot(self, square: Square) -> str | None:
        x, y = square
        if 0 <= x < WIDTH and 0 <= y < self.height:
            return f"{'AB'[x // ROOM]}{y // ROOM + 1}"
        return None

    def face_down(self, square: Square) -> bool:
        slot = self.slot(square)
        return slot is not None and not self.rooms[slot]["revealed"]

    def edge(self, a: Square, b: Square) -> str:
        """What lies between two adjacent squares: a line kind (LINES), "hidden", "seam", "none" or "outside"."""
        inside = self.on_board(a) + self.on_board(b)
        if inside < 2:
            return "border" if inside else "outside"
        kind = self.edges.get(frozenset((a, b)))
        if kind:
            return kind
        if self.slot(a) != self.slot(b):
            return "seam"
        return "hidden" if self.face_down(a) else "none"

    def hidden_span(self, x: int, y: int) -> bool:
        """Whether square x of rank y starts the row of a face-down room (drawn as one block)."""
        return x % ROOM == 0 and self.face_down((x, y))

    def hidden_edge_span(self, x: int, y: int) -> bool:
        """Whether the edges above squares x.. of rank y start a row of edges inside a face-down room."""
        return self.hidden_span(x, y) and self.slot((x, y)) == self.slot((x, y + 1))

    # --- lines ------------------------------------------------------------------------------------
    def lines(self) -> list[StyleAndTextTuples]:
        out = [self.header(), self.files()]
        out.append(self.edge_line(self.height))
        for y in range(self.height, -2, -1):
            out.append(self.square_line(y))
            out.append(self.edge_line(y - 1))
        out.append(self.files())
        out.append(self.title("Blue start zone (rank 0)"))
        return out

    def header(self) -> StyleAndTextTuples:
        return self.title(f"Yellow start zone (rank {self.height + 1})")

    def title(self, text: str) -> StyleAndTextTuples:
        return [("class:board.label", (" " * 4 + text.center(WIDTH * (CELL + 1) - 1)).rstrip())]

    def files(self) -> StyleAndTextTuples:
        text = "    " + "".join(f"{f:^{CELL}} " for f in FILES)
        return [("class:board.label", text.rstrip())]

    def square_line(self, y: int) -> StyleAndTextTuples:
        line: StyleAndTextTuples = [("class:board.label", f"{y + 1:>2} ")]
        line += self.vertical((-1, y), (0, y))
        x = 0
        while x < WIDTH:
            if self.hidden_span(x, y):
                line += self.hidden_room_row(self.slot((x, y)), 2 * (ROOM - 1 - y % ROOM))
                x += ROOM
            else:
                line += self.cell((x, y))
                x += 1
            line += self.vertical((x - 1, y), (x, y))
        line.append(("class:board.label", self.right_label(y)))
        return line

    def edge_line(self, y: int) -> StyleAndTextTuples:
        """The edges between rank y and rank y + 1, with the junctions between them."""
        line: StyleAndTextTuples = [("", "   "), self.junction(0, y)]
        x = 0
        while x < WIDTH:
            if self.hidden_edge_span(x, y):
                line += self.hidden_room_row(self.slot((x, y)), 2 * (ROOM - 1 - (y + 1) % ROOM) + 1)
                x += ROOM
            else:
                line += self.horizontal((x, y), (x, y + 1))
                x += 1
            line.append(self.junction(x, y))
        return line

    def right_label(self, y: int) -> str:
        if 0 <= y < self.height and y % ROOM == ROOM // 2:
            return f" {y // ROOM + 1}"
        return ""

    # --- edges ------------------------------------------------------------------------------------
    def vertical(self, a: Square, b: Square) -> StyleAndTextTuples:
        kind = self.edge(a, b)
        return [(EDGE_STYLE.get(kind, ""), VERTICAL.get(kind, " "))]

    def horizontal(self, a: Square, b: Square) -> StyleAndTextTuples:
        kind = self.edge(a, b)
        return [(EDGE_STYLE.get(kind, ""), HORIZONTAL.get(kind, " ") * CELL)]

    def junction(self, x: int, y: int) -> tuple[str, str]:
        """The corner left of square column x, between rank y and rank y + 1."""
        arms = (self.edge((x - 1, y + 1), (x, y + 1)), self.edge((x - 1, y), (x, y)),
                self.edge((x - 1, y), (x - 1, y + 1)), self.edge((x, y), (x, y + 1)))
        key = tuple(int(arm in LINES) for arm in arms)
        if any(key):
            return ("class:board.wall", JUNCTIONS[key])
        if all(arm == "hidden" for arm in arms):
            return ("class:board.hidden", "░")
        if "seam" in arms:
            return ("class:board.seam", "·")
        return ("", " ")

    # --- squares ----------------------------------------------------------------------------------
    def cell(self, square: Square) -> StyleAndTextTuples:
        ground = self.ground_style(square)
        here = sorted(self.tokens.get(square, []), key=_priority)
        if not here:
            return [(ground, self.terrain_text(square))]
        main = here[0]
        if len(here) > 1:
            return [(_token_style(main), _label(main)), (_second_style(here[1]), _second_label(here[1]))]
        if square in self.pits:
            return [(ground, "("), (_token_style(main), _label(main)), (ground, ")")]
        suffix = "?" if main["face_down"] and main["id"] else " "
        return [(ground, " "), (_token_style(main), _label(main)), (ground, suffix)]

    def ground_style(self, square: Square) -> str:
        if square in self.pits:
            return "class:board.pit"
        if square in self.gears:
            return "class:board.gear"
        if square[1] == -1:
            return "class:board.zone-b"
        if square[1] == self.height:
            return "class:board.zone-y"
        return "class:board.floor"

    def terrain_text(self, square: Square) -> str:
        if square in self.pits:
            return " ( ) "
        if square in self.gears:
            tile = self.catalogue.rooms.get(self.rooms[self.gears[square]]["tile"])
            if tile is None:
                return "  @  "
            return f" @{tile.number}{'↻' if tile.clockwise else '↺'} "
        if square in self.marked:
            return "  ◦  "
        return " " * CELL

    def hidden_room_row(self, slot: str, row: int) -> StyleAndTextTuples:
        """Row `row` (0..8: square rows and the edge rows between them) of a face-down room."""
        shade = ("class:board.hidden", "░")
        if row == 2:
            return _centered([("class:board.hidden-label", f" {slot} face down ")], shade)
        colours = self.hidden.get(slot, [])
        if row == 4 and colours:
            chips: StyleAndTextTuples = [("class:board.hidden-label", " ")]
            for colour in colours:
                chips += [(f"class:token.{colour.lower()}", colour.lower()), ("class:board.hidden-label", " ")]
            return _centered(chips, shade)
        return [(shade[0], shade[1] * ROOM_SPAN)]


def _centered(fragments: StyleAndTextTuples, fill: tuple[str, str]) -> StyleAndTextTuples:
    width = sum(len(text) for _, text in fragments)
    left = (ROOM_SPAN - width) // 2
    return [(fill[0], fill[1] * left), *fragments, (fill[0], fill[1] * (ROOM_SPAN - width - left))]


def _priority(token: dict) -> int:
    """Which token of a square is drawn first: a figure, then a face-down token, a wounded one, an object."""
    if token["character"] and not token["wounded"] and not token["face_down"]:
        return 0
    if token["face_down"]:
        return 1
    return 2 if token["character"] else 3


def _label(token: dict) -> str:
    if token["id"] is None:
        return token["colour"].lower() + "??"
    if token["wounded"]:
        return token["id"][0] + token["id"][1:].lower()
    return token["id"]


def _second_label(token: dict) -> str:
    if token["id"] is None:
        return "??"
    code = token["id"][1:]
    return code.lower() if token["wounded"] else code


def _token_style(token: dict) -> str:
    colour = token["colour"].lower()
    if token["character"] is False:
        return f"class:object.{colour}"
    if token["wounded"]:
        return f"class:token.{colour}.wounded"
    return f"class:token.{colour}"


def _second_style(token: dict) -> str:
    return _token_style(token) if token["wounded"] else f"class:object.{token['colour'].lower()}"
