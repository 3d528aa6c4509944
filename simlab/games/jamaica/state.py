"""Jamaica's game state: one flat int32 array, cheap to reset, copy and inspect.

Ships are numbered 0..5 for the players' seats and ``GHOST`` (6) for the neutral ghost ship
of the 2-player game. The layout is built below by :class:`simlab.core.layout.Layout`
(``print(SHARED.describe())``, ``SHIP``, ``MACHINE`` print it with its offsets): the shared part,
one block per ship (``SH0 + ship * SB`` starts it), then the step machine.

The step machine (after the ship blocks, ``X0``): the rules run as a program over the state that
stops at every decision with two or more choices and resumes in ``apply`` (see ``program.py``);
``MACHINE`` lists its entries: the pending decision, the call stack of :mod:`simlab.core.program`
(each procedure's frame: its entry label and the label it resumes at), each procedure's registers
(a move, an arrival, a battle, cannons, Saran's Sabre, a load, a payment; no procedure calls
itself, so each keeps its registers in one place), the cards of the round and the legal choices.

A seat's observation (``step.observe``) has this same layout, the hidden entries set to HIDDEN:
the treasure pile's order, where the cards not face up lie (the pile, the removed ones, other
ships' face-down cards), every action draw pile's order, other seats' hands, their face-down
card of the round and pending pick, and the pending choices of another seat's card pick or loot.
S_STACK and S_SSCRATCH are scratch: in an observation buffer the loop owns them, and a strategy
may write there (nothing reads them across calls).
"""
from simlab.core.layout import Layout
from simlab.core.program import F_LOCAL, Program

SHARED = Layout(
    "Jamaica's shared part",
    ("S_ROUND", 1, "round number (1, 2, ...)"),
    ("S_PLAYERS", 1, "number of players"),
    ("S_CAPTAIN", 1, "seat holding the captain's compass this round"),
    ("S_DAY", 1, "the day action die as the captain placed it (left)"),
    ("S_NIGHT", 1, "the night action die (right)"),
    ("S_END", 1, "0 running, 1 a ship reached Port Royal, 2 the round cap was hit"),
    ("S_ENDER", 1, "seat that first reached Port Royal (-1 none)"),
    ("S_GHOST", 1, "1 when the ghost ship sails"),
    ("S_DEC", 1, "kind of the decision being asked (DEC_* below), for strategies"),
    ("S_DEC_SHIP", 1, "ship the decision is for (GHOST when a player decides for it)"),
    ("S_DEC_A", 1, "context of the decision (see DEC_* below)"), ("S_DEC_B", 1, "more context"),
    ("S_DEC_C", 1, "more context"),
    ("S_BANK", 3, "doubloons, food, cannons left in the bank (may go negative when the bank is unlimited: it "
                  "is always printed stock minus what is in holds)"),
    ("S_BANK_SHORT", 1, "loads that found the printed stock short"),
    ("S_TDECK_N", 1, "treasure cards left in the draw pile"),
    ("S_TDECK", 12, "the treasure draw pile, top = index S_TDECK_N - 1"),
    ("S_TOWNER", 12, "where treasure card k is: OWN_DECK, OWN_REMOVED, or a ship 0..6"),
    ("S_TOKEN", 50, "1 while the treasure token still lies on that lair space"),
    ("S_PREV_A", 50, "backward neighbours of each space (derived from the next_* tables)"),
    ("S_PREV_B", 50, "second backward neighbour at a merge (-1 none)"),
    ("S_DIE1", 1, "the first action die as rolled, before the captain places them"), ("S_DIE2", 1, "the second"),
    ("S_TGT_LAP", 8, "lap of each move target offered in legal (DEC_MOVE / DEC_GHOST / DEC_RETREAT)"),
    ("S_TGT_DONE", 8, "1 when that target finishes the race"),
    ("S_STACK", 128, "the engine's scratch for track walks and payments (no meaning between calls)"),
    ("S_SSCRATCH", 24, "scratch for strategies (the engine never reads it)"))
(S_ROUND, S_PLAYERS, S_CAPTAIN, S_DAY, S_NIGHT, S_END, S_ENDER, S_GHOST, S_DEC, S_DEC_SHIP, S_DEC_A, S_DEC_B, S_DEC_C,
 S_BANK, S_BANK_SHORT, S_TDECK_N, S_TDECK, S_TOWNER, S_TOKEN, S_PREV_A, S_PREV_B, S_DIE1, S_DIE2, S_TGT_LAP,
 S_TGT_DONE, S_STACK, S_SSCRATCH) = SHARED.offsets
SH0 = SHARED.size

SHIP = Layout(
    "per ship block",
    ("B_POS", 1, "space 0..49"),
    ("B_LAP", 1, "0 on the race lap; -1 behind the start line; +1 (ghost) past Port Royal"),
    ("B_DONE", 1, "1 once the ship has finished at Port Royal"),
    ("B_HTYPE", 6, "resource in each hold (R_NONE when empty); slot 5 = the 6th Hold card"),
    ("B_HN", 6, "tokens in each hold"),
    ("B_DRAW", 11, "action draw pile (top = index B_DRAW_N - 1)"),
    ("B_DRAW_N", 1, "its size"),
    ("B_HAND", 6, "action cards in hand (card ids 0..10)"),
    ("B_HAND_N", 1, "their count"),
    ("B_DISC", 11, "discard pile"),
    ("B_DISC_N", 1, "its size"),
    ("B_CARD", 1, "card played this round (-1 none)"),
    ("B_COMBATS", 1, "battles fought"), ("B_WINS", 1, "battles won"), ("B_ATTACKS", 1, "battles started"),
    ("B_FALL_FOOD", 1, "times it fell back for lack of food"), ("B_FALL_GOLD", 1, "... of gold"),
    ("B_SPENT", 1, "cannons committed to battles"),
    ("B_LAIRS", 1, "treasure cards taken from lairs"),
    ("B_FINISH_ROUND", 1, "round it reached Port Royal (0 = never)"),
    ("B_STEALS", 1, "loot taken from beaten ships (holds or cards)"))
(B_POS, B_LAP, B_DONE, B_HTYPE, B_HN, B_DRAW, B_DRAW_N, B_HAND, B_HAND_N, B_DISC, B_DISC_N, B_CARD, B_COMBATS, B_WINS,
 B_ATTACKS, B_FALL_FOOD, B_FALL_GOLD, B_SPENT, B_LAIRS, B_FINISH_ROUND, B_STEALS) = SHIP.offsets
SB = SHIP.size

MAX_PLAYERS = 6

# Random streams by purpose: rows of ``play_game``'s ``streams``, named in this order in
# ``GameSpec.chance_streams``. One row per independent source of chance, so a rule, variant or
# strategy change that adds or removes draws of one kind leaves every other kind's sequence as it
# was (common random numbers). Strategies never see these rows: slot k draws from
# ``STRATEGY_STREAM + k``.
RNG_TREASURE = 0      # setup: one shuffle of all 12 treasure cards (Lady Beth then leaves it for the ghost ship)
RNG_DICE = 1          # the two action dice of each round
RNG_COMBAT = 2        # battles between players: two faces per battle, attacker's then defender's
RNG_GHOST_BATTLE = 3  # battles the ghost ship fights: their two faces, Sabre re-roll and blind steal
RNG_SABRE = 4         # Saran's Sabre re-rolls in battles between players
RNG_BLIND = 5         # which face-down card a blind steal takes, in battles between players
RNG_DECK = 6          # + seat: that seat's action deck (setup shuffle and every reshuffle)
CHANCE_STREAMS = ("treasure pile", "action dice", "combat dice", "ghost ship battles", "Saran's Sabre re-rolls",
                  "blind steals") + tuple(f"action deck of seat {s}" for s in range(MAX_PLAYERS))
GHOST = 6
N_SHIPS = 7
X0 = SH0 + N_SHIPS * SB
MAX_DEPTH = 6        # procedures nested at most: the round, a move, a battle, cannons, a payment (+1 spare)
MACHINE = Layout(
    "the step machine",
    ("X_TURN", 1, "seat whose decision is pending (-1: the game is over, or a test's halt)"),
    ("X_EVENTS", 1, "trace events written so far"),
    ("X_BREAK", 1, "a label to halt at (0 none: tests run one procedure of the rules this way)"),
    ("X_K", 1, "the seat picking a card (pick phase), then the turn index from the captain"),
    ("X_GM", 1, "the ghost ship's move (0 first die, 1 second)"),
    ("X_FWD_OK", 1, "the ghost may sail forward this move"),
    ("X_BACK_OK", 1, "the ghost may sail backward this move"),
    ("X_DEPTH", 1, "procedures on the stack (simlab.core.program): the round's program, then those it calls"),
    ("X_FRAMES", MAX_DEPTH * F_LOCAL, "their frames: the procedure (its entry label) and the PC_* label it "
                                      "resumes at (a resume label reads the answer)"),
    ("X_MV_SHIP", 1, "a move: the ship"), ("X_MV_DIE", 1, "its steps"), ("X_MV_BACK", 1, "1 backward"),
    ("X_AR_SHIP", 1, "the end of a move (arrive): the ship"), ("X_AR_HAVE", 1, "what it had of the cost"),
    ("X_B_ATT", 1, "the battle: attacker"), ("X_B_DFD", 1, "defender"), ("X_B_SPACE", 1, "space"),
    ("X_B_SFREE", 1, "Sabre still free"), ("X_B_AC", 1, "attacker's cannons"),
    ("X_B_ABASE", 1, "attacker's strength without the die"), ("X_B_AF", 1, "attacker's face"),
    ("X_B_DC", 1, "defender's cannons"), ("X_B_DBASE", 1, "defender's strength without the die"),
    ("X_B_DF", 1, "defender's face"), ("X_B_WINNER", 1, "winner"), ("X_B_STAR", 1, "star"),
    ("X_B_WHO", 1, "the loot's decider"),
    ("X_CC_SHIP", 1, "cannons being committed: ship"), ("X_CC_OPP", 1, "opponent"), ("X_CC_DEF", 1, "defending"),
    ("X_CC_SOFAR", 1, "attacker's strength"), ("X_CC_C", 1, "the number committed"),
    ("X_SW_ROLLED", 1, "Saran's Sabre window: the rolled ship"), ("X_SW_FACE", 1, "its face"),
    ("X_SW_BASE", 1, "its strength without the die"), ("X_SW_FREE", 1, "the Sabre still free (out)"),
    ("X_LD_SHIP", 1, "a load: ship"), ("X_LD_RES", 1, "resource"), ("X_LD_COUNT", 1, "amount"),
    ("X_LD_BANK", 1, "from the bank"), ("X_LD_WHO", 1, "decider"),
    ("X_PY_SHIP", 1, "a payment: ship"), ("X_PY_RES", 1, "resource"), ("X_PY_COST", 1, "cost"),
    ("X_PY_K", 1, "holds holding it"), ("X_PY_SLOTS", 6, "the holds in order of contents"),
    ("X_TCOUNT", 7, "treasure cards each ship holds (public: the count, not the cards)"),
    ("X_CARD", 6, "the action card of the round: 0 none, 1 played face down, 2 revealed"),
    ("X_PICKED", 6, "the card a seat picked while the others still pick (-1 none): private to it"),
    ("X_NCHOICES", 1, "number of legal choices of the pending decision"),
    ("X_CHOICES", 64, "its legal choice codes (the engine's list while it runs)"),
    start=X0)
(X_TURN, X_EVENTS, X_BREAK, X_K, X_GM, X_FWD_OK, X_BACK_OK, X_DEPTH, X_FRAMES, X_MV_SHIP, X_MV_DIE, X_MV_BACK,
 X_AR_SHIP, X_AR_HAVE, X_B_ATT, X_B_DFD, X_B_SPACE, X_B_SFREE, X_B_AC, X_B_ABASE, X_B_AF, X_B_DC, X_B_DBASE, X_B_DF,
 X_B_WINNER, X_B_STAR, X_B_WHO, X_CC_SHIP, X_CC_OPP, X_CC_DEF, X_CC_SOFAR, X_CC_C, X_SW_ROLLED, X_SW_FACE, X_SW_BASE,
 X_SW_FREE, X_LD_SHIP, X_LD_RES, X_LD_COUNT, X_LD_BANK, X_LD_WHO, X_PY_SHIP, X_PY_RES, X_PY_COST, X_PY_K, X_PY_SLOTS,
 X_TCOUNT, X_CARD, X_PICKED, X_NCHOICES, X_CHOICES) = MACHINE.offsets
PROGRAM = Program(X_DEPTH, X_FRAMES, F_LOCAL, MAX_DEPTH)
STATE_SIZE = X0 + MACHINE.size
HIDDEN = -1           # an entry of an observation the seat cannot see
CARD_NONE, CARD_DOWN, CARD_UP = 0, 1, 2   # X_CARD

OWN_DECK, OWN_REMOVED = -1, -2
END_RUNNING, END_PORT_ROYAL, END_CAP = 0, 1, 2
MAX_TARGETS = 8

# Decision kinds (state[S_DEC]) and the codes in ``legal`` for each:
# DEC_DICE     captain places the dice: code = day * 8 + night
# DEC_CARD     pick a card: code = card id 0..10 (from the hand)
# DEC_MOVE     branch choice of the seat's own move: code = destination + 64 * backward;
#              S_DEC_A = die, S_DEC_B = 1 backward; lap / finish of target i in S_TGT_LAP/S_TGT_DONE
# DEC_RETREAT  fall back for lack of S_DEC_A (resource): code = destination (first payable space)
# DEC_HOLD     hold to load into (or to empty, then load into): code = hold slot 0..5;
#              S_DEC_A = resource, S_DEC_B = amount
# DEC_PAY      which holds pay S_DEC_B of resource S_DEC_A: code 0 smallest holds first, 1 largest first
# DEC_TARGET   attacker picks the opponent on its space: code = ship 0..6
# DEC_CANNONS  cannons to commit: code = number; S_DEC_A = opponent, S_DEC_B = 1 when defending,
#              S_DEC_C = attacker's strength so far (defender only)
# DEC_SABRE    Saran's Sabre after a roll: code 0 keep, 1 re-roll; S_DEC_A = ship whose die was rolled,
#              S_DEC_B = its face (0 = star)
# DEC_LOOT     winner's loot (S_DEC_A = loser): LOOT_NONE, LOOT_HOLD + slot, LOOT_CARD + card id,
#              LOOT_BLIND (a random face-down card), LOOT_GIVE + card id (a cursed card to give)
# DEC_GHOST    captain moves the ghost: code = destination + 64 * backward
DEC_DICE, DEC_CARD, DEC_MOVE, DEC_RETREAT, DEC_HOLD, DEC_PAY, DEC_TARGET, DEC_CANNONS, DEC_SABRE, DEC_LOOT, \
    DEC_GHOST = range(1, 12)
BACKWARD_FLAG = 64
LOOT_NONE, LOOT_HOLD, LOOT_CARD, LOOT_BLIND, LOOT_GIVE = 0, 10, 20, 40, 50
MAX_CHOICES = 64

# Labels of the step machine (the label of the frame on top); "entry" labels start a procedure whose
# registers are set, "resume" labels take the answer to the decision that stopped the machine.
(PC_ROUND, PC_DICE_DONE, PC_PICK, PC_PICK_DONE, PC_TURN, PC_AFTER_DAY, PC_AFTER_NIGHT, PC_GHOST, PC_GHOST_MOVE,
 PC_GHOST_DONE, PC_GHOST_AFTER, PC_ROUND_END, PC_MOVE, PC_MOVE_DONE, PC_ARRIVE, PC_ARRIVE_BATTLED, PC_ARRIVE_PAID,
 PC_ARRIVE_SHORT, PC_RETREAT_DONE, PC_BATTLE, PC_TARGET_DONE, PC_ATT_CANNONS, PC_ATT_SABRE, PC_DFD_CANNONS,
 PC_DFD_SABRE, PC_RESULT, PC_LOOT_DONE, PC_CANNONS, PC_CANNONS_DONE, PC_CANNONS_PAID, PC_SABRE, PC_SABRE_DONE,
 PC_LOAD, PC_HOLD_DONE, PC_PAY, PC_PAY_DONE, PC_GAME_OVER, PC_HALT) = range(1, 39)
