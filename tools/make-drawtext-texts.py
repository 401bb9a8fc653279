#!/usr/bin/env python3
"""Write the texts of the drawtext-texts FATE case (tests/fate/samples/drawtext-texts.txt).

One line per frame: a text of one or two lines (a line break written as
\\n) that differs from the one before by a few characters changed,
inserted or deleted. The texts are made of kerning pairs, ligatures,
combining marks, digits, Greek and Cyrillic, and, in the last group,
Arabic beside Latin (lines that drawtext shapes whole). drawtext keeps
the last frame's layout and shapes only the changed parts of a line
again; the test compares that with the same frames laid out anew each.

Usage: make-drawtext-texts.py > tests/fate/samples/drawtext-texts.txt
"""
import random

ALPHABETS = [
    list("AVWTYLPFfilgjo.,-' 0123456789") + ['fi', 'ffl', 'ff', 'Te', 'Yo', 'AV', 'LT'],
    list("AVWTYLPfilo 0123.,") + ['e\u0301', 'a\u0308', '\u0303', 'o\u0302', '\u0301', 'ff', 'fi',
                                  'Te', 'To', 'Ya', 'AV', '\u0391\u03bd', '\u0414\u0436',
                                  '\u03ac', 'i\u0307'],
    list("AVfi e\u00e9") + ['e\u0301', 'a\u0308', '\u0303', 'o\u0302'] +
    list("\u0633\u0644\u0627\u0645 ") + list("0123"),
]
FRAMES = 100


def texts(rng, alphabet, n):
    base = [rng.choice(alphabet) for _ in range(rng.randint(6, 14))]
    for _ in range(n):
        t = list(base)
        for _ in range(rng.randint(1, 3)):
            op = rng.random()
            i = rng.randrange(len(t))
            if op < 0.7:
                t[i] = rng.choice(alphabet)
            elif op < 0.85:
                t.insert(i, rng.choice(alphabet))
            elif len(t) > 3:
                del t[i]
        if rng.random() < 0.3:
            base = t
        s = ''.join(t)
        if rng.random() < 0.2:
            s += '\\n' + ''.join(rng.choice(alphabet) for _ in range(5))
        yield s


def main():
    rng = random.Random(63)
    for alphabet in ALPHABETS:
        for s in texts(rng, alphabet, FRAMES):
            print(s)


if __name__ == '__main__':
    main()
