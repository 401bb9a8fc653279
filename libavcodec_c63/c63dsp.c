/*
 * Codec63 DSP functions
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
 * Every float operation here must be rounded on its own, exactly as the
 * reference does it: this file is compiled with -ffp-contract=off (see
 * Makefile) so that no multiply-add is ever fused, whatever -march says,
 * and with -ftree-vectorize, which keeps each operation as it is (no
 * reassociation without -ffast-math).
 */

#include <limits.h>
#include <math.h>
#include <string.h>

#include "config.h"
#include "libavutil/attributes.h"
#include "libavutil/common.h"
#include "libavcodec/mathops.h"

#include "c63.h"
#include "c63dct.h"
#include "c63dsp.h"

#define T ff_c63_dct_lookup

/* ------------------------------------------------------------------------
 * Optimised C. The same operations in the same order for every output,
 * arranged so that each step works on whole rows of 8 floats (which the
 * compiler vectorises) and the transposes disappear:
 *   pass 1:  Y[r][.]  = sum_j X[r][j] * B[j][.]
 *   pass 2:  Z[i][.]  = sum_j B'[i][j] * Y[j][.]
 * with B = T (forward) or T transposed (inverse).
 */

/* Tt[j][i] = T[i][j]: a constant here (as T is not), from the same
 * literals, so that the compiler may fold it into the code. */
static const float Tt[8][8] = C63_DCT_TABLE_T;

/* Scale factors (a_u) per column, applied as (c * a_u) * a_v. */
static const float scale_u[8] = { C63_ISQRT2, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f };

/* Round half away from zero of a double, exactly as C's round(), returning
 * an int. Exact for |x| < 2^31: the fraction x - trunc(x) is exact. */
static av_always_inline int round_away(double x)
{
    int    t = (int)x;
    double f = x - t;
    return t + (f >= 0.5) - (f <= -0.5);
}

/* (int16_t) of each value, after clamping into the int16 range (which
 * only hostile streams leave; the conversion truncates toward zero). */
static av_always_inline void store_int16(int16_t *dst, const float src[8])
{
    for (int i = 0; i < 8; i++)
        dst[i] = (int)av_clipf(src[i], -32768.0f, 32767.0f);
}

/* out[r][.] = sum_j in[r][j] * m[j][.], j increasing, for each of the 8 rows r. */
static av_always_inline void pass_rows(float out[64], const float in[64], const float m[8][8])
{
    for (int r = 0; r < 8; r++) {
        float acc[8] = { 0 };
        for (int j = 0; j < 8; j++)
            for (int k = 0; k < 8; k++)
                acc[k] += in[8 * r + j] * m[j][k];
        memcpy(out + 8 * r, acc, sizeof(acc));
    }
}

/* out[i][.] = sum_j m[j][i] * in[j][.], j increasing, for each output row i. */
static av_always_inline void pass_cols(float out[64], const float in[64], const float m[8][8])
{
    for (int i = 0; i < 8; i++) {
        float acc[8] = { 0 };
        for (int j = 0; j < 8; j++)
            for (int k = 0; k < 8; k++)
                acc[k] += in[8 * j + k] * m[j][i];
        memcpy(out + 8 * i, acc, sizeof(acc));
    }
}

/* The forward transform, scaled: z in natural order. */
static av_always_inline void fdct_scaled(float z[64], const int16_t res[64])
{
    float xf[64], y[64];

    for (int i = 0; i < 64; i++)
        xf[i] = res[i];

    /* Forward 1-D DCT: out[i] = sum_j in[j] * T[j][i]. */
    pass_rows(y, xf, T);
    pass_cols(z, y, T);
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 8; k++)
            z[8 * i + k] = z[8 * i + k] * scale_u[k] * scale_u[i];
}

static void fdct_quant_c(int16_t coef[64], const int16_t res[64], const uint8_t q[64])
{
    float z[64];

    fdct_scaled(z, res);
    for (int k = 0; k < 64; k++)
        coef[k] = (int16_t)round_away((double)z[ff_zigzag_direct[k]] / 4.0 / (double)q[k]);
}

void ff_c63_fdct_z4(int z4[64], const int16_t res[64])
{
    float z[64];

    fdct_scaled(z, res);
    for (int k = 0; k < 64; k++)
        z4[k] = lrintf(z[ff_zigzag_direct[k]] * 4.0f);
}

int ff_c63_dc_residual(int dc, int q0)
{
    /* as dequant_idct_c: p rounded / 4 half away from zero, scaled twice */
    int p = dc * q0;
    float c = (p + 2 - (p < 0)) >> 2;
    return (int16_t)av_clipf(c * C63_ISQRT2 * C63_ISQRT2, -32768.0f, 32767.0f);
}

static void dequant_idct_c(int16_t res[64], const int16_t coef[64], const uint8_t q[64],
                           int n)
{
    float xf[64], y[64], z[64];
    int last = -1;

    for (int k = 0; k < 64; k++) {
        /* coef * q is an exact integer in float; rounding that integer / 4
         * half away from zero in integers, (p + 2 - (p < 0)) >> 2, equals
         * the reference's double round(). Branchless: blocks are dense. */
        int p = coef[k] * q[k];
        xf[ff_zigzag_direct[k]] = (p + 2 - (p < 0)) >> 2;
        last = p ? k : last;
    }

    if (last < 0) {
        memset(res, 0, 64 * sizeof(*res));
        return;
    }
    if (last == 0) {
        int16_t v = ff_c63_dc_residual(coef[0], q[0]);
        for (int i = 0; i < 64; i++)
            res[i] = v;
        return;
    }

    for (int r = 0; r < 8; r++)
        for (int k = 0; k < 8; k++)
            xf[8 * r + k] = xf[8 * r + k] * scale_u[k] * scale_u[r];

    /* Inverse 1-D DCT: out[i] = sum_j in[j] * T[i][j]. */
    pass_rows(y, xf, Tt);
    pass_cols(z, y, Tt);
    for (int i = 0; i < 8; i++)
        store_int16(res + 8 * i, z + 8 * i);
}

static void add_pred_c(uint8_t *dst, ptrdiff_t dst_stride,
                       const uint8_t *pred, ptrdiff_t pred_stride,
                       const int16_t res[64])
{
    for (int y = 0; y < 8; y++, dst += dst_stride, res += 8) {
        if (pred) {
            for (int x = 0; x < 8; x++)
                dst[x] = av_clip_uint8(pred[x] + res[x]);
            pred += pred_stride;
        } else {
            for (int x = 0; x < 8; x++)
                dst[x] = av_clip_uint8(res[x]);
        }
    }
}

static void dequant_idct_add_c(uint8_t *dst, ptrdiff_t dst_stride,
                               const uint8_t *pred, ptrdiff_t pred_stride,
                               const int16_t coef[64], const uint8_t q[64], int n)
{
    int16_t res[64];

    dequant_idct_c(res, coef, q, n);
    add_pred_c(dst, dst_stride, pred, pred_stride, res);
}

static void sub_pred_c(int16_t res[64], const uint8_t *src, ptrdiff_t src_stride,
                       const uint8_t *pred, ptrdiff_t pred_stride)
{
    for (int y = 0; y < 8; y++, src += src_stride, res += 8) {
        if (pred) {
            for (int x = 0; x < 8; x++)
                res[x] = src[x] - pred[x];
            pred += pred_stride;
        } else {
            for (int x = 0; x < 8; x++)
                res[x] = src[x];
        }
    }
}

uint32_t ff_c63_me_search_c(const uint8_t *blk, const uint8_t *ref, ptrdiff_t stride,
                            int nx, int ny, const uint16_t *sums, int seed)
{
    unsigned best_sad = UINT_MAX;
    uint32_t best = 0;

    /* The sums and the seed only let faster versions skip candidates; the
     * result is that of every candidate in scan order. */
    for (int y = 0; y < ny; y++) {
        for (int x = 0; x < nx; x++) {
            const uint8_t *c = ref + y * stride + x;
            unsigned sad = 0;
            for (int i = 0; i < 8; i++)
                for (int j = 0; j < 8; j++)
                    sad += FFABS(blk[i * stride + j] - c[i * stride + j]);
            if (sad < best_sad) {
                best_sad = sad;
                best     = sad << 16 | y << 7 | x;
            }
        }
    }
    return best;
}

static void block_sums_c(uint16_t *dst, const uint8_t *src, ptrdiff_t stride, int n)
{
    unsigned acc = 0;

    for (int j = 0; j < 7; j++)
        acc += src[j] + src[j + stride];
    for (int x = 0; x < n; x++) {
        acc   += src[x + 7] + src[x + 7 + stride];
        dst[x] = acc;
        acc   -= src[x] + src[x + stride];
    }
}

av_cold void ff_c63dsp_init(C63DSPContext *c)
{
    c->fdct_quant       = fdct_quant_c;
    c->dequant_idct_add = dequant_idct_add_c;
    c->add_pred         = add_pred_c;
    c->sub_pred         = sub_pred_c;
    c->me_search        = ff_c63_me_search_c;
    c->block_sums       = block_sums_c;

#if ARCH_X86 && HAVE_X86ASM
    ff_c63dsp_init_x86(c);
#endif
}
