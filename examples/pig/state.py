"""Pig's state: one flat int32 array (``print(STATE.describe())`` shows it). Nothing in it is
hidden, so a strategy is handed the state itself; per-seat counters are arrays of ``MAX_PLAYERS``."""
from simlab.core.layout import Layout

MAX_PLAYERS = 6

STATE = Layout(
    "Pig's state",
    ("S_PLAYERS", 1, "number of players"),
    ("S_SEAT", 1, "the seat whose turn it is (after the end: whose turn ended the game)"),
    ("S_TOTAL", 1, "the turn total: points rolled this turn, not yet banked"),
    ("S_ROUND", 1, "the round: turns each seat has begun, counting the one under way"),
    ("S_END", 1, "0 running, 1 target reached, 2 equal-turns round finished, 3 turn cap"),
    ("S_REACHED", 1, "the first seat whose banked score reached the target (-1: none yet)"),
    ("S_DIE", 1, "the face last rolled"),
    ("S_SCORE", MAX_PLAYERS, "per seat: points banked"),
    ("S_TURNS", MAX_PLAYERS, "per seat: turns begun"),
    ("S_ROLLS", MAX_PLAYERS, "per seat: dice rolled"),
    ("S_BUSTS", MAX_PLAYERS, "per seat: turns lost to the bust face"),
    ("S_HOLDS", MAX_PLAYERS, "per seat: turns ended by holding"),
    ("S_BEST", MAX_PLAYERS, "per seat: biggest turn total banked"),
    ("T_EVENTS", 1, "trace events written so far (the log's count, kept between steps)"))
(S_PLAYERS, S_SEAT, S_TOTAL, S_ROUND, S_END, S_REACHED, S_DIE, S_SCORE, S_TURNS, S_ROLLS, S_BUSTS, S_HOLDS,
 S_BEST, T_EVENTS) = STATE.offsets
STATE_SIZE = STATE.size

END_RUNNING, END_TARGET, END_ROUND, END_CAP = 0, 1, 2, 3
ROLL, HOLD = 0, 1             # choice codes in ``legal``
R_DIE = 0                     # the one chance stream's row
CHANCE_STREAMS = ("die rolls",)
