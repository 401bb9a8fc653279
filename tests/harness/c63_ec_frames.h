// Synthetic coded frames (coefficients and vectors) for the tests of the
// GPU entropy coder: checkc63 (its serial coder against the CPU writer) and
// checkcuda (its kernels against the serial coder). Include after libavcodec's
// c63.h and c63enc.h.

#ifndef TESTS_C63_EC_FRAMES_H
#define TESTS_C63_EC_FRAMES_H

#include <algorithm>
#include <cstdint>
#include <vector>

enum CoefKind { ZERO, SPARSE, DENSE, MAX_MAG, ZRL_CHAIN, ONES, DC_ONLY, MIXED };

static const char *const coef_kind_names[] = {
    "zero", "sparse", "dense", "max-magnitude", "zrl-chains", "0xff-heavy", "dc-only", "mixed",
};

// r() returns 32 random bits.
template <class R> static int rnd_in(R &r, int lo, int hi)
{
    return lo + (int)(r() % (uint32_t)(hi - lo + 1));
}

// Quantised values stay within what the format codes: |AC| < 1024,
// |DC| <= 1023 (so DC differences are below 2048).
template <class R> static void fill_block(int16_t *c, CoefKind kind, int b, R &r)
{
    std::fill(c, c + 64, 0);
    switch (kind == MIXED ? (CoefKind)(b % 7) : kind) {
    case ZERO:
        break;
    case SPARSE:
        c[0] = rnd_in(r, -1023, 1023);
        for (int i = rnd_in(r, 0, 7); i > 0; i--)
            c[rnd_in(r, 1, 63)] = rnd_in(r, 0, 7) ? rnd_in(r, -3, 3) : rnd_in(r, -1023, 1023);
        break;
    case DENSE:
        c[0] = rnd_in(r, -1023, 1023);
        for (int k = 1; k < 64; k++)
            c[k] = rnd_in(r, 0, 7) < 3 ? 0 : rnd_in(r, 0, 7) ? rnd_in(r, -3, 3)
                                                             : rnd_in(r, -1023, 1023);
        break;
    case MAX_MAG:   // every coefficient of size 10 (11 for the DC differences)
        c[0] = b & 1 ? 1023 : -1023;
        for (int k = 1; k < 64; k++)
            c[k] = (k + b) & 1 ? 1023 : -1023;
        break;
    case ZRL_CHAIN: // runs of 16 and more zeros, up to the last position
        c[0] = rnd_in(r, -1023, 1023);
        c[63] = b & 1 ? 1 : -512;
        if (b & 2)
            c[17] = 5;
        if (b & 4)
            c[34] = -1;
        break;
    case ONES:      // long codes full of 1 bits: many 0xFF bytes to stuff
        c[0] = b & 1 ? 1023 : -1023;
        for (int k = 16; k < 64; k += 16)
            c[k] = 1023;
        break;
    default:        // DC_ONLY
        c[0] = rnd_in(r, -1023, 1023);
        break;
    }
}

// A coded frame of a w x h picture; frame 0 is a keyframe, 1 has random
// vectors, 2 mostly equal neighbours (reuse), 3 extreme vectors, 4 blocks
// without a vector (C63_MV_INTRA) among equal and random ones.
#define SYNTH_FRAMES 5
struct SynthFrame {
    C63Geometry g;
    std::vector<int16_t> coef;
    std::vector<C63MV> mv;
    C63CodedFrame f;
};

template <class R> static void synth_frame(SynthFrame &s, int w, int h, CoefKind kind, int frame,
                                           R &r)
{
    ff_c63_geometry(&s.g, w, h);
    const size_t total = (size_t)s.g.w[0] * s.g.h[0] + 2 * (size_t)s.g.w[1] * s.g.h[1];
    s.coef.resize(total);
    s.mv.resize(total / 64);
    for (size_t i = 0; i < total / 64; i++) {
        fill_block(&s.coef[64 * i], kind, (int)i + frame, r);
        if (frame == 1 || (frame == 2 && !rnd_in(r, 0, 3)))
            s.mv[i] = { (int8_t)rnd_in(r, -64, 64), (int8_t)rnd_in(r, -64, 64) };
        else if (frame == 3)
            s.mv[i] = { (int8_t)(i & 1 ? 64 : -64), (int8_t)(i & 2 ? -64 : 63) };
        else if (frame == 2)
            s.mv[i] = i ? s.mv[i - 1] : C63MV{ 1, -1 };
        else if (frame == 4 && !rnd_in(r, 0, 2))
            s.mv[i] = { C63_MV_INTRA, 0 };
        else if (frame == 4)
            s.mv[i] = i && rnd_in(r, 0, 1) ? s.mv[i - 1] :
                      C63MV{ (int8_t)rnd_in(r, -8, 8), (int8_t)rnd_in(r, -8, 8) };
        else
            s.mv[i] = { 0, 0 };
    }
    s.f.keyframe = frame == 0;
    for (int p = 0; p < 3; p++) {
        size_t off = p ? (size_t)s.g.w[0] * s.g.h[0] + (p - 1) * (size_t)s.g.w[1] * s.g.h[1] : 0;
        s.f.coef[p] = s.coef.data() + off;
        s.f.mv[p]   = s.mv.data() + off / 64;
    }
}

#endif // TESTS_C63_EC_FRAMES_H
