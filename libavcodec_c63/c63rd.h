/*
 * Codec63 rate-distortion decisions on the CPU
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

/**
 * @file
 * The c63 encoder's rate-distortion decisions (-trellis, -mv_rd,
 * -intra_rd), put together from the parts that c63_cuda's kernels run
 * too (cuda_kernels/c63_rd.h), so that both take the same decisions.
 */

#ifndef AVCODEC_C63_C63RD_H
#define AVCODEC_C63_C63RD_H

#include "cuda_kernels/c63_rd.h"

static inline int c63_rd_sad8(const unsigned char *a, const unsigned char *b, int stride)
{
    int sad = 0;
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            const int d = a[y * stride + x] - b[y * stride + x];
            sad += d < 0 ? -d : d;
        }
    return sad;
}

/** The residual a - b of an 8x8 block (b NULL: a): the sum of its
 *  samples and their SAD from its mean (sum + 32) >> 6. */
static inline int c63_rd_mean_sad8(const unsigned char *a, const unsigned char *b, int stride,
                                   int *sum)
{
    int s = 0, m, sad = 0;
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++)
            s += a[y * stride + x] - (b ? b[y * stride + x] : 0);
    m = (s + 32) >> 6;
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            const int d = a[y * stride + x] - (b ? b[y * stride + x] : 0) - m;
            sad += d < 0 ? -d : d;
        }
    *sum = s;
    return sad;
}

/**
 * -mv_rd and -intra_rd on the CPU: the vector of block (bx, by) of a w x h
 * plane (w the stride; src the block, ref the plane) among the best-SAD
 * vector best, with C63_RD_MV the left neighbour's chosen vector (left,
 * NULL in column 0: sent as reuse) and (0, 0): the first of least
 * c63_rd_mv_cost() in that order. Vectors that leave the plane are not
 * candidates, nor the left neighbour's where it has none. With
 * C63_RD_INTRA, then none (C63_MV_INTRA) where that costs less than the
 * vector chosen, by the SADs from the residuals' means and the bits with
 * the DC's at DC step qdc, and C63_RD_INTRA_BIAS. c63_mv_rd does the same
 * on the GPU.
 */
static inline C63ECMV c63_rd_choose_mv(const unsigned char *src, const unsigned char *ref,
                                       int w, int h, int bx, int by, C63ECMV best,
                                       const C63ECMV *left, int lambda_me, int modes, int qdc)
{
    const int x = 8 * bx, y = 8 * by;
    int cost_min = 0x7fffffff, bits_min = 0;
    C63ECMV ret = best;

    if (left && left->x == C63_MV_INTRA)
        left = NULL;
    for (int i = 0; i < 3; i++) {
        C63ECMV v = best;
        int reuse, bits, cost;
        if (i != 1 && !(modes & C63_RD_MV))
            continue;
        if (i == 0) {
            if (!left)
                continue;
            v = *left;
        } else if (i == 2) {
            v.x = v.y = 0;
        }
        if (x + v.x < 0 || x + v.x > w - 8 || y + v.y < 0 || y + v.y > h - 8)
            continue;
        reuse = left && v.x == left->x && v.y == left->y;
        bits  = c63_rd_mv_bits(v.x, v.y, reuse);
        cost  = c63_rd_mv_cost(c63_rd_sad8(src, ref + (y + v.y) * w + x + v.x, w), bits,
                               lambda_me);
        if (cost < cost_min) {
            cost_min = cost;
            bits_min = bits;
            ret = v;
        }
    }
    if (modes & C63_RD_INTRA) {
        int sum_i, sum_p;
        const int sad_i = c63_rd_mean_sad8(src, NULL, w, &sum_i);
        const int sad_p = c63_rd_mean_sad8(src, ref + (y + ret.y) * w + x + ret.x, w, &sum_p);
        if (c63_rd_mv_cost(sad_i + C63_RD_INTRA_BIAS, 1 + c63_rd_dc_bits(sum_i, qdc),
                           lambda_me) <
            c63_rd_mv_cost(sad_p, bits_min + c63_rd_dc_bits(sum_p, qdc), lambda_me)) {
            ret.x = C63_MV_INTRA;
            ret.y = 0;
        }
    }
    return ret;
}

/**
 * The DC chain of MCU row v of a plane of bw blocks a row on the CPU
 * (-trellis 2): coef, the plane's levels (64 a block, raster order; the
 * DCs are replaced with the choice), dcz each block's z, back a byte a
 * block for the way back. c63_dc_chain does the same on the GPU.
 */
static inline void c63_rd_dc_chain(short *coef, const int *dcz, unsigned char *back,
                                   int bw, int v, int luma, int q,
                                   const unsigned char *dc_len, long long lambda)
{
    const int n = luma ? 2 * bw : bw;
    long long cost[2] = { 0, 0 }, err[2], w[4];
    int lp[2] = { 0, 0 }, lv[2], s;

    for (int i = 0; i < n; i++) {
        const int b = c63_rd_dc_block(i, luma, bw, v);
        c63_rd_dc_cands(coef[64 * b], dcz[b], q, lv, err);
        c63_rd_dc_weights(w, lv, err, lp, dc_len, lambda, !i);
        back[b] = c63_rd_dc_advance(cost, w);
        lp[0] = lv[0];
        lp[1] = lv[1];
    }
    s = cost[1] < cost[0];
    for (int i = n - 1; i >= 0; i--) {
        const int b = c63_rd_dc_block(i, luma, bw, v), t = back[b];
        if (s) {
            c63_rd_dc_cands(coef[64 * b], dcz[b], q, lv, err);
            coef[64 * b] = lv[1];
        }
        s = (t >> s) & 1;
    }
}

/**
 * Trellis quantisation of one block's AC levels. c: the 64 levels of the
 * block in zigzag order, as the reference rounds them (within the limits
 * of the caller); they are replaced with the choice. z4: 4 x the scaled DCT
 * output at the same positions (exact in float; rounded to nearest int).
 * q: the block's table; ac_len: the length of each AC code of the block's
 * plane. The DC is left as it is. c63_encode_rd does the same with the
 * eight threads of a block.
 */
static inline void c63_rd_quant(short *c, const int *z4, const unsigned char *q,
                                const unsigned char *ac_len, long long lambda)
{
    C63RDTrellis t;
    const int m = c63_rd_quant_start(&t, c, z4);

    for (int i = 0; i < m; i++) {
        C63RDNode n;
        long long b = C63_RD_COST_MAX;
        int bp = 0, bl = 0;
        c63_rd_quant_node(&n, t.pos[i], c, z4, q);
        for (int j = -1; j < i; j++) {
            const int p = j < 0 ? 0 : t.pos[j];
            if (c63_rd_quant_edge(t.best[p] - t.s0[p], &n, p, ac_len, lambda, &b, &bl))
                bp = p;
        }
        c63_rd_quant_set(&t, &n, b, bp, bl);
    }
    c63_rd_quant_end(&t, c, m, ac_len, lambda);
}

#endif /* AVCODEC_C63_C63RD_H */
