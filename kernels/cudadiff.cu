/*
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
 * cudadiff: one pass over the frame.
 *
 * Every plane is a grid of lines of bytes; each line is cut into 16-byte
 * vectors and the vectors of all planes are numbered one after the other
 * (plane, line, column). Block b handles tile b: CUDADIFF_VPT vectors per
 * thread, vector j of thread t being tile vector j * CUDADIFF_BLOCK + t, so
 * that every access of the block is a coalesced 128-bit load or store. All
 * loads of C and R are issued first; then each thread decides which bytes
 * are sent (four at a time, in 16-bit lanes of a word), writes the output
 * vector and, if anything changed, the new R. In recon mode the output is
 * the new R: the filter passes its previous output frame as R, and the
 * kernel writes no separate R (one byte per byte less to move).
 *
 * The list (libavutil/framediff.h, version 2) is a bitmap of the sent
 * bytes, then their new values in position order. The bitmap needs no
 * scan: each vector's 16 bits go to a fixed place. When every plane's
 * width is a multiple of 16 that place is one aligned 16-bit word, which
 * the vector stores, zero or not, so that the bitmap needs no clearing
 * (cudadiff_bitmap_store()); otherwise the bits are ORed into the cleared
 * bitmap with one or two atomic reductions (cudadiff_bitmap_bits() in
 * cudadiff.h, shared with the CPU twins). The values are compacted
 * by a device-wide exclusive scan of the per-vector counts: a block scan
 * inside the tile, then a
 * single-pass decoupled look-back across tiles (each tile publishes its
 * aggregate, then its inclusive prefix, in one 64-bit status word tagged
 * with the launch's epoch, so the status array never needs clearing). A
 * tile waits only for tiles of lower index, which the hardware dispatches
 * first (as CUB's single-pass scan relies on), with a growing back-off so
 * that waiting tiles do not load the L2. The values are staged in shared
 * memory and written out with coalesced stores, in increasing position
 * order.
 *
 * Only inline PTX is used for warp and block primitives, so that the file
 * builds with nvcc and with clang (compat/cuda/cuda_runtime.h plus
 * cuda_compat.h) to the same PTX.
 */

#include "cuda_compat.h"
#include "cudadiff.h"

#define WARP 32

/* Back-off of the look-back while predecessors are not ready, in ns. */
#define DELAY_MIN 64
#define DELAY_MAX 1024
#define NB_WARPS (CUDADIFF_BLOCK / WARP)

typedef unsigned int       u32;
typedef unsigned long long u64;

static __device__ __inline__ u32 cd_tid_x(void)
{
    u32 r;
    asm("mov.u32 %0, %%tid.x;" : "=r"(r));
    return r;
}

static __device__ __inline__ u32 cd_ctaid_x(void)
{
    u32 r;
    asm("mov.u32 %0, %%ctaid.x;" : "=r"(r));
    return r;
}

static __device__ __inline__ void cd_block_sync(void)
{
    asm volatile("bar.sync 0;" ::: "memory");
}

static __device__ __inline__ u32 cd_shfl_up(u32 v, u32 delta)
{
    u32 r;
    asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;"
                 : "=r"(r) : "r"(v), "r"(delta));
    return r;
}

static __device__ __inline__ u32 cd_ballot(int pred)
{
    u32 r;
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "setp.ne.s32 p, %1, 0;\n\t"
                 "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t}"
                 : "=r"(r) : "r"(pred));
    return r;
}

static __device__ __inline__ u32 cd_popc(u32 v)
{
    u32 r;
    asm("popc.b32 %0, %1;" : "=r"(r) : "r"(v));
    return r;
}

/* Index of the lowest set bit; v != 0. */
static __device__ __inline__ u32 cd_lowest_bit(u32 v)
{
    u32 r;
    asm("{\n\t.reg .b32 t;\n\tbrev.b32 t, %1;\n\tbfind.shiftamt.u32 %0, t;\n\t}"
        : "=r"(r) : "r"(v));
    return r;
}

static __device__ __inline__ void store_status(u64 *p, u64 v)
{
    asm volatile("st.volatile.global.u64 [%0], %1;" :: "l"(p), "l"(v) : "memory");
}

static __device__ __inline__ u64 load_status(const u64 *p)
{
    u64 r;
    asm volatile("ld.volatile.global.u64 %0, [%1];" : "=l"(r) : "l"(p) : "memory");
    return r;
}

/* 128-bit accesses; the addresses are 16-byte aligned on this path. */
static __device__ __inline__ void load16_nc(const unsigned char *p, u32 v[4])
{
    asm volatile("ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]) : "l"(p));
}

static __device__ __inline__ void load16(const unsigned char *p, u32 v[4])
{
    asm volatile("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]) : "l"(p));
}

static __device__ __inline__ void store16(unsigned char *p, const u32 v[4])
{
    asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};"
                 :: "l"(p), "r"(v[0]), "r"(v[1]), "r"(v[2]), "r"(v[3]) : "memory");
}

/* Global stores through pointers made from the CUdeviceptr parameters
 * (clang would otherwise use generic stores). */
static __device__ __inline__ void store_g32(u32 *p, u32 v)
{
    asm volatile("st.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}

static __device__ __inline__ void store_g8(unsigned char *p, u32 v)
{
    asm volatile("st.global.u8 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}

/* Atomic OR of a word of global memory, no result. */
static __device__ __inline__ void red_or(u32 *p, u32 v)
{
    asm volatile("red.global.or.b32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}

/* Wait about ns nanoseconds. */
static __device__ __inline__ void cd_sleep(u32 ns)
{
    asm volatile("nanosleep.u32 %0;" :: "r"(ns));
}

static __device__ __inline__ u64 make_status(u32 epoch, u32 flag, u32 value)
{
    return ((u64)epoch << 34) | ((u64)flag << 32) | value;
}

/* Inclusive sum over the lanes of a warp. */
static __device__ __inline__ u32 warp_incl_sum(u32 v, u32 lane)
{
    u32 off;
#pragma unroll
    for (off = 1; off < WARP; off <<= 1) {
        u32 o = cd_shfl_up(v, off);
        if (lane >= off)
            v += o;
    }
    return v;
}

/*
 * Exclusive prefix of the tile: sum of the counts of all earlier tiles.
 * Run by the 32 lanes of warp 0; every lane returns the prefix. Each round
 * reads the 32 nearest tiles not yet summed and sums them down to the
 * nearest inclusive prefix; it stops there, or goes on further back.
 */
static __device__ __inline__ u32 look_back(u64 *status, u32 tile, u32 epoch,
                                           u32 lane)
{
    u32 prefix = 0;
    u32 delay  = DELAY_MIN;
    int pred   = (int)tile - 1;

    for (;;) {
        int idx = pred - (int)lane;
        u32 flag, value, incl, sum;

        if (idx >= 0) {
            u64 st = load_status(status + idx);
            flag  = (u32)(st >> 34) == epoch ? (u32)(st >> 32) & 3 : 0;
            value = (u32)st;
        } else {
            flag  = CUDADIFF_TILE_INCLUSIVE;
            value = 0;
        }
        if (cd_ballot(flag == 0)) {
            /* A predecessor has not published yet: back off, so that
             * spinning tiles do not crowd the L2 that everyone needs. */
            cd_sleep(delay);
            delay = delay * 2 > DELAY_MAX ? DELAY_MAX : delay * 2;
            continue;
        }

        /* Lanes up to the nearest inclusive prefix contribute. */
        incl = cd_ballot(flag == CUDADIFF_TILE_INCLUSIVE);
        if (incl && lane > cd_lowest_bit(incl))
            value = 0;
        sum = warp_incl_sum(value, lane);
        /* Lane 31 holds the window's total; broadcast it. */
        {
            u32 r;
            asm volatile("shfl.sync.idx.b32 %0, %1, 31, 31, 0xffffffff;"
                         : "=r"(r) : "r"(sum));
            prefix += r;
        }
        if (incl)
            return prefix;
        pred -= WARP;
    }
}

/*
 * 1 in each byte where |a - b| > thr, with 16-bit lanes: bytes 0 and 2, then
 * 1 and 3, are widened to x = 256 + a - b (1..511) and compared with the
 * two bounds through the sign bit of each lane.
 */
static __device__ __inline__ u32 cd_sent4(u32 a, u32 b, int thr)
{
    const u32 lo = 0x00ff00ffu, k = 0x01000100u;
    const u32 hi = (0x8000u - 257 - (u32)thr) * 0x00010001u;   /* x >= 257 + thr */
    const u32 lw = (0x8000u + 255 - (u32)thr) * 0x00010001u;   /* x <= 255 - thr */
    u32 xe = (a & lo) + k - (b & lo);
    u32 xo = (a >> 8 & lo) + k - (b >> 8 & lo);
    u32 se = ((xe + hi) | (lw - xe)) >> 15 & 0x00010001u;
    u32 so = ((xo + hi) | (lw - xo)) >> 15 & 0x00010001u;
    return se | so << 8;
}

/*
 * One vector of 16 bytes: returns which bytes are sent (bit i for byte i),
 * and gives the output vector o and the new R nr. Bytes from left on are
 * past the end of the line: never sent.
 */
template <int MODE>
static __device__ __inline__ u32 diff_vec(const u32 c[4], const u32 r[4], u32 o[4], u32 nr[4],
                                          int thr, int left)
{
    u32 mask = 0;
    int i;

#pragma unroll
    for (i = 0; i < 4; i++) {
        /* s: 1 in each sent byte; m: 0xff there */
        u32 s = cd_sent4(c[i], r[i], thr);
        u32 m;
        if (left < CUDADIFF_VEC) {
            int n = left - 4 * i;
            s &= n >= 4 ? 0x01010101u : n <= 0 ? 0 : 0x01010101u & ((1u << (8 * n)) - 1);
        }
        m     = s * 0xffu;
        nr[i] = (c[i] & m) | (r[i] & ~m);
        if (MODE == CUDADIFF_MODE_RECON) {
            o[i] = nr[i];
        } else if (MODE == CUDADIFF_MODE_MASK) {
            o[i] = m;
        } else {
            u32 w = 0;
            int k;
#pragma unroll
            for (k = 0; k < 4; k++) {
                int d  = (int)((c[i] >> (8 * k)) & 0xff) - (int)((r[i] >> (8 * k)) & 0xff);
                int ob = (s >> (8 * k)) & 1 ? (d + 128 < 0 ? 0 : d + 128 > 255 ? 255 : d + 128)
                                            : 128;
                w |= (u32)ob << (8 * k);
            }
            o[i] = w;
        }
        /* the low bit of each byte, gathered into 4 bits */
        mask |= ((s * 0x01020408u) >> 24 & 0xf) << (4 * i);
    }
    return mask;
}

/*
 * Loads tile vector vec (if the launch has it): its source bytes into c,
 * the receiver's into r, and where it lies: its output and receiver bytes,
 * the bytes left on its line, its byte of the plane and the plane's
 * bitmap start. Every output is zero for a vector past the end.
 */
template <bool ALIGNED, int MODE>
static __device__ __forceinline__ void load_vec(const CudaDiffParams &p, u32 vec,
                                                u32 c[4], u32 r[4],
                                                unsigned char **dst, unsigned char **rcv,
                                                int *left, u32 *bq, u32 *bstart)
{
    int i;

#pragma unroll
    for (i = 0; i < 4; i++)
        c[i] = r[i] = 0;
    if (vec < p.nb_vecs) {
        CudaDiffPlane P = p.plane[0];
        const unsigned char *src;
        unsigned char *rv;
        u32 lv, y, x;
        int n;
#pragma unroll
        for (i = 1; i < 4; i++)
            if (i < p.nb_planes && vec >= p.plane[i].vec_start)
                P = p.plane[i];
        lv      = vec - P.vec_start;
        y       = lv / (u32)P.vecs_per_line;
        x       = (lv - y * (u32)P.vecs_per_line) * CUDADIFF_VEC;
        src     = (const unsigned char *)P.src + (long long)y * P.src_pitch + x;
        rv      = (unsigned char *)P.recv + (long long)y * P.recv_pitch + x;
        n       = P.width - (int)x;
        *dst    = (unsigned char *)P.dst + (long long)y * P.dst_pitch + x;
        *rcv    = rv;
        *left   = n;
        *bq     = y * (u32)P.width + x;    /* byte of the plane */
        *bstart = P.bitmap_start;
        if (ALIGNED) {
            load16_nc(src, c);
            if (MODE == CUDADIFF_MODE_RECON)
                load16_nc(rv, r);       /* an earlier launch's output */
            else
                load16(rv, r);
        } else {
#pragma unroll
            for (i = 0; i < CUDADIFF_VEC; i++) {
                if (i < n) {
                    c[i >> 2] |= (u32)src[i] << (8 * (i & 3));
                    r[i >> 2] |= (u32)rv[i] << (8 * (i & 3));
                }
            }
        }
    } else {
        *left   = 0;
        *bq     = 0;
        *bstart = 0;
        *dst    = 0;
        *rcv    = 0;
    }
}

/* Decides a loaded vector (left > 0), writes its output and its new R;
 * returns its sent bits. */
template <bool ALIGNED, int MODE>
static __device__ __forceinline__ u32 decide_vec(const u32 c[4], const u32 r[4],
                                                 unsigned char *dst, unsigned char *rcv,
                                                 int left, int thr)
{
    /* in recon mode the output is the new R */
    const bool store_r = MODE != CUDADIFF_MODE_RECON;
    u32 o[4], nr[4], mask;
    int i;

    mask = diff_vec<MODE>(c, r, o, nr, thr, left);
    if (ALIGNED) {
        store16(dst, o);
        if (store_r && mask)
            store16(rcv, nr);
    } else {
#pragma unroll
        for (i = 0; i < CUDADIFF_VEC; i++) {
            if (i < left) {
                dst[i] = (o[i >> 2] >> (8 * (i & 3))) & 0xff;
                if (store_r && (mask & (1u << i)))
                    rcv[i] = (nr[i >> 2] >> (8 * (i & 3))) & 0xff;
            }
        }
    }
    return mask;
}

/* A vector's sent bits into the bitmap: stored whole or ORed in. */
static __device__ __forceinline__ void put_bits(const CudaDiffParams &p, u32 bstart, u32 bq,
                                                u32 mask, int left)
{
    if (p.bitmap_store) {
        /* a whole vector: its 16 bits are one aligned 16-bit word */
        if (left > 0)
            ((unsigned short *)p.bitmap)[(8ull * bstart + bq) >> 4] = (unsigned short)mask;
    } else if (mask) {
        u32 w, lo, hi;
        cudadiff_bitmap_bits(bstart, bq, mask, &w, &lo, &hi);
        if (lo)
            red_or((u32 *)p.bitmap + w, lo);
        if (hi)
            red_or((u32 *)p.bitmap + w + 1, hi);
    }
}

/* Warp 0: the device-wide exclusive prefix of the tile (returned), the
 * tile's inclusive status, and the launch's count from the last tile. */
static __device__ __forceinline__ u32 tile_prefix(const CudaDiffParams &p, u64 *status, u32 tile,
                                                  u32 lane, u32 total)
{
    u32 prefix = 0;
    if (tile > 0) {
        prefix = look_back(status, tile, p.epoch, lane);
        if (lane == 0)
            store_status(status + tile,
                         make_status(p.epoch, CUDADIFF_TILE_INCLUSIVE, prefix + total));
    }
    if (lane == 0 && tile == p.nb_tiles - 1)
        store_g32((u32 *)p.count, prefix + total);
    return prefix;
}

/*
 * One tile of CUDADIFF_VPT vectors per thread; vector j of thread t is
 * tile vector j * CUDADIFF_BLOCK + t, so that every load and store of the
 * block is coalesced, and position order is (j, t) order. Each vector's
 * sent bits go straight to the bitmap; the tile's values are staged in
 * shared memory and written out in order.
 */
template <bool ALIGNED, int MODE>
static __device__ __inline__ void diff_tile(const CudaDiffParams &p)
{
    __shared__ u32 s_warp[CUDADIFF_VPT * NB_WARPS];
    __shared__ u32 s_total;
    __shared__ u32 s_prefix;
    __shared__ unsigned char s_val[CUDADIFF_TILE];

    u64 *status   = (u64 *)p.tile_status;
    const u32 t    = cd_tid_x();
    const u32 lane = t & (WARP - 1);
    const u32 warp = t / WARP;
    const int thr  = p.threshold;

    u32 c[CUDADIFF_VPT][4], r[CUDADIFF_VPT][4];
    u32 mask[CUDADIFF_VPT], incl[CUDADIFF_VPT];
    u32 bq[CUDADIFF_VPT], bstart[CUDADIFF_VPT];
    unsigned char *dst[CUDADIFF_VPT], *rcv[CUDADIFF_VPT];
    int left[CUDADIFF_VPT];
    u32 total, tile;
    int j, i;

    tile = cd_ctaid_x();

    /* Issue every load of the tile before using any. */
#pragma unroll
    for (j = 0; j < CUDADIFF_VPT; j++)
        load_vec<ALIGNED, MODE>(p, tile * CUDADIFF_TILE_VECS + j * CUDADIFF_BLOCK + t,
                                c[j], r[j], &dst[j], &rcv[j], &left[j], &bq[j], &bstart[j]);

    /* Decide, write the output and the new R; scan the counts. */
#pragma unroll
    for (j = 0; j < CUDADIFF_VPT; j++) {
        mask[j] = 0;
        if (left[j] > 0)
            mask[j] = decide_vec<ALIGNED, MODE>(c[j], r[j], dst[j], rcv[j], left[j], thr);
        put_bits(p, bstart[j], bq[j], mask[j], left[j]);
        incl[j] = warp_incl_sum(cd_popc(mask[j]), lane);
        if (lane == WARP - 1)
            s_warp[j * NB_WARPS + warp] = incl[j];
    }
    cd_block_sync();

    /* Exclusive offsets of the (j, warp) groups; publish the aggregate. */
    if (warp == 0) {
        const int n = CUDADIFF_VPT * NB_WARPS;
        u32 wv = (int)lane < n ? s_warp[lane] : 0;
        u32 wi = warp_incl_sum(wv, lane);
        if ((int)lane < n)
            s_warp[lane] = wi - wv;
        if ((int)lane == n - 1) {
            s_total = wi;
            if (tile == 0)
                store_status(status, make_status(p.epoch, CUDADIFF_TILE_INCLUSIVE, wi));
            else
                store_status(status + tile, make_status(p.epoch, CUDADIFF_TILE_AGGREGATE, wi));
        }
    }
    cd_block_sync();
    total = s_total;

    /* Stage the new values, in position order. */
#pragma unroll
    for (j = 0; j < CUDADIFF_VPT; j++) {
        if (mask[j]) {
            u32 k = s_warp[j * NB_WARPS + warp] + incl[j] - cd_popc(mask[j]);
#pragma unroll
            for (i = 0; i < CUDADIFF_VEC; i++)
                if (mask[j] & (1u << i))
                    s_val[k++] = (c[j][i >> 2] >> (8 * (i & 3))) & 0xff;
        }
    }

    /* Device-wide exclusive prefix of this tile. */
    if (warp == 0) {
        u32 prefix = tile_prefix(p, status, tile, lane, total);
        if (lane == 0)
            s_prefix = prefix;
    }
    cd_block_sync();

    {
        u32 k;
        unsigned char *lv = (unsigned char *)p.values + s_prefix;
        for (k = t; k < total; k += CUDADIFF_BLOCK)
            store_g8(lv + k, s_val[k]);
    }
}

#define CUDADIFF_KERNELS(name, mode)                    \
__global__ void cudadiff_aligned_##name(CudaDiffParams p)       \
{                                                               \
    diff_tile<true, mode>(p);                                   \
}                                                               \
__global__ void cudadiff_unaligned_##name(CudaDiffParams p)     \
{                                                               \
    diff_tile<false, mode>(p);                                  \
}

/*
 * The filter runs the pair of one output mode, so that the driver, which
 * compiles a module whole when it is loaded, compiles only that pair: the
 * build makes a module of each mode (cudadiff_MODE.ptx, with
 * CUDADIFF_ONLY_MODE defined as the mode); without CUDADIFF_ONLY_MODE
 * the module has all three (bench/bench-cudadiff.cpp).
 */
extern "C" {
#if !defined(CUDADIFF_ONLY_MODE) || CUDADIFF_ONLY_MODE == CUDADIFF_MODE_RECON
CUDADIFF_KERNELS(recon, CUDADIFF_MODE_RECON)
#endif
#if !defined(CUDADIFF_ONLY_MODE) || CUDADIFF_ONLY_MODE == CUDADIFF_MODE_DIFF
CUDADIFF_KERNELS(diff,  CUDADIFF_MODE_DIFF)
#endif
#if !defined(CUDADIFF_ONLY_MODE) || CUDADIFF_ONLY_MODE == CUDADIFF_MODE_MASK
CUDADIFF_KERNELS(mask,  CUDADIFF_MODE_MASK)
#endif
}
