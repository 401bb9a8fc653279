/*
 * Exhaustive block matching on the GPU, shared by the c63 encoder's motion
 * search (c63_me) and mestimate_cuda's esa
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
 * bm_search<BS, CENTER_FIRST>() is the body of a kernel with one thread
 * block per BS x BS block of the current picture. The caller gives the
 * window of candidate positions (top-left corners in the reference,
 * [x0, x0 + nx) x [y0, y0 + ny)); the rules that make the window (c63's
 * range and plane clamp, mestimate's search_param and last-block clamp) stay
 * with the caller, and so does what is done with the winner.
 *
 * The window's bytes (4-byte aligned rows, zeros outside the plane) are
 * copied to shared memory once; the block itself is held in registers
 * (BS = 8) or in shared memory after the window. Each work item is one
 * candidate column and NR (4 for mestimate, C63_ME_NR(r) for c63_me)
 * consecutive candidate rows: every window row is read once, realigned
 * with __byte_perm and added with __vsadu4 to the sums of the (up to NR)
 * candidates it belongs to; more rows an item share each load among more
 * candidates. Without CENTER_FIRST an item's ranks grow with its rows, so
 * its candidates are compared as sad << 5 | row (NR <= 32) and only the
 * item's best becomes a key.
 *
 * The winner is the smallest key sad << (half the bits of K) | rank: the
 * lowest sum of absolute differences, then the lowest rank (K: unsigned
 * int where both fit in 16 bits, as for c63's 8x8 blocks and ranges up to
 * 64, else unsigned long long). The rank of the candidate of
 * raster index i (y outer, x inner) is i, or with CENTER_FIRST i + 1 and 0
 * for the block's own position. Both are a scan in raster order that
 * replaces the best only on a strictly lower cost: c63's search starting
 * from nothing, mestimate's esa starting from the block's own position
 * (and stopping there on a zero cost, which key 0 gives).
 *
 * ALIGNED: the planes' rows and mx are 4-byte aligned, so the copies load
 * whole words (c63's padded planes); else bytes (any line size). pw x ph
 * is the part of the reference that may be read (zeros beyond, which no
 * candidate of the window reads); pw a multiple of 4.
 *
 * Shared memory: BM_SMEM_WORDS(BS, stride, rows) 32-bit words, with
 * stride >= BM_STRIDE(BS, nx) bytes and rows >= BM_ROWS_N(BS, ny, NR) for every
 * block of the launch. Valid while BS * BS * 255 and the window's candidate
 * count + 1 fit in half of K. Returns the key in thread 0 (all ones for an
 * empty window). Every thread of the block must call it.
 */

#ifndef KERNELS_BLOCK_MATCH_H
#define KERNELS_BLOCK_MATCH_H

#include "kernel_func.h"

#define BM_STRIDE(bs, nx) ((((nx) + 3) & ~3) + (bs) + 4)
#define BM_ROWS_N(bs, ny, nr) (((ny) + (nr) - 1) / (nr) * (nr) + (bs) - 1)
#define BM_ROWS(bs, ny)   BM_ROWS_N(bs, ny, 4)

/* Candidate rows of a work item of c63_me at range r (bm_search's NR: the
 * kernel c63_me8 or c63_me16 the encoder launches), and its thread count:
 * one thread per work item of the widest window (2r columns), 32 to 256 */
#define C63_ME_NR(r) ((r) > 8 ? 16 : 8)
#define C63_ME_ITEMS(r, nr) (2 * (r) * ((2 * (r) + (nr) - 1) / (nr)))
#define C63_ME_THREADS(r, nr) \
    (C63_ME_ITEMS(r, nr) <= 32 ? 32 : C63_ME_ITEMS(r, nr) >= 256 ? 256 : \
     (C63_ME_ITEMS(r, nr) + 31) & ~31)
#define BM_SMEM_WORDS(bs, stride, rows) \
    ((stride) / 4 * (rows) + ((bs) > 8 ? (bs) * (bs) / 4 : 0))

#if KERNEL_DEVICE_CODE

/* 4 bytes as one little-endian word: one load where p is 4-byte aligned */
template <bool ALIGNED>
KERNEL_FORCEINLINE unsigned int bm_load4(const unsigned char *p)
{
    if (ALIGNED)
        return *(const unsigned int *)p;
    return p[0] | (unsigned int)p[1] << 8 | (unsigned int)p[2] << 16 | (unsigned int)p[3] << 24;
}

/* window row rr of a work item (from its word k) against the block rows
 * rr - NR + 1 .. rr, added to the sums of candidate rows cy0 + NR - 1 ..
 * cy0 */
template <int BS, int NR>
KERNEL_FORCEINLINE void bm_row(const unsigned int *row, unsigned int sel, int rr,
                               const unsigned int *cur, unsigned int *s)
{
    unsigned int a = row[0];
#pragma unroll
    for (int q = 0; q < BS / 4; q++) {
        const unsigned int b = row[q + 1];
        const unsigned int wq = __byte_perm(a, b, sel);
        a = b;
#pragma unroll
        for (int j = 0; j < NR; j++) {
            const int i = rr - j;
            if (i >= 0 && i < BS)
                s[j] = ffc_vsadu4_add(wq, cur[i * (BS / 4) + q], s[j]);
        }
    }
}

KERNEL_FORCEINLINE unsigned int bm_shfl_down(unsigned int v, int off)
{
    return __shfl_down_sync(0xFFFFFFFFu, v, off);
}

KERNEL_FORCEINLINE unsigned long long bm_shfl_down(unsigned long long v, int off)
{
    const unsigned int lo = __shfl_down_sync(0xFFFFFFFFu, (unsigned int)v, off);
    const unsigned int hi = __shfl_down_sync(0xFFFFFFFFu, (unsigned int)(v >> 32), off);
    return (unsigned long long)hi << 32 | lo;
}

template <int BS, bool CENTER_FIRST, bool ALIGNED, typename K, int NR = 4>
KERNEL_FORCEINLINE K
bm_search(const unsigned char *cur, int cur_ls, const unsigned char *ref, int ref_ls,
          int pw, int ph, int mx, int my, int x0, int y0, int nx, int ny,
          int stride, unsigned int *smem)
{
    __shared__ K warp_best[32];
    const int kshift = 4 * (int)sizeof(K);
    const int tid = threadIdx.x, nthreads = blockDim.x;
    const int ws4 = stride >> 2;
    const int xa = x0 & ~3, shift = x0 & 3;
    K best = (K)~(K)0;
    static_assert(CENTER_FIRST || (NR <= 32 && BS * BS * 255 < (1 << 27)),
                  "s[j] << 5 | j must fit in 32 bits");
    unsigned int creg[BS <= 8 ? BS * BS / 4 : 1];
    const unsigned int *cs = smem + ws4 * BM_ROWS_N(BS, ny, NR);

    if (nx > 0 && ny > 0) {
        const int ngy = (ny + NR - 1) / NR;
        const int rows = BM_ROWS_N(BS, ny, NR);
        unsigned int *win = smem;

        /* word i of the window is (wy, wx), at reference position
         * (px, py) = (xa + 4 * wx, y0 + wy) and address rp: all four
         * stepped by nthreads words without a division or a 64-bit
         * multiplication per word */
        const int dy = nthreads / ws4, dx = nthreads - dy * ws4;
        int wy = tid / ws4, wx = tid - wy * ws4;
        int px = xa + 4 * wx, py = y0 + wy;
        const unsigned char *rp = ref + (long long)py * ref_ls + px;
        const long long rstep = (long long)dy * ref_ls + 4 * dx;
        const long long rwrap = (long long)ref_ls - 4 * ws4;
        for (int i = tid; i < ws4 * rows; i += nthreads) {
            win[i] = px < pw && py < ph ? bm_load4<ALIGNED>(rp) : 0;
            wx += dx;
            px += 4 * dx;
            py += dy;
            rp += rstep;
            if (wx >= ws4) {
                wx -= ws4;
                px -= 4 * ws4;
                py++;
                rp += rwrap;
            }
        }
        /* the block: in registers (BS = 8) or after the window */
        if (BS <= 8) {
            const unsigned char *cp = cur + (long long)my * cur_ls + mx;
#pragma unroll
            for (int r = 0; r < BS; r++, cp += cur_ls)
#pragma unroll
                for (int q = 0; q < BS / 4; q++)
                    creg[r * (BS / 4) + q] = bm_load4<ALIGNED>(cp + 4 * q);
        } else {
            unsigned int *c = smem + ws4 * rows;
            for (int i = tid; i < BS * BS / 4; i += nthreads) {
                const int r = i / (BS / 4), q = i - r * (BS / 4);
                c[i] = bm_load4<ALIGNED>(cur + (long long)(my + r) * cur_ls + mx + 4 * q);
            }
        }
        __syncthreads();

        for (int item = tid; item < nx * ngy; item += nthreads) {
            const int gy  = item / nx;
            const int cx  = item - gy * nx;
            const int cy0 = gy * NR;
            const int k   = (cx + shift) >> 2;
            const unsigned int sel = 0x3210u + 0x1111u * (unsigned int)((cx + shift) & 3);
            unsigned int s[NR];

#pragma unroll
            for (int j = 0; j < NR; j++)
                s[j] = 0;
            if (BS <= 8) {
#pragma unroll
                for (int rr = 0; rr < BS + NR - 1; rr++)
                    bm_row<BS, NR>(win + (cy0 + rr) * ws4 + k, sel, rr, creg, s);
            } else {
#pragma unroll 1
                for (int rr = 0; rr < BS + NR - 1; rr++)
                    bm_row<BS, NR>(win + (cy0 + rr) * ws4 + k, sel, rr, cs, s);
            }
            if (!CENTER_FIRST) {
                /* the rank grows with j: the lowest s[j] << 5 | j of the
                 * item's candidates, then one key */
                const int nv = ny - cy0;
                unsigned int m = s[0] << 5;
#pragma unroll
                for (int j = 1; j < NR; j++) {
                    const unsigned int v = s[j] << 5 | j;
                    m = j < nv && v < m ? v : m;
                }
                const K key = (K)(m >> 5) << kshift | ((unsigned int)(cy0 + (m & 31)) * nx + cx);
                best = key < best ? key : best;
            } else {
#pragma unroll
                for (int j = 0; j < NR; j++) {
                    if (cy0 + j < ny) {
                        const unsigned int idx = (unsigned int)(cy0 + j) * nx + cx;
                        const unsigned int rank =
                            (x0 + cx == mx && y0 + cy0 + j == my) ? 0 : idx + 1;
                        const K key = (K)s[j] << kshift | rank;
                        best = key < best ? key : best;
                    }
                }
            }
        }
    }

    /* the minimum over the thread block */
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        const K other = bm_shfl_down(best, off);
        best = other < best ? other : best;
    }
    if ((tid & 31) == 0)
        warp_best[tid >> 5] = best;
    __syncthreads();
    if (tid == 0)
        for (int i = 1; i < (nthreads + 31) >> 5; i++)
            best = warp_best[i] < best ? warp_best[i] : best;
    return best;
}

#endif /* KERNEL_DEVICE_CODE */

#endif /* KERNELS_BLOCK_MATCH_H */
