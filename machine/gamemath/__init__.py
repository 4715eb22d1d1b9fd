"""Game math (issue 3): the exact analysis of blackjack-family rules, Auto and the chart.

Owns nothing itself; it names the public API of the package:

* ``game_rtp(rules) -> GameReturn``: exact RTP and house edge of one seat playing Auto's
  strategy, with a breakdown (``game``);
* ``action_values`` / ``best_action`` / ``insurance_value`` / ``first_choice``: the expected
  value of every choice on a hand and the best one; ``auto_action(round)``: Auto's answer to
  the decision a ``Round`` waits on; ``prepare(rules)``: compute every table now (``auto``);
* ``basic_strategy(rules) -> Chart`` / ``chart_rtp``: the total-dependent chart and the exact
  return of playing it (``chart``).

Inside: ``shoe`` (compositions and the shoe), ``dealer`` (the dealer's outcomes for thousands
of compositions in one batch), ``table`` (stand, hit and double values per up card), ``split``
(splits, resplits and the joint limit), ``exact_fast`` (the same tables and plays compiled,
when numba is installed: what ``table`` uses then).
"""

from machine.gamemath.auto import action_values, auto_action, best_action, first_choice, insurance_value, prepare
from machine.gamemath.chart import Chart, basic_strategy, chart_rtp
from machine.gamemath.game import Analysis, GameReturn, analysis, game_rtp

__all__ = [
    "Analysis",
    "Chart",
    "GameReturn",
    "action_values",
    "analysis",
    "auto_action",
    "basic_strategy",
    "best_action",
    "chart_rtp",
    "first_choice",
    "game_rtp",
    "insurance_value",
    "prepare",
]
