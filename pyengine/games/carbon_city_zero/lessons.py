"""The lesson of Carbon City Zero: six short steps on the real table, each in one of
``position.LESSON_POSITIONS`` (two players working together, the learner's turn begun).

Rule numbers are those of the rules page, ``web/rules/carbon-city-zero.html``.
"""

from __future__ import annotations

from ...lessons import ONE_MOVE, WIN, Lesson, Step

LESSON = Lesson(
    game="carbon-city-zero",
    first_game={"players": 2},
    steps=(
        Step(
            position="lesson-buy",
            task="Buy Bike Lanes from the marketplace.",
            rule="Your whole hand is played at the start of your turn. Its income adds up, and you spend it on "
            "cards from the marketplace. What you buy joins your deck and comes back in a later hand.",
            teaches=({"kind": "buy", "name": "Bike Lanes"},),
            wrong="Buy Bike Lanes: it costs 2 of your 3 income and cuts carbon.",
            solution=("buy Bike Lanes",),
            goal=ONE_MOVE,
        ),
        Step(
            position="lesson-special",
            task="Use the special rule of Retrofit Buildings: it draws one more card into play.",
            rule="Many cards have a special rule you may use once in your turn, before you buy anything. This "
            "one draws a card from your deck straight into play.",
            teaches=({"kind": "special", "name": "Retrofit Buildings"},),
            wrong="Use Retrofit Buildings first: specials come before buying.",
            solution=("use Retrofit Buildings #1 special",),
            goal=ONE_MOVE,
        ),
        Step(
            position="lesson-link",
            task="Use the link of Public Awareness: cut one more carbon this turn.",
            rule="A link works when another card of the same sector is in play. Public Awareness and Car Share "
            "are both domestic cards, so each may use its link once.",
            teaches=({"kind": "link", "name": "Public Awareness"},),
            wrong="Use the link of Public Awareness.",
            solution=("use Public Awareness #1 link",),
            goal=ONE_MOVE,
        ),
        Step(
            position="lesson-discard",
            task="Use Hydropower to get rid of Poor Transport.",
            rule="Some specials discard one of your cards in play. Its carbon and income stop counting, and it "
            "leaves your deck: a good end for a polluting start card.",
            teaches=({"kind": "discard-in-play", "target": "Poor Transport"},),
            wrong="Discard Poor Transport with Hydropower: it adds carbon every time it comes back.",
            solution=("use Hydropower #1 special: discard Poor Transport #2",),
            mistakes=("use Budget #3 special",),
            goal=ONE_MOVE,
        ),
        Step(
            position="lesson-end-turn",
            task="End your turn and watch the carbon go down.",
            rule="When your turn ends, the carbon of every card in play moves the city's carbon, your cards go to "
            "your recycle pile and you draw a new hand. After each turn the round counter moves down one.",
            teaches=({"kind": "end-turn"},),
            wrong="This time, just end your turn.",
            solution=("end turn",),
        ),
        Step(
            position="lesson-win",
            task="End your turn: your cards bring the carbon to zero, and the city wins.",
            rule="Everyone wins together the moment the carbon reaches zero; if the round counter runs out first, "
            "everyone loses.",
            teaches=({"kind": "end-turn"},),
            wrong="End your turn now: the cards in play already cut enough carbon.",
            solution=("end turn",),
            goal=WIN,
            done="The city is at zero and everyone wins! Now play a first game with the easy computer.",
        ),
    ),
)
