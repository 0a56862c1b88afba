"""One renderer per game: ``render(view, selection) -> str`` (HTML), ``selection_for``, ``selection_words`` and
``move_words``.

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
- ``selection`` is the value of the last clicked selecting element (or None): a small tuple of the
  renderer's own making (see :mod:`cardtable_web.selection`), compared as a value, never parsed. It may be
  stale (from an earlier table): a renderer ignores what its table does not offer now.

Every element that performs an action carries ``data-action="<action text>"``; an
element that only narrows the choice (a card in hand before its target) carries its selection, written
into ``data-select`` by :func:`cardtable_web.html.selecting`. Every legal action is reachable by clicking.

``selection_for(view, action, selection) -> selection | None`` says, from the legal moves' facts alone,
which selection to click next toward ``action`` (a key of ``view["moves"]``) when the table shows
``selection``: None when the table offers the action now, else an element's selection on that table
(clicking the chosen element again unchooses it). ``selection_words(view, selection) -> str`` names it
("the 7♠ in your hand", "your second marble"). ``move_words(view, action) -> str`` says a legal move to the
player who decides, in plain words with seat placeholders ("put your silver 6 in your middle vault"), usually
through the game's ``words.move_words``. The page's suggested move uses all three
(:func:`cardtable_web.drawing.hint_of`). A renderer may add ``score_words(score) -> str`` when a plain number
would mislead ("cut 6 carbon"). Nothing a renderer writes for a player (text, tooltips, screen-reader names)
shows an action's notation, a grid cell or a seat code: ``tests/test_plain_words.py`` checks it.
The site's list of renderers is :mod:`cardtable_web.registry`.
"""
