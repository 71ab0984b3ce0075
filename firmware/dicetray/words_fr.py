"""Every text the tray shows, in French as it is spoken round a 421 table: the catalogue
dicetray.words loads when the tray speaks French.

The same names as dicetray.words_en, which says how a catalogue is written. The buttons are
called GARDE 1 2 3 or G1 G2 G3 (KEEP), LANCE or L (ROLL) and OK; a hint's tokens are J
(jetons), with a decimal comma.
"""

LANG_NAME = "FRANÇAIS"  # the language's own name, as the setup shows it

# ---- the setup -------------------------------------------------------------------------------
SETUP_TITLE = "PARTIE  OK:COMMENCER"
SETUP_KEYS = "1/2 LIGNE  3/L VALEUR"
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
# The options' setup labels and the names of their values, shown as in the options table
# (dicetray.options).
_NO_YES = ("NON", "OUI")
OPTIONS = {
    "tokens": ("JETONS", None),
    "ranking": ("BARÈME", ("CLASSIQUE", "BAR41")),
    "ace_high": ("AS FORT", _NO_YES),
    "nenette_value": ("NÉNETTE VAUT", None),
    "nenette_fixed": ("NÉNETTE PREND", ("NON",)),
    "jackpot_421": ("421 PREND TOUT", _NO_YES),
    "start": ("QUI ENTAME", ("MEILLEUR", "PIRE", "UN DÉ", "P1")),
    "dry_charge": ("CHARGE SÈCHE", _NO_YES),
    "limit": ("SUIVANTS", ("EXACT", "AU PLUS")),
    "limit_from": ("LIMITE DU", ("PREMIER", "PRÉCÉDENT")),
    "le_bon": ("LE BON", _NO_YES),
    "tie": ("ÉGALITÉS", ("DERNIER", "UN DÉ", "BARRAGE")),
    "two_player_pass": ("À 2: MAIN PASSE", _NO_YES),
    "fewer_throws_win": ("MOINS DE COUPS", _NO_YES),
    "nenette_later_wins": ("2E NÉNETTE BAT", _NO_YES),
    "deduct": ("DÉDUIRE", _NO_YES),
    "end": ("FIN", ("DERNIER PAIE", "PREMIER SORTI")),
    "decharge_start": ("DÉCHARGE", ("PERDANT", "LE MOINS")),
}

# ---- a turn ----------------------------------------------------------------------------------
PHASES = {"start": "DÉBUT", "charge": "CHARGE", "decharge": "DÉCHARGE", "over": "FINI"}
POT_N = "POT %d"
THROW_OF = "COUP %s/%d"
UP_TO = "MAX %d"
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
COMBOS = ("421", "3 as", "as-%d", "brelan %d", "suite %d%d%d", "nénette", "%s")
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
KEEP1_OR_KEEP3 = "G1 OU G3"
ROLL_TO_PLAY = "LANCE POUR JOUER"
THROWS_DUE = "%d COUPS À JOUER"
THROW_FIRST = "LANCE D'ABORD"
TWO_DICE_AT_MOST = "2 DÉS AU PLUS"
NO_THROW_LEFT = "PLUS DE COUP"

# ---- roll-offs and play-offs -----------------------------------------------------------------
WHO_STARTS = "QUI COMMENCE ?"
TIE_LOW_LOSES = "ÉGAL: PETIT PERD"
TIE_HIGH_WINS = "ÉGAL: GROS GAGNE"
TIE_PLAY_OFF = "ÉGAL: BARRAGE"
ROUND_N = "ESSAI %d"  # a roll-off's or play-off's try (a TOUR is a player's)
PLAY_FOR_WHAT = "EST OU VIENT ?"
KEYS_STAKE = "G1:EST  G3:VIENT"
KEYS_ONE_DIE = "LANCE: UN DÉ"
KEYS_THREE_DICE = "LANCE: 3 DÉS"
STARTS = "%s ENTAME"
WINS = "%s GAGNE"
LOSES = "%s PERD"
TIE_AGAIN = "REBELOTE !"
KEYS_CONTINUE = "OK:CONTINUER"

# ---- between turns and at the end ------------------------------------------------------------
HAND_PASSES = "ÉGAL: LA MAIN PASSE"
LOSES_TAKES = "%s PERD: PREND %d"
GIVES = "%s DONNE %d À %s"  # the round's winner gives its loser
POT = "POT"
KEYS_NEXT = "OK:SUITE"
KEYS_NEXT_THROW = "OK:SUITE LANCE:JOUE"
POT_EMPTY = "LE POT EST VIDE"
OUT = "SORTIS: %s"
KEYS_GO_ON = "OK:ON Y VA"
NOT_SAVED = "NON SAUVÉ !"
KEYS_STANDINGS = "LANCE:JEU OK:ARDOISE"
PAYS = "%s PAIE"
PAY = "%s PAIENT"
TIE_PAY = "ÉGALITÉ"
THE_ROUND = "LA TOURNÉE !"
ESPAGNOLE = "L'ESPAGNOLE"
WON = "GAGNÉ: %s"
KEYS_NEW_GAME = "OK:NOUVELLE PARTIE"
KEYS_OVER = "OK:NOUVELLE L:ARDOISE"
LAST_HOLDS = "DERNIER AVEC JETONS"  # why the game ended: the last with tokens pays
FIRST_OUT_IN = "1ER SORTI EN %s"  # why the game ended: a player out, in that phase
KEYS_TALLY = "OK:JEU OK TENU:FINIR"
QUIT_TITLE = "ARRÊTER ?"
QUIT_LINES = ("LA PARTIE EST EFFACÉE", "ET SES JETONS PERDUS")
KEYS_QUIT = "LANCE:OUI  OK:NON"

# ---- at power-up -----------------------------------------------------------------------------
RESUME_TITLE = "REPRISE ?"
RESUME_PLAYERS = "%s %d JOUEURS"
RESUME_TURN = "TOUR %d %s"
TO_PLAY = "À %s DE JOUER"
KEYS_RESUME = "OK:OUI LANCE:NOUVELLE"
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
SAFE_MODE = "SANS ÉCHEC"
SAFE_LINES = ("AUCUNE PARTIE", "REPL USB LIBRE", "POUR MPREMOTE")
KEYS_SAFE = "ÉTEINDRE POUR SORTIR"
ERROR = "ERREUR %s"
ERROR_LINES = ("DÉSOLÉ ! LA PARTIE", "EST SAUVÉE ET", "REPART")
KEYS_ERROR = "VOIR ERROR.LOG"

# ---- the host's tools: the simulator's and the web page's labels -----------------------------
BUTTONS = ("GARDE 1", "GARDE 2", "GARDE 3", "LANCE", "OK")  # KEEP1..3, ROLL, OK
SIM_KEYS = "1 2 3 garde | r/espace lance | o/Entrée OK | O OK tenu | q quitte"
SIM_BEEP = "♪ bip"
SIM_REFUSED = "✗ refusé"
SIM_ASLEEP = "en veille : une touche le réveille"
SIM_DIMMED = "atténué : une touche agit encore"
SIM_SAVED = ("La partie est gardée dans %s.",
             "Relancer %s : la partie est proposée, OK (o) la reprend.")
SIM_NOTHING_TO_RESUME = ("Aucune partie en cours : rien à reprendre.",
                         "Les derniers réglages sont gardés dans %s.")
SIM_NOT_KEPT = "Sans terminal : rien n'est gardé (--save-dir DOSSIER garde la partie)."
WEB_SOUND = ("son coupé", "son activé")
WEB_LEGEND = ("touches : 1 2 3 garde · r ou espace lance · o ou Entrée OK"
              " · OK tenu (ou Maj+O) : la table")
WEB_SEEDED = "dés sur graine : %s"
WEB_PLAIN_HTTP = "en http simple : on joue, mais hors ligne et installation demandent https"
WEB_KEEPS_NO_GAME = "ce navigateur ne garde aucune partie : %s"
WEB_STOPPED = "le plateau s'est arrêté : %s"

# ---- added later: kept last, the same order in every catalogue ------------------------------
KEYS_TALLY_OVER = "OK:NOUVELLE L:RETOUR"  # the tally after a game: back to the game over
# A hint's legend, on the setup's HINTS row: "1/3 OK 96%", "OK+0,9J" (J: jetons donnés).
HINTS_LEGEND = "OK=RESTE %=SÛR J=DONS"
SIM_TOO_SMALL = "terminal %dx%d trop petit : le plateau demande %dx%d ou plus ; q quitte"
# What a screen reader says of the web page's buttons (their aria-label), KEEP1..3, ROLL, OK.
WEB_BUTTON_HELP = ("garder le dé 1 (touche 1)", "garder le dé 2 (touche 2)",
                   "garder le dé 3 (touche 3)", "lancer (touche r ou espace)",
                   "OK (touche o ou Entrée ; tenu, la table)")
# Reprendre un stop ou une mise, tant qu'aucun dé n'est lancé : la question, et la barre des
# touches de la table qui le propose.
UNDO_ASK = ("ANNULER «%s RESTE» ?", "ANNULER MISE DE %s ?")
UNDO_LINES = ("RETOUR JUSTE AVANT,", "AVEC LES MÊMES DÉS")
KEYS_UNDO_ASK = "G1:OUI  OK:NON"
KEYS_UNDO = ("G1:ANNULER «%s RESTE»", "G1:ANNULER MISE %s")
WEB_LEGEND_UNDO = "OK tenu puis 1 : reprendre un stop ou une mise"
WON_REST = "LES AUTRES ONT GAGNÉ"  # the game over, 128x32: every player who does not pay won
