/*
 * Codec63 reference transcriptions for the test programs
 *
 * This file is part of FFmpeg.
 *
 * FFmpeg is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * FFmpeg is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * You should have received a copy of the GNU Lesser General Public
 * License along with FFmpeg; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA
 */

/*
 * Straightforward transcriptions of the reference (docs/c63-format.md
 * sections 6.3 to 6.6, 7.3 and 7.5, literally): what checkc63 checks the
 * library's C and SIMD versions against, and checkcuda the CUDA kernels.
 * They are test code only; the library has its optimised versions.
 *
 * Every float operation must be rounded on its own, as the reference does
 * it: a program that includes this is compiled with -ffp-contract=off, so
 * that no multiply-add is fused.
 */

#ifndef TESTS_C63REF_H
#define TESTS_C63REF_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif
#include "libavutil/common.h"
#include "libavcodec/c63/c63.h"
extern const uint8_t ff_zigzag_direct[64];   /* libavcodec/mathtables.c */
#ifdef __cplusplus
}
#endif

static inline void c63_dct_1d_ref(const float *in, float *out)
{
    for (int i = 0; i < 8; i++) {
        float dct = 0.0f;
        for (int j = 0; j < 8; j++)
            dct += in[j] * ff_c63_dct_lookup[j][i];
        out[i] = dct;
    }
}

static inline void c63_idct_1d_ref(const float *in, float *out)
{
    for (int i = 0; i < 8; i++) {
        float idct = 0.0f;
        for (int j = 0; j < 8; j++)
            idct += in[j] * ff_c63_dct_lookup[i][j];
        out[i] = idct;
    }
}

static inline void c63_transpose_ref(const float *in, float *out)
{
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            out[i * 8 + j] = in[j * 8 + i];
}

static inline void c63_scale_block_ref(const float *in, float *out)
{
    for (int v = 0; v < 8; v++)
        for (int u = 0; u < 8; u++) {
            float a1 = !u ? C63_ISQRT2 : 1.0f;
            float a2 = !v ? C63_ISQRT2 : 1.0f;
            out[v * 8 + u] = in[v * 8 + u] * a1 * a2;
        }
}

/** Forward transform of a block, scaled, in natural order. */
static inline void c63_fdct_ref(float mb[64], const int16_t res[64])
{
    float mb2[64];

    for (int i = 0; i < 64; i++)
        mb2[i] = res[i];
    for (int v = 0; v < 8; v++)
        c63_dct_1d_ref(mb2 + v * 8, mb + v * 8);
    c63_transpose_ref(mb, mb2);
    for (int v = 0; v < 8; v++)
        c63_dct_1d_ref(mb2 + v * 8, mb + v * 8);
    c63_transpose_ref(mb, mb2);
    c63_scale_block_ref(mb2, mb);
}

/** Forward transform and quantisation of a block: C63DSPContext.fdct_quant. */
static inline void c63_fdct_quant_ref(int16_t coef[64], const int16_t res[64], const uint8_t q[64])
{
    float mb[64];

    c63_fdct_ref(mb, res);
    for (int k = 0; k < 64; k++) {
        float d = mb[ff_zigzag_direct[k]];
        coef[k] = (int16_t)(float)round((double)d / 4.0 / (double)q[k]);
    }
}

/** 4 x the forward transform, rounded to nearest, zigzag order: ff_c63_fdct_z4. */
static inline void c63_fdct_z4_ref(int z4[64], const int16_t res[64])
{
    float mb[64];

    c63_fdct_ref(mb, res);
    for (int k = 0; k < 64; k++)
        z4[k] = (int)lrintf(mb[ff_zigzag_direct[k]] * 4.0f);
}

/** Dequantisation and inverse transform of a block, up to the int16
 *  residual: C63DSPContext.dequant_idct_add without the prediction. */
static inline void c63_dequant_idct_ref(int16_t res[64], const int16_t coef[64], const uint8_t q[64])
{
    float mb[64], mb2[64];

    for (int k = 0; k < 64; k++) {
        float c = coef[k];
        mb[ff_zigzag_direct[k]] = (float)round((double)(c * (float)q[k]) / 4.0);
    }
    c63_scale_block_ref(mb, mb2);
    for (int v = 0; v < 8; v++)
        c63_idct_1d_ref(mb2 + v * 8, mb + v * 8);
    c63_transpose_ref(mb, mb2);
    for (int v = 0; v < 8; v++)
        c63_idct_1d_ref(mb2 + v * 8, mb + v * 8);
    c63_transpose_ref(mb, mb2);
    for (int i = 0; i < 64; i++)
        res[i] = (int16_t)av_clipf(mb2[i], -32768.0f, 32767.0f);
}

/** The full search of C63DSPContext.me_search, every candidate in scan
 *  order; sums and seed are not used. */
static inline uint32_t c63_me_search_ref(const uint8_t *blk, const uint8_t *ref, ptrdiff_t stride,
                                         int nx, int ny, const uint16_t *sums, int seed)
{
    uint32_t best = UINT32_MAX;

    for (int y = 0; y < ny; y++)
        for (int x = 0; x < nx; x++) {
            const uint8_t *cand = ref + y * stride + x;
            uint32_t sad = 0;
            for (int i = 0; i < 8; i++)
                for (int j = 0; j < 8; j++)
                    sad += abs(blk[i * stride + j] - cand[i * stride + j]);
            best = FFMIN(best, sad << 16 | y << 7 | x);
        }
    return best;
}

#endif /* TESTS_C63REF_H */
