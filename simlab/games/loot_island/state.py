"""Loot Island's game state: one flat int32 array, cheap to reset, copy and inspect.

Actors: seats 0..n-1 are the human players (seat 0 starts the game with the start-player tile);
in the 2-player game with Allen, actor ``n`` (= 2) is Allen. The layout is built below by
:class:`simlab.core.layout.Layout` (``print(STATE.describe())`` prints it with its offsets): the
shared part, 8 landing blocks (``L0 + landing * LB``; coast k holds landings 2k, near corner k, and
2k+1, near corner k+1), the piles and card locations, one block per actor (``P0 + actor * PB``),
then the program block (the rules as resumable procedures, ``program.py``: a decision asked from deep
inside a procedure leaves its procedure's place and locals here, so the game can stop at any
decision and be copied, re-sampled and played on).

Hidden information (``step.observe``): the map draw pile and the treasure deck (S_MDRAW, S_TDECK:
contents and order; their sizes are public), the events of later rounds (S_EVENT_SEQ; under
``events_face_up`` their set is shown, in a fixed order, not their order), the dealt healers (S_HEALERS,
until the end steps or under ``healers_face_up``), and in S_MLOC where each card of the draw pile and
of the other players' hands is (Allen's hand lies face up). Cards staged for a play (S_STAGE) are seen
by the seat deciding only.
"""
from simlab.core.layout import Layout
from simlab.core.program import F_LOCAL, Program

from .components import N_MAP, N_TREASURE

MAX_ACTORS = 6

LANDING = Layout(
    "landing block",
    ("L_N", 1, "cards in the column"),
    ("L_COUNT", 1, "cards counted for loot (+1 cards count 2)"),
    ("L_CHESTS", 1, "chest symbols in the column"),
    ("L_COLOUR", 1, "colour of the column (-1 empty)"),
    ("L_LAST", 1, "value of the last card (wild = previous value, 1 when first)"),
    ("L_NCOMP", 1, "compasses in the stack"),
    ("L_COMP", 6, "the compasses' owners, bottom first"),
    ("L_CARDS", 22, "card ids in column order (front first)"))
L_N, L_COUNT, L_CHESTS, L_COLOUR, L_LAST, L_NCOMP, L_COMP, L_CARDS = LANDING.offsets
LB = LANDING.size

ACTOR = Layout(
    "actor block",
    ("B_CURSES", 1, "curse cubes"),
    ("B_SUPPLY", 1, "compasses in the personal area"),
    ("B_PASSED", 1, "passed this round"),
    ("B_HAND_N", 1, "map cards in hand"),
    ("B_CROSSES", 1, "crosses"),
    ("B_TYPES", 6, "kept treasures by type"),
    ("B_ISLETS", 1, "islets used (own cards)"),
    ("B_ALLEN_USES", 1, "turns played with Allen's cards"),
    ("B_TAKEN", 1, "treasures taken"),
    ("B_KEPT", 1, "treasures kept"),
    ("B_TDISCARDED", 1, "treasures discarded"),
    ("B_PLAYED", 1, "map cards played to the island"),
    ("B_HEALER", 1, "healer taken (-1 none)"),
    ("B_ELIM", 1, "ELIM_* code"),
    ("B_FEE", 1, "healer fee"),
    ("B_GROSS", 1, "treasure value before the fee"),
    ("B_NET", 1, "treasure value after the fee"),
    ("B_GOLD", 7, "gold by source: amulet, money, book, jewel, crown, skull, start tile"),
    ("B_A1", 1, "1 if the player drew A1's extra cards"),
    ("B_CUBES_TAKEN", 1, "curse cubes taken over the game"),
    ("B_CUBES_GONE", 1, "curse cubes discarded over the game"),
    ("B_PASS_ROUND1", 1, "order in which the player passed in round 1 (0 first)"),
    ("B_START_TAKEN", 1, "times the player took the start tile by passing first"),
    ("B_LOOT_TURNS", 1, "explorations in which the player received treasure"),
    ("B_HAND_BITS", 4, "the hand by colour: bit k of entry c is map card c * 22 + k (kept with S_MLOC by "
                       "board.move_map; a scan of the hand is a few bits, not 22 places a colour)"),
    pad_to=40)
(B_CURSES, B_SUPPLY, B_PASSED, B_HAND_N, B_CROSSES, B_TYPES, B_ISLETS, B_ALLEN_USES, B_TAKEN, B_KEPT, B_TDISCARDED,
 B_PLAYED, B_HEALER, B_ELIM, B_FEE, B_GROSS, B_NET, B_GOLD, B_A1, B_CUBES_TAKEN, B_CUBES_GONE, B_PASS_ROUND1,
 B_START_TAKEN, B_LOOT_TURNS, B_HAND_BITS) = ACTOR.offsets
PB = ACTOR.size

FW = F_LOCAL + 8   # a frame: procedure, label, 8 locals
MAX_DEPTH = 8      # the deepest nesting: game, phase 3, coast, landing, distribute, take (+ a tool's frame)

STATE = Layout(
    "Loot Island's state",
    ("S_PLAYERS", 1, "human players n"),
    ("S_ALLEN", 1, "1 when Allen plays (actor n), else 0"),
    ("S_ROUND", 1, "1..5 (6 during the final exploration)"),
    ("S_PHASE", 1, "PH_* below"),
    ("S_CORNER", 1, "ship corner 0..3"),
    ("S_FACING", 1, "+1 clockwise, -1 counter-clockwise"),
    ("S_START", 1, "seat holding the start-player tile"),
    ("S_FIRST_PASSED", 1, "1 once someone has passed this round (took the start tile)"),
    ("S_EVENT", 1, "event in force (0..17, -1 none)"),
    ("S_EVENT_SEQ", 5, "events of rounds 1..5 (face down except the current one, unless a variant)"),
    ("S_EVENTS_SEEN", 1, "bitmask of events revealed"),
    ("S_ISLET", 7, "per islet: ISLET_UP, ISLET_DOWN, ISLET_OUT (not used at this player count)"),
    ("S_ISLETS_USED", 1, "bitmask of islets used at least once"),
    ("S_MDRAW_N", 1, "map draw pile size"), ("S_MDISC_N", 1, "map discard pile size"),
    ("S_TDECK_N", 1, "treasure deck size"), ("S_TDISC_N", 1, "treasure discard pile size"),
    ("S_REVEAL_N", 1, "treasures revealed and not yet taken"), ("S_A2_N", 1, "event A2's face-up treasures"),
    ("S_HEALERS", 5, "healer cards dealt (ids 0..13)"),
    ("S_HEALER_OWNER", 5, "seat that took each healer, -1"),
    ("S_DECKOUT", 1, "1 when the treasure deck ran dry (game jumps to end step 2)"),
    ("S_TURN", 1, "seat whose decision is pending (-1 once the game is over)"),
    ("S_DKIND", 1, "decision kind D_* being asked"),
    ("S_DCTX", 4, "its context (the D_* list below)"),
    ("S_STAGE_N", 1, "cards chosen so far for the play being built"),
    ("S_STAGE", 22, "those cards"),
    ("S_TURNS", 1, "phase-2 turns taken this game"),
    ("S_ALLEN_CROSSES", 1, "copy of Allen's crosses, for strategies"),
    ("S_LANDING_DONE", 1, "bitmask of landings explored in the final exploration"),
    ("S_NEV", 1, "trace events written so far"),
    ("S_MUST_PASS", 1, "1 when the acting player must pass next (event B9)"),
    ("L0", 8 * LB, "the 8 landings, one LANDING block each"),
    ("S_MDRAW", N_MAP, "map draw pile (top = last)"),
    ("S_MDISC", N_MAP, "map discard pile"),
    ("S_TDECK", N_TREASURE, "treasure deck (top = last)"),
    ("S_TDISC", N_TREASURE, "treasure discard pile"),
    ("S_REVEAL", 32, "treasures revealed and not yet taken"),
    ("S_A2", 6, "event A2's face-up treasures"),
    ("S_MLOC", N_MAP, "per map card: M_DRAW, M_DISC, M_HAND + actor, M_COL + landing"),
    ("S_TLOC", N_TREASURE, "per treasure: T_BOX, T_DECK, T_DISC, T_REVEAL, T_A2, T_KEPT + actor"),
    ("P0", MAX_ACTORS * PB, "the actors, one ACTOR block each"),
    ("X_PENDING", 1, "1 while a decision (seat S_TURN, kind S_DKIND) waits for step.apply"),
    ("X_CHOICE", 1, "the code just chosen, read by the procedure resuming (HIDDEN in observations)"),
    ("X_RET", 1, "value the procedure that just finished returned to its caller"),
    ("X_DEPTH", 1, "procedures on the stack (simlab.core.program)"),
    ("X_FACE_UP", 1, "FACE_UP_* bits: the variants showing the healers, the events (for observe)"),
    ("X_TSHUFFLED", 1, "1 once the treasure discards were shuffled into a new deck"),
    ("X_FRAMES", MAX_DEPTH * FW, "one frame a procedure: F_PROC (PR_* of program.py), F_LABEL, its locals"))
(S_PLAYERS, S_ALLEN, S_ROUND, S_PHASE, S_CORNER, S_FACING, S_START, S_FIRST_PASSED, S_EVENT, S_EVENT_SEQ,
 S_EVENTS_SEEN, S_ISLET, S_ISLETS_USED, S_MDRAW_N, S_MDISC_N, S_TDECK_N, S_TDISC_N, S_REVEAL_N, S_A2_N, S_HEALERS,
 S_HEALER_OWNER, S_DECKOUT, S_TURN, S_DKIND, S_DCTX, S_STAGE_N, S_STAGE, S_TURNS, S_ALLEN_CROSSES, S_LANDING_DONE,
 S_NEV, S_MUST_PASS, L0, S_MDRAW, S_MDISC, S_TDECK, S_TDISC, S_REVEAL, S_A2, S_MLOC, S_TLOC, P0, X_PENDING, X_CHOICE,
 X_RET, X_DEPTH, X_FACE_UP, X_TSHUFFLED, X_FRAMES) = STATE.offsets
X0 = X_PENDING
PROGRAM = Program(X_DEPTH, X_FRAMES, FW, MAX_DEPTH)
STATE_SIZE = STATE.size
HIDDEN = -1        # an entry of an observation the seat may not see
FACE_UP_HEALERS, FACE_UP_EVENTS = 1, 2   # X_FACE_UP bits: the variants that show them

# Chance streams (rows of ``play_game``'s ``streams``), one per independent source of chance, so that
# a rule, variant or strategy change moves only the draws it touches (common random numbers between
# the arms of a comparison). Strategies draw from rows STRATEGY_STREAM + slot, never from these.
R_CORNER = 0       # ship's start corner (no draw when forced_ship fixes it)
R_FACING = 1       # ship's facing (no draw when clockwise or forced)
R_TIER = 2         # treasure deck I..IV: row R_TIER + deck - 1 shuffles that deck at setup (used or not)
R_TREASURE = 6     # reshuffles of the treasure discards into a new deck
R_MAP = 7          # map deck: the setup shuffle and every reshuffle of the discards
R_HEALERS = 8      # healer cards dealt
R_EVENT_A = 9      # round 1's A event
R_EVENTS_B = 10    # the B events of rounds 2-5, in round order
R_ISLET_FLIP = 11  # event B3: which face-up islet turns face down
CHANCE_STREAMS = ("ship corner", "ship facing", "treasure deck I", "treasure deck II", "treasure deck III",
                  "treasure deck IV", "treasure reshuffles", "map deck", "healers", "event A", "events B",
                  "B3 islet flip")

# phases
PH_SETUP, PH_PREP, PH_ACTION, PH_LOOT, PH_FINAL, PH_END = 0, 1, 2, 3, 4, 5
# islet states
ISLET_UP, ISLET_DOWN, ISLET_OUT = 0, 1, 2
# map-card locations
M_DRAW, M_DISC, M_HAND, M_COL = 0, 1, 2, 10
# treasure locations
T_BOX, T_DECK, T_DISC, T_REVEAL, T_A2, T_KEPT = 0, 1, 2, 3, 4, 10
# elimination codes
ELIM_NONE, ELIM_CURSES, ELIM_FEE = 0, 1, 2

# Decision kinds (S_DKIND) and their choice codes (the ``legal`` entries):
D_ACTION = 1    # PASS, PLAY_OWN + landing*4 + colour, PLAY_ALLEN + ..., ISLET_OWN + islet*4 + colour, ISLET_ALLEN + ...
D_CARD = 2      # a map card id to add to the play, or STOP;  ctx: landing, colour, allen flag
D_SOURCE = 3    # where a compass comes from: a landing 0..7 or SUPPLY;  ctx: target landing, allen flag
D_COPY = 4      # a front 1 copies: COPY_SKIP, or the symbol SYM_DRAW / SYM_DISCARD;  ctx: landing
D_PAY = 5       # a map card id paid for an islet;  ctx: islet, colour (-1 any), allen flag
D_TARGET = 6    # islet target landing 0..7, or SKIP;  ctx: islet, action, allen flag
D_DO = 7        # 1 carry out the islet's action, 0 use the islet without it;  ctx: islet, action, allen flag
D_PICK = 8      # a revealed treasure id;  ctx: landing, 1 big / 0 small loot
D_KEEP = 9      # 1 keep, 0 discard;  ctx: treasure, 1 if discarding is allowed
D_A1 = 10       # 1 draw 2 extra cards and take 2 curses, 0 not
D_A2 = 11       # a treasure id from event A2's pool (kept)
D_DISCARD = 12  # a map card id to discard from the hand, or STOP;  ctx: 0 phase 1, 1 start-hand variant
D_HEALER = 13   # a healer id
D_B4 = 14       # landing from which a compass goes back (event B4);  ctx: actor it concerns
PASS = 0
PLAY_OWN = 100
PLAY_ALLEN = 200
ISLET_OWN = 300
ISLET_ALLEN = 400
STOP = 1000
SUPPLY = 8
SKIP = 9
COPY_SKIP = 0
MAX_LEGAL = 128
