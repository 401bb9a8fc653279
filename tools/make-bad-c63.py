#!/usr/bin/env python3
"""Write the hand-made hostile Codec63 samples used by the FATE tests.

  bad_mv.c63   a keyframe, then an inter frame whose first block's vector
               (-8, 0) points left of the plane
  bad_run.c63  a keyframe whose first block's AC zero runs pass position 63

Usage: make-bad-c63.py tests/fate/samples   (reads tiny.c63 there, writes both)
"""
import os
import sys

HEADER = 655


class Bits:
    def __init__(self):
        self.bits = []

    def put(self, code):
        self.bits += [int(c) for c in code]

    def data(self):
        bits = self.bits + [1] * (-len(self.bits) % 8)
        out = bytearray()
        for i in range(0, len(bits), 8):
            b = int(''.join(map(str, bits[i:i + 8])), 2)
            out.append(b)
            if b == 0xFF:
                out.append(0)
        return bytes(out)


def frames(stream):
    pos = 0
    while pos < len(stream):
        end = stream.index(b'\xff\xd9', pos + HEADER) + 2
        yield stream[pos:end]
        pos = end


def main(folder):
    tiny = open(os.path.join(folder, 'tiny.c63'), 'rb').read()
    key, inter = list(frames(tiny))[:2]

    b = Bits()
    b.put('1')          # use_mv
    b.put('0')          # no reuse
    b.put('101')        # x: size 4
    b.put('0111')       #    -8
    b.put('00')         # y: 0
    b.put('00')         # DC: size 0
    b.put('1010')       # EOB
    b.put('1' * 32)
    open(os.path.join(folder, 'bad_mv.c63'), 'wb').write(
        key + inter[:HEADER] + b.data() + b'\xff\xd9')

    b = Bits()
    b.put('0')          # use_mv (keyframe)
    b.put('00')         # DC: size 0
    for _ in range(4):
        b.put('11111111001')    # ZRL, four times: 1 + 64 > 63
    b.put('1' * 32)
    open(os.path.join(folder, 'bad_run.c63'), 'wb').write(
        key[:HEADER] + b.data() + b'\xff\xd9')


if __name__ == '__main__':
    main(sys.argv[1])
