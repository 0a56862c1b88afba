"""What the table page's adapter and the embed's share: the DOM calls both make and the computer's thinking.

Only this module, :mod:`cardtable_web.shell` and :mod:`cardtable_web.embed_page` touch the browser.
"""

from __future__ import annotations

import asyncio
import json
import time
import traceback
from collections.abc import Callable
from typing import Any

from js import document, window  # type: ignore[import-not-found]

from .effects import ThinkTask
from .registry import site_game

SLICE_SECONDS = 0.03
"""A computer thinking in the page thinks at most this long before letting the page breathe."""

PACE_LOOK_SECONDS = 0.1
"""How often a computer's pause looks again at the pace (a quicker one chosen meanwhile ends the wait)."""

BREATH_SECONDS = 0.005
"""The shortest wait between a computer's slices and moves. Pyodide runs waits of 2 ms or less as immediate
messages, which the browser runs before it paints or handles a click: a run of them (twelve computers at the
instant pace) froze the page until the game ended. A real timer lets the page paint and answer in between."""


async def breathe(seconds: float = 0.0) -> None:
    """Wait ``seconds``, and at least :data:`BREATH_SECONDS`, so that the page paints and handles input."""
    await asyncio.sleep(max(seconds, BREATH_SECONDS))


def text_or_none(value: Any) -> str | None:
    """A JS string as Python text; JS ``null`` and ``undefined`` (whatever Pyodide makes of them) as None."""
    return value if isinstance(value, str) else None


def byid(name: str) -> Any:
    return document.getElementById(name)


def js_object(**fields: Any) -> Any:
    """A plain JS object (``{block: "nearest"}`` and the like)."""
    return window.Object.fromEntries(window.Array.of(*(window.Array.of(k, v) for k, v in fields.items())))


def guarded(action: Callable[..., Any], on_error: Callable[[BaseException], None]) -> Callable[..., Any]:
    """``action`` for the page: an unexpected exception goes to ``on_error`` (never a bare traceback)."""

    def run(*args: Any) -> Any:
        try:
            return action(*args)
        except Exception as exc:  # the boundary: anything unexpected, reported and survived
            on_error(exc)
            return None

    return run


def console_trace(exc: BaseException) -> None:
    window.console.warn("".join(traceback.format_exception(type(exc), exc, exc.__traceback__))[-2000:])


def load_stylesheet(game: str) -> Any:
    """Add the game's stylesheet to the page once: its ``<link>`` while it loads (None once it applies)."""
    present = document.getElementById(f"style-{game}")
    if present:
        return None if present.sheet else present
    link = document.createElement("link")
    link.id = f"style-{game}"
    link.rel = "stylesheet"
    link.href = site_game(game).stylesheet
    document.head.append(link)
    return link


async def decide(task: ThinkTask, still_current: Callable[[ThinkTask], bool],
                 pause_now: Callable[[ThinkTask], float] | None = None) -> tuple[str | None, int, float, str]:
    """Make a computer's decision: (action text or None, iterations, seconds, where).

    The computer thinks during the task's pause, and the answer comes when both are over (the thinking does not
    lengthen a pause). The computer's worker decides when the task carries a request and the worker is ready
    (None when it fails: the controller then asks the page); otherwise the bot thinks here in slices of
    :data:`SLICE_SECONDS`. A task that stops being current stops at its next slice (its answer is None).
    ``pause_now`` gives the pause at the pace chosen now, looked at every :data:`PACE_LOOK_SECONDS` while it
    runs: a quicker pace chosen meanwhile ends the wait.
    """
    await breathe()  # first the page handles what is waiting (a click, a key)
    started = time.perf_counter()
    answer = await think(task, still_current)
    while True:  # what is left of the pause
        left = (pause_now or pause_of)(task) - (time.perf_counter() - started)
        if left <= PACE_LOOK_SECONDS:
            break
        await asyncio.sleep(PACE_LOOK_SECONDS)
    await breathe(left)
    return answer


def pause_of(task: ThinkTask) -> float:
    """A task's pause as it was asked."""
    return task.pause


async def think(task: ThinkTask, still_current: Callable[[ThinkTask], bool]) -> tuple[str | None, int, float, str]:
    """The decision of ``task`` with no pause: from the computer's worker when the task carries a request and
    the worker is ready, else from the bot in the page."""
    started = time.perf_counter()
    if task.request is not None:
        thinker = window.cardTableThinker
        if thinker.status() == "ready":
            try:
                reply = json.loads(await thinker.think(task.request))
            except Exception:  # the worker failed on this one: the page decides instead
                reply = None
            action = reply.get("action") if isinstance(reply, dict) else None
            iterations = int(reply.get("iterations", 0)) if isinstance(reply, dict) else 0
            return (action if isinstance(action, str) else None), iterations, time.perf_counter() - started, "worker"
        thinker.warm()
    return await think_here(task, still_current)


async def think_here(task: ThinkTask,
                     still_current: Callable[[ThinkTask], bool]) -> tuple[str | None, int, float, str]:
    """The bot of ``task`` decides in the page, in slices of :data:`SLICE_SECONDS` between which the page paints
    and handles input."""
    started = time.perf_counter()
    bot = task.bot
    slice_start = time.perf_counter()
    for _ in bot.think(task.state):
        if time.perf_counter() - slice_start > SLICE_SECONDS:
            await breathe()
            slice_start = time.perf_counter()
            if not still_current(task):
                return None, 0, 0.0, "page"
    return str(bot.decision), bot.iterations_done, time.perf_counter() - started, "page"
