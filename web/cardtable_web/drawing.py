"""The table's HTML around the game's renderer: headline and scores, the log, the hand-over screen.

Pure functions of a :class:`~cardtable_web.session.Session` (no DOM), so they run under CPython.
"""

from __future__ import annotations

from typing import Any

import pyengine
from pyengine.words import say, seat_names

from .feed import Ask, SeatFeed, sentence
from .html import esc
from .registry import renderer_for
from .selection import Selection, decode
from .session import Hint, Session


def render_view(game: str, view: dict[str, Any], selection: Selection | str | None = None) -> str:
    """The game's renderer on a seat's view (with its ``names`` and ``you``, as :mod:`cardtable_web.feed` gives
    it); ``selection`` is a selection value, or the text of a clicked ``data-select`` (decoded here: ``ValueError``
    for a bad text)."""
    return str(renderer_for(game).render(view, chosen(selection)))


def chosen(selection: Selection | str | None) -> Selection | None:
    """A selection as a value: the text of a clicked ``data-select`` is decoded (:func:`selection.decode`)."""
    return decode(selection) if isinstance(selection, str) else selection


def legend_html(game: str) -> str:
    """The key to a game's table: what each symbol means (the renderer's ``LEGEND``; empty when it has none)."""
    return str(getattr(renderer_for(game), "LEGEND", ""))


def render_state(
    state: pyengine.State, seat: int | None, selection: Selection | str | None = None, names: list[str] | None = None
) -> str:
    """A state drawn for ``seat`` (its legal moves offered when it decides now)."""
    view = state.view(seat) | {"names": names or seat_names(state.players), "you": seat}
    return render_view(state.game, view, selection)


def table_html(session: Session) -> str:
    """The game table from the shown seat's point of view (its view only)."""
    return render_view(session.setup.game, session.screen_view(), session.selection)


def hint_of(session: Session, action: str) -> Hint:
    """Where the table shows a suggested move, and the move in words: the element playing it, or for a move made
    in steps the next selection toward it (the renderer's ``selection_for``, from the legal moves' facts: nothing
    is drawn). The words are the renderer's ``move_words``, said to the player who decides."""
    view = session.screen_view()
    renderer = renderer_for(session.setup.game)
    if action not in view["moves"]:
        return Hint(action, None, "Suggested move: none of the moves on the table.")
    said = move_sentence(session.setup.game, view, action)
    select = renderer.selection_for(view, action, session.selection)
    if select is None:
        return Hint(action, None, f"Suggested move: {said}")
    words = renderer.selection_words(view, select)
    return Hint(action, select, f"Suggested move: {said} Choose {words} first.")


def move_sentence(game: str, view: dict[str, Any], action: str) -> str:
    """A move the view offers, in words said to the player who decides (the renderer's ``move_words``)."""
    return sentence(say(renderer_for(game).move_words(view, action), view["names"], view.get("seat")))


def status_html(feed: SeatFeed, game: str) -> str:
    """The headline and the scores of a seat's feed (its take-back request apart: :func:`ask_html`)."""
    view = feed.view
    return f'<p class="headline">{esc(feed.headline)}</p>' + scores_html(
        game, view["scores"], view["current_player"], view["names"])


def scores_html(game: str, scores: list[Any], current: int | None, names: list[str]) -> str:
    """Each seat's score now, in the renderer's words when plain points would mislead (its ``score_words``)."""
    words = getattr(renderer_for(game), "score_words", score_text)
    chips = "".join(
        f'<li class="score seat-{i}{" current" if i == current else ""}">'
        f'<span class="who">{esc(names[i])}</span> <b>{esc(words(s))}</b></li>'
        for i, s in enumerate(scores)
    )
    return f'<ul class="scores" aria-label="Scores">{chips}</ul>'


def ask_html(ask: Ask | None, you: int | None, names: list[str]) -> str:
    """A take-back waiting for agreement, for the player at ``you``: agree or refuse it, or wait for the others."""
    if ask is None:
        return ""
    if ask.seat == you:
        return '<p class="remote-ask" role="status">Waiting for the others to agree to your take-back…</p>'
    name = esc(names[ask.seat] if 0 <= ask.seat < len(names) else "A player")
    if you in ask.agreed:
        return f'<p class="remote-ask" role="status">You agreed to {name}\'s take-back.</p>'
    return (
        f'<p class="remote-ask" role="status">{name} asks to take back their last move. '
        '<button type="button" class="btn" data-ui="remote-agree">Agree</button> '
        '<button type="button" class="btn" data-ui="remote-refuse">Refuse</button></p>'
    )


def banner(session: Session, since: int) -> str:
    """What the other players did since move ``since`` (the end of the last turn of the player on screen), in
    words: each player's turn in one sentence, for a reload or a hot-seat hand-over as for the computer's reply.

    A player is named once per turn ("Computer 2 builds 3♣ south of its 2♠; contributes 3♡; draws from the pile
    (twice)"): its further steps drop the name, and a step repeated at once is counted instead of said again."""
    session.trail.follow(session.state)
    on_screen = session.viewer if session.viewer is not None else session.you
    entries = [e for e in session.trail.entries[since:] if e.seat is not None and e.seat != on_screen]
    turns: list[list[Any]] = []
    for entry in entries:
        if turns and turns[-1][0].seat == entry.seat:
            turns[-1].append(entry)
        else:
            turns.append([entry])
    return ". ".join(_turn_words(session, [e.text for e in turn], turn[0].seat) for turn in turns)


def _turn_words(session: Session, turn: list[str], seat: int) -> str:
    """One player's turn as one sentence: the name said once, repeated steps counted."""
    subject = f"{{{seat}}} "
    steps: list[list[Any]] = []
    for index, text in enumerate(turn):
        # the name is dropped only right after a step that ends with the same player doing something
        short = index and text.startswith(subject) and ". " not in turn[index - 1]
        said = session.say(text[len(subject):] if short else text)
        if short:
            said = said[:1].lower() + said[1:]
        if steps and steps[-1][0] == said:
            steps[-1][1] += 1
        else:
            steps.append([said, 1])
    return "; ".join(said + _times(count) for said, count in steps)


def turn_start(session: Session) -> int:
    """The move after the last one the player on screen made (0 before their first): the banner tells the rest.
    With nobody on screen (a hand-over, a table of computers) it tells the last turn only."""
    seat = session.viewer if session.viewer is not None else session.you
    history = session.state.history()
    if seat is None:
        last = history[-1][0].current_player if history else None
        seat = next((before.current_player for before, _ in reversed(history)
                     if before.current_player != last), None)
    for index in range(len(history) - 1, -1, -1):
        if history[index][0].current_player == seat:
            return index + 1
    return 0


def _times(count: int) -> str:
    return "" if count == 1 else " (twice)" if count == 2 else f" ({count} times)"


def log_html(session: Session) -> str:
    """The whole log, one numbered item per entry."""
    return log_items(session.log_lines())


def log_items(lines: list[str]) -> str:
    return "".join(f"<li>{esc(line)}</li>" for line in lines)


def handover_html(session: Session) -> str:
    seat = session.state.current_player
    name = session.names[seat] if seat is not None else ""
    return (
        '<div class="handover" role="dialog" aria-label="Pass the device">'
        f"<h2>Pass the device to {esc(name)}</h2>"
        "<p>Their cards stay hidden until they are ready.</p>"
        f'<button type="button" class="btn primary" data-ui="take-device">I am {esc(name)}: show my cards</button>'
        "</div>"
    )


def score_text(score: int | float) -> str:
    return str(int(score)) if float(score).is_integer() else f"{score:.1f}"
