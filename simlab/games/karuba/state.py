"""Karuba's game state: one flat int32 array, cheap to reset, copy and inspect.

The state holds the pending decision (see ``step.py``): a round's choices are made one seat after
the other on the same pre-round islands, kept in the state until the last seat has chosen, then
carried out together in seat order. Everything a seat may not see lies in a tail after the islands
(the tile order still face down, the choices other seats made this round), so the first
``OBS_VIEW`` entries are at every decision exactly what every seat may see: built-in play hands
the strategies that view without copying. An observation (``step.observe``) has the state's layout,
with the tail's hidden entries set to ``HIDDEN``.

The layout (``print(STATE.describe())`` prints it with its offsets) is built below by
:class:`simlab.core.layout.Layout`: the shared part, one island block per seat (``P0 + seat * PB``
starts it), then the hidden tail from ``OBS_VIEW`` on.
"""
from simlab.core.layout import Layout

MAX_PLAYERS = 4

ISLAND = Layout(
    "per player (island) block",
    ("B_TILE", 30, "tile number on each cell (row-major, 6 columns x 5 rows; 0 = empty)"),
    ("B_TREASURE", 30, "treasure still lying on each cell: 0 none, 1 crystal, 2 gold"),
    ("B_EXPL", 4, "per colour: explorer position: 0..29 a cell, AT_BEACH, AT_TEMPLE"),
    ("B_CRYSTAL", 4, "crystals each explorer collected"),
    ("B_GOLD", 4, "gold nuggets each explorer collected"),
    ("B_MOVES", 4, "moves each explorer made"),
    ("B_HOME", 4, "round each explorer reached its temple (0 = not yet)"),
    ("B_TOKENS", 1, "face value of temple treasure tokens taken"),
    ("B_COMP", 1, "tie-compensation crystals"),
    ("B_PLACED", 1, "tiles placed on the island"),
    ("B_DISCARDED", 1, "tiles discarded"),
    ("B_BONUS_PTS", 1, "points from bonus tiles"),
    ("B_OPEN", 4, "bitmask of cells whose tile has an exit N, E, S, W (bit = cell index)"),
    ("B_OCC", 1, "bitmask of cells holding an explorer"),
    ("B_FATE", 36, "per tile number 1..36: 0 not yet revealed, 1 placed, 2 discarded"),
    pad_to=128)
(B_TILE, B_TREASURE, B_EXPL, B_CRYSTAL, B_GOLD, B_MOVES, B_HOME, B_TOKENS, B_COMP, B_PLACED, B_DISCARDED,
 B_BONUS_PTS, B_OPEN, B_OCC, B_FATE) = ISLAND.offsets
PB = ISLAND.size

STATE = Layout(
    "Karuba's state",
    ("S_ROUND", 1, "tiles revealed so far (the round number, 1..36)"),
    ("S_PLAYERS", 1, "number of players"),
    ("S_TILE", 1, "tile revealed this round (1..36)"),
    ("S_END", 1, "end reason: 0 running, 1 last tile played, 2 a player has all explorers home"),
    ("S_GOLD_USED", 1, "gold nuggets taken from the supply, all islands together"),
    ("S_GOLD_SHORT", 1, "placed gold tiles that got no nugget because the supply ran short"),
    ("S_TAKEN", 4, "per colour: temple treasure tokens already taken from its stack"),
    ("S_BONUS", 4, "per bonus tile: BONUS_OPEN, BONUS_REMOVED, or the seat that took it"),
    ("S_BONUS_ROUND", 4, "per bonus tile: round it was taken or removed"),
    ("S_BEACH", 4, "per colour: its explorers' beach space, index 0..10 (label 10..110)"),
    ("S_TEMPLE", 4, "per colour: its temples' jungle space, index 0..10"),
    ("S_SEQ", 36, "the tiles revealed so far, in order; HIDDEN for those still face down"),
    ("S_ARRIVALS", 1, "explorers that entered a temple this round, all islands (end_round's work)"),
    ("S_TURN", 1, "the seat whose choice for the revealed tile is pending (-1: game over)"),
    ("P0", MAX_PLAYERS * PB, "the islands, one ISLAND block per seat"),
    # the hidden tail, from OBS_VIEW on
    ("T_ORDER", 36, "the leader's shuffled tile numbers, revealed in this order (secret)"),
    ("T_CHOSEN", MAX_PLAYERS, "per seat: its choice code this round, once made (private to the seat until the "
                              "round is carried out); HIDDEN for seats that have not chosen yet"),
    ("T_EVENTS", 1, "trace events written so far (the log's count, kept between steps)"))
(S_ROUND, S_PLAYERS, S_TILE, S_END, S_GOLD_USED, S_GOLD_SHORT, S_TAKEN, S_BONUS, S_BONUS_ROUND, S_BEACH, S_TEMPLE,
 S_SEQ, S_ARRIVALS, S_TURN, P0, T_ORDER, T_CHOSEN, T_EVENTS) = STATE.offsets
OBS_VIEW = T_ORDER
STATE_SIZE = STATE.size
HIDDEN = -1

AT_BEACH, AT_TEMPLE = 30, 31
BONUS_OPEN, BONUS_REMOVED = -1, -2
END_RUNNING, END_TILES, END_HOME = 0, 1, 2

# Choice codes in ``legal``: 0..29 place the tile on that cell; DISCARD_ONLY discard and move no
# one; MOVE_BASE + colour * 32 + destination discard and move that explorer (destination is a
# cell 0..29 or AT_TEMPLE).
DISCARD_ONLY = 30
MOVE_BASE = 32
MAX_CHOICES = 30 + 1 + 4 * 31

# Karuba's chance, one random stream per purpose (rows of the kernel's ``streams``; their names,
# in this order, are ``GameSpec.chance_streams``). Each purpose draws only from its own row, so a
# rule or setting that changes how many numbers one purpose draws leaves the others untouched.
R_SPACES = 0   # the setup's explorer and temple spaces: 8 draws per try of the rejection loop
R_TILES = 1    # the leader's shuffle of the 36 tiles (35 draws, always the same tile order for a deal)
R_GOLD = 2     # which placers get the last gold nuggets (``gold_shortage`` = draw only)
CHANCE_STREAMS = ("setup spaces", "tile order", "gold shortage draw")
