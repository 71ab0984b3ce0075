"""Every text the tray shows, in French as it is spoken round a 421 table: the catalogue
dicetray.words loads when the tray speaks French.

The same names as dicetray.words_en, which says how a catalogue is written. The buttons are
called GARDE 1 2 3 or G1 G2 G3 (KEEP), LANCE or L (ROLL) and OK; a hint's tokens are J
(jetons), with a decimal comma.
"""

LANG_NAME = "FRANÇAIS"  # the language's own name, as the setup shows it

# ---- the setup -------------------------------------------------------------------------------
SETUP_TITLE = "OK:JOUER LANCE:CHANGE"
PLAYERS = "JOUEURS"
RULES = "RÈGLES"
LANGUAGE = "LANGUE"
SEATS = "PLATEAU JOUE"  # the setup row: with its value ("AUCUN", "P2-P8") it reads apart
HINTS = "CONSEILS"
TALLY = "ARDOISE"
TALLY_SHOWN = ("GARDER", "EFFACER")  # the tally kept, or cleared as the game starts
OFF_ON = ("NON", "OUI")
NONE = "AUCUN"
# The presets' names, and a set of options that is none of them.
PRESETS = {"classic": "CLASSIQUE", "jackpot": "JACKPOT", "zanzibar": "ZANZIBAR",
           "bar41": "BAR41", "lebon": "LE BON", "custom": "PERSO"}
# The options' setup labels, the names of their values, shown as in the options table
# (dicetray.options), and what the row means (its bottom line, as the table's help).
_NO_YES = ("NON", "OUI")
OPTIONS = {
    "tokens": ("JETONS", None, "JETONS DANS LE POT"),
    "ranking": ("BARÈME", ("CLASSIQUE", "BAR41"), "CLASSEMENT DES COUPS"),
    "ace_high": ("AS FORT", _NO_YES, "UN AS BAT UN SIX"),
    "nenette_value": ("NÉNETTE VAUT", None, "221 GAGNANT VAUT"),
    "nenette_fixed": ("NÉNETTE PREND", ("NON",), "221 PERDANT PREND"),
    "jackpot_421": ("421 PREND TOUT", _NO_YES, "421: TOUS LES JETONS"),
    "start": ("QUI ENTAME", ("MEILLEUR", "PIRE", "UN DÉ", "P1"), "QUI JOUE EN PREMIER"),
    "dry_charge": ("CHARGE SÈCHE", _NO_YES, "UN COUP EN CHARGE"),
    "limit": ("SUIVANTS", ("EXACT", "AU PLUS"), "COUPS DES SUIVANTS"),
    "limit_from": ("LIMITE DU", ("PREMIER", "PRÉCÉDENT"), "QUI FIXE LA LIMITE"),
    "le_bon": ("LE BON", _NO_YES, "RESTER AVANT LIMITE"),
    "tie": ("ÉGALITÉS", ("DERNIER", "UN DÉ", "BARRAGE"), "COMMENT DÉPARTAGER"),
    "two_player_pass": ("À 2: MAIN PASSE", _NO_YES, "2 ÉGAUX: RIEN À PAYER"),
    "fewer_throws_win": ("MOINS DE COUPS", _NO_YES, "MOINS DE COUPS GAGNE"),
    "nenette_later_wins": ("2E NÉNETTE BAT", _NO_YES, "LA 2E NÉNETTE GAGNE"),
    "deduct": ("DÉDUIRE", _NO_YES, "ON PAIE LA DIFFÉRENCE"),
    "end": ("FIN", ("DERNIER PAIE", "PREMIER SORTI"), "FIN DE LA PARTIE"),
    "decharge_start": ("DÉCHARGE", ("PERDANT", "LE MOINS"), "QUI OUVRE LA DÉCHARGE"),
}

# ---- a turn ----------------------------------------------------------------------------------
PHASES = {"start": "DÉBUT", "charge": "CHARGE", "decharge": "DÉCHARGE", "over": "FINI"}
POT_N = "POT %d"
THROW_OF = "COUP %s/%d"
UP_TO = "JUSQU'À %d"  # MAX names the best throw so far
THROW_N = "%d COUP"
THROWS_N = "%d COUPS"
NOTHING_TO_BEAT = "RIEN À BATTRE"
TOP = "MAX %s %s"  # HAUT and BAS filled the line: the two ran together
LOW = "MIN %s %s"
KEYS_FIRST = "LANCE, OK TENU:TABLE"
KEYS_LAST = "DERNIER COUP. OK:FINI"
KEYS_KEEP = "GARDE DES DÉS, LANCE"
TRAY_PLAYS = "LE PLATEAU JOUE"  # the key bar while the tray plays a seat: nothing to press
KEYS_LE_BON = "GARDE LANCE OK:LE BON"
KEYS_STOP = "GARDE LANCE OK:RESTE"
# A combination's name by its kind (rules.K_*), the pips filled in where it shows them (an
# ordinary throw: as rules.written writes it).
COMBOS = ("421", "3 as", "2 as et %d", "brelan %d", "suite %d%d%d", "nénette", "%s")
# A hint's worth: the chance not to lose the turn, the tokens a player expects to shed
# (tenths, whole), and the stop's mark before it.
HINT_CHANCE = "%d%%"
HINT_SHED = "%s%d,%dJ"
HINT_SHED_WHOLE = "%s%dJ"
HINT_STOP = "OK"
SAY = "%s: %s"  # a seat the tray plays says its stop
SAY_LE_BON = "LE BON"
SAY_STOP = "RESTE"
# A refused press: why.
NOT_NOW = "NON"
KEEP1_OR_KEEP3 = "GARDE 1 OU 3"
ROLL_TO_PLAY = "LANCE POUR JOUER"
THROWS_DUE = "%d COUPS À JOUER"
THROW_FIRST = "LANCE D'ABORD"
TWO_DICE_AT_MOST = "2 DÉS AU PLUS"
NO_THROW_LEFT = "PLUS DE COUP"

# ---- roll-offs and play-offs -----------------------------------------------------------------
WHO_STARTS = "QUI ENTAME ?"
TIE_LOW_LOSES = "ÉGAL: PETIT PERD"
TIE_HIGH_WINS = "ÉGAL: GROS GAGNE"
TIE_PLAY_OFF = "ÉGAL: BARRAGE"
ROUND_N = "ESSAI %d"  # a roll-off's or play-off's try (a TOUR is a player's)
PLAY_FOR_WHAT = "EST OU VIENT ?"
KEYS_STAKE = "GARDE 1:EST  3:VIENT"
KEYS_ONE_DIE = "LANCE: UN DÉ"
KEYS_THREE_DICE = "LANCE: 3 DÉS"
STARTS = "%s ENTAME"
WINS = "%s GAGNE"
LOSES = "%s PERD"
# A tie: the tied players lit below roll again (no accent: a big title at the top).
TIE_AGAIN = "EX AEQUO"

# ---- between turns and at the end ------------------------------------------------------------
HAND_PASSES = "ÉGAL: LA MAIN PASSE"
LOSES_TAKES = "%s PERD: PREND %d"
GIVES = "%s DONNE %d À %s"  # the round's winner gives its loser
POT = "POT"
KEYS_NEXT = "OK:ENSUITE"  # not SUITE: a throw's name; nor SUIVANTS: the followers
KEYS_NEXT_THROW = "OK:ENSUITE LANCE:JOUE"
POT_EMPTY = "LE POT EST VIDE"
OUT = "SORTIS: %s"
NOT_SAVED = "NON SAUVÉ !"
KEYS_STANDINGS = "LANCE:JEU OK:ARDOISE"
PAYS = "%s PAIE"
PAY = "%s PAIENT"
TIE_PAY = "ÉGALITÉ"
THE_ROUND = "LA TOURNÉE !"
ESPAGNOLE = "L'ESPAGNOLE"
WON = ("GAGNANT: %s", "GAGNANTS: %s")
KEYS_NEW_GAME = "OK:NOUVELLE PARTIE"
KEYS_OVER = "OK:ARDOISE"
LAST_HOLDS = "SEUL AVEC DES JETONS"  # why the game ended: the last with tokens pays
FIRST_OUT_IN = "1ER SORTI EN %s"  # why the game ended: a player out, in that phase
KEYS_TALLY = "OK:JEU OK TENU:ARRÊT"
QUIT_TITLE = "ARRÊTER LA PARTIE ?"
QUIT_LINES = ("LA PARTIE EST GARDÉE", "LE MENU LA PROPOSE")
KEYS_QUIT = "GARDE 1:OUI  OK:NON"

# ---- at power-up -----------------------------------------------------------------------------
RESUME_TITLE = "REPRISE ?"
RESUME_PLAYERS = "%s %d JOUEURS"
RESUME_TURN = "TOUR %d %s"
TO_PLAY = "À %s DE JOUER"
KEYS_RESUME = "OK:OUI  LANCE:NON"
SAVE_LOST = "SAUVEGARDE PERDUE"
NEW_GAME_STARTS = "NOUVELLE PARTIE"
TALLY_LOST = "ARDOISE PERDUE"
COUNTING_FROM_0 = "ON REPART DE 0"
# Why a file was set aside (store_read's reasons), and what became of it.
SAVE_PROBLEM = "Fichier %s: %s"
TALLY_PROBLEM = "Fichier %s: %s"
WHY = {"empty": "vide", "damaged": "abîmé", "too big": "trop gros", "invalid": "invalide",
       "unreadable": "illisible", "crashed": "qui plante"}
KEPT_AS = "gardé en %s"
STUCK = "non déplacé"
SAFE_MODE = "MODE SANS ÉCHEC"
SAFE_LINES = ("AUCUNE PARTIE", "REPL USB LIBRE", "POUR MPREMOTE")
KEYS_SAFE = "DÉBRANCHER POUR JOUER"
ERROR = "ERREUR %s"
ERROR_LINES = ("DÉSOLÉ ! LA PARTIE", "EST SAUVÉE ET", "REPART")
KEYS_ERROR = "VOIR ERROR.LOG"


# ---- added later: kept last, the same order in every catalogue ------------------------------
KEYS_TALLY_OVER = "OK:REJOUER LANCE:JEU"  # the tally after a game: back to the game over
# A hint's legend, on the setup's HINTS row: "1/3 OK 96%", "OK+0,9J" (J: jetons donnés); its
# OK is the turn's key bar's (OK:RESTE): the legend has no room for it.
HINTS_LEGEND = "%=SÛR J=JETONS DONNÉS"
# Reprendre un stop ou une mise, tant qu'aucun dé n'est lancé : la question, et la barre des
# touches de la table qui le propose.
UNDO_ASK = ("ANNULER «%s RESTE» ?", "ANNULER MISE DE %s ?", "ANNULER «%s LE BON» ?")
UNDO_LINES = ("MÊMES DÉS QU'AVANT", "RIEN D'AUTRE NE BOUGE")
KEYS_UNDO_ASK = "GARDE 1:OUI  OK:NON"
KEYS_UNDO = ("GARDE 1:ANNULE RESTE", "GARDE 1:ANNULE MISE", "GARDE 1:ANNULE LE BON")
SETUP_MEANS = ("JOUEURS À LA TABLE", "CHOISIT LES OPTIONS", "LE PLATEAU JOUE POUR",
               "DÉS À GARDER MONTRÉS", "TOURNÉES DE CHACUN", "LANGUE / LANGUAGE")
RESUME_ROW = "REPRISE"
KEYS_RESUME_ROW = "OK:REPRENDRE"
RESUME_MEANS = "LAISSÉE AU TOUR %d"
MOST_TOKENS = "LE PLUS DE JETONS: %d"
ALL_TOKENS = "A TOUS LES JETONS"
