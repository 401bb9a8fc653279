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
 * Makefile) so that no multiply-add is ever fused, whatever -march says.
 */

#include <string.h>

#include "config.h"
#include "libavutil/attributes.h"
#include "libavutil/common.h"
#include "libavcodec/mathops.h"
#include "libavcodec/cuda_kernels/c63_dct.h"

#include "c63.h"
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

/* Eight floats, operated on element by element exactly as scalar code
 * would; GCC and Clang map it onto whatever vector unit the target has. */
typedef float   v8sf __attribute__((vector_size(32), aligned(32)));
typedef int32_t v8si __attribute__((vector_size(32), aligned(32)));
typedef int16_t v8hi __attribute__((vector_size(16), aligned(16)));

/* (int16_t) of each element, after clamping into the int16 range (which
 * only hostile streams leave; the conversion truncates toward zero). */
static av_always_inline void store_int16(int16_t *dst, const v8sf *src)
{
    v8sf v = *src;
    const v8sf lo = { -32768, -32768, -32768, -32768, -32768, -32768, -32768, -32768 };
    const v8sf hi = {  32767,  32767,  32767,  32767,  32767,  32767,  32767,  32767 };
    v8si m = v < lo;
    v8hi h;
    v = (v8sf)((m & (v8si)lo) | (~m & (v8si)v));
    m = v > hi;
    v = (v8sf)((m & (v8si)hi) | (~m & (v8si)v));
    h = __builtin_convertvector(__builtin_convertvector(v, v8si), v8hi);
    memcpy(dst, &h, sizeof(h));
}

static av_always_inline void load8(v8sf *v, const float *p)
{
    memcpy(v, p, sizeof(*v));
}

/* out[r] = sum_j in[r][j] * m[j], j increasing, for each of the 8 rows r. */
static av_always_inline void pass_rows(v8sf out[8], const float in[64], const v8sf m[8])
{
    for (int r = 0; r < 8; r++) {
        v8sf acc = { 0 };
        for (int j = 0; j < 8; j++)
            acc += in[8 * r + j] * m[j];
        out[r] = acc;
    }
}

/* out[i] = sum_j m[j][i] * in[j], j increasing, for each output row i. */
static av_always_inline void pass_cols(v8sf out[8], const v8sf in[8], const float m[8][8])
{
    for (int i = 0; i < 8; i++) {
        v8sf acc = { 0 };
        for (int j = 0; j < 8; j++)
            acc += in[j] * m[j][i];
        out[i] = acc;
    }
}

static void fdct_quant_c(int16_t coef[64], const int16_t res[64], const uint8_t q[64])
{
    v8sf y[8], z[8], bt[8], su;
    float xf[64], zf[64];

    load8(&su, scale_u);
    for (int j = 0; j < 8; j++)
        load8(&bt[j], T[j]);
    for (int i = 0; i < 64; i++)
        xf[i] = res[i];

    /* Forward 1-D DCT: out[i] = sum_j in[j] * T[j][i]. */
    pass_rows(y, xf, bt);
    pass_cols(z, y, T);
    for (int i = 0; i < 8; i++) {
        v8sf v = z[i] * su * scale_u[i];
        memcpy(zf + 8 * i, &v, sizeof(v));
    }

    for (int k = 0; k < 64; k++)
        coef[k] = (int16_t)round_away((double)zf[ff_zigzag_direct[k]] / 4.0 / (double)q[k]);
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
    float xf[64];
    v8sf y[8], z[8], bt[8];
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

    {
        v8sf su;
        load8(&su, scale_u);
        for (int r = 0; r < 8; r++) {
            v8sf v;
            load8(&v, xf + 8 * r);
            v = v * su * scale_u[r];
            memcpy(xf + 8 * r, &v, sizeof(v));
        }
    }
    for (int j = 0; j < 8; j++)
        load8(&bt[j], Tt[j]);

    /* Inverse 1-D DCT: out[i] = sum_j in[j] * T[i][j]. */
    pass_rows(y, xf, bt);
    pass_cols(z, y, Tt);
    for (int i = 0; i < 8; i++)
        store_int16(res + 8 * i, &z[i]);
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

av_cold void ff_c63dsp_init(C63DSPContext *c)
{
    c->fdct_quant       = fdct_quant_c;
    c->dequant_idct_add = dequant_idct_add_c;
    c->add_pred         = add_pred_c;
    c->sub_pred     = sub_pred_c;
    c->me_search    = NULL;
    c->block_sums   = NULL;

#if ARCH_X86 && HAVE_X86ASM
    ff_c63dsp_init_x86(c);
#endif
}
