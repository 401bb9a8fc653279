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

#include <math.h>
#include <string.h>

#include "libavutil/attributes.h"
#include "libavutil/common.h"
#include "libavcodec/mathops.h"

#include "c63.h"
#include "c63dsp.h"

#define T ff_c63_dct_lookup

/* ------------------------------------------------------------------------
 * Reference transcriptions (FORMAT.md sections 5 and 6, literally).
 */

static void dct_1d(const float *in, float *out)
{
    for (int i = 0; i < 8; i++) {
        float dct = 0.0f;
        for (int j = 0; j < 8; j++)
            dct += in[j] * T[j][i];
        out[i] = dct;
    }
}

static void idct_1d(const float *in, float *out)
{
    for (int i = 0; i < 8; i++) {
        float idct = 0.0f;
        for (int j = 0; j < 8; j++)
            idct += in[j] * T[i][j];
        out[i] = idct;
    }
}

static void transpose(const float *in, float *out)
{
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            out[i * 8 + j] = in[j * 8 + i];
}

static void scale_block(const float *in, float *out)
{
    for (int v = 0; v < 8; v++)
        for (int u = 0; u < 8; u++) {
            float a1 = !u ? C63_ISQRT2 : 1.0f;
            float a2 = !v ? C63_ISQRT2 : 1.0f;
            out[v * 8 + u] = in[v * 8 + u] * a1 * a2;
        }
}

void ff_c63_fdct_quant_ref(int16_t coef[64], const int16_t res[64], const uint8_t q[64])
{
    float mb[64], mb2[64];

    for (int i = 0; i < 64; i++)
        mb2[i] = res[i];
    for (int v = 0; v < 8; v++)
        dct_1d(mb2 + v * 8, mb + v * 8);
    transpose(mb, mb2);
    for (int v = 0; v < 8; v++)
        dct_1d(mb2 + v * 8, mb + v * 8);
    transpose(mb, mb2);
    scale_block(mb2, mb);
    for (int k = 0; k < 64; k++) {
        float d = mb[ff_zigzag_direct[k]];
        coef[k] = (int16_t)(float)round((double)d / 4.0 / (double)q[k]);
    }
}

void ff_c63_dequant_idct_ref(int16_t res[64], const int16_t coef[64], const uint8_t q[64])
{
    float mb[64], mb2[64];

    for (int k = 0; k < 64; k++) {
        float c = coef[k];
        mb[ff_zigzag_direct[k]] = (float)round((double)(c * (float)q[k]) / 4.0);
    }
    scale_block(mb, mb2);
    for (int v = 0; v < 8; v++)
        idct_1d(mb2 + v * 8, mb + v * 8);
    transpose(mb, mb2);
    for (int v = 0; v < 8; v++)
        idct_1d(mb2 + v * 8, mb + v * 8);
    transpose(mb, mb2);
    for (int i = 0; i < 64; i++)
        res[i] = (int16_t)av_clipf(mb2[i], -32768.0f, 32767.0f);
}

/* ------------------------------------------------------------------------
 * Optimised C. The same operations in the same order for every output,
 * arranged so that each step works on whole rows of 8 floats (which the
 * compiler vectorises) and the transposes disappear:
 *   pass 1:  Y[r][.]  = sum_j X[r][j] * B[j][.]
 *   pass 2:  Z[i][.]  = sum_j B'[i][j] * Y[j][.]
 * with B = T (forward) or T transposed (inverse).
 */

/* Tt[j][i] = T[i][j] */
static const float Tt[8][8] = {
    {       1.0f,       1.0f,       1.0f,       1.0f,       1.0f,       1.0f,       1.0f,       1.0f },
    {  0.980785f,  0.831470f,  0.555570f,  0.195090f, -0.195090f, -0.555570f, -0.831470f, -0.980785f },
    {  0.923880f,  0.382683f, -0.382683f, -0.923880f, -0.923880f, -0.382683f,  0.382683f,  0.923880f },
    {  0.831470f, -0.195090f, -0.980785f, -0.555570f,  0.555570f,  0.980785f,  0.195090f, -0.831470f },
    {  0.707107f, -0.707107f, -0.707107f,  0.707107f,  0.707107f, -0.707107f, -0.707107f,  0.707107f },
    {  0.555570f, -0.980785f,  0.195090f,  0.831470f, -0.831470f, -0.195090f,  0.980785f, -0.555570f },
    {  0.382683f, -0.923880f,  0.923880f, -0.382683f, -0.382683f,  0.923880f, -0.923880f,  0.382683f },
    {  0.195090f, -0.555570f,  0.831470f, -0.980785f,  0.980785f, -0.831470f,  0.555570f, -0.195090f },
};

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

static void fdct_quant_c(int16_t coef[64], const int16_t res[64], const uint8_t q[64])
{
    float x[8][8], y[8][8], z[8][8];

    for (int r = 0; r < 8; r++)
        for (int i = 0; i < 8; i++)
            x[r][i] = res[r * 8 + i];

    /* Forward 1-D DCT uses T[j][i]: rows of T scaled by the input. */
    for (int r = 0; r < 8; r++) {
        float acc[8] = { 0 };
        for (int j = 0; j < 8; j++)
            for (int i = 0; i < 8; i++)
                acc[i] += x[r][j] * T[j][i];
        memcpy(y[r], acc, sizeof(acc));
    }
    for (int i = 0; i < 8; i++) {
        float acc[8] = { 0 };
        for (int j = 0; j < 8; j++)
            for (int c = 0; c < 8; c++)
                acc[c] += y[j][c] * T[j][i];
        for (int c = 0; c < 8; c++)
            z[i][c] = acc[c] * scale_u[c] * scale_u[i];
    }

    for (int k = 0; k < 64; k++) {
        int n = ff_zigzag_direct[k];
        float d = z[n >> 3][n & 7];
        coef[k] = (int16_t)round_away((double)d / 4.0 / (double)q[k]);
    }
}

static void dequant_idct_c(int16_t res[64], const int16_t coef[64], const uint8_t q[64])
{
    float x[8][8] = { { 0 } }, y[8][8];
    int nz = 0, last = 0;

    for (int k = 0; k < 64; k++) {
        /* coef * q is an exact integer in float; halve-away rounding of
         * that integer / 4 done in integers equals the reference's double
         * round(). */
        int p = coef[k] * q[k];
        int n;
        if (!p)
            continue;
        n = ff_zigzag_direct[k];
        x[n >> 3][n & 7] = p >= 0 ? (p + 2) >> 2 : -((-p + 2) >> 2);
        nz++;
        last = k;
    }

    if (!nz) {
        memset(res, 0, 64 * sizeof(*res));
        return;
    }
    if (last == 0) {
        /* DC only: every product but T[.][0] * dc is +-0, T[.][0] = 1, so
         * every output equals the scaled DC exactly. */
        float dc = x[0][0] * C63_ISQRT2 * C63_ISQRT2;
        int16_t v = (int16_t)av_clipf(dc, -32768.0f, 32767.0f);
        for (int i = 0; i < 64; i++)
            res[i] = v;
        return;
    }

    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++)
            x[r][c] = x[r][c] * scale_u[c] * scale_u[r];

    /* Inverse 1-D DCT uses T[i][j]. */
    for (int r = 0; r < 8; r++) {
        float acc[8] = { 0 };
        for (int j = 0; j < 8; j++)
            for (int i = 0; i < 8; i++)
                acc[i] += x[r][j] * Tt[j][i];
        memcpy(y[r], acc, sizeof(acc));
    }
    for (int i = 0; i < 8; i++) {
        float acc[8] = { 0 };
        for (int j = 0; j < 8; j++)
            for (int c = 0; c < 8; c++)
                acc[c] += y[j][c] * T[i][j];
        for (int c = 0; c < 8; c++)
            res[i * 8 + c] = (int16_t)av_clipf(acc[c], -32768.0f, 32767.0f);
    }
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
    c->fdct_quant   = fdct_quant_c;
    c->dequant_idct = dequant_idct_c;
    c->add_pred     = add_pred_c;
    c->sub_pred     = sub_pred_c;
}
