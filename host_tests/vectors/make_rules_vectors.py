"""Writes rules_vectors.json: for every preset, the 56 throws strongest first, with their tokens.

Transcribed from the rule texts' own tables, independently of firmware/dicetray/rules.py:
    python host_tests/vectors/make_rules_vectors.py
"""

import itertools
import json
import os

# 000's table "Ordre des combinaisons", N°1 to N°16.
CLASSIC_FIGURES = ["421", "111", "116", "666", "115", "555", "114", "444", "113", "333", "112",
                   "222", "654", "543", "432", "321"]
# 003's table, strongest first; 221 (nenette) comes between the figures and "665...322".
BAR41_FIGURES = ["421", "111", "666", "555", "444", "333", "222", "116", "115", "114", "113",
                 "112", "654", "543", "432", "321", "221"]
# 000's values table; 003's values beside its table (nenette 4); 001: 421 "tous les jetons".
VALUES = {"421": 10, "111": 7, "116": 6, "666": 6, "115": 5, "555": 5, "114": 4, "444": 4,
          "113": 3, "333": 3, "112": 2, "222": 2, "654": 2, "543": 2, "432": 2, "321": 2}


def key(throw):
    # Written the way the tables write a throw: figures with aces as "11x", others high first.
    digits = sorted(throw, reverse=True)
    return "".join(str(d) for d in digits)


def canon(text):
    # "116" and "611" name the same dice.
    return "".join(sorted(text, reverse=True))


def ordinary_order(throws, ace_high):
    # "on considère d'abord le dé le plus fort, en cas d'égalité le suivant" (003, 001, 004).
    def strength(t):
        faces = sorted((7 if ace_high and d == 1 else d) for d in t)
        return faces[::-1]
    return sorted(throws, key=strength, reverse=True)


def table(figures, nenette_last, ace_high, nenette_value, jackpot_tokens=None):
    all56 = sorted({tuple(sorted(t, reverse=True))
                    for t in itertools.product(range(1, 7), repeat=3)}, reverse=True)
    fig = [canon(f) for f in figures]
    others = [t for t in all56 if key(t) not in fig and key(t) != "221"]
    rows = [canon(f) for f in figures] + [key(t) for t in ordinary_order(others, ace_high)]
    if nenette_last:
        rows.append("221")
    values = {canon(k): v for k, v in VALUES.items()}
    values["221"] = nenette_value
    if jackpot_tokens:
        values["421"] = jackpot_tokens
    return [[[int(c) for c in r], values.get(r, 1)] for r in rows]


def main():
    vectors = {
        "classic": table(CLASSIC_FIGURES, True, True, 2),
        "jackpot": table(CLASSIC_FIGURES, True, True, 2, jackpot_tokens=21),
        "zanzibar": table(CLASSIC_FIGURES, True, True, 2),
        "bar41": table(BAR41_FIGURES, False, False, 4),
        "lebon": table(CLASSIC_FIGURES, True, True, 4),
    }
    for rows in vectors.values():
        assert len(rows) == 56
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rules_vectors.json")
    with open(out, "w") as f:
        f.write("{\n")
        names = list(vectors)
        for i, name in enumerate(names):
            f.write('"%s": [\n' % name)
            rows = vectors[name]
            f.write(",\n".join("  " + json.dumps(r) for r in rows))
            f.write("\n]%s\n" % ("," if i < len(names) - 1 else ""))
        f.write("}\n")


if __name__ == "__main__":
    main()
