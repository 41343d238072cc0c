"""The board of a view (engine.views.view) as styled text lines, drawn the way the rules draw it.

Yellow's start zone is at the top, Blue's at the bottom; ranks are numbered on the left, room rows on the right.
Each square is 5 characters wide:

  ` bWA `  a character (its token id, as typed in actions); ` bwa ` lower-case code: wounded
  `bWARP`  a character with what it carries (`RP` an object; `tr` lower-case: a wounded character)
  ` yRP `  an object;  `(bTH)` a token on a pit;  ` bWA?` / ` y?? ` face-down start-zone tokens
  ` ( ) `  a pit;  ` @3↻ ` a rotation mechanism with its pair number and arrow (↻ clockwise, ↺ counter-clockwise),
  `@bWA↻` a figure standing on one
  `  ◦  `  a marked start square;  `░░░░░` a face-down room (its hidden tokens by colour, or by id in a view
  that names them)

Edges: `│ ─` wall, `║ ═` closed portcullis, `╎ ╌` open portcullis, `╱` broken portcullis.

Everything but the tokens is drawn once per layout and cached (see "the layout cache" below): a render on an
unchanged layout only puts the tokens and the hidden-token colours on it (issue 7: one render <= 1 ms).
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples

from .i18n import _, language
from .names import catalogue

FILES = "abcdefghij"
ROOM = 5
WIDTH = 2 * ROOM
CELL = 5
ROOM_SPAN = ROOM * CELL + ROOM - 1
"""Characters from the first to the last square of a room, inner edges included."""

Square = tuple[int, int]
LINES = ("wall", "border", "closed", "open", "broken", "slit")
VERTICAL = {"wall": "│", "border": "│", "closed": "║", "open": "╎", "broken": "╱", "hidden": "░", "slit": "┊"}
HORIZONTAL = {"wall": "─", "border": "─", "closed": "═", "open": "╌", "broken": "╱", "hidden": "░", "slit": "┈"}
JUNCTIONS = {  # (up, down, left, right) -> box-drawing character
    (1, 1, 0, 0): "│", (0, 0, 1, 1): "─", (1, 0, 0, 0): "╵", (0, 1, 0, 0): "╷", (0, 0, 1, 0): "╴",
    (0, 0, 0, 1): "╶", (0, 1, 0, 1): "┌", (0, 1, 1, 0): "┐", (1, 0, 0, 1): "└", (1, 0, 1, 0): "┘",
    (1, 1, 0, 1): "├", (1, 1, 1, 0): "┤", (0, 1, 1, 1): "┬", (1, 0, 1, 1): "┴", (1, 1, 1, 1): "┼",
}
EDGE_STYLE = {"wall": "class:board.wall", "border": "class:board.wall", "closed": "class:board.closed",
              "open": "class:board.open", "broken": "class:board.broken", "hidden": "class:board.hidden",
              "slit": "class:board.slit"}


def square_of(name: str) -> Square:
    """'c4' -> (2, 3); Blue's start zone is rank 0, so y = -1."""
    return FILES.index(name[0]), int(name[1:]) - 1


def square_name(square: Square) -> str:
    return f"{FILES[square[0]]}{square[1] + 1}"


def render_board(view: dict, trails: dict[str, list[str]] | None = None) -> list[StyleAndTextTuples]:
    """The board as lines of (style, text) fragments: the cached layout of the view, with its tokens on it;
    `trails`: colour ("B", "Y") -> the squares of that side's last move, shaded in its colour."""
    return _layout(view).render(view, trails or {})


def board_text(view: dict) -> str:
    """The board as plain text (no colours)."""
    return "\n".join("".join(text for _, text in line) for line in render_board(view))


# --- the layout cache -----------------------------------------------------------------------------------------
# Walls, portcullises, pits, rotation mechanisms, room frames, labels and face-down rooms change only when the
# layout does (a room revealed or rotated, a portcullis opened or broken): they are drawn once per layout and kept,
# and each render puts only the tokens on the board and the colours of the hidden tokens in the face-down rooms.
# The layout is drawn from LAYOUT_FIELDS of the view, the set's catalogue and the language (its captions) and from
# nothing else, and a cached layout is used only for a view whose LAYOUT_FIELDS are equal and whose catalogue is the
# same object, in the same language, so a render from the cache is the render of the view itself (and nothing of one
# view reaches the render of another).

TERRAIN_TEXT = {"fog": " ~~~ ", "rockfall": " ^^^ ", "crevasses": " vvv ", "obstacles": " [X] ",
                "fountains": " (Y) ", "pentacle": " <*> "}
"""How each Paladins & Dragons terrain square reads (docs/paladins-rooms.md letters F R V X Y P)."""

LAYOUT_FIELDS = ("rows", "rooms", "pits", "gears", "walls", "portcullises", "slits", "terrain", "illusions")
"""The view fields the layout is drawn from (and compared on); the set's catalogue too (view["set"])."""
MAX_ROWS = 16
"""The most rows of rooms a board is drawn with (the games have 4, 3 in the beginner game): a view's `rows` is the
server's word, and a hostile one's 10**7 had the client draw until its memory ran out (red team rt25)."""
CACHE_SIZE = 4
"""Layouts kept, the most recently used first: the board on screen and the few before it (a client shows one
table; a rotation there and back, or a layout seen from another seat, finds its drawing again)."""

_cache: list[_Layout] = []


def clear_cache() -> None:
    """Forget every cached layout (the next render draws its layout anew)."""
    _cache.clear()


def cached_layouts() -> int:
    """How many layouts the cache holds (at most CACHE_SIZE)."""
    return len(_cache)


def _layout(view: dict) -> _Layout:
    cat = catalogue(view.get("set"))
    for i, layout in enumerate(_cache):
        if layout.catalogue is cat and layout.language == language() and layout.matches(view):
            if i:
                del _cache[i]
                _cache.insert(0, layout)
            return layout
    layout = _Layout({field: _copy(view.get(field, [])) for field in LAYOUT_FIELDS}, cat)
    _cache.insert(0, layout)
    del _cache[CACHE_SIZE:]
    return layout


def _copy(value):
    """A copy of plain data (lists, tuples, dicts of str, int, bool, None) that shares nothing mutable with it: the
    cache keeps the layout fields it was drawn from even if the caller changes its view in place afterwards."""
    if isinstance(value, list):
        return [_copy(item) for item in value]
    if isinstance(value, tuple):
        return tuple(_copy(item) for item in value)
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    return value


class _Cell:
    """A square that shows its tokens: its name, its ground, and what it shows when empty."""

    __slots__ = ("key", "ground", "pit", "empty", "gear")
    tokens = True
    """Filled from the view's tokens (a _Chips from its hidden tokens)."""

    def __init__(self, name: str, ground: str, pit: bool, terrain: str, gear: str | None = None) -> None:
        self.key, self.ground, self.pit, self.gear = name, ground, pit, gear
        """`gear`: the arrow of the rotation mechanism on the square (still shown beside a token on it)."""
        self.empty: StyleAndTextTuples = [(ground, terrain)]

    def draw(self, here: list[dict]) -> StyleAndTextTuples:
        """The square with its tokens (at least one) on it."""
        if len(here) > 1:
            here = sorted(here, key=_priority)
        main = here[0]
        label = _label(main)
        # A copy's id has four characters (bKY2, DT-279): the square's marks give way so that it stays CELL wide
        # (a play-test's row moved one column left from "bPACH  bKY2" on: pt25 F5)
        if len(here) > 2:  # a Paladin's two objects (PD-CHAR-PALADIN-01): the first's initial and a "+" (pt25 F12:
            # one of them was drawn, as if he carried one); `look` names both
            first = _second_label(here[1])[:CELL - len(label) - 1]
            return [(_token_style(main), label), (_second_style(here[1]), first), (_second_style(here[2]), "+")]
        if len(here) > 1:
            return [(_token_style(main), label), (_second_style(here[1]), _second_label(here[1])[:CELL - len(label)])]
        short = len(label) + 2 <= CELL
        if self.pit:  # "(bTH)", "(bKY2"
            return [(self.ground, "("), (_token_style(main), label), (self.ground, ")" if short else "")]
        if self.gear:  # "@bTH↻", "bKY2↻"
            return [(self.ground, "@" if short else ""), (_token_style(main), label), (self.ground, self.gear)]
        suffix = "?" if main["face_down"] and main["id"] else " "
        return [(self.ground, " " if short else ""), (_token_style(main), label), (self.ground, suffix)]


class _Chips:
    """The row of a face-down room that shows the colours of its hidden tokens."""

    __slots__ = ("key", "empty")
    tokens = False

    def __init__(self, slot: str) -> None:
        self.key = slot
        self.empty: StyleAndTextTuples = [("class:board.hidden", "░" * ROOM_SPAN)]

    def draw(self, colours: list[str]) -> StyleAndTextTuples:
        """The colours of the hidden tokens, or their ids when the view names them (a finished game's replay,
        which shows everything) and they fit in the room's width."""
        named = all(len(entry) > 1 for entry in colours) and 1 + sum(len(e) + 1 for e in colours) <= ROOM_SPAN
        chips: StyleAndTextTuples = [("class:board.hidden-label", " ")]
        for entry in colours:
            text = entry if named else entry[0].lower()
            chips += [(f"class:token.{entry[0].lower()}", text), ("class:board.hidden-label", " ")]
        return _centered(chips, ("class:board.hidden", "░"))


class _Layout:
    """The drawn layout of a board: every line without tokens, and each rank line as static runs of fragments
    between the squares (and face-down room rows) that tokens (and hidden-token colours) fill in."""

    def __init__(self, fields: dict, cat) -> None:
        self.fields, self.catalogue, self.language = fields, cat, language()
        board = _Board(fields, cat)
        self.lines: list[StyleAndTextTuples] = [board.header(), board.files(), board.edge_line(board.height)]
        self.ranks: dict[int, tuple[int, list[tuple[StyleAndTextTuples, _Cell | _Chips | None]]]] = {}
        self.rank_of: dict[str, int] = {}
        """The rank of every square name that shows tokens; a token elsewhere (in a face-down room) is not drawn."""
        self.chip_ranks: dict[str, int] = {}
        for y in range(board.height, -2, -1):
            pieces = board.square_line(y)
            runs: list[tuple[StyleAndTextTuples, _Cell | _Chips | None]] = []
            static: StyleAndTextTuples = []
            line: StyleAndTextTuples = []
            for piece in pieces:
                if isinstance(piece, (_Cell, _Chips)):
                    runs.append((static, piece))
                    static = []
                    line += piece.empty
                    (self.rank_of if piece.tokens else self.chip_ranks)[piece.key] = y
                else:
                    static.append(piece)
                    line.append(piece)
            runs.append((static, None))
            self.ranks[y] = (len(self.lines), runs)
            self.lines.append(line)
            self.lines.append(board.edge_line(y - 1))
        # TRANSLATORS: the caption under the board: Blue's start zone is its rank 0
        self.lines += [board.files(), board.title(_("Blue start zone (rank {rank})").format(rank=0))]

    def matches(self, view: dict) -> bool:
        fields = self.fields
        return all(view.get(field, []) == fields[field] for field in LAYOUT_FIELDS)

    def render(self, view: dict, trails: dict[str, list[str]]) -> list[StyleAndTextTuples]:
        rank_of, chip_ranks = self.rank_of, self.chip_ranks
        tokens: dict[str, list[dict]] = {}
        colours: dict[str, list[str]] = {}
        busy: set[int] = set()
        shade: dict[str, str] = {}  # square -> the trail style of the last move that crossed it
        for colour, route in trails.items():
            for name in route:
                y = rank_of.get(name)
                if y is not None:
                    shade[name] = f" class:board.trail-{colour.lower()}"
                    busy.add(y)
        for token in view["tokens"]:
            name = token["square"]
            if name not in rank_of:  # in a face-down room (not drawn), or a square name written another way
                name = square_name(square_of(name))
            y = rank_of.get(name)
            if y is not None:
                tokens.setdefault(name, []).append(token)
                busy.add(y)
        for token in view["hidden"]:
            y = chip_ranks.get(token["slot"])
            if y is not None:
                colours.setdefault(token["slot"], []).append(token.get("id") or token["colour"])
                busy.add(y)
        out = [list(line) for line in self.lines]
        for y in busy:
            index, runs = self.ranks[y]
            line: StyleAndTextTuples = []
            for static, piece in runs:
                line += static
                if piece is None:
                    continue
                filled = (tokens if piece.tokens else colours).get(piece.key)
                drawn = piece.draw(filled) if filled else piece.empty
                trail = shade.get(piece.key) if piece.tokens else None
                line += [(style + trail, text) for style, text, *_ in drawn] if trail else drawn
            out[index] = line
        return out


class _Board:
    """The geometry of a layout and its drawing, from the layout fields of a view (LAYOUT_FIELDS) only."""

    def __init__(self, fields: dict, cat) -> None:
        rows = fields["rows"]
        if type(rows) is not int or not 1 <= rows <= MAX_ROWS:  # (the screen's _drawn says so in the board's place)
            raise ValueError(f"a board of {str(rows)[:20]} rows of rooms (at most {MAX_ROWS} are drawn)")
        self.height = ROOM * rows
        self.catalogue = cat
        self.rooms = {f"{'AB'[x]}{y + 1}": {"slot": f"{'AB'[x]}{y + 1}", "revealed": False, "tile": None}
                      for x in range(2) for y in range(fields["rows"])}  # none laid yet: a draft (PD-TEAM-MUTUAL)
        self.rooms.update({room["slot"]: room for room in fields["rooms"]})
        self.pits = {square_of(name) for name in fields["pits"]}
        # Paladins & Dragons: square terrain (kind -> squares) and the Illusionists' markers (pits and rubble)
        self.terrain = {square_of(name): kind for kind, names in dict(fields["terrain"] or {}).items()
                        for name in names}
        self.illusions = {square_of(name): (colour, kind) for name, colour, kind in fields["illusions"]}
        self.gears = {square_of(name): slot for slot, name in fields["gears"].items()}
        self.lines_at: dict[tuple[Square, Square], str] = {}
        """The walls and portcullises, each under both orders of its squares (a portcullis over a wall)."""
        edges = [(a, b, "wall") for a, b, _ in fields["walls"]] + [(a, b, "slit") for a, b in fields["slits"]]
        for a, b, kind in edges + list(fields["portcullises"]):
            a, b = square_of(a), square_of(b)
            self.lines_at[(a, b)] = self.lines_at[(b, a)] = kind
        marked = [n - 1 for n in self.catalogue.board.get("start_squares", [])]
        self.marked = {(x, y) for x in marked for y in (-1, self.height)}
        self.slots = {(x, y): f"{'AB'[x // ROOM]}{y // ROOM + 1}" for x in range(WIDTH) for y in range(self.height)}
        self.down = {square for square, slot in self.slots.items() if not self.rooms[slot]["revealed"]}
        self.inside = {(x, y) for x in range(WIDTH) for y in range(-1, self.height + 1)}
        self.west_of: dict[Square, str] = {}
        self.north_of: dict[Square, str] = {}
        """Edges already worked out (each is asked for by a square or edge line and by two junctions)."""

    # --- geometry ---------------------------------------------------------------------------------
    def on_board(self, square: Square) -> bool:
        return square in self.inside

    def slot(self, square: Square) -> str | None:
        return self.slots.get(square)

    def face_down(self, square: Square) -> bool:
        return square in self.down

    def edge(self, a: Square, b: Square) -> str:
        """What lies between two adjacent squares: a line kind (LINES), "hidden", "seam", "none" or "outside"."""
        inside = (a in self.inside) + (b in self.inside)
        if inside < 2:
            return "border" if inside else "outside"
        kind = self.lines_at.get((a, b))
        if kind:
            return kind
        if self.slots.get(a) != self.slots.get(b):
            return "seam"
        return "hidden" if a in self.down else "none"

    def west(self, x: int, y: int) -> str:
        """The edge between square (x - 1, y) and square (x, y)."""
        kind = self.west_of.get((x, y))
        if kind is None:
            kind = self.west_of[(x, y)] = self.edge((x - 1, y), (x, y))
        return kind

    def north(self, x: int, y: int) -> str:
        """The edge between square (x, y) and square (x, y + 1)."""
        kind = self.north_of.get((x, y))
        if kind is None:
            kind = self.north_of[(x, y)] = self.edge((x, y), (x, y + 1))
        return kind

    def hidden_span(self, x: int, y: int) -> bool:
        """Whether square x of rank y starts the row of a face-down room (drawn as one block)."""
        return x % ROOM == 0 and self.face_down((x, y))

    def hidden_edge_span(self, x: int, y: int) -> bool:
        """Whether the edges above squares x.. of rank y start a row of edges inside a face-down room."""
        return self.hidden_span(x, y) and self.slot((x, y)) == self.slot((x, y + 1))

    # --- lines ------------------------------------------------------------------------------------
    def header(self) -> StyleAndTextTuples:
        # TRANSLATORS: the caption above the board: Yellow's start zone, the rank after the last room's
        return self.title(_("Yellow start zone (rank {rank})").format(rank=self.height + 1))

    def title(self, text: str) -> StyleAndTextTuples:
        return [("class:board.label", (" " * 4 + text.center(WIDTH * (CELL + 1) - 1)).rstrip())]

    def files(self) -> StyleAndTextTuples:
        text = "    " + "".join(f"{f:^{CELL}} " for f in FILES)
        return [("class:board.label", text.rstrip())]

    def square_line(self, y: int) -> list[tuple[str, str] | _Cell | _Chips]:
        """Rank y: its fragments, with a _Cell for each square that shows tokens and a _Chips for the row of a
        face-down room that shows the colours of its hidden tokens."""
        line: list[tuple[str, str] | _Cell | _Chips] = [("class:board.label", f"{y + 1:>2} ")]
        line += self.vertical(0, y)
        x = 0
        while x < WIDTH:
            if self.hidden_span(x, y):
                line += self.hidden_room_row(self.slot((x, y)), 2 * (ROOM - 1 - y % ROOM))
                x += ROOM
            else:
                line += self.cell((x, y))
                x += 1
            line += self.vertical(x, y)
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
                line += self.horizontal(x, y)
                x += 1
            line.append(self.junction(x, y))
        return line

    def right_label(self, y: int) -> str:
        if 0 <= y < self.height and y % ROOM == ROOM // 2:
            return f" {y // ROOM + 1}"
        return ""

    # --- edges ------------------------------------------------------------------------------------
    def vertical(self, x: int, y: int) -> StyleAndTextTuples:
        """The edge west of square (x, y)."""
        kind = self.west(x, y)
        return [(EDGE_STYLE.get(kind, ""), VERTICAL.get(kind, " "))]

    def horizontal(self, x: int, y: int) -> StyleAndTextTuples:
        """The edge north of square (x, y)."""
        kind = self.north(x, y)
        return [(EDGE_STYLE.get(kind, ""), HORIZONTAL.get(kind, " ") * CELL)]

    def junction(self, x: int, y: int) -> tuple[str, str]:
        """The corner left of square column x, between rank y and rank y + 1."""
        arms = (self.west(x, y + 1), self.west(x, y), self.north(x - 1, y), self.north(x, y))
        key = tuple(int(arm in LINES) for arm in arms)
        if any(key):
            return ("class:board.wall", JUNCTIONS[key])
        if all(arm == "hidden" for arm in arms):
            return ("class:board.hidden", "░")
        if "seam" in arms:
            return ("class:board.seam", "·")
        return ("", " ")

    # --- squares ----------------------------------------------------------------------------------
    def cell(self, square: Square) -> list[_Cell]:
        return [_Cell(square_name(square), self.ground_style(square), square in self.pits, self.terrain_text(square),
                      self.gear_arrow(square))]

    def gear_arrow(self, square: Square) -> str | None:
        """↻ or ↺ on a rotation mechanism (BG-ROT: the direction its room turns), else None."""
        if square not in self.gears:
            return None
        tile = self.catalogue.rooms.get(self.rooms[self.gears[square]]["tile"])
        return "@" if tile is None else "↻" if tile.clockwise else "↺"

    def ground_style(self, square: Square) -> str:
        if square in self.illusions:
            return "class:board.illusion"
        if square in self.terrain:
            return f"class:board.{self.terrain[square]}"
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
        if square in self.illusions:  # an illusion shows its maker's colour: (b) a pit, [b] rubble
            colour, kind = self.illusions[square]
            return f" ({colour.lower()}) " if kind == "pit" else f" [{colour.lower()}] "
        if square in self.terrain:
            return TERRAIN_TEXT[self.terrain[square]]
        if square in self.pits:
            return " ( ) "
        if square in self.gears:
            tile = self.catalogue.rooms.get(self.rooms[self.gears[square]]["tile"])
            if tile is None:
                return "  @  "
            # centred in the cell: " @3↻ ", and " @39↻" for the two-digit pairs of other sets (it overflowed)
            return f"@{tile.number}{'↻' if tile.clockwise else '↺'}".center(CELL)
        if square in self.marked:
            return "  ◦  "
        return " " * CELL

    def hidden_room_row(self, slot: str, row: int) -> list[tuple[str, str] | _Chips]:
        """Row `row` (0..8: square rows and the edge rows between them) of a face-down room; row 4 shows the
        colours of the room's hidden tokens (a _Chips, filled in at each render)."""
        shade = ("class:board.hidden", "░")
        if row == 2:  # the label is cut to the room's width, however long its translation
            # TRANSLATORS: written across a face-down room on the board ("A3 face down"): keep it short
            label = _("{room} face down").format(room=slot)[:ROOM_SPAN - 2]
            return _centered([("class:board.hidden-label", f" {label} ")], shade)
        tile = self.rooms.get(slot, {}).get("tile")
        if row == 6 and tile is not None:  # a view that shows everything (a finished game's replay) names the room
            # TRANSLATORS: under "A3 face down" on the board when everything is shown (a finished game's replay):
            # the room card it is; keep it short
            label = _("room {tile}").format(tile=tile)[:ROOM_SPAN - 2]
            return _centered([("class:board.hidden-label", f" {label} ")], shade)
        if row == 4:
            return [_Chips(slot)]
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
