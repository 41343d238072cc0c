"""The message bar under the screens: a cheating alert first, else the countdown of a reconnection, else the last
refusal (with its rule), else the last notice; and the prompt's label."""

from __future__ import annotations

import time

from prompt_toolkit.formatted_text import StyleAndTextTuples

from .i18n import _
from .state import ClientState, purpose_label


def message_bar(state: ClientState, now: float | None = None) -> StyleAndTextTuples:
    """`now`: the session's clock (time.monotonic by default), for the reconnection's countdown."""
    if state.alert:
        return [("class:alert", state.alert)]
    if state.reconnecting:
        return [("class:refusal", state.reconnecting.describe(time.monotonic() if now is None else now))]
    if state.refusal:
        refusal = state.refusal
        hint = f"  (help {refusal.rule})" if refusal.rule else ""
        return [("class:refusal", refusal.describe()), ("class:rule", hint)]
    return [("class:notice", state.notice or state.question)]


def notice_shown(state: ClientState) -> str | None:
    """The notice, when the message bar shows it (no alert, reconnection nor refusal in its place): the panel leaves
    out a line that says the same (play-test pt31: a secret round's line stood in both)."""
    if state.alert or state.reconnecting or state.refusal:
        return None
    return state.notice or None


def prompt_label(state: ClientState) -> str:
    """`lobby> `, `t-1 B> `, `t-1 watching> `, or the secret choice pending: `t-1 B combat-3 (secret)> `."""
    if not state.at_table:
        # TRANSLATORS: the prompt in the lobby (keep the "> " at its end)
        return _("lobby> ")
    if state.spectating:
        # TRANSLATORS: the prompt of a spectator: {table} is the table's id (t-1)
        return _("{table} watching> ").format(table=state.table)
    if state.secret_purpose:
        # TRANSLATORS: the prompt while a secret choice is due: {seat} is B or Y, {purpose} what is chosen in secret,
        # short: its command (team, build, hide, face) or "combat 3" (translated where it is defined)
        return _("{table} {seat} {purpose} (secret)> ").format(table=state.table, seat=state.seat,
                                                               purpose=purpose_label(state.secret_purpose))
    return f"{state.table} {state.seat}> "
