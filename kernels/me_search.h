/*
 * Block-matching motion searches shared by the mestimate_cuda kernel and
 * its C test harness
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
 * The per-block searches of libavfilter/motion_estimation.c (esa, tss,
 * tdls, ntss, fss, ds, hexbs) as functions that compile both as device
 * code (kernels/mestimate_cuda.cu, clang or nvcc) and as host C (the test
 * harness tests/harness/checkme.c, which compares them with ff_me_search_*).
 *
 * Each function is a transcription of its ff_me_search_* model with
 * nothing changed that can change a vector: the cost is the sum of
 * absolute differences of the mb_size x mb_size block (ff_me_cmp_sad, 64-bit
 * sum), the window is the model's [x_mb - p, x_mb + p] clamped to
 * [x_min, x_max] (mestimate passes 0 and the position of the last whole
 * block), candidates are visited in the model's order and one replaces the
 * best only when it costs strictly less; a zero cost at the block's own
 * position ends the search there, as in the model.
 *
 * The window is computed in 64-bit arithmetic; where the model's int
 * arithmetic does not overflow (the filter refuses search_param values
 * for which it would), the result is the same.
 *
 * Plain C types only, no library calls: the header is included by the
 * kernel, where only cuda_compat.h is available.
 */

#ifndef KERNELS_ME_SEARCH_H
#define KERNELS_ME_SEARCH_H

#include "kernel_func.h"

/* Method numbers: AV_ME_METHOD_* of libavfilter/motion_estimation.h. */
#define ME_METHOD_ESA   1
#define ME_METHOD_TSS   2
#define ME_METHOD_TDLS  3
#define ME_METHOD_NTSS  4
#define ME_METHOD_FSS   5
#define ME_METHOD_DS    6
#define ME_METHOD_HEXBS 7
#define ME_METHOD_EPZS  8
#define ME_METHOD_UMH   9

/** One search: a plane of the current and the reference frame. */
typedef struct MESearch {
    const unsigned char *cur, *ref;
    int linesize;
    int mb_size;
    int search_param;
    int x_min, x_max, y_min, y_max;   ///< as AVMotionEstContext's
} MESearch;

/** A search as vf_mestimate.c sets it up: x_min = y_min = 0, x_max and
 *  y_max the position of the last whole block. */
KERNEL_FORCEINLINE void me_search_setup(MESearch *s, const unsigned char *cur, const unsigned char *ref,
                                        int linesize, int mb_size, int search_param, int x_max, int y_max)
{
    s->cur          = cur;
    s->ref          = ref;
    s->linesize     = linesize;
    s->mb_size      = mb_size;
    s->search_param = search_param;
    s->x_min        = 0;
    s->x_max        = x_max;
    s->y_min        = 0;
    s->y_max        = y_max;
}

/** The search window of a block, clamped: the model's local x_min..y_max. */
typedef struct MEWindow {
    int x_min, x_max, y_min, y_max;
} MEWindow;

KERNEL_FORCEINLINE unsigned long long me_sad(const MESearch *s, int x_mb, int y_mb,
                                             int x_mv, int y_mv)
{
    const unsigned char *r = s->ref + (long long)y_mv * s->linesize + x_mv;
    const unsigned char *c = s->cur + (long long)y_mb * s->linesize + x_mb;
    unsigned long long sad = 0;
    int i, j;

    for (j = 0; j < s->mb_size; j++) {
        unsigned int line = 0;   /* at most 255 * mb_size: fits while mb_size < 2^24 */
        for (i = 0; i < s->mb_size; i++) {
            int d = r[i] - c[i];
            line += d < 0 ? -d : d;
        }
        sad += line;
        r += s->linesize;
        c += s->linesize;
    }
    return sad;
}

KERNEL_FORCEINLINE MEWindow me_window(const MESearch *s, int x_mb, int y_mb)
{
    MEWindow w;
    long long lo, hi;

    lo = (long long)x_mb - s->search_param;
    hi = (long long)x_mb + s->search_param;
    w.x_min = lo > s->x_min ? (int)lo : s->x_min;
    w.x_max = hi < s->x_max ? (int)hi : s->x_max;
    lo = (long long)y_mb - s->search_param;
    hi = (long long)y_mb + s->search_param;
    w.y_min = lo > s->y_min ? (int)lo : s->y_min;
    w.y_max = hi < s->y_max ? (int)hi : s->y_max;
    return w;
}

/* COST_MV and COST_P_MV of motion_estimation.c */
#define ME_COST_MV(px, py)                                          \
    do {                                                            \
        const int cx_ = (px), cy_ = (py);                           \
        unsigned long long c_ = me_sad(s, x_mb, y_mb, cx_, cy_);    \
        if (c_ < cost_min) {                                        \
            cost_min = c_;                                          \
            mv[0] = cx_;                                            \
            mv[1] = cy_;                                            \
        }                                                           \
    } while (0)

#define ME_COST_P_MV(px, py)                                        \
    do {                                                            \
        const int qx_ = (px), qy_ = (py);                           \
        if (qx_ >= w.x_min && qx_ <= w.x_max &&                     \
            qy_ >= w.y_min && qy_ <= w.y_max)                       \
            ME_COST_MV(qx_, qy_);                                   \
    } while (0)

/* The model's pattern tables, as functions (no tables in device memory). */
KERNEL_FORCEINLINE int me_sqr1_x(int i) { return i < 2 ? 0 : (i == 2 || i == 4 || i == 5) ? -1 : 1; }
KERNEL_FORCEINLINE int me_sqr1_y(int i) { return i == 0 ? -1 : i == 1 ? 1 : i < 4 ? 0 : (i & 1) ? 1 : -1; }
/* dia1: {-1,0},{0,-1},{1,0},{0,1} */
KERNEL_FORCEINLINE int me_dia1_x(int i) { return i == 0 ? -1 : i == 2 ? 1 : 0; }
KERNEL_FORCEINLINE int me_dia1_y(int i) { return i == 1 ? -1 : i == 3 ? 1 : 0; }
/* dia2: {-2,0},{-1,-1},{0,-2},{1,-1},{2,0},{1,1},{0,2},{-1,1} */
KERNEL_FORCEINLINE int me_dia2_x(int i)
{
    return i == 0 ? -2 : i == 1 ? -1 : i == 2 ? 0 : i == 3 ? 1 :
           i == 4 ?  2 : i == 5 ?  1 : i == 6 ? 0 : -1;
}
KERNEL_FORCEINLINE int me_dia2_y(int i)
{
    return i == 0 ?  0 : i == 1 ? -1 : i == 2 ? -2 : i == 3 ? -1 :
           i == 4 ?  0 : i == 5 ?  1 : i == 6 ?  2 : 1;
}
/* hex2: {-2,0},{-1,-2},{-1,2},{1,-2},{1,2},{2,0} */
KERNEL_FORCEINLINE int me_hex2_x(int i) { return i == 0 ? -2 : i < 3 ? -1 : i < 5 ? 1 : 2; }
KERNEL_FORCEINLINE int me_hex2_y(int i) { return (i == 0 || i == 5) ? 0 : (i & 1) ? -2 : 2; }

/* ROUNDED_DIV(search_param, 2) for search_param >= 0, without overflow */
KERNEL_FORCEINLINE int me_half_step(int p)
{
    return (int)(((long long)p + 1) / 2);
}

/**
 * Search one block. mv holds the block's position (x_mb, y_mb) on entry,
 * as mestimate sets it; on return the best position found. Returns the
 * cost of that position (as the model; not used by mestimate).
 * method is one of the per-block methods ME_METHOD_ESA..ME_METHOD_HEXBS;
 * any other leaves mv at the block's position.
 */
KERNEL_FORCEINLINE unsigned long long me_search_block(const MESearch *s, int method,
                                                      int x_mb, int y_mb, int *mv)
{
    const MEWindow w = me_window(s, x_mb, y_mb);
    unsigned long long cost_min;
    int x, y, i, step;

    if (method < ME_METHOD_ESA || method > ME_METHOD_HEXBS)
        return 0;

    /* tss, tdls, ntss and fss set mv themselves; esa, ds and hexbs rely
     * on the caller's, which is the same position */
    mv[0] = x_mb;
    mv[1] = y_mb;
    cost_min = me_sad(s, x_mb, y_mb, x_mb, y_mb);
    if (!cost_min)
        return cost_min;

    switch (method) {
    case ME_METHOD_ESA:
        for (y = w.y_min; y <= w.y_max; y++)
            for (x = w.x_min; x <= w.x_max; x++)
                ME_COST_MV(x, y);
        break;
    case ME_METHOD_TSS:
        step = me_half_step(s->search_param);
        do {
            x = mv[0];
            y = mv[1];
            for (i = 0; i < 8; i++)
                ME_COST_P_MV(x + me_sqr1_x(i) * step, y + me_sqr1_y(i) * step);
            step = step >> 1;
        } while (step > 0);
        break;
    case ME_METHOD_TDLS:
        step = me_half_step(s->search_param);
        do {
            x = mv[0];
            y = mv[1];
            for (i = 0; i < 4; i++)
                ME_COST_P_MV(x + me_dia1_x(i) * step, y + me_dia1_y(i) * step);
            if (x == mv[0] && y == mv[1])
                step = step >> 1;
        } while (step > 0);
        break;
    case ME_METHOD_NTSS: {
        int first_step = 1;
        step = me_half_step(s->search_param);
        do {
            x = mv[0];
            y = mv[1];
            for (i = 0; i < 8; i++)
                ME_COST_P_MV(x + me_sqr1_x(i) * step, y + me_sqr1_y(i) * step);
            if (first_step) {
                for (i = 0; i < 8; i++)
                    ME_COST_P_MV(x + me_sqr1_x(i), y + me_sqr1_y(i));
                if (x == mv[0] && y == mv[1])
                    return cost_min;
                if ((x - mv[0] <= 1 && mv[0] - x <= 1) &&
                    (y - mv[1] <= 1 && mv[1] - y <= 1)) {
                    x = mv[0];
                    y = mv[1];
                    for (i = 0; i < 8; i++)
                        ME_COST_P_MV(x + me_sqr1_x(i), y + me_sqr1_y(i));
                    return cost_min;
                }
                first_step = 0;
            }
            step = step >> 1;
        } while (step > 0);
        break;
    }
    case ME_METHOD_FSS:
        step = 2;
        do {
            x = mv[0];
            y = mv[1];
            for (i = 0; i < 8; i++)
                ME_COST_P_MV(x + me_sqr1_x(i) * step, y + me_sqr1_y(i) * step);
            if (x == mv[0] && y == mv[1])
                step = step >> 1;
        } while (step > 0);
        break;
    case ME_METHOD_DS:
        do {
            x = mv[0];
            y = mv[1];
            for (i = 0; i < 8; i++)
                ME_COST_P_MV(x + me_dia2_x(i), y + me_dia2_y(i));
        } while (x != mv[0] || y != mv[1]);
        for (i = 0; i < 4; i++)
            ME_COST_P_MV(x + me_dia1_x(i), y + me_dia1_y(i));
        break;
    case ME_METHOD_HEXBS:
        do {
            x = mv[0];
            y = mv[1];
            for (i = 0; i < 6; i++)
                ME_COST_P_MV(x + me_hex2_x(i), y + me_hex2_y(i));
        } while (x != mv[0] || y != mv[1]);
        for (i = 0; i < 4; i++)
            ME_COST_P_MV(x + me_dia1_x(i), y + me_dia1_y(i));
        break;
    }
    return cost_min;
}

#undef ME_COST_MV
#undef ME_COST_P_MV

/*
 * Exhaustive search as a minimum, for a kernel whose threads each take some
 * of the candidates: ff_me_search_esa keeps the block's own position unless
 * a candidate costs strictly less, and otherwise the first candidate in
 * raster order (y, then x) of the lowest cost. That is the candidate of the
 * smallest key cost << 32 | rank, where the block's own position has rank 0
 * and the candidate of raster index i in the window rank i + 1 (the block's
 * own position, seen again in the scan, keeps rank 0). A zero cost at the
 * block's own position gives key 0, the smallest: the model's early return.
 * Exact while the cost and the window's candidate count stay below 2^32
 * (the filter uses it for mb_size <= 256 only).
 */
KERNEL_FORCEINLINE unsigned int me_esa_count(const MEWindow *w)
{
    if (w->x_max < w->x_min || w->y_max < w->y_min)
        return 0;
    return (unsigned int)(w->x_max - w->x_min + 1) * (unsigned int)(w->y_max - w->y_min + 1);
}

KERNEL_FORCEINLINE unsigned long long me_esa_key(const MESearch *s, const MEWindow *w,
                                                 int x_mb, int y_mb, unsigned int i)
{
    const unsigned int ww = (unsigned int)(w->x_max - w->x_min + 1);
    const int x = w->x_min + (int)(i % ww), y = w->y_min + (int)(i / ww);
    const unsigned long long cost = me_sad(s, x_mb, y_mb, x, y);
    return cost << 32 | ((x == x_mb && y == y_mb) ? 0 : i + 1);
}

/** me_esa_key() over the staged copy *st that me_esa_stage() made. */
KERNEL_FORCEINLINE unsigned long long me_esa_key_staged(const MESearch *st, const MEWindow *w,
                                                        int x_mb, int y_mb, unsigned int i)
{
    const unsigned int ww = (unsigned int)(w->x_max - w->x_min + 1);
    const int x = w->x_min + (int)(i % ww), y = w->y_min + (int)(i / ww);
    const unsigned long long cost = me_sad(st, 0, 0, x - w->x_min, y - w->y_min);
    return cost << 32 | ((x == x_mb && y == y_mb) ? 0 : i + 1);
}

/** The position of a key's candidate (rank 0: the block's own position). */
KERNEL_FORCEINLINE void me_esa_pos(const MEWindow *w, int x_mb, int y_mb,
                                   unsigned long long key, int *mv)
{
    const unsigned int rank = (unsigned int)(key & 0xffffffffu);
    const unsigned int ww = (unsigned int)(w->x_max - w->x_min + 1);
    if (!rank) {
        mv[0] = x_mb;
        mv[1] = y_mb;
    } else {
        mv[0] = w->x_min + (int)((rank - 1) % ww);
        mv[1] = w->y_min + (int)((rank - 1) / ww);
    }
}

/*
 * Staging for mestimate_esa: the block of cur and the part of ref its
 * window reads are copied into buf (stride bytes a line: the block's mb_size
 * lines, then the window's lines), and *st becomes a search over buf:
 * st->cur is the block, st->ref the window's top left position, so that
 * me_esa_key_staged(st, ...) reads the bytes me_esa_key(s, ...) reads. Items t, t + n,
 * t + 2n... are copied: each of n threads calls it with its own t (the
 * kernel), or one caller for every t (the C test). stride must be at least
 * the window's width plus mb_size - 1, and buf hold mb_size plus the
 * window's height plus mb_size - 1 lines (me_esa_stage_size()).
 */
KERNEL_FORCEINLINE void me_esa_stage_size(int mb_size, int search_param, int x_max, int y_max,
                                          int *stride, int *lines)
{
    /* the widest window: 2 * search_param + 1 positions, at most all of them */
    long long wx = 2LL * search_param, wy = 2LL * search_param;
    if (wx > x_max) wx = x_max;
    if (wy > y_max) wy = y_max;
    *stride = (int)wx + mb_size;
    *lines  = mb_size + (int)wy + mb_size;
}

KERNEL_FORCEINLINE void me_esa_stage(const MESearch *s, const MEWindow *w, int x_mb, int y_mb,
                                     unsigned char *buf, int stride, int t, int n, MESearch *st)
{
    const int mb = s->mb_size;
    const int cols = w->x_max - w->x_min + mb, rows = w->y_max - w->y_min + mb;
    unsigned char *rbuf = buf + (long long)mb * stride;
    int i;

    for (i = t; i < mb * mb; i += n) {
        const int r = i / mb, c = i % mb;
        buf[r * stride + c] = s->cur[(long long)(y_mb + r) * s->linesize + x_mb + c];
    }
    for (i = t; i < rows * cols; i += n) {
        const int r = i / cols, c = i % cols;
        rbuf[r * stride + c] = s->ref[(long long)(w->y_min + r) * s->linesize + w->x_min + c];
    }
    *st = *s;
    st->linesize = stride;
    st->cur = buf;
    st->ref = rbuf;
}

#endif /* KERNELS_ME_SEARCH_H */
