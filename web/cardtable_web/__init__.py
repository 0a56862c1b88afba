"""Card Table's browser layer: the shell (DOM bindings) and one renderer per game.

Renderers are pure functions from a player's view to HTML, so they run (and are
tested) under CPython as well as in the page.
"""
