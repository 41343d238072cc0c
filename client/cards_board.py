"""The maze of a card-game view (engine.cards.views.view) as styled text lines.

Yellow's start zone is at the top, Blue's at the bottom (as the board game's drawing); zone rows are numbered on
the left, rooms named (A..H) on the right, the files (a..d) above and below. Each room card is 2 x 2 zones; each zone is
two lines of 12 characters (the whole drawing 59 columns: a 60-column terminal shows it all, with the board's
scrollbar; it was 64, and Shift+Right cut zone a):

  `▲ c3  yBW`    its icon (▲ triangle, ■ square, ● circle, ↻ / ↺ the rotation zone and its arrow, CG-ZONE-01),
                 its name as typed in actions, and the objects on its floor
  `bMK+RP ysn`   the characters in it: their ids, `+RP` what one carries, a lower-case code a wounded one

Borders: `│ ─` wall, `║ ═` closed portcullis, `╎ ╌` open, `╱` broken, `┊ ┈` arrow slit, `≈` pit (CG-ZONE-03);
`░` a face-down room, whose cards seeded beside it show their ids where the view names them (one's own; all of them
in a finished game's replay), else only their colours (`bKY Y`); `▒` a border between rooms that is not known
yet (a face-down room beside it; what a face-up room prints there is drawn). The start zones show each
character with the zone it faces (`yWZ→b7`), or the icon it points at a face-down room (`yWZ→▲`, `→R` the
rotation zone: where that zone lies shows at the reveal, DT-266), and the objects lying there, or, while they are
face down, how many cards lie there.

The geometry is the engine's (engine.cards.maze): the client draws what the rules see.
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples

from dungeon_twister.engine.cards.catalogue import load
from dungeon_twister.engine.cards.maze import slot_of
from dungeon_twister.engine.cards.views import maze_of_view

from .i18n import ngettext
from .names import room_card_name

CELL = 12
LABELS = 2
START = 27
"""The columns of a start position's line (B1, B2), each with the space after it (2 x 27 and the labels: 56)."""
"""The columns of the zone rows' numbers on the left (1..8: one digit and a space)."""
FILES = "abcd"
ICONS = {"T": "▲", "S": "■", "C": "●"}
ARROWS = {"cw": "↻", "ccw": "↺"}
FACED_ICONS = {**ICONS, "R": "R"}
"""An icon a start character points at a face-down room (DT-266): the rotation zone's arrow is not known yet."""
VERTICAL = {"wall": "│", "portcullis": "║", "open": "╎", "broken": "╱", "slit": "┊", "pit": "≈"}
HORIZONTAL = {"wall": "─", "portcullis": "═", "open": "╌", "broken": "╱", "slit": "┈", "pit": "≈"}
STYLE = {"wall": "class:board.wall", "portcullis": "class:board.closed", "open": "class:board.open",
         "broken": "class:board.broken", "slit": "class:board.slit", "pit": "class:board.pit"}
ORDER = ("wall", "portcullis", "broken", "open", "slit", "pit")
"""Which of a border's features is drawn when both rooms print one."""
HIDDEN = "hidden"
"""A border whose print is unknown: a face-down room on one side, and the other prints nothing there."""


def render_cards_board(view: dict, trails: dict | None = None) -> list[StyleAndTextTuples]:
    """The maze as lines of (style, text) fragments (`trails`: unused, the board game's last-move shading)."""
    return _Drawing(view).lines()


def cards_board_text(view: dict) -> str:
    return "\n".join("".join(text for _, text in line) for line in render_cards_board(view))


maze_of = maze_of_view
"""The engine's geometry of the view's maze (engine/cards/views.py)."""


def _fit(text: str, width: int = CELL) -> str:
    return text[:width].ljust(width)


class _Drawing:
    def __init__(self, view: dict) -> None:
        self.view = view
        self.maze = maze_of(view)
        self.height = 2 * view["length"]
        self.rooms = view["rooms"]
        self.figures: dict[str, list[dict]] = {}
        self.floor: dict[str, list[dict]] = {}
        for f in view.get("figures", ()):
            if f.get("where") in ("maze", "start") and "at" in f:
                self.figures.setdefault(f["at"], []).append(f)
        for i in view.get("items", ()):
            if i.get("where") == "floor":
                self.floor.setdefault(i["at"], []).append(i)
        self.seeded: dict[str, list[str]] = {}
        """Room -> the ids of the cards seeded beside it that the view names (one's own; all of them in a finished
        game's replay); the others show only their backs' colours."""
        for card in (*view.get("figures", ()), *view.get("items", ())):
            if card.get("where") == "seeded" and isinstance(card.get("room"), str):
                self.seeded.setdefault(card["room"], []).append(str(card["id"]))

    # --- the whole drawing ----------------------------------------------------------------------------------
    def lines(self) -> list[StyleAndTextTuples]:
        out = [self._files(), self._start("Y")]
        out.append(self._edge_line(self.height))
        for y in range(self.height - 1, -1, -1):
            out += self._zone_lines(y)
            out.append(self._edge_line(y))
        out += [self._start("B"), self._files()]  # (the files below the board too, as the board game's)
        return out

    def _files(self) -> StyleAndTextTuples:
        text = " " * LABELS + "".join(f" {f:^{CELL}}" for f in FILES)
        return [("class:board.label", text.rstrip())]

    def _revealed(self, x: int, y: int) -> bool:
        return self.rooms[slot_of((x, y))]["revealed"]

    # --- zones ----------------------------------------------------------------------------------------------
    def _zone_lines(self, y: int) -> list[StyleAndTextTuples]:
        first: StyleAndTextTuples = [("class:board.label", f"{y + 1:<{LABELS}}")]
        second: StyleAndTextTuples = [("class:board.label", " " * LABELS)]
        for x in range(4):
            edge = self._vertical(x, y)
            first.append(edge)
            second.append(edge)
            if self._revealed(x, y):
                first += self._head(x, y)
                second += self._people(f"{FILES[x]}{y + 1}")
            else:
                first += self._hidden_head(x, y)
                second += self._backs(x, y)
        first.append(self._vertical(4, y))
        second.append(self._vertical(4, y))
        slot = slot_of((0, y))
        label = f" {'ABCDEFGH'[slot]} {'ABCDEFGH'[slot + 1]}" if y % 2 == 1 else ""
        first.append(("class:board.label", label))
        return [first, second]

    def _head(self, x: int, y: int) -> StyleAndTextTuples:
        name = f"{FILES[x]}{y + 1}"
        icon = self.maze.icon((x, y))
        if icon == "R":
            room = self.maze.rooms[slot_of((x, y))]
            mark, style = ARROWS[load().rooms[room.card].arrow], "class:board.gear"
        else:
            mark, style = ICONS[icon], "class:board.label"
        out: StyleAndTextTuples = [(style, mark), ("class:board.label", f" {name:<3}")]
        used = 5
        for item in self.floor.get(name, ()):
            label = " " + item["id"]
            if used + len(label) > CELL:
                break
            out.append(("", " "))
            out.append((f"class:object.{item['seat'].lower()}", item["id"]))
            used += len(label)
        out.append(("", " " * (CELL - used)))
        return out

    def _people(self, where: str) -> StyleAndTextTuples:
        here = self.figures.get(where, [])
        labels = [_label(f, carries=True) for f in here]
        if len(" ".join(labels)) > CELL:
            labels = [_label(f, carries=False) for f in here]
        out: StyleAndTextTuples = []
        used = 0
        for f, label in zip(here, labels):
            if out:
                out.append(("", " "))
                used += 1
            out.append((_style(f), label))
            used += len(label)
        if used > CELL:  # more people than the zone's columns: cut, `look ZONE` tells them all (play-test pt27 F18:
            return _cut(out, CELL)  # 4 and 5 of them pushed the room's border out of its column)
        out.append(("", " " * (CELL - used)))
        return out

    def _hidden_head(self, x: int, y: int) -> StyleAndTextTuples:
        """A face-down room's first line: the room's card in its top-left zone where the view names it (the view of
        everything, a finished game's replay: play-test 21b found its face-down rooms unnamed), else the room."""
        card = self.rooms[slot_of((x, y))].get("card")
        if card and x % 2 == 0 and y % 2 == 1:  # (its name alone: "room" in some languages would not fit a zone)
            return [("class:board.hidden-label", _fit(f" {room_card_name(card)}"))]
        return [("class:board.hidden", "░" * CELL)]

    def _backs(self, x: int, y: int) -> StyleAndTextTuples:
        """A face-down room's second line: in its top row's zones, the cards seeded beside it, each by its id where
        the view names it (bBK), else by the colour of its back (Y)."""
        room = self.rooms[slot_of((x, y))]
        if y % 2 == 0 or not room.get("face_down_cards"):
            return [("class:board.hidden", "░" * CELL)]
        backs, words = list(room["face_down_cards"]), []
        for card in sorted(self.seeded.get(room["room"], ())):
            colour = card[:1].upper()
            if colour in backs:
                backs.remove(colour)
                words.append(card)
        words += backs
        lines, line = [""], ""
        for word in words:  # the room's two zones hold a line each
            if line and len(line) + 1 + len(word) > CELL - 1:
                lines.append(line := "")
            line = f"{line} {word}" if line else word
            lines[-1] = line
        text = lines[x % 2] if x % 2 < len(lines) else ""
        if not text:
            return [("class:board.hidden", "░" * CELL)]
        return [("class:board.hidden-label", _fit(f" {text}"))]

    # --- borders --------------------------------------------------------------------------------------------
    def _feature(self, zone: tuple[int, int], side: str) -> str | None:
        found = self.maze.features(zone, side)
        return next((f for f in ORDER if f in found), None)

    def _vertical(self, x: int, y: int) -> tuple[str, str]:
        """The border west of zone (x, y) (x = 4: the maze's east side)."""
        if x in (0, 4):
            return ("class:board.wall", "│")
        known = self._known((x - 1, y), "E", (x, y), "W")
        if known is not None:
            return ("class:board.hidden", self._unknown(x - 1, y, x, y)) if known is HIDDEN \
                else (STYLE[known], VERTICAL[known])
        feature = self._feature((x, y), "W")
        return (STYLE[feature], VERTICAL[feature]) if feature else ("", " ")

    def _unknown(self, x1: int, y1: int, x2: int, y2: int) -> str:
        """How a HIDDEN border is drawn: inside a face-down room as the room (░); between two rooms as a seam (▒),
        so that the rooms stay apart (it was the arrow slit's dashes, ┈ / ┆)."""
        return "░" if slot_of((x1, y1)) == slot_of((x2, y2)) else "▒"

    def _known(self, a: tuple[int, int], side_a: str, b: tuple[int, int], side_b: str) -> str | None:
        """A border with a face-down room on one side or both: what the face-up side prints (a wall, a pit...:
        `look` tells it, the board must too), else HIDDEN; None when both rooms are face up."""
        up_a, up_b = self._revealed(*a), self._revealed(*b)
        if up_a and up_b:
            return None
        feature = self._feature(a, side_a) if up_a else self._feature(b, side_b) if up_b else None
        return feature or HIDDEN

    def _edge_line(self, y: int) -> StyleAndTextTuples:
        """The border south of zone row y (y = height: the maze's north side; y = 0: its south side)."""
        out: StyleAndTextTuples = [("", " " * LABELS)]
        for x in range(4):
            out.append(("class:board.label", "+"))
            if y in (0, self.height):  # towards a start zone: "·" open (CG-START-03), else what the room prints
                zone, side = ((x, 0), "S") if y == 0 else ((x, y - 1), "N")
                feature = self._feature(zone, side) if self._revealed(*zone) else None
                out.append((STYLE[feature], HORIZONTAL[feature] * CELL) if feature
                           else ("class:board.label", "·" * CELL))
                continue
            below, above = (x, y - 1), (x, y)
            known = self._known(below, "N", above, "S")
            if known is not None:
                out.append(("class:board.hidden", self._unknown(*below, *above) * CELL) if known is HIDDEN
                           else (STYLE[known], HORIZONTAL[known] * CELL))
                continue
            feature = self._feature(above, "S")
            out.append((STYLE[feature], HORIZONTAL[feature] * CELL) if feature else ("", " " * CELL))
        out.append(("class:board.label", "+"))
        return out

    # --- start zones ----------------------------------------------------------------------------------------
    def _start(self, seat: str) -> StyleAndTextTuples:
        out: StyleAndTextTuples = [("class:board.label", f"{seat:<{LABELS}}")]
        counts = self.view.get("start_cards", {})
        for col in (1, 2):
            where = f"{seat}{col}"
            shown = self.figures.get(where, [])
            fragments: StyleAndTextTuples = [("class:board.label", f"{where}: ")]
            used = len(where) + 2
            for f in shown:
                # DT-266: the icon it points at the face-down room in front, until the reveal shows its zone
                facing = f.get("facing") or FACED_ICONS.get(f.get("facing_icon") or "", "")
                label = _label(f, carries=True) + (f"→{facing}" if facing else "")
                fragments += [(_style(f), label), ("", " ")]
                used += len(label) + 1
            for item in self.floor.get(where, ()):  # an object lying there (DT-206: psychokinesis, CG-WOUND-04)
                fragments += [(f"class:object.{item['seat'].lower()}", item["id"]), ("", " ")]
                used += len(item["id"]) + 1
            hidden = counts.get(where, 0) - len(shown)
            if hidden > 0:
                # TRANSLATORS: how many cards lie face down on a start zone, beside it on the board ("2 face down")
                text = ngettext("{count} face down", "{count} face down", hidden).format(count=hidden)
                fragments.append((f"class:board.zone-{seat.lower()}", text))
                used += len(text)
            out += _fit_fragments(fragments, used, START)
        return out


def _fit_fragments(fragments: StyleAndTextTuples, used: int, width: int) -> StyleAndTextTuples:
    """A start position's `used` columns of fragments in its `width`, padded, with a space before the next: cut
    with "…" when more stands and lies there than fits (seen by a review: the next position's column moved)."""
    if used < width:
        return fragments + [("", " " * (width - used))]
    return _cut(fragments, width - 1) + [("", " ")]  # (the cut, "…", and the space before the next position)


def _cut(fragments: StyleAndTextTuples, width: int) -> StyleAndTextTuples:
    """`fragments`, longer than `width` columns, cut to `width - 1` of them and "…"."""
    out: StyleAndTextTuples = []
    room = width - 1
    for style, text in fragments:
        if len(text) >= room:
            out.append((style, text[:room]))
            break
        out.append((style, text))
        room -= len(text)
    return out + [("class:board.label", "…")]


def _label(f: dict, carries: bool) -> str:
    code = f["code"].lower() if f.get("wounded") else f["code"]
    label = f["seat"].lower() + code
    loads = [load[1:] for load in (f.get("carries"), f.get("also_carries")) if load]  # the Paladin's two too
    loads += ["?"] * f.get("hidden_objects", 0)  # CG-OPT-03: an object of the other player's, unseen
    if loads:
        label += "".join(f"+{load}" for load in loads) if carries else "*"
    return label


def _style(f: dict) -> str:
    colour = f["seat"].lower()
    return f"class:token.{colour}.wounded" if f.get("wounded") else f"class:token.{colour}"


__all__ = ["render_cards_board", "cards_board_text", "maze_of"]
