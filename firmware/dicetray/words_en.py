"""Every text the tray shows, in English: the catalogue dicetray.words loads when the tray
speaks English.

A catalogue per language, the same names in each (host_tests/test_words.py checks): a text
with a %-field takes the same fields in the same order in every language. Button names are
what the tray's buttons are called in the language: 1 2 3 (KEEP), R (ROLL), OK.
"""

LANG_NAME = "ENGLISH"  # the language's own name, as the setup shows it

# ---- the setup -------------------------------------------------------------------------------
# The setup's top line says its keys; its bottom line what the row under the cursor means.
SETUP_TITLE = "OK:START ROLL:CHANGE"
PLAYERS = "PLAYERS"
RULES = "RULES"
LANGUAGE = "LANGUAGE"
SEATS = "TRAY PLAYS"
HINTS = "HINTS"
TALLY = "TALLY"  # the rounds each seat paid: the setup's row, the screen's title
TALLY_SHOWN = ("KEEP", "CLEAR")  # the tally kept, or cleared as the game starts
OFF_ON = ("OFF", "ON")
NONE = "NONE"
# The presets' names, and a set of options that is none of them.
PRESETS = {"classic": "CLASSIC", "jackpot": "JACKPOT", "zanzibar": "ZANZIBAR",
           "bar41": "BAR41", "lebon": "LEBON", "custom": "CUSTOM"}
# The options' setup labels and the names of their values: None, the options table's own
# (dicetray.options, written in English); another language gives {option: (label, shown)},
# shown as in the table.
OPTIONS = None

# ---- a turn ----------------------------------------------------------------------------------
PHASES = {"start": "START", "charge": "CHARGE", "decharge": "DECHARGE", "over": "OVER"}
POT_N = "POT %d"
THROW_OF = "THROW %s/%d"
UP_TO = "UP TO %d"
THROW_N = "%d THROW"
THROWS_N = "%d THROWS"
NOTHING_TO_BEAT = "NONE TO BEAT"
TOP = "TOP %s %s"
LOW = "LOW %s %s"
KEYS_FIRST = "ROLL OR HOLD OK:TABLE"
KEYS_LAST = "LAST THROW. OK:DONE"
KEYS_KEEP = "KEEP DICE, THEN ROLL"
TRAY_PLAYS = "TRAY PLAYS"  # the key bar while the tray plays a seat: nothing to press
KEYS_LE_BON = "KEEP, ROLL, OK:LE BON"
KEYS_STOP = "KEEP, ROLL OR OK:STOP"
# A combination's name by its kind (rules.K_*), the pips filled in where it shows them (an
# ordinary throw: as rules.written writes it). English names, but nenette: the name players
# use (docs/rules.md says what it is).
COMBOS = ("421", "3 aces", "2 aces %d", "three %ds", "run %d%d%d", "nenette", "%s")
# A hint's worth: the chance not to lose the turn, the tokens a player expects to shed
# (tenths, whole), and the stop's mark before it.
HINT_CHANCE = "%d%%"
HINT_SHED = "%s%d.%dT"
HINT_SHED_WHOLE = "%s%dT"
HINT_STOP = "OK"
SAY = "%s: %s"  # a seat the tray plays says its stop
SAY_LE_BON = "LE BON"
SAY_STOP = "STOP"
# A refused press: why.
NOT_NOW = "NO"
KEEP1_OR_KEEP3 = "KEEP1 OR KEEP3"
ROLL_TO_PLAY = "ROLL TO PLAY"
THROWS_DUE = "%d THROWS DUE"
THROW_FIRST = "THROW FIRST"
TWO_DICE_AT_MOST = "2 DICE AT MOST"
NO_THROW_LEFT = "NO THROW LEFT"

# ---- roll-offs and play-offs -----------------------------------------------------------------
WHO_STARTS = "WHO STARTS?"
TIE_LOW_LOSES = "TIE: LOW LOSES"
TIE_HIGH_WINS = "TIE: HIGH WINS"
TIE_PLAY_OFF = "TIE: PLAY OFF"
ROUND_N = "TRY %d"  # a roll-off's or play-off's try (a ROUND is the drinks a loser pays)
PLAY_FOR_WHAT = "PLAY FOR WHAT?"
KEYS_STAKE = "KEEP1:IS  KEEP3:COMES"
KEYS_ONE_DIE = "ROLL: THROW ONE DIE"
KEYS_THREE_DICE = "ROLL: THROW 3 DICE"
STARTS = "%s STARTS"
WINS = "%s WINS"
LOSES = "%s LOSES"
TIE_AGAIN = "TIED"  # the tied players lit below: they roll again

# ---- between turns and at the end ------------------------------------------------------------
HAND_PASSES = "TIE: HAND PASSES"
LOSES_TAKES = "%s LOSES: TAKES %d"
GIVES = "%s GIVES %d TO %s"  # the turn's winner gives its loser so many tokens
POT = "POT"
KEYS_NEXT = "OK:NEXT"
KEYS_NEXT_THROW = "OK:NEXT  ROLL:THROW"  # ROLL goes on and throws: a human plays next
POT_EMPTY = "POT IS EMPTY"
OUT = "OUT: %s"
NOT_SAVED = "NOT SAVED!"
KEYS_STANDINGS = "ROLL:BACK OK:TALLY"
PAYS = "%s PAYS"
PAY = "%s PAY"
TIE_PAY = "TIE: PAY"
THE_ROUND = "THE ROUND!"
ESPAGNOLE = "L'ESPAGNOLE"
WON = ("WON: %s", "WON: %s")  # one winner, several
KEYS_NEW_GAME = "OK:NEW GAME"
KEYS_OVER = "OK:TALLY"  # OK or ROLL: the tally, where OK plays a new game
LAST_HOLDS = "LAST WITH TOKENS"  # why the game ended: the last with tokens pays
FIRST_OUT_IN = "FIRST OUT IN %s"  # why the game ended: a player out, in that phase
KEYS_TALLY = "OK:BACK HOLD OK:QUIT"
QUIT_TITLE = "QUIT THE GAME?"
# The first line alone on 128x32: a whole sentence.
QUIT_LINES = ("THE GAME STAYS SAVED", "THE SETUP OFFERS IT")
KEYS_QUIT = "KEEP1:YES  OK:NO"  # yes on no key the screen before meant back

# ---- at power-up -----------------------------------------------------------------------------
RESUME_TITLE = "RESUME?"
RESUME_PLAYERS = "%s %d PLAYERS"
RESUME_TURN = "TURN %d %s"
TO_PLAY = "%s TO PLAY"
KEYS_RESUME = "OK:YES  ROLL:NO"  # no: the setup, which offers it still
SAVE_LOST = "SAVE LOST"
NEW_GAME_STARTS = "A NEW GAME STARTS"
TALLY_LOST = "TALLY LOST"
COUNTING_FROM_0 = "COUNTING FROM 0"
# Why a file was set aside (store_read's reasons), and what became of it.
SAVE_PROBLEM = "Save %s: %s"
TALLY_PROBLEM = "Tally %s: %s"
WHY = {"empty": "empty", "damaged": "damaged", "too big": "too big", "invalid": "invalid",
       "unreadable": "unreadable", "crashed": "crashed"}
KEPT_AS = "kept as %s"
STUCK = "could not move"
SAFE_MODE = "SAFE MODE"
SAFE_LINES = ("NO GAME RUNNING", "USB REPL IS FREE", "FOR MPREMOTE")
KEYS_SAFE = "POWER OFF TO LEAVE"
ERROR = "ERROR %s"
ERROR_LINES = ("SORRY! THE GAME", "IS SAVED AND", "RESTARTS")
KEYS_ERROR = "SEE ERROR.LOG"


# ---- added later: kept last, the same order in every catalogue ------------------------------
KEYS_TALLY_OVER = "OK:NEW GAME ROLL:BACK"  # the tally after a game: back to the game over
# A hint's legend, on the setup's HINTS row: "1/3 OK 96%", "OK+0.9T".
HINTS_LEGEND = "OK=STOP %=SAFE T=SHED"
# Taking back a stop or a stake, until the next die is thrown: the question (its title names
# who did what), and the key bar that offers it: a stop's, a stake's, a le bon's.
UNDO_ASK = ("UNDO %s'S STOP?", "UNDO %s'S STAKE?", "UNDO %s'S LE BON?")
UNDO_LINES = ("SAME DICE AS BEFORE", "NOTHING ELSE CHANGES")  # 128x32: the first alone
KEYS_UNDO_ASK = "KEEP1:YES  OK:NO"
KEYS_UNDO = ("KEEP1:UNDO THE STOP", "KEEP1:UNDO THE STAKE", "KEEP1:UNDO LE BON")
# What the row under the setup's cursor means, on its bottom line: PLAYERS, RULES, TRAY PLAYS,
# HINTS (128x32, whose turn shows no hint's figures: 128x64 shows HINTS_LEGEND), TALLY, LANGUAGE.
SETUP_MEANS = ("PLAYERS AT THE TABLE", "SETS EVERY ROW BELOW", "SEATS THE TRAY PLAYS",
               "SHOWS THE BEST KEEPS", "ROUNDS EACH SEAT PAID", "LANGUE / LANGUAGE")
# The setup's row of a game left (quit, or not resumed at power-up) while it is kept: its label
# (its value: who plays next), its top line, its bottom line.
RESUME_ROW = "RESUME"
KEYS_RESUME_ROW = "OK:RESUME THE GAME"
RESUME_MEANS = "GAME LEFT AT TURN %d"
# Why the round's payer pays, under why the game ended: the most tokens (so many), or all.
MOST_TOKENS = "MOST TOKENS: %d"
ALL_TOKENS = "HOLDS EVERY TOKEN"
