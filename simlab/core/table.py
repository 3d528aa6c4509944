"""What a person seated at a game is shown: the playtest's view of a game, declared next to its rules.

A game that a person can play (``simlab play``) declares a :class:`Table` in its ``GameSpec``
(``table=``). The playtest plays the game through its step model (:mod:`simlab.core.model`) one
decision at a time, exactly as built-in play does, and needs from the game only:

* ``begin(state, cfg, n_players, streams, log)``: the deal, traced (``new_game`` with its events);
* ``finish(state, cfg, rows, log) -> n_events``: after the last decision, the result rows and the
  closing events, as the game's ``play_game`` writes them (``play_game`` is ``begin``, the
  decisions, ``finish``: so a game played by a person gives rows of the run's own layout);
* ``screen(obs, seat, n_players, values) -> str``: the seat's observation drawn in text, as the
  trace draws boards and hands. It reads only ``obs`` (``observe(state, seat, obs)``), so it can
  show nothing the seat may not see: the contract tests re-randomise the hidden state
  (``determinize``) and ask for the same screen;
* ``choice(obs, seat, code, n_players, values) -> str``: a legal choice code in the game's words;
* ``seen(events, viewer) -> events``: the trace events as ``viewer`` may know them. Events the
  viewer may not see are dropped, fields it may not see are set to :data:`UNSEEN`, and the game's
  ``narrate`` words such an event without them ("draws a card"). What happened since a person's
  last decision is the narration of these events.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

UNSEEN = -9999   # an event field the viewer may not see (``Table.seen``); narrate words it without the value


@dataclass(frozen=True)
class Table:
    begin: object          # numba: (state, cfg, n_players, streams, log)
    finish: object         # numba: (state, cfg, rows, log) -> n_events
    screen: Callable       # (obs, seat, n_players, values) -> str
    choice: Callable       # (obs, seat, code, n_players, values) -> str
    seen: Callable         # (events, viewer) -> events
