"""Legend Raiders' game state: one flat int32 array, cheap to reset, copy and inspect.

Seat 0 is the start player; play runs 0, 1, ..., n-1 each round. Tiles are 0..tiles-1 and cards
0..cards-1 (the counts and tables are parameters, see ``components.py``); the piles are sized to
the compile-time maxima MAX_TILES and MAX_CARDS; -1 marks an empty place. The state also holds the
pending decision (``S_STAGE``, ``S_PHASE``: see ``step.py``), so a game can be copied and played on
from any decision.

The first ``OBS_VIEW`` entries (the *view*) are at every decision exactly what the seat to move may
see: built-in play hands them to its strategy without copying. What nobody may see lies in the
tail after the view (the stack and deck orders, the true hands). Each seat's hand in the view
(``B_HAND``) shows the seat whose turn it is its whole hand, and of the other seats only the cards
they took from the face-up row (``B_KNOWN``), the rest ``HIDDEN``; :func:`step.show_hands` rewrites
it when the turn passes, and reveals every hand at the end.

The layout (``print(STATE.describe())`` prints it with its offsets) is built below by
:class:`simlab.core.layout.Layout`: the shared part, one block per player (``P0 + seat * PB``
starts it), then the hidden tail from ``OBS_VIEW`` on. The turn runs as a procedure of
:mod:`simlab.core.program` (frame 0: its label is ``S_STAGE``, where the turn stands); giving tools
back over the limit is a procedure it calls (frame 1), after which the turn goes on at its label.
"""
from simlab.core.layout import Layout
from simlab.core.program import F_LABEL, F_LOCAL, Program

from .components import MAX_CARDS, MAX_TILES

MAX_PLAYERS = 4
MAX_DONE = 16
PROGRAM_DEPTH = 2                # the turn, and the tool limit it calls

PLAYER = Layout(
    "per player block",
    ("B_BOARD", 1, "character board 0..3 (expertise tools, coin layout)"),
    ("B_TORCH", 1, "1 lit, 0 unlit"),
    ("B_TOOLS", 4, "tools of each type in the backpack"),
    ("B_SLOT", 3, "tile on each dig-site slot (-1 empty)"),
    ("B_NDONE", 1, "discoveries completed"),
    ("B_DONE", MAX_DONE, "completed tiles, in order (map spaces 1..6, then beyond the map)"),
    ("B_NHAND", 1, "expedition cards held"),
    ("B_HAND", MAX_CARDS, "the cards held as the seat to move sees them (see above; T_HAND is the truth)"),
    ("B_HAND_RND", MAX_CARDS, "round each held card was taken (dice cards: usable from a later turn)"),
    ("B_KNOWN", MAX_CARDS, "1 where the held card was taken from the face-up row (every seat saw it)"),
    ("B_COIN_PTS", 1, "points from visible coins"),
    ("B_EXP_PTS", 1, "points from expertise tools"),
    ("B_DIE_PTS", 1, "points from the coin effect (die face or variant dice card)"),
    ("B_MISSION_PTS", 1, "mission points (final scoring)"),
    ("B_MISSIONS", 1, "missions fulfilled"),
    ("B_DICE_PTS", 1, "points for dice cards still held (final scoring)"),
    ("B_DICE_USED", 1, "dice cards discarded for an effect"),
    ("B_TORCH_USES", 1, "torch used as a wild"),
    ("B_TURNS", 1, "turns taken"),
    ("B_PREPARES", 1, "prepare actions taken"),
    ("B_EXPEDITIONS", 1, "go-on-an-expedition actions taken"),
    ("B_TILES_DISC", 1, "tiles discarded over the tile limit"),
    ("B_TOOLS_DISC", 1, "tools returned over the tool limit"),
    ("B_CARDS", 1, "expedition cards taken"),
    pad_to=27 + 3 * MAX_CARDS + 17)
(B_BOARD, B_TORCH, B_TOOLS, B_SLOT, B_NDONE, B_DONE, B_NHAND, B_HAND, B_HAND_RND, B_KNOWN, B_COIN_PTS, B_EXP_PTS,
 B_DIE_PTS, B_MISSION_PTS, B_MISSIONS, B_DICE_PTS, B_DICE_USED, B_TORCH_USES, B_TURNS, B_PREPARES, B_EXPEDITIONS,
 B_TILES_DISC, B_TOOLS_DISC, B_CARDS) = PLAYER.offsets
PB = PLAYER.size

STATE = Layout(
    "Legend Raiders' state",
    ("S_PLAYERS", 1, "number of players"),
    ("S_ROUND", 1, "current round (1, 2, ...)"),
    ("S_CUR", 1, "seat whose turn it is"),
    ("S_PHASE", 1, "the decision pending (PH_* below), for strategies; kept after it is answered"),
    ("S_TRIGGER", 1, "seat that completed the end-triggering discovery (+1; 0 = not triggered, -1 = triggered by "
                     "the empty tile stack under empty_stack_rule=end_trigger, -2 = by the empty expedition deck "
                     "under empty_deck_rule=end_trigger)"),
    ("S_END_REASON", 1, "0 running, 1 a 6th discovery, 2 empty tile stack, 3 max_rounds guard, 4 empty expedition "
                        "deck"),
    ("S_FACE", 1, "effect in force this turn: -1 none, 0 tool, 1 torch, 2 coin (after cards)"),
    ("S_ROLL", 1, "effect the die rolled before any dice card (-1 in the no-dice variant)"),
    ("S_COIN_BONUS", 1, "coin effects in force this turn (each: +1 per discovery completed this turn)"),
    ("S_DONE_TURN", 1, "discoveries completed this turn"),
    ("S_NEW_TILE", 1, "tile being taken by a prepare (while its slot/discard is decided), -1 none"),
    ("S_STACK_N", 1, "tiles left in the stack (the top is S_STACK + S_STACK_N - 1)"),
    ("S_DISC_N", 1, "tiles in the discard pile"),
    ("S_DECK_N", 1, "cards left in the expedition deck (top = last)"),
    ("S_REMOVED_N", 1, "used dice cards removed from the game"),
    ("S_RESHUFFLES", 1, "times the discard pile became the new stack"),
    ("S_STACK_OUT", 1, "round in which a refill first found the stack empty (0 never)"),
    ("S_DECK_OUT", 1, "round in which the expedition deck first ran out (0 never)"),
    ("S_CARDS_TURN", 1, "dice cards discarded this turn (for the per-turn limits)"),
    ("X_DEPTH", 1, "procedures on the stack (simlab.core.program): 1 the turn, 2 while it gives tools back"),
    ("X_FRAMES", PROGRAM_DEPTH * F_LOCAL, "their frames: procedure (PR_*) and label; the turn's label is S_STAGE"),
    ("S_PREP_COL", 1, "the HQ column a prepare took (refilled after the new tile and the tool limit)"),
    ("S_FACE_BEFORE", 1, "with dice_card_same_turn: the face in force before the expedition's change"),
    ("S_TOP_SYMBOL", 1, "symbol on the back of the stack's top tile (-1 empty); public, it shows"),
    ("S_BAG", 4, "tools of each type in the bag"),
    ("S_HQ_TILE", 4, "tile on each HQ column (-1 none)"),
    ("S_HQ_TOOLS", 16, "tools of each type (4) under each column (4): col * 4 + type"),
    ("S_FACEUP", 4, "face-up expedition cards (-1 empty)"),
    ("S_DISC", MAX_TILES, "the tile discard pile"),
    ("S_REMOVED", MAX_CARDS, "used dice cards out of the game"),
    ("P0", MAX_PLAYERS * PB, "the players, one PLAYER block each"),
    # the hidden tail, from OBS_VIEW on (HIDDEN in an observation)
    ("S_STACK", MAX_TILES, "the tile stack, top last (face down: the order is secret)"),
    ("S_DECK", MAX_CARDS, "the expedition deck, top last (secret)"),
    ("T_HAND", MAX_PLAYERS * MAX_CARDS, "every seat's true hand (seat * MAX_CARDS + h), as B_HAND"),
    ("T_EVENTS", 1, "trace events written so far (the log's count, kept between steps)"))
(S_PLAYERS, S_ROUND, S_CUR, S_PHASE, S_TRIGGER, S_END_REASON, S_FACE, S_ROLL, S_COIN_BONUS, S_DONE_TURN, S_NEW_TILE,
 S_STACK_N, S_DISC_N, S_DECK_N, S_REMOVED_N, S_RESHUFFLES, S_STACK_OUT, S_DECK_OUT, S_CARDS_TURN, X_DEPTH, X_FRAMES,
 S_PREP_COL, S_FACE_BEFORE, S_TOP_SYMBOL, S_BAG, S_HQ_TILE, S_HQ_TOOLS, S_FACEUP, S_DISC, S_REMOVED, P0, S_STACK,
 S_DECK, T_HAND, T_EVENTS) = STATE.offsets
OBS_VIEW = S_STACK
STATE_SIZE = STATE.size
PROGRAM = Program(X_DEPTH, X_FRAMES, F_LOCAL, PROGRAM_DEPTH)
PR_TURN, PR_TOOL_LIMIT = 0, 1    # the procedures (F_PROC)
S_STAGE = X_FRAMES + F_LABEL     # where the turn stands (ST_* below): the label of the turn's frame
HIDDEN = -1

# Where the turn stands (S_STAGE): the step functions go on from here after a decision.
ST_CHANGE = 1        # after the roll: dice cards may change the die (PH_DIE_CARD), then its effect
ST_CHANGE_LATER = 2  # dice_card_same_turn, after the expedition's card: the same, then the completions
ST_VCARD = 3         # no-dice variant, start of the turn: dice cards for effects (PH_VARIANT_CARD)
ST_ACTION = 4        # the action (PH_ACTION)
ST_TILE = 5          # a prepare's new tile (S_NEW_TILE) goes to a slot (PH_SLOT) or over the limit (PH_TILE_LIMIT)
ST_REFILL = 7        # a prepare's column is refilled
ST_EXTRA = 8         # variant_extra_dice_card: an extra face-up dice card (PH_EXTRA_DICE)
ST_COMPLETE = 9      # completions while the player wants (PH_COMPLETE)
ST_END_TURN = 10     # the coin effect pays, the turn is counted
ST_TURN_OVER = 11    # the turn is over; the next one (or the end of the round) has not begun
ST_OVER = 12         # the game is over and scored

# Decisions (S_PHASE) and the choice codes a strategy sees in ``legal`` for each:
PH_DIE_CARD = 1      # base game, after the roll (and, with dice_card_same_turn, after an expedition's card step):
                     # KEEP_ROLL or CHANGE_DIE + effect (0 tool, 1 torch, 2 coin)
PH_VARIANT_CARD = 2  # no-dice variant: USE_CARD + effect (0 two tools, 1 relight, 2 coin) or NO_CARD
PH_ACTION = 3        # PREPARE + column, or TAKE_FACEUP + k, TAKE_BLIND, TAKE_NOTHING (go on an expedition)
PH_EXTRA_DICE = 4    # no-dice variant with variant_extra_dice_card: EXTRA_DICE + k or NO_EXTRA
PH_COMPLETE = 5      # COMPLETE + slot * 5 + pay (pay 0..3: the torch replaces a tool of that type,
                     # 4: no torch), USE_CARD + effect (no-dice variant), or STOP
PH_TILE_LIMIT = 6    # over the tile limit: DISCARD_TILE + slot (a held tile) or DISCARD_TILE + 3 (the new one)
PH_SLOT = 7          # choose the free dig-site slot for a new tile: PLACE_SLOT + slot (only if coins differ)
PH_TOOL_LIMIT = 8    # over the tool limit: RETURN_TOOL + type, one at a time

PREPARE = 0
TAKE_FACEUP = 8
TAKE_BLIND = 12
TAKE_NOTHING = 13
STOP = 16
COMPLETE = 20
KEEP_ROLL = 40
CHANGE_DIE = 41
RETURN_TOOL = 48
DISCARD_TILE = 56
PLACE_SLOT = 64
USE_CARD = 72
NO_CARD = 76
EXTRA_DICE = 80
NO_EXTRA = 84
NO_TORCH = 4
MAX_CHOICES = 32

END_RUNNING, END_SIXTH, END_STACK, END_GUARD, END_DECK = 0, 1, 2, 3, 4

# Chance streams by purpose (rows of the kernel's ``streams``; GameSpec.chance_streams names them in
# this order). Each source of chance draws only from its own row, so a rule, variant or strategy that
# changes how many draws one source makes leaves every other source's sequence as it was.
R_TILES = 0       # the tile stack: its shuffle at setup, and every reshuffle of the discard pile into it
R_DECK = 1        # the expedition deck: its shuffle at setup, and its rebuild under empty_deck_rule=reshuffle
R_REINSERT = 2    # where a spent dice card goes back into the deck (no-dice variant, used_dice_cards=reshuffled)
R_BOARDS = 3      # the character boards of the seats without a fixed one
R_HQ_TOOLS = 4    # the tools drawn from the bag onto a refilled HQ column
R_DRAW_TOOLS = 5  # the tools a player draws from the bag (the die's tool face, a variant dice card)
R_DIE = 6         # the die roll at the start of a turn (none in the no-dice variant)
CHANCE_STREAMS = ("tile stack", "expedition deck", "dice card reinsertion", "boards", "HQ column tools",
                  "player tool draws", "die")
