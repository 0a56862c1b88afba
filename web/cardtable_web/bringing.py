"""What earlier versions kept, brought in once as a page starts, and kept games that no summary names (orphans),
reclaimed: both through a :class:`cardtable_web.keeping.Keeper`, whose storage rules they follow (nothing
unreadable is lost: it is put aside)."""

from __future__ import annotations

from typing import Any

from . import address
from .aside import PUT_ASIDE
from .keeping import (
    KEPT_PREFIX,
    MAX_SAVES,
    MAX_TEXT,
    OLD_CURRENT_KEY,
    OLD_LAST_KEY,
    OLD_UNREADABLE_KEY,
    SAVES_KEY,
    Keeper,
    game_key,
    session_from,
    stored_keys,
)
from .session import Session


def bring_in(keeper: Keeper) -> str | None:
    """Bring in what earlier versions kept (once): the full save of the game on the table
    (``cardtable.current-game``) and kept games stored as their address; an unreadable one is put aside.
    Returns the message for the lobby when something was put aside (None: nothing to say)."""
    aside_before = len(keeper.aside())
    saves_before = keeper.raw(SAVES_KEY)
    old = keeper.raw(OLD_UNREADABLE_KEY)
    if old is not None:
        keeper.put_aside(OLD_UNREADABLE_KEY, old, "an earlier version could not read it")
        keeper.remove(OLD_UNREADABLE_KEY)
    current = keeper.raw(OLD_CURRENT_KEY)
    if current is not None:
        _migrate_current(keeper, current)
    keeper.remove(OLD_LAST_KEY)  # the last finished game: the history holds it too
    for key, entry in keeper.saves().items():
        if "line" not in entry:
            _migrate_save(keeper, key, entry)
    reclaim_orphans(keeper)
    keeper.lobby_summary(finished=len(keeper.aside()) > aside_before or keeper.raw(SAVES_KEY) != saves_before)
    return PUT_ASIDE if len(keeper.aside()) > aside_before else None


def reclaim_orphans(keeper: Keeper) -> None:
    """Kept games that no summary names (a write cut short, an older tab): one that reads and goes on is
    listed again; any other is put aside and its room given back."""
    saves = keeper.saves()
    orphans = [key for key in stored_keys(keeper.storage)
               if key.startswith(KEPT_PREFIX) and key.removeprefix(KEPT_PREFIX) not in saves][:MAX_SAVES]
    for key in orphans:
        entry = keeper.read(key, dict, None)  # an unreadable text is put aside by read
        if entry is None:
            continue
        try:
            session = session_from(entry)
        except ValueError as exc:
            session, problem = None, str(exc)[:MAX_TEXT]
        if session is not None and not session.state.is_terminal() and KEPT_PREFIX + game_key(session) == key:
            keeper.keep(session)
            continue
        if keeper.put_aside(key, entry, problem if session is None else "a kept game that no summary named"):
            keeper.remove(key)


def _migrate_current(keeper: Keeper, text: str) -> None:
    stored = keeper.read(OLD_CURRENT_KEY, dict, None)  # an unreadable text is put aside by read
    if stored is None:
        return
    try:
        session = session_from(stored)
    except ValueError as exc:
        keeper.put_aside(OLD_CURRENT_KEY, text, str(exc)[:MAX_TEXT])
        keeper.remove(OLD_CURRENT_KEY)
        return
    if not session.state.is_terminal() and game_key(session) not in keeper.saves():
        keeper.keep(session)
    keeper.remove(OLD_CURRENT_KEY)


def _migrate_save(keeper: Keeper, key: str, entry: dict[str, Any]) -> None:
    """An earlier version's kept game (its address) in today's form, under today's key (which names the
    options)."""
    session: Session | None = None
    try:
        session = address.decode(entry["address"])
    except ValueError as exc:
        keeper.put_aside(f"{SAVES_KEY} {key}"[:MAX_TEXT], entry, str(exc)[:MAX_TEXT])
    saves = keeper.saves()
    saves.pop(key, None)
    keeper.write(SAVES_KEY, saves)
    if session is not None and not session.state.is_terminal():
        keeper.keep(session, entry["updated"] / 1000)
