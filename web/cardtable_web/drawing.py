"""The table's HTML around the game's renderer: headline and scores, the log, the hand-over screen.

Pure functions of a :class:`~cardtable_web.session.Session` (no DOM), so they run under CPython.
"""

from __future__ import annotations

from typing import Any

import pyengine
from pyengine.words import say, seat_names

from .html import esc
from .registry import renderer_for
from .selection import Selection, decode
from .session import Hint, Session


def render_view(game: str, view: dict[str, Any], selection: Selection | str | None = None) -> str:
    """The game's renderer on a view (``names`` and ``you`` are filled in when missing); ``selection`` is a
    selection value, or the text of a clicked ``data-select`` (decoded here: ``ValueError`` for a bad text)."""
    return str(renderer_for(game).render(full_view(view), chosen(selection)))


def full_view(view: dict[str, Any]) -> dict[str, Any]:
    """A view with ``names`` and ``you`` (filled in when missing), as the renderers take it."""
    return {"names": seat_names(int(view["players"])), "you": None, **view}


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
    view = full_view(session.screen_view())
    renderer = renderer_for(session.setup.game)
    if action not in view["moves"]:
        return Hint(action, None, "Suggested move: none of the moves on the table.")
    said = sentence(say(renderer.move_words(view, action), view["names"], view.get("seat")))
    select = renderer.selection_for(view, action, session.selection)
    if select is None:
        return Hint(action, None, f"Suggested move: {said}")
    words = renderer.selection_words(view, select)
    return Hint(action, select, f"Suggested move: {said} Choose {words} first.")


def sentence(text: str) -> str:
    """A phrase as a sentence: its first letter capitalised, a full stop at its end."""
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def headline(session: Session) -> str:
    """Whose turn it is, or how the game ended, in words for this table."""
    state = session.state
    outcome = state.outcome()
    if outcome is not None:
        return session.say(outcome.words())
    seat = state.current_player
    assert seat is not None
    if seat == session.you:
        return "Your turn"
    if session.setup.seats[seat].computer:
        return session.say(f"{{{seat}}} is thinking…")
    return session.say(f"{{{seat}}} to play")


def status_html(session: Session) -> str:
    """The headline and the scores."""
    return f'<p class="headline">{esc(headline(session))}</p>' + scores_html(session.state, session.shown_names())


def scores_html(state: pyengine.State, names: list[str]) -> str:
    """Each seat's score now, in the renderer's words when plain points would mislead (its ``score_words``)."""
    words = getattr(renderer_for(state.game), "score_words", score_text)
    chips = "".join(
        f'<li class="score seat-{i}{" current" if i == state.current_player else ""}">'
        f'<span class="who">{esc(names[i])}</span> <b>{esc(words(s))}</b></li>'
        for i, s in enumerate(state.scores())
    )
    return f'<ul class="scores" aria-label="Scores">{chips}</ul>'


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
