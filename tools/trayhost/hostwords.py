"""The host's own words: what the simulator and the web page say around the panel, in the
language the tray speaks (its catalogues: dicetray.words_en, words_fr). Never on the Pico: the
tray's catalogues, which a Pico holds in its heap, keep only what the panel shows.

    t = hostwords.of(words.lang)   # the simulator's or the web page's texts: t.SIM_KEYS
"""


class En:
    """English. BUTTONS: the tray's buttons, KEEP1..3, ROLL, OK."""

    BUTTONS = ("KEEP 1", "KEEP 2", "KEEP 3", "ROLL", "OK")
    SIM_KEYS = "1 2 3 keep | r/space roll | o/Enter OK | O long OK | q quit"
    SIM_BEEP = "♪ beep"
    SIM_REFUSED = "✗ refused"
    SIM_ASLEEP = "asleep: a press wakes it"
    SIM_DIMMED = "dimmed: a press still acts"
    # What the simulator says in the terminal as it quits: where the game is kept, how it comes
    # back.
    SIM_SAVED = ("The game is saved in %s.",
                 "Run %s again: it offers the game, OK (o) resumes it.")
    SIM_NOTHING_TO_RESUME = ("No game in progress: nothing to resume.",
                             "Your last setup is kept in %s.")
    SIM_NOT_KEPT = "Headless: nothing is kept after this run (--save-dir DIR keeps the game)."
    # What the web page says around the panel: its sound button off and on, its key legend, its
    # status line.
    WEB_SOUND = ("sound off", "sound on")
    WEB_LEGEND = ("keys: 1 2 3 keep · r or space roll · o or Enter OK"
                  " · hold OK (or Shift+O) for the table")
    WEB_SEEDED = "fixed dice (seed %s)"
    WEB_PLAIN_HTTP = "plain http: it plays, but offline and install need https"
    WEB_KEEPS_NO_GAME = "this browser keeps no game: %s"
    WEB_STOPPED = "the tray stopped: %s"
    SIM_TOO_SMALL = "terminal %dx%d is too small: the tray needs %dx%d or more; q quits"
    # What a screen reader says of the web page's buttons (their aria-label), KEEP1..3, ROLL, OK.
    WEB_BUTTON_HELP = ("keep die 1 (key 1)", "keep die 2 (key 2)", "keep die 3 (key 3)",
                       "roll (key r or space)", "OK (key o or Enter; hold it for the table)")
    WEB_LEGEND_UNDO = "1 where the panel offers it: take back a stop, a le bon or a stake"
    # The headless simulator's last lines, and the screens as the README's key table names them, in
    # the order of sim.play.SCREENS, by "|".
    SIM_SUMMARY = ("games over: %d, now on the %s screen", "%d screens",
                   "%d screens written to %s")
    SIM_SCREENS = ("setup|turn|roll-off|turn result|phase change|roll-off decided|table|tally"
                   "|quit?|game over|resume?|notice|undo?")


class Fr:
    """French: the same names, the same fields in the same order."""

    BUTTONS = ("GARDE 1", "GARDE 2", "GARDE 3", "LANCE", "OK")
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
    WEB_SEEDED = "dés fixés (graine %s)"
    WEB_PLAIN_HTTP = "en http simple : on joue, mais hors ligne et installation demandent https"
    WEB_KEEPS_NO_GAME = "ce navigateur ne garde aucune partie : %s"
    WEB_STOPPED = "le plateau s'est arrêté : %s"
    SIM_TOO_SMALL = "terminal %dx%d trop petit : le plateau demande %dx%d ou plus ; q quitte"
    # What a screen reader says of the web page's buttons (their aria-label), KEEP1..3, ROLL, OK.
    WEB_BUTTON_HELP = ("garder le dé 1 (touche 1)", "garder le dé 2 (touche 2)",
                       "garder le dé 3 (touche 3)", "lancer (touche r ou espace)",
                       "OK (touche o ou Entrée ; tenu, la table)")
    WEB_LEGEND_UNDO = ("1 là où l'écran le propose : reprendre un « reste », un « le bon » ou une"
                       " mise")
    SIM_SUMMARY = ("parties finies : %d, à l'écran %s", "%d écrans", "%d écrans écrits dans %s")
    SIM_SCREENS = ("réglages|tour|départage|résultat|changement de phase|départage joué|table"
                   "|ardoise|arrêter ?|fin de partie|reprise ?|avis|annuler ?")


LANGS = {"en": En, "fr": Fr}


def of(lang):
    """The host's words in lang (a code of dicetray.words.LANGS); English for any other."""
    return LANGS.get(lang, En)
