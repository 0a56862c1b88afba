"""One renderer per game: ``render(view, selection) -> str`` (HTML).

- ``view`` is ``State.view(seat)`` for the seat on screen, plus ``names`` (a display name
  per seat) and ``you`` (the seat of the person at the screen, or None), so a renderer can
  never show what that seat may not see.
- ``view["moves"]`` is ``{action text: facts}`` when that seat decides now, else ``{}``.
  A renderer finds an action by its facts (``kind``, cards, places, pieces) and puts the
  text it was given in ``data-action``: it never parses, builds or imports ``re`` to read
  an action text.
- ``view["recent"]`` (at the table; absent or ``{}`` elsewhere) is ``{seat: [facts, ...]}``: the facts of
  the public log entries (:class:`pyengine.words.Entry`) of each seat's latest turn, in order, a turn being
  the longest run of consecutive log entries of that seat ending at its last entry. A renderer marks these
  as "the last move of <name>" (an outline and a label or an accessible description, not colour alone).
- ``selection`` is the token of the last clicked ``data-select`` element (or None).

Every element that performs an action carries ``data-action="<action text>"``; an
element that only narrows the choice (a card in hand before its target) carries
``data-select="<token>"``. Every legal action is reachable by clicking.
The site's list of renderers is :mod:`cardtable_web.registry`.
"""
