"""Our contribution to the deal (feature seed_contributions, docs/protocol.md section 16): sent by itself.

When both seats are taken at a table whose players all have the feature, every view's `table.deal` says where the
exchange stands. We commit to 32 random bytes (64 hex digits, kept on disk first, as any secret choice), reveal
them once the opponent is bound to his own (his commitment arrived, or the view says he contributes nothing), and
keep both contributions to check, once the game is over, that the seed the game was dealt from is their mix with
the server's committed seed (fairness.py).
"""

from __future__ import annotations

from dungeon_twister.protocol import OpponentCommit, OpponentReveal, PlayerConnection
from dungeon_twister.protocol.deal import DEAL_PURPOSE

from .i18n import N_
from .names import other_seat, said
from .ports import SessionPort as Session


def on_view(session: Session) -> None:
    """A new view: the commit or reveal it calls for, if any."""
    state, connection = session.state, session.connection
    if not isinstance(connection, PlayerConnection) or state.seat is None or not state.view:
        return
    status = (state.view.get("table") or {}).get("deal")
    if isinstance(status, dict) and status.get(other_seat(state.seat)) == "none":
        state.deal_theirs = ""  # he contributes nothing: a bot, or his time ran out
    _step(session, connection.deal_step(state.view, keep=lambda choice, nonce: _keep(session, choice, nonce)))


def on_opponent_commit(session: Session, message: OpponentCommit) -> None:
    """The opponent is bound to his contribution: ours may be revealed."""
    session.keep_opponent_commitment(message.purpose, message.commitment)
    connection = session.connection
    if isinstance(connection, PlayerConnection):
        _step(session, connection.deal_step())


def on_opponent_reveal(session: Session, message: OpponentReveal) -> None:
    """His contribution, which the connection has checked against his commitment (a mismatch comes apart)."""
    session.state.deal_theirs = message.choice
    session.state.log.append(said(N_("{seat}'s contribution to the deal opens his commitment"), seat=message.seat))


def _keep(session: Session, choice: str, nonce: bytes) -> None:
    session.keep_secret(DEAL_PURPOSE, choice, nonce)  # on disk before the commitment leaves
    session.state.deal_mine = choice
    # its first 16 hex digits: all 64 wrapped over two lines of the panel (the whole is kept, and `verify` checks it)
    session.state.log.append(said(N_("your contribution to the deal is committed: {contribution}"),
                                  contribution=choice[:16] + "…"))


def _step(session: Session, frame: bytes | None) -> None:
    if frame is not None:
        session.write(frame)
