"""Prompt completion: commands, their arguments, and our legal actions word by word (from view.legal)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from dungeon_twister.protocol.msg_lobby import SCENARIOS

from .cards_panel import FACED_ICONS
from .describe import TERRAIN_WORDS
from .help import topics, verb_summary
from .i18n import _, ngettext
from .names import kind_name, pair_label, token_name
from .printable import printable
from .state import ClientState

LOBBY_COMMANDS = ("create", "join", "spectate", "bot", "chat", "ignore", "unignore", "refresh", "ratings", "games",
                  "reconnect", "help", "quit")
GAME_COMMANDS = ("look", "bot", "chat", "log", "ignore", "unignore", "leave", "resign", "undo", "draw", "rematch",
                 "reconnect",
                 "help", "quit")
SPECTATOR_COMMANDS = ("look", "chat", "log", "ignore", "unignore", "leave", "reconnect", "help", "quit")
CREATE_OPTIONS = ("vp=5", "vp=6", "vp=7", "vp=8", "beginner", "timers", "private", "prison", "mixed",
                  "paladins", "base_paladins", "prison_paladins", "all_sets", "mutual", "free", "cards")
CARD_CREATE_OPTIONS = ("tutorial=1", "tutorial=2", "tutorial=3", "standard", "mutual", "full", "draft", "timers",
                       "secret", "private")
"""After `create cards` (commands.parse_table_options): the Card Game's own options."""
SCENARIO_CREATE_OPTIONS = ("timers", "private")
"""After `create prison-N` (commands.parse_table_options): what a scenario leaves to choose."""
BOT_KINDS = ("planner", "greedy", "random")
_NUMBER = re.compile(r"(\d+)")


def natural_order(word: str) -> list:
    """The menu's sort key: numbers by their value, so that a square c9 comes before c10 and room pair 4 before
    37, as a player reads them (a plain sort put "pairs=37," between "pairs=3," and "pairs=4,")."""
    pieces: list = _NUMBER.split(word)
    pieces[1::2] = map(int, pieces[1::2])  # re.split puts the numbers at the odd places, the text around them even
    return pieces


def next_words(legal: Iterable[str], typed: list[str], partial: str) -> dict[str, list[str]]:
    """The possible next words of the actions that begin with the words `typed`, by the actions they lead to."""
    words: dict[str, list[str]] = {}
    depth = len(typed)
    for action in legal:
        parts = action.split()
        if len(parts) > depth and parts[:depth] == typed and parts[depth].startswith(partial):
            words.setdefault(parts[depth], []).append(action)
    return words


UNORDERED = ("hide", "face")
"""The Card Game's setup choices, whose words after the verb are a set (`hide bWZ:1 bCB:2` plays as `hide bCB:2
bWZ:1`): completed in any order (`unordered_words`)."""


def unordered_words(legal: Iterable[str], typed: list[str], partial: str) -> dict[str, list[str]]:
    """As `next_words`, for an action whose words after its verb may come in any order: any word of an action that
    holds every word typed so far (in any case), not only the next one in the listed order (play-test pt25b: the
    character that sorts last, the Wizard, was never offered first)."""
    words: dict[str, list[str]] = {}
    chosen = [word.lower() for word in typed[1:]]
    for action in legal:
        verb, *rest = action.split()
        if verb != typed[0]:
            continue
        left = list(rest)
        for word in chosen:
            match = next((listed for listed in left if listed.lower() == word), None)
            if match is None:
                break
            left.remove(match)
        else:
            for word in left:
                if word.lower().startswith(partial.lower()):
                    words.setdefault(word, []).append(action)
    return words


def as_listed(legal: Iterable[str], typed: list[str]) -> list[str]:
    """`typed` with each word spelled as the legal actions spell it at its place, where exactly one spelling fits:
    a code in another case (`hide sw`), or a token without its colour (`hide SW` for bSW), as the parser reads them
    (play-test pt23: `hide SW ` + Tab offered nothing, though `hide SW A1` plays)."""
    out: list[str] = []
    for place, word in enumerate(typed):
        spellings = {parts[place] for action in legal
                     if len(parts := action.split()) > place and parts[:place] == out}
        if not spellings:
            # no legal action goes on from here, so no later word can fit either: a pasted text of 1,200 words
            # went through every legal action once a word, at every key typed (~1 s a key; play-test pt29)
            return out + typed[place:]
        if word not in spellings:
            folded = word.lower()
            fits = [spelling for spelling in spellings if spelling.lower() == folded or (
                spelling[:1] in ("b", "y") and spelling[1:].lower() == folded)]
            if len(fits) == 1:
                word = fits[0]
        out.append(word)
    return out


def build_words(parts: list[dict], typed: list[str], partial: str, set_name: str | None = None) -> dict[str, str]:
    """A free build (PD-TEAM-FREE-01), word by word: `build`, then a `name=` for each part not given yet, then
    inside `name=a,b,` the next value (each at most its copies, `count` in all); a word that is not complete
    yet ends with a comma, so Tab goes on with the same part. A room pair's value says which set it comes from and
    what its rooms have (names.pair_label, of the view's set `set_name`)."""
    if not typed:
        # TRANSLATORS: beside the completion `build` (a free team building): what the command builds
        return {"build": _("your team, in secret")}
    if typed[0] != "build":
        return {}
    given = {word.split("=", 1)[0] for word in typed[1:]}
    name, eq, values = partial.partition("=")
    if not eq:
        # TRANSLATORS: beside a completion such as `characters=` of a free build: how many to choose
        return {f"{p['name']}=": _("choose {count}").format(count=p["count"]) for p in parts if p["name"] not in given}
    part = next((p for p in parts if p["name"] == name), None)
    if part is None or name in given:
        return {}
    chosen, last = values.split(",")[:-1], values.split(",")[-1]
    count, copies = part["count"], part.get("copies") or {}
    if len(chosen) >= count or any(value not in part["values"] or chosen.count(value) > copies.get(value, 1)
                                   for value in chosen):
        return {}  # (a play-test's `objects=RD,` went on being completed: RD is a character, refused on Enter)
    out = {}
    for value in part["values"]:
        if value.startswith(last) and chosen.count(value) < copies.get(value, 1):
            more = len(chosen) + 1 < count
            # TRANSLATORS: beside a value completed in a free build: the values chosen with it, of how many (3 of 8)
            meta = _("{number} of {count}").format(number=len(chosen) + 1, count=count)
            # each value named: a play-test's player meant the Fire Shield (FH) and typed FS, the Fireball Staff
            label = pair_label(value, set_name) if name == "pairs" else word_name(value, set_name)
            out[f"{name}={','.join([*chosen, value])}{',' if more else ''}"] = (
                f"{label} · {meta}" if label else meta)
    return out


_TOKEN = re.compile(r"[by][A-Z]{2}[0-9]?")
_CODE = re.compile(r"[A-Z]{2}")


def word_name(word: str, set_name: str | None = None, cards: bool = False) -> str | None:
    """The name of what a word of an action names, in the language in use: a token ('bWA', '+yRP', 'bAS:1',
    '>bMK' -> 'Blue Warrior', ...) or a kind's code ('WA', a team's 'b0=WA' -> 'Warrior'); None for any other word
    (squares, rooms, verbs, values) or an unknown code."""
    core = word.rpartition("=")[2].lstrip("+-<>@").split(":", 1)[0].split("^", 1)[0]
    if _TOKEN.fullmatch(core):
        name = token_name(core, set_name, cards)
        return None if name == core else name
    if _CODE.fullmatch(core):
        name = kind_name(core, set_name, cards)
        return None if name == core else name
    return None


class PromptCompleter(Completer):
    """Completes the word under the cursor from what the state allows now."""

    def __init__(self, state: ClientState) -> None:
        self.state = state

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
        """`_completions`, or none at all where they cannot be made from the view (a server's that no server should
        send: `"build": {"parts": 5}`); an error here ended the client (red team rt25)."""
        try:
            yield from self._completions(document, complete_event)
        except Exception:
            return

    def _completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
        text = document.text_before_cursor
        if not text.strip() and not complete_event.completion_requested:
            return  # an empty prompt opens no menu by itself: Up/Down stay with the history
        words = text.split()
        partial = "" if not words or text[-1].isspace() else words.pop()
        if words and words[0] in ("help", "bot", "join", "spectate", "create", "look"):
            candidates = {word: "" for word in self._arguments(words, partial)}
        else:
            candidates = self._actions(words, partial)
            if not words:
                # TRANSLATORS: beside a completion of the prompt: this word is a command (not an action)
                meta = _("command")
                candidates.update({command: meta for command in self._commands() if command not in candidates})
        for word in sorted(candidates, key=natural_order):
            if word.startswith(partial):
                yield Completion(word, start_position=-len(partial), display=printable(word),
                                 display_meta=printable(candidates[word]))

    def _commands(self) -> tuple[str, ...]:
        if not self.state.at_table:
            return LOBBY_COMMANDS
        if self.state.spectating:
            return SPECTATOR_COMMANDS
        # a bot sits only at a game not begun (pt25b F6); a rematch is asked once the game is over, and then no
        # takeback, draw or resignation is (play-test pl33 read `rematch` among the commands Tab offered in the
        # middle of a game, which typed said "the game is not over yet")
        # (nor after a game a person left, ours by resigning: `may_rematch`; pl33 was offered it and told "you left
        # that table")
        over = self.state.game_over
        unfit = ({"bot"} if (self.state.view or {}).get("started") else set()) \
            | ({"undo", "draw", "resign"} if over else {"rematch"}) | (set() if self.state.may_rematch else {"rematch"})
        return tuple(command for command in GAME_COMMANDS if command not in unfit)

    def _actions(self, typed: list[str], partial: str) -> dict[str, str]:
        """Next words of legal actions, each with the action it completes or how many it leads to."""
        parts = self.state.build_parts
        if parts is not None:
            return build_words(parts, typed, partial, (self.state.view or {}).get("set"))
        out = {}
        view = self.state.view or {}
        cards = view.get("game") == "cards"
        depth = len(typed) + 1
        terrain = view.get("terrain") if isinstance(view.get("terrain"), dict) else {}
        rockfall = terrain.get("rockfall") or ()
        if cards and typed and typed[0] in UNORDERED:
            following = unordered_words(self.state.legal, typed, partial)
        else:
            following = next_words(self.state.legal, typed, partial)
        if not following and typed:  # (typed as the parser takes it, not as the list spells it)
            following = next_words(self.state.legal, as_listed(self.state.legal, typed), partial)
        for word, actions in following.items():
            count = len(actions)
            # a word that several actions go on from: what the verb does (first word), else nothing; the count of the
            # actions, "b0=CL  Cleric · 210 actions", read as if the Cleric had 210 (play-test pt29 F5)
            meta = actions[0] if count == 1 else verb_summary(word, cards) if depth == 1 else ""
            whole = next((action for action in actions if len(action.split()) == depth), None)
            if count > 1 and whole is not None:
                # the word completes an action, and others go on after it (`move bNG a0`, `move bNG a0 +bRP`...):
                # the count alone read as if `move bNG a0` needed more (a play-test)
                # TRANSLATORS: beside a completion: {action} is a whole action as typed; {more} other actions begin
                # with it and go on (what a move takes or leaves on its way): a space then Tab lists their next words
                # ("and 25 more" said nothing a player could do: play-test pt31)
                meta = ngettext("{action} · Space, Tab: {more} longer", "{action} · Space, Tab: {more} longer",
                                count - 1).format(action=whole, more=count - 1)
            name = word_name(word, view.get("set"), cards)
            if name is None and not cards and typed == ["pick"] and word.isdigit():  # a room pair (PD-TEAM-MUTUAL)
                name = pair_label(word, view.get("set"))
            if name is None and not cards and typed[:1] == ["move"] and depth == 3 and word in rockfall:
                # a move that ends on Rockfall kills an unprotected walker (DT-112): offered as any other, it killed
                # a play-test's Cleric unawares (pt25 F9)
                name = _(TERRAIN_WORDS["rockfall"])
            if name is not None and cards and typed[:1] == ["face"] and word.rpartition(":")[2] in FACED_ICONS:
                # a start character's four facings (CG-START-02) all showed "Mechanork (Blue)": which zone each
                # letter is, as the panel says it once chosen (translation play-through i18n32)
                name = _("{figure} faces {zone}").format(figure=name, zone=_(FACED_ICONS[word.rpartition(":")[2]]))
            if name is not None and cards and typed[:1] == ["hide"] and word.rpartition(":")[2] in ("1", "2"):
                # a start character's two positions (CG-START-01) both showed "Mechanork (Blue)": which one each
                # number is, as the panel says it once hidden ("bMK on B1") and the board labels it (pt32)
                name = _("{figure} on {zone}").format(figure=name, zone=word[:1].upper() + word.rpartition(":")[2])
            if name is not None:
                # what the word's code names ("pick AS": Assassin); the action itself when more words follow
                meta = name if (count == 1 and len(actions[0].split()) == depth) or not meta else f"{name} · {meta}"
            out[word] = meta
        return out

    def _arguments(self, words: list[str], partial: str) -> Iterable[str]:
        command, position = words[0], len(words)
        if command == "help" and position == 1:
            return topics()
        if command == "create":
            if "cards" in words:
                return [option for option in CARD_CREATE_OPTIONS if option not in words]
            if any(word in SCENARIOS for word in words):
                return [option for option in SCENARIO_CREATE_OPTIONS if option not in words]
            return [option for option in CREATE_OPTIONS if option not in words and (
                option != "cards" or len(words) == 1)] + (  # `cards` first: the board game's options are not its own
                list(SCENARIOS) if len(words) == 1 else [])  # a scenario first, as `cards`
        if command == "bot":
            return ("B", "Y") if position == 1 else BOT_KINDS if position == 2 else ()
        if command in ("join", "spectate"):
            if position == 1:
                return [info.table for info in self.state.tables]
            return ("B", "Y") if command == "join" and position == 2 else ()
        if command == "look" and position == 1 and self.state.view:
            return sorted({token["square"] for token in self.state.view.get("tokens", [])})
        return ()
