"""The card game's actions: frozen values; their canonical text is in notation.py."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CardAction:
    seat: str


@dataclass(frozen=True, slots=True)
class Hide(CardAction):
    """CG-TUT1-04: secretly place the start characters face down; placements = ((figure, column 0/1), ...)."""

    placements: tuple


@dataclass(frozen=True, slots=True)
class Seed(CardAction):
    """CG-TUT1-04: lay one of one's objects face down beside a face-down room (slot)."""

    item: str
    slot: int


@dataclass(frozen=True, slots=True)
class Face(CardAction):
    """CG-START-02, CG-TUT1-05: the facing of each start character, chosen secretly; ((figure, zone), ...)."""

    facings: tuple


@dataclass(frozen=True, slots=True)
class Reveal(CardAction):
    """CG-REVEAL-01: figure reveals the face-down room in slot."""

    figure: str
    slot: int


@dataclass(frozen=True, slots=True)
class Place(CardAction):
    """CG-REVEAL-06: put a card of the just-revealed room in one of its zones."""

    card: str
    zone: tuple


@dataclass(frozen=True, slots=True)
class PassPlacement(CardAction):
    """CG-OPT-02: the revealer's opponent leaves the revealer's objects still to place to the revealer (what his
    timeout does; he may choose it sooner)."""


@dataclass(frozen=True, slots=True)
class Move(CardAction):
    """CG-MOVE-01: path tokens: "b2" step into a zone, "B1" step onto a start position (own: stay; opponent's:
    exit), "^b2" turn to face b2 (start zone), "B2^c1" step along the start zone facing c1, "+bKY" take an object
    (floor or friend), "-bKY" drop it, ">bMK" give the carried object to a friend."""

    figure: str
    path: tuple


@dataclass(frozen=True, slots=True)
class Rotate(CardAction):
    """CG-ROT-01/02: a quarter turn of the room in slot (the figure's room or its twin)."""

    figure: str
    slot: int
    clockwise: bool


@dataclass(frozen=True, slots=True)
class Jump(CardAction):
    """CG-JUMP-01/02: play a jump card to cross a pit border into zone; with no jump card left, discard the combat
    card `card` instead (CG-JUMP-04)."""

    figure: str
    zone: tuple
    card: int | None = None


@dataclass(frozen=True, slots=True)
class Portcullis(CardAction):
    """CG-OBJ-KEY-01: open or close the portcullis on `side` of the figure's zone."""

    figure: str
    zone: tuple
    side: str
    open: bool


@dataclass(frozen=True, slots=True)
class EndTurn(CardAction):
    """CG-TURN-01: the active player stops using AP."""


@dataclass(frozen=True, slots=True)
class Attack(CardAction):
    """CG-COMBAT-01: figure attacks the enemy `target` in its zone (1 AP)."""

    figure: str
    target: str


@dataclass(frozen=True, slots=True)
class Shoot(CardAction):
    """CG-RANGED-01: a figure with a crossbow (the Crossbowman) or carrying a Bow starts a ranged combat."""

    figure: str
    target: str


@dataclass(frozen=True, slots=True)
class Heal(CardAction):
    """CG-CHAR-CLERIC-01: the Cleric turns a wounded character of his zone face up."""

    figure: str
    target: str


@dataclass(frozen=True, slots=True)
class Fireball(CardAction):
    """CG-OBJ-FIREBALL-01: a spellcaster reads the Fireball Scroll he carries at a character."""

    figure: str
    target: str


@dataclass(frozen=True, slots=True)
class Invert(CardAction):
    """CG-OBJ-INVERSION-01: a spellcaster reads the Inversion Scroll he carries: his room and the room `slot` next to
    it change places."""

    figure: str
    slot: int


@dataclass(frozen=True, slots=True)
class Steal(CardAction):
    """CG-CHAR-PICKPOCKET-01: the Pickpocket takes an enemy's object in his zone."""

    figure: str
    item: str


@dataclass(frozen=True, slots=True)
class WallWalk(CardAction):
    """CG-CHAR-WALLWALKER-01/02: through one wall into the zone beyond, with exchanges before and after (`path`:
    item tokens as in a move, and the one zone)."""

    figure: str
    path: tuple


@dataclass(frozen=True, slots=True)
class Levitate(CardAction):
    """CG-CHAR-TELEKIN-01/02: the Telekinetic moves `item` (lying in her room, or carried by her) along `path`, 1 to
    3 steps as a flyer goes ("c2" a zone, "B1" her start position, "^c1" / "B2^c1" along it), and drops it there
    or gives it to the character `to`."""

    figure: str
    item: str
    path: tuple
    to: str | None = None


@dataclass(frozen=True, slots=True)
class BreakWalls(CardAction):
    """CG-CHAR-GOLEM-01: the Golem breaks every wall of his room."""

    figure: str


@dataclass(frozen=True, slots=True)
class Regenerate(CardAction):
    """CG-CHAR-TROLL-01: the wounded Troll turns himself face up."""

    figure: str


@dataclass(frozen=True, slots=True)
class Frenzy(CardAction):
    """CG-CHAR-BERSERK-01: the Berserker's player announces how many combat cards (1 or 2) it will play."""

    count: int


@dataclass(frozen=True, slots=True)
class MindControl(CardAction):
    """CG-CHAR-TELEPATH-01: the Telepath's player names a combat value (1-6), or nothing (None)."""

    value: int | None


@dataclass(frozen=True, slots=True)
class CombatCard(CardAction):
    """CG-COMBAT-02: the combat card laid face down (secret, simultaneous); `second`: the Berserker's second card,
    when 2 were announced (CG-CHAR-BERSERK-01)."""

    value: int
    second: int | None = None


@dataclass(frozen=True, slots=True)
class BendBars(CardAction):
    """CG-CHAR-WARRIOR-01 / CG-CHAR-COLOSSUS-01: break the portcullis on `side` of the figure's zone (1 AP)."""

    figure: str
    zone: tuple
    side: str


@dataclass(frozen=True, slots=True)
class Pick(CardAction):
    """CG-SEL-MUTUAL-01 / CG-SEL-DRAFT-01: show (mutual: both take it) or take (draft: the opponent's matching
    card leaves the game) a character, then an object, by its code."""

    code: str


@dataclass(frozen=True, slots=True)
class Build(CardAction):
    """CG-SEL-FULL-01: a full frontal selection: the characters and objects chosen in secret (codes, sorted; an
    object with two copies may be named twice)."""

    characters: tuple
    objects: tuple


@dataclass(frozen=True, slots=True)
class Remove(CardAction):
    """CG-HCAP-03: the handicapped player's characters left out, chosen in secret after the selection."""

    figures: tuple
