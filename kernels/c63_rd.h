/*
 * Codec63 rate-distortion decisions, shared by the c63 encoder (C) and
 * c63_cuda (device code)
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
 * Both decisions weigh distortion against bits with integer arithmetic
 * only, so that the CPU and the GPU take the same ones:
 *
 * - c63_rd_quant() (-trellis): the AC levels of a block that minimise
 *   squared error + lambda x bits, over levels |L| and |L| - 1 of each
 *   coefficient the reference would code as L (and 0): a shortest path
 *   over the positions of the non-zero coefficients, with the real code
 *   lengths of the runs, sizes, ZRL and EOB, and the error of the value the
 *   decoder really reconstructs (4 x round(level x q / 4), which is not
 *   level x q where q is not a multiple of 4).
 * - c63_rd_dc_advance() (-trellis 2): the DC levels of the blocks of an MCU
 *   row of a plane, each the level as quantised or the next toward the
 *   exact value, that minimise squared error + lambda x bits of the DC
 *   differences along the row in coding order (a two-state shortest path;
 *   the difference from the row before is not counted, so that rows are
 *   decided independently).
 * - c63_rd_mv_cost() (-mv_rd, -intra_rd): SAD + lambda_me x bits of a
 *   vector, for the choice among the best-SAD vector, the zero vector and
 *   the left neighbour's (sent as the one-bit reuse); then of no vector
 *   (use_mv 0, C63_MV_INTRA) against the vector chosen, each by the SAD
 *   of its residual from the residual's mean (which the DC codes) and
 *   bits that count, beside use_mv and the vector, twice those of that
 *   mean's DC level (the block's DC difference and that of the block
 *   after).
 *
 * The unit of the trellis's error is that of z4 = 4 x the scaled DCT
 * output (16 x the orthonormal coefficient), squared: 256 x the squared
 * error in samples.
 *
 * Here are the parts that the kernels and the CPU share; the CPU's
 * decisions put together from them (c63_rd_quant(), c63_rd_dc_chain(),
 * c63_rd_choose_mv()) are in libavcodec/c63/c63rd.h.
 */

#ifndef KERNELS_C63_RD_H
#define KERNELS_C63_RD_H

#include "kernel_func.h"
#include "c63_ec.h"

/** The candidates of the vector choice (C63RDParams.modes). */
#define C63_RD_MV    1      ///< -mv_rd: the left neighbour's vector and (0, 0)
#define C63_RD_INTRA 2      ///< -intra_rd: no vector

/**
 * What a block without a vector must save beyond its cost, in SAD: the SAD
 * from the mean prices its texture lower than the DCT codes it (a negative
 * bias of the same size makes camera footage 5-8% larger; this one keeps
 * every clip measured at or below the rate without -intra_rd).
 */
#define C63_RD_INTRA_BIAS 24

/** Lambdas of one frame (ff_c63_rd_params()); 0 turns the decision off. */
typedef struct C63RDParams {
    long long lambda;       ///< trellis: 256 x squared error per bit
    int       dc;           ///< -trellis 2: the DC chain too (lambda's)
    int       lambda_me;    ///< vectors: 16 x SAD per bit
    int       modes;        ///< C63_RD_MV | C63_RD_INTRA: what lambda_me decides
} C63RDParams;

/**
 * The vector choice of -mv_rd and -intra_rd on the GPU, in two launches
 * with the same parameters; the planes and vectors as c63_encode has them
 * (c63_transform.h):
 *
 * c63_mv_rd_pre, a thread a block (nblocks, the blocks of the three planes
 * in order, C63_MVRD_PRE_THREADS a thread block): what does not depend on
 * the choices of the blocks to the left, into pre (a C63MVRDPre a block):
 * the SADs of the block against its best-SAD vector, (0, 0) and the
 * best-SAD vectors of the C63_MVRD_BACK blocks to its left, and with
 * -intra_rd the SADs from the residual's mean and the sums of the residual
 * with each, and with none (intra).
 *
 * The choice of a block depends on the blocks to its left only through
 * its left neighbour's choice, and that is one of a few vectors: none, (0,
 * 0), or the best-SAD vector of one of the C63_MVRD_BACK blocks to the
 * left (a state of C63_MVRD_STATES), or, rarely, one from further left
 * (C63_MVRD_FAR). c63_mv_rd_pre takes the block's choice for each of the
 * C63_MVRD_STATES states too (next).
 *
 * c63_mv_rd, one warp a block row (nrows, the rows of the three planes
 * numbered one after the other, C63_MVRD_WARPS warps a thread block), its
 * blocks left to right: each block's choice is that of the state its left
 * neighbour's choice left, and where that is C63_MVRD_FAR, taken as the
 * CPU's, the first of least cost in the order left, mv, zero, from pre and
 * where the left neighbour's choice is none of its slots' vectors, from the
 * pictures.
 */
#define C63_MVRD_WARPS       4
#define C63_MVRD_PRE_THREADS 128
#define C63_MVRD_BACK        4
#define C63_MVRD_SLOTS       (2 + C63_MVRD_BACK)
#define C63_MVRD_STATES      (2 + C63_MVRD_BACK)     ///< none, (0, 0), 1 + k: block k to the left
#define C63_MVRD_FAR         C63_MVRD_STATES         ///< a vector from further left

/** c63_mv_rd_pre's results for one block. Slot 0: the best-SAD vector; 1:
 *  (0, 0); 2 + k: the best-SAD vector of the block k + 1 to the left.
 *  sad[i] < 0: slot i was no candidate (none, outside the plane, or no
 *  C63_RD_MV; slot 0 outside the plane). psad[0], psum[0] are there with
 *  -intra_rd even where slot 0 is outside the plane, as the CPU takes
 *  them. */
typedef struct C63MVRDPre {
    int sad[C63_MVRD_SLOTS];
    int psad[C63_MVRD_SLOTS], psum[C63_MVRD_SLOTS];
    int isad, isum;                 ///< -intra_rd: without prediction
    /** The block's choice (packed: x in bits 0-7, y in 8-15) where the left
     *  neighbour's choice is state s (0: none or column 0; 1: (0, 0); 1 +
     *  k: the best-SAD vector of block k to the left, where there is one),
     *  and in bits 16 and up the state that the choice leaves to the next
     *  block. */
    int next[C63_MVRD_STATES];
} C63MVRDPre;

typedef struct C63MVRDPlane {
    int w, h;                       ///< padded size; w is the stride
    int first;                      ///< its first block over the three planes
    int first_row;                  ///< its first block row over the three planes
    int qdc;                        ///< the frame's DC step of the plane
} C63MVRDPlane;

typedef struct C63MVRDParams {
    unsigned long long mv, orig, ref;   ///< device addresses
    unsigned long long pre;         ///< a C63MVRDPre a block (device address)
    C63MVRDPlane p[3];
    int nblocks;                    ///< blocks of the three planes
    int nrows;                      ///< block rows of the three planes
    int lambda_me;
    int modes;                      ///< C63_RD_MV | C63_RD_INTRA
    unsigned long long scene;       ///< not 0: nothing to do where its C63SceneState's key
} C63MVRDParams;

/**
 * c63_dc_chain, the DC chain of -trellis 2 on the GPU: one warp a chain,
 * the chains of the three planes (an MCU row each) numbered one after the
 * other, between c63_encode_rdq and c63_recon (c63_transform.h), on their
 * levels and exact DCs.
 */
#define C63_DC_CHAIN_MAX (2 * 65536 / 8)    ///< blocks of the longest chain

typedef struct C63DCChainPlane {
    int bw;                         ///< blocks a row
    int first;                      ///< its first block over the three planes
    int first_chain;                ///< its first chain over the three planes
} C63DCChainPlane;

typedef struct C63DCChainParams {
    unsigned long long coef, dcz, q;    ///< device addresses (c63_encode_rdq's)
    unsigned long long dc_len;          ///< DC code lengths, [2][12]
    C63DCChainPlane p[3];
    int nchains;
    long long lambda;
} C63DCChainParams;

/** Bits of a vector component of size s (the MV table's code, then s bits). */
KERNEL_INLINE int c63_rd_mv_comp_bits(int v)
{
    const int a = v < 0 ? -v : v, s = a ? 32 - C63EC_CLZ(a) : 0;
    /* codes 00, 010 .. 110, 1110, 11110 for sizes 0, 1..5, 6, 7 */
    return (s == 0 ? 2 : s <= 5 ? 3 : s - 2) + s;
}

/** Bits of a block's use_mv, reuse and vector: 2 with reuse. */
KERNEL_INLINE int c63_rd_mv_bits(int x, int y, int reuse)
{
    return reuse ? 2 : 2 + c63_rd_mv_comp_bits(x) + c63_rd_mv_comp_bits(y);
}

/** 16 x SAD + lambda_me x bits. */
KERNEL_INLINE int c63_rd_mv_cost(int sad, int bits, int lambda_me)
{
    return 16 * sad + lambda_me * bits;
}

/**
 * Bits of the DC of a residual whose samples sum to sum, at DC step qdc:
 * its level round(sum / (8 qdc)) coded twice (the MV table's lengths,
 * those of the luma DC table, for both planes).
 */
KERNEL_INLINE int c63_rd_dc_bits(int sum, int qdc)
{
    const int a = sum < 0 ? -sum : sum;
    return 2 * c63_rd_mv_comp_bits((a + 4 * qdc) / (8 * qdc));
}

/** What the decoder reconstructs of level a >= 0 at step q, times 64, in
 *  the unit of z4: 64 x round(a x q / 4) (halves up). */
KERNEL_INLINE long long c63_rd_rec(int a, int q)
{
    return 64LL * ((a * q + 2) >> 2);
}

/** The size category of a level a >= 0: its bit length. */
KERNEL_INLINE int c63_rd_size(int a)
{
    return a ? 32 - C63EC_CLZ(a) : 0;
}

/** What the decoder reconstructs of level l of either sign (c63_rd_rec()). */
KERNEL_INLINE long long c63_rd_rec_signed(int l, int q)
{
    return l < 0 ? -c63_rd_rec(-l, q) : c63_rd_rec(l, q);
}

/**
 * The block of a plane of bw blocks a row that comes i-th in coding order
 * in MCU row v, as its raster index: luma 2x2 blocks an MCU, chroma one.
 * An MCU row has 2 bw luma blocks and bw chroma blocks.
 */
KERNEL_INLINE int c63_rd_dc_block(int i, int luma, int bw, int v)
{
    return luma ? (2 * v + ((i >> 1) & 1)) * bw + 2 * (i >> 2) + (i & 1) : v * bw + i;
}

/**
 * -trellis 2: the two DC levels of a block whose DC is quantised to l, at
 * DC step q, from z (4 x the scaled DCT output, as the trellis's z4): l and
 * the next level toward z (toward zero where l is exact); err: the squared
 * error of each.
 */
KERNEL_INLINE void c63_rd_dc_cands(int l, int z, int q, int lv[2], long long err[2])
{
    const long long e0 = z - c63_rd_rec_signed(l, q);
    long long e1;
    lv[0]  = l;
    lv[1]  = e0 > 0 || (e0 == 0 && l < 0) ? l + 1 : l - 1;
    e1     = z - c63_rd_rec_signed(lv[1], q);
    err[0] = e0 * e0;
    err[1] = e1 * e1;
}

/** Bits of a DC difference d: its size's code (dc_len) and the size. */
KERNEL_INLINE int c63_rd_dc_diff_bits(int d, const unsigned char *dc_len)
{
    const int s = c63_rd_size(d < 0 ? -d : d);
    return dc_len[s] + s;
}

/**
 * One block of the DC chain of an MCU row (-trellis 2), in coding order,
 * in two parts: c63_rd_dc_weights(), which needs only this block's
 * candidates and those of the block before (so the GPU computes it for
 * many blocks at once), then c63_rd_dc_advance(), the step of the
 * shortest path (one block after the other).
 *
 * w[2 s + t]: the cost of this block's candidate s (levels lv, errors err:
 * c63_rd_dc_cands()) after the candidate t of the block before (levels
 * lp): its squared error + lambda x the bits of the difference. first: the
 * row's first block, whose difference from the row before is not counted
 * (both weights its error).
 */
KERNEL_INLINE void c63_rd_dc_weights(long long w[4], const int lv[2], const long long err[2],
                                     const int lp[2], const unsigned char *dc_len,
                                     long long lambda, int first)
{
    for (int s = 0; s < 2; s++)
        for (int t = 0; t < 2; t++)
            w[2 * s + t] = err[s] +
                           (first ? 0 : lambda * c63_rd_dc_diff_bits(lv[s] - lp[t], dc_len));
}

/**
 * cost[t]: the least cost of the chain up to the block before, ending in
 * its candidate t (0 for the row's first block); becomes that of the chain
 * up to this block (weights w). Returns the way back: bit s set where this
 * block's candidate s follows the candidate 1 of the block before
 * (candidate 0 on ties). After the row's last block, the chain ends in
 * the candidate of least cost (0 on ties), and each block's choice is the
 * bit of the block after's choice in the way back of the block after.
 */
KERNEL_INLINE int c63_rd_dc_advance(long long cost[2], const long long w[4])
{
    const long long a0 = cost[0] + w[0], b0 = cost[1] + w[1];
    const long long a1 = cost[0] + w[2], b1 = cost[1] + w[3];
    cost[0] = b0 < a0 ? b0 : a0;
    cost[1] = b1 < a1 ? b1 : a1;
    return (b0 < a0) | (b1 < a1) << 1;
}

/*
 * Trellis quantisation of one block's AC levels (c63_rd_quant()), in
 * parts that the GPU runs with the eight threads of a block: the shortest
 * path goes over the positions of the non-zero levels in order
 * (c63_rd_quant_start()), and the way to each (c63_rd_quant_node()) is
 * the least of those from every position before it (c63_rd_quant_edge(),
 * tried in increasing order, the first of them kept on ties); then
 * c63_rd_quant_end() takes the best end and walks back.
 */

/** What the trellis keeps of one block. */
typedef struct C63RDTrellis {
    long long s0[64];       ///< error of positions 1..k all coded as 0
    long long best[64];     ///< the best path to the non-zero coefficient at k
    unsigned char pos[64];  ///< candidates: positions whose level is not 0
    unsigned char from[64]; ///< the best path's previous non-zero position
    unsigned char lev1[64]; ///< 1: its level is |L| - 1
} C63RDTrellis;

/**
 * A candidate position k whose level |L| = a: the squared error of coding
 * it as a (e0, size s0k) or a - 1 (e1, size s1k). Packed into three words,
 * which the GPU keeps in registers for each of a thread's candidates: x
 * holds k (bits 0-5), s0k (8-11), s1k (12-15) and whether a > 1 (16). The
 * errors fit: |z4| < 2^15 for 8-bit samples, and a level is never above
 * the reference's, so each error is below 2^16.
 */
typedef struct C63RDNode {
    unsigned e0, e1;
    int x;
} C63RDNode;

#define C63_RD_NODE_K(n)   ((n)->x & 63)
#define C63_RD_NODE_S0(n)  ((n)->x >> 8 & 15)
#define C63_RD_NODE_S1(n)  ((n)->x >> 12 & 15)
#define C63_RD_NODE_A1(n)  ((n)->x >> 16)   ///< a > 1: a - 1 is a candidate

/** s0 and pos of the block with levels c; returns the number of candidates. */
KERNEL_INLINE int c63_rd_quant_start(C63RDTrellis *t, const short *c, const int *z4)
{
    int m = 0;
    t->s0[0] = 0;
    t->best[0] = 0;
    for (int k = 1; k < 64; k++) {
        t->s0[k] = t->s0[k - 1] + (long long)z4[k] * z4[k];
        if (c[k])
            t->pos[m++] = k;
    }
    return m;
}

KERNEL_INLINE void c63_rd_quant_node(C63RDNode *n, int k, const short *c, const int *z4,
                                     const unsigned char *q)
{
    const int a = c[k] < 0 ? -c[k] : c[k];
    const long long z = z4[k] < 0 ? -(long long)z4[k] : z4[k];
    const long long e0 = z - c63_rd_rec(a, q[k]);
    const long long e1 = z - c63_rd_rec(a - 1, q[k]);
    n->e0 = (unsigned)(e0 * e0);
    n->e1 = (unsigned)(e1 * e1);
    n->x  = k | c63_rd_size(a) << 8 | c63_rd_size(a - 1) << 12 | (a > 1) << 16;
}

/**
 * The way to candidate n from the non-zero position p before it (0: the
 * block's start), whose best path costs from = best[p] - s0[p]: where it
 * costs less than *b, sets *b and *bl (1: level a - 1) and returns 1.
 */
KERNEL_INLINE int c63_rd_quant_edge(long long from, const C63RDNode *n, int p,
                                    const unsigned char *ac_len, long long lambda,
                                    long long *b, int *bl)
{
    const int run = C63_RD_NODE_K(n) - p - 1;
    /* (from may be negative) */
    const long long base = from + lambda * ((run >> 4) * ac_len[0xF0]);
    const int r = (run & 15) << 4, s0k = C63_RD_NODE_S0(n), s1k = C63_RD_NODE_S1(n);
    long long v = base + n->e0 + lambda * (s0k + ac_len[r | s0k]);
    int ret = 0;
    if (v < *b) {
        *b   = v;
        *bl  = 0;
        ret  = 1;
    }
    if (C63_RD_NODE_A1(n)) {
        v = base + n->e1 + lambda * (s1k + ac_len[r | s1k]);
        if (v < *b) {
            *b  = v;
            *bl = 1;
            ret = 1;
        }
    }
    return ret;
}

/** The best path to candidate n: cost b from position bp, level bl. */
KERNEL_INLINE void c63_rd_quant_set(C63RDTrellis *t, const C63RDNode *n, long long b, int bp,
                                    int bl)
{
    const int k = C63_RD_NODE_K(n);
    t->best[k] = b + t->s0[k - 1];
    t->from[k] = bp;
    t->lev1[k] = bl;
}

/** The end of the m candidates' paths: after the last non-zero
 *  coefficient, zeros and an EOB; the levels of the chosen path into c. */
KERNEL_INLINE void c63_rd_quant_end(const C63RDTrellis *t, short *c, int m,
                                    const unsigned char *ac_len, long long lambda)
{
    long long total = t->s0[63] + lambda * ac_len[0x00];
    int end = 0;
    for (int i = 0; i < m; i++) {
        const int k = t->pos[i];
        const long long v = t->best[k] + t->s0[63] - t->s0[k] +
                            (k < 63 ? lambda * ac_len[0x00] : 0);
        if (v < total) {
            total = v;
            end = k;
        }
    }
    /* the chosen path, back from its end; the rest are zeros */
    for (int i = m - 1; i >= 0; i--) {
        const int k = t->pos[i];
        if (k == end) {
            if (t->lev1[k])
                c[k] += c[k] < 0 ? 1 : -1;
            end = t->from[k];
        } else {
            c[k] = 0;
        }
    }
}

#define C63_RD_COST_MAX 0x7FFFFFFFFFFFFFFFLL

#endif /* KERNELS_C63_RD_H */
