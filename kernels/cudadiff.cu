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
 * (plane, line, column). Thread t of tile b handles vector b * 256 + t: it
 * reads 16 bytes of C and of R with 128-bit loads, decides which bytes are
 * sent, writes the output vector and, if anything changed, the new R.
 *
 * The sent bytes are compacted into the list by a device-wide exclusive
 * scan of the per-thread counts: a block scan inside the tile, then a
 * single-pass decoupled look-back across tiles (each tile publishes its
 * aggregate, then its inclusive prefix, in one 64-bit status word tagged
 * with the launch's epoch, so the status array never needs clearing).
 * Tiles take their index from a ticket counter, so a tile only ever waits
 * for tiles that are already running. Entries are staged in shared memory
 * and written out with coalesced stores, in increasing position order.
 *
 * Only inline PTX is used for warp and block primitives, so that the file
 * builds with nvcc and with clang (compat/cuda/cuda_runtime.h).
 */

#include "cudadiff.h"

#define WARP 32
#define NB_WARPS (CUDADIFF_BLOCK / WARP)

typedef unsigned int       u32;
typedef unsigned long long u64;

static __device__ __inline__ u32 cd_tid_x(void)
{
    u32 r;
    asm("mov.u32 %0, %%tid.x;" : "=r"(r));
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

static __device__ __inline__ u32 cd_ticket(u32 *p)
{
    u32 r;
    asm volatile("atom.global.add.u32 %0, [%1], 1;" : "=r"(r) : "l"(p) : "memory");
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

static __device__ __inline__ u64 make_status(u32 epoch, u32 flag, u32 value)
{
    return ((u64)epoch << 34) | ((u64)flag << 32) | value;
}

/*
 * Exclusive prefix of the tile: sum of the counts of all earlier tiles.
 * Run by the 32 lanes of warp 0; every lane returns the prefix.
 */
static __device__ __inline__ u32 look_back(u64 *status, u32 tile, u32 epoch,
                                           u32 lane)
{
    u32 prefix = 0;
    int pred   = (int)tile - 1;

    for (;;) {
        int idx = pred - (int)lane;
        u32 flag, value;
        u32 incl, sum, off;

        if (idx >= 0) {
            u64 st = load_status(status + idx);
            flag  = (u32)(st >> 34) == epoch ? (u32)(st >> 32) & 3 : 0;
            value = (u32)st;
        } else {
            flag  = CUDADIFF_TILE_INCLUSIVE;
            value = 0;
        }
        if (cd_ballot(flag == 0))
            continue; /* a predecessor has not published yet */

        /* Lanes up to the nearest inclusive prefix contribute. */
        incl = cd_ballot(flag == CUDADIFF_TILE_INCLUSIVE);
        if (incl) {
            u32 last = cd_lowest_bit(incl);
            if (lane > last)
                value = 0;
        }
        sum = value;
        for (off = 1; off < WARP; off <<= 1) {
            u32 o = cd_shfl_up(sum, off);
            if (lane >= off)
                sum += o;
        }
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

template <bool ALIGNED>
static __device__ __inline__ void diff_tile(const CudaDiffParams &p)
{
    __shared__ u32   s_tile;
    __shared__ u32   s_warp[NB_WARPS];
    __shared__ u32   s_total;
    __shared__ u32   s_prefix;
    __shared__ u32   s_pos[CUDADIFF_TILE];
    __shared__ short s_delta[CUDADIFF_TILE];

    u32 *counters = (u32 *)p.counters;
    u64 *status   = (u64 *)p.tile_status;
    const u32 t    = cd_tid_x();
    const u32 lane = t & (WARP - 1);
    const u32 warp = t / WARP;

    u32 c[4], r[4], o[4];
    u32 mask = 0, count, incl, total, local;
    u32 pos_base = 0;
    u32 tile, vec;
    int thr = p.threshold;

    if (t == 0)
        s_tile = cd_ticket(counters);
    cd_block_sync();
    tile = s_tile;
    vec  = tile * CUDADIFF_BLOCK + t;

    if (vec < p.nb_vecs) {
        CudaDiffPlane P = p.plane[0];
        int i;
#pragma unroll
        for (i = 1; i < 4; i++)
            if (i < p.nb_planes && vec >= p.plane[i].vec_start)
                P = p.plane[i];
        {
            u32 lv   = vec - P.vec_start;
            u32 y    = lv / (u32)P.vecs_per_line;
            u32 x    = (lv - y * (u32)P.vecs_per_line) * CUDADIFF_VEC;
            int left = P.width - (int)x;
            const unsigned char *src = (const unsigned char *)P.src + (long long)y * P.src_pitch + x;
            unsigned char *dst = (unsigned char *)P.dst + (long long)y * P.dst_pitch + x;
            unsigned char *rcv = (unsigned char *)P.recv + (long long)y * P.recv_pitch + x;
            u32 valid = left >= CUDADIFF_VEC ? 0xffffu : (1u << left) - 1;

            pos_base = P.pos_start + y * (u32)P.width + x;

            if (ALIGNED) {
                load16_nc(src, c);
                load16(rcv, r);
            } else {
                for (i = 0; i < 4; i++) {
                    c[i] = r[i] = 0;
                }
                for (i = 0; i < CUDADIFF_VEC; i++) {
                    if (i < left) {
                        c[i >> 2] |= (u32)src[i] << (8 * (i & 3));
                        r[i >> 2] |= (u32)rcv[i] << (8 * (i & 3));
                    }
                }
            }

#pragma unroll
            for (i = 0; i < CUDADIFF_VEC; i++) {
                int sh = 8 * (i & 3);
                int cb = (c[i >> 2] >> sh) & 0xff;
                int rb = (r[i >> 2] >> sh) & 0xff;
                int d  = cb - rb;
                int ad = d < 0 ? -d : d;
                u32 sent = (ad > thr) & (valid >> i);
                int ob;

                if (p.mode == CUDADIFF_MODE_RECON)
                    ob = sent ? cb : rb;
                else if (p.mode == CUDADIFF_MODE_DIFF)
                    ob = sent ? (d + 128 < 0 ? 0 : d + 128 > 255 ? 255 : d + 128) : 128;
                else
                    ob = sent ? 255 : 0;

                if ((i & 3) == 0)
                    o[i >> 2] = 0;
                o[i >> 2] |= (u32)ob << sh;
                mask |= sent << i;
            }

            if (ALIGNED) {
                store16(dst, o);
                if (mask) {
                    u32 nr[4];
                    for (i = 0; i < 4; i++) {
                        u32 m = 0;
                        int k;
                        for (k = 0; k < 4; k++)
                            if (mask & (1u << (4 * i + k)))
                                m |= 0xffu << (8 * k);
                        nr[i] = (r[i] & ~m) | (c[i] & m);
                    }
                    store16(rcv, nr);
                }
            } else {
                for (i = 0; i < CUDADIFF_VEC; i++) {
                    if (i < left) {
                        dst[i] = (o[i >> 2] >> (8 * (i & 3))) & 0xff;
                        if (mask & (1u << i))
                            rcv[i] = (c[i >> 2] >> (8 * (i & 3))) & 0xff;
                    }
                }
            }
        }
    }

    /* Block-wide exclusive scan of the per-thread counts. */
    count = cd_popc(mask);
    incl  = count;
    {
        u32 off;
        for (off = 1; off < WARP; off <<= 1) {
            u32 v = cd_shfl_up(incl, off);
            if (lane >= off)
                incl += v;
        }
    }
    if (lane == WARP - 1)
        s_warp[warp] = incl;
    cd_block_sync();
    if (warp == 0) {
        u32 wv = lane < NB_WARPS ? s_warp[lane] : 0;
        u32 wi = wv, off;
        for (off = 1; off < NB_WARPS; off <<= 1) {
            u32 v = cd_shfl_up(wi, off);
            if (lane >= off)
                wi += v;
        }
        if (lane < NB_WARPS)
            s_warp[lane] = wi - wv; /* exclusive warp offsets */
        if (lane == NB_WARPS - 1) {
            /* Tile aggregate: publish it at once. */
            u32 agg = wi;
            s_total = agg;
            if (tile == 0)
                store_status(status, make_status(p.epoch, CUDADIFF_TILE_INCLUSIVE, agg));
            else
                store_status(status + tile, make_status(p.epoch, CUDADIFF_TILE_AGGREGATE, agg));
        }
    }
    cd_block_sync();
    total = s_total;
    local = s_warp[warp] + incl - count;

    /* Stage the entries in shared memory, in position order. */
    if (mask) {
        u32 k = local, i;
#pragma unroll
        for (i = 0; i < CUDADIFF_VEC; i++) {
            if (mask & (1u << i)) {
                int cb = (c[i >> 2] >> (8 * (i & 3))) & 0xff;
                int rb = (r[i >> 2] >> (8 * (i & 3))) & 0xff;
                s_pos[k]   = pos_base + i;
                s_delta[k] = (short)(cb - rb);
                k++;
            }
        }
    }

    /* Device-wide exclusive prefix of this tile. */
    if (warp == 0) {
        u32 prefix = 0;
        if (tile > 0) {
            prefix = look_back(status, tile, p.epoch, lane);
            if (lane == 0)
                store_status(status + tile,
                             make_status(p.epoch, CUDADIFF_TILE_INCLUSIVE, prefix + total));
        }
        if (lane == 0) {
            s_prefix = prefix;
            if (tile == p.nb_tiles - 1) {
                /* Every tile has taken its ticket: reset for the next launch. */
                counters[0] = 0;
                counters[1] = prefix + total;
            }
        }
    }
    cd_block_sync();

    {
        u32 prefix = s_prefix, k;
        u32 *lp    = (u32 *)p.list_pos + prefix;
        short *ld  = (short *)p.list_delta + prefix;
        for (k = t; k < total; k += CUDADIFF_BLOCK) {
            lp[k] = s_pos[k];
            ld[k] = s_delta[k];
        }
    }
}

extern "C" {

__global__ void cudadiff_aligned(CudaDiffParams p)
{
    diff_tile<true>(p);
}

__global__ void cudadiff_unaligned(CudaDiffParams p)
{
    diff_tile<false>(p);
}

}
