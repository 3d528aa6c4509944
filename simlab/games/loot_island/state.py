"""Loot Island's game state: one flat int32 array, cheap to reset, copy and inspect.

Actors: seats 0..n-1 are the human players (seat 0 starts the game with the start-player tile);
in the 2-player game with Allen, actor ``n`` (= 2) is Allen. Layout (``P0 + actor * PB`` starts an
actor's block, ``L0 + landing * LB`` a landing's block)::

    shared part
      S_PLAYERS        human players n
      S_ALLEN          1 when Allen plays (actor n), else 0
      S_ROUND          1..5 (6 during the final exploration)
      S_PHASE          PH_* below
      S_CORNER         ship corner 0..3
      S_FACING         +1 clockwise, -1 counter-clockwise
      S_START          seat holding the start-player tile
      S_FIRST_PASSED   1 once someone has passed this round (took the start tile)
      S_EVENT          event in force (0..17, -1 none)
      S_EVENT_SEQ +5   events of rounds 1..5 (face down except the current one, unless a variant)
      S_EVENTS_SEEN    bitmask of events revealed
      S_ISLET     +7   per islet: ISLET_UP, ISLET_DOWN, ISLET_OUT (not used at this player count)
      S_ISLETS_USED    bitmask of islets used at least once
      S_MDRAW_N / S_MDISC_N / S_TDECK_N / S_TDISC_N / S_REVEAL_N / S_A2_N   pile sizes
      S_HEALERS   +5   healer cards dealt (ids 0..13); S_HEALER_OWNER +5: seat that took it, -1
      S_DECKOUT        1 when the treasure deck ran dry (game jumps to end step 2)
      S_TURN           seat whose decision is pending (-1 once the game is over)
      S_DKIND          decision kind D_* being asked; S_DCTX +4 its context (the D_* list below)
      S_STAGE_N, S_STAGE +22   cards chosen so far for the play being built
      S_TURNS          phase-2 turns taken this game
      S_ALLEN_CROSSES  (copy of Allen's crosses, for strategies)
      S_LANDING_DONE   bitmask of landings explored in the final exploration
      S_NEV            trace events written so far
      S_MUST_PASS      1 when the acting player must pass next (event B9)
    landing block (8 landings; coast k holds landings 2k (near corner k) and 2k+1 (near corner k+1))
      L_N              cards in the column;  L_COUNT cards counted for loot (+1 cards count 2)
      L_CHESTS         chest symbols in the column
      L_COLOUR         colour of the column (-1 empty)
      L_LAST           value of the last card (wild = previous value, 1 when first)
      L_NCOMP          compasses in the stack; L_COMP +6 their owners, bottom first
      L_CARDS +22      card ids in column order (front first)
    piles: S_MDRAW +88 (top = last), S_MDISC +88, S_TDECK +74 (top = last), S_TDISC +74,
           S_REVEAL +32 (treasures revealed and not yet taken), S_A2 +6 (event A2's face-up treasures)
    locations: S_MLOC +88 per map card (M_DRAW, M_DISC, M_HAND + actor, M_COL + landing)
               S_TLOC +74 per treasure (T_BOX, T_DECK, T_DISC, T_REVEAL, T_A2, T_KEPT + actor)
    actor block, PB entries
      B_CURSES, B_SUPPLY (compasses in the personal area), B_PASSED, B_HAND_N, B_CROSSES
      B_TYPES +6       kept treasures by type
      B_ISLETS         islets used (own cards);  B_ALLEN_USES: turns played with Allen's cards
      B_TAKEN, B_KEPT, B_TDISCARDED   treasures taken / kept / discarded
      B_PLAYED         map cards played to the island
      B_HEALER         healer taken (-1 none);  B_ELIM: ELIM_* code;  B_FEE healer fee
      B_GROSS          treasure value before the fee;  B_NET after it
      B_GOLD +7        gold by source: amulet, money, book, jewel, crown, skull, start tile
      B_A1             1 if the player drew A1's extra cards
      B_CUBES_TAKEN / B_CUBES_GONE   curse cubes taken / discarded over the game
      B_PASS_ROUND1    order in which the player passed in round 1 (0 first)
      B_START_TAKEN    times the player took the start tile by passing first
      B_LOOT_TURNS     explorations in which the player received treasure
    program block (the rules as resumable procedures, ``program.py``: a decision asked from deep
    inside a procedure leaves its procedure's place and locals here, so the game can stop at any
    decision and be copied, re-sampled and played on)
      X_PENDING        1 while a decision (seat S_TURN, kind S_DKIND) waits for ``step.apply``
      X_CHOICE         the code just chosen, read by the procedure resuming (HIDDEN in observations)
      X_RET            value the procedure that just finished returned to its caller
      X_FACE_UP        FACE_UP_* bits: the variants showing the healers, the events (the settings,
                       for ``observe``)
      X_TSHUFFLED      1 once the treasure discards were shuffled into a new deck
      X_DEPTH          procedures on the stack;  X_FRAMES +MAX_DEPTH*FW  one frame each: F_PROC
                       (PR_* of program.py), F_LABEL (where it resumes) and its locals F_LOCAL..

Hidden information (``step.observe``): the map draw pile and the treasure deck (S_MDRAW, S_TDECK:
contents and order; their sizes are public), the events of later rounds (S_EVENT_SEQ; under
``events_face_up`` their set is shown, in a fixed order, not their order), the dealt healers (S_HEALERS,
until the end steps or under ``healers_face_up``), and in S_MLOC where each card of the draw pile and
of the other players' hands is (Allen's hand lies face up). Cards staged for a play (S_STAGE) are seen
by the seat deciding only.
"""
from simlab.core.program import F_LOCAL, Program

S_PLAYERS, S_ALLEN, S_ROUND, S_PHASE, S_CORNER, S_FACING, S_START, S_FIRST_PASSED, S_EVENT = range(9)
S_EVENT_SEQ = 9
S_EVENTS_SEEN = 14
S_ISLET = 15
S_ISLETS_USED = 22
S_MDRAW_N, S_MDISC_N, S_TDECK_N, S_TDISC_N, S_REVEAL_N, S_A2_N = 23, 24, 25, 26, 27, 28
S_HEALERS = 29
S_HEALER_OWNER = 34
S_DECKOUT = 39
S_TURN = 40
S_DKIND = 41
S_DCTX = 42
S_STAGE_N = 46
S_STAGE = 47
S_TURNS = 69
S_ALLEN_CROSSES = 70
S_LANDING_DONE = 71
S_NEV = 72
S_MUST_PASS = 73
L0 = 74
L_N, L_COUNT, L_CHESTS, L_COLOUR, L_LAST, L_NCOMP = 0, 1, 2, 3, 4, 5
L_COMP = 6
L_CARDS = 12
LB = 34
S_MDRAW = L0 + 8 * LB
S_MDISC = S_MDRAW + 88
S_TDECK = S_MDISC + 88
S_TDISC = S_TDECK + 74
S_REVEAL = S_TDISC + 74
S_A2 = S_REVEAL + 32
S_MLOC = S_A2 + 6
S_TLOC = S_MLOC + 88
P0 = S_TLOC + 74

B_CURSES, B_SUPPLY, B_PASSED, B_HAND_N, B_CROSSES = 0, 1, 2, 3, 4
B_TYPES = 5
B_ISLETS, B_ALLEN_USES, B_TAKEN, B_KEPT, B_TDISCARDED, B_PLAYED = 11, 12, 13, 14, 15, 16
B_HEALER, B_ELIM, B_FEE, B_GROSS, B_NET = 17, 18, 19, 20, 21
B_GOLD = 22
B_A1 = 29
B_CUBES_TAKEN, B_CUBES_GONE = 30, 31
B_PASS_ROUND1 = 32
B_START_TAKEN = 33
B_LOOT_TURNS = 34
PB = 36
MAX_ACTORS = 6
X0 = P0 + MAX_ACTORS * PB
X_PENDING, X_CHOICE, X_RET, X_DEPTH = X0, X0 + 1, X0 + 2, X0 + 3
X_FACE_UP = X0 + 4
X_TSHUFFLED = X0 + 5
X_FRAMES = X0 + 6
FW = F_LOCAL + 8   # a frame: procedure, label, 8 locals
MAX_DEPTH = 8      # the deepest nesting: game, phase 3, coast, landing, distribute, take (+ a tool's frame)
PROGRAM = Program(X_DEPTH, X_FRAMES, FW, MAX_DEPTH)
STATE_SIZE = X_FRAMES + PROGRAM.size()
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
