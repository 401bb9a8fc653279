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

/**
 * @file
 * drawtext_cuda: one launch draws a frame's box, shadow, border and glyph
 * operations in place.
 *
 * Grid: x, y tile the union of the operations (in the samples of each
 * channel), z is the channel. Each thread owns one sample: it reads it
 * once, applies in order every operation that touches it (drawutils'
 * arithmetic: dtc_blend_factor(), dtc_blend()) and writes it once. A block
 * keeps in shared memory, in order, the operations that meet its tile, so
 * that a thread tests only operations near it. A list in the launch's
 * parameters (at most DTC_INLINE_ENTRIES entries) is read one operation a
 * thread in one pass; a longer one in chunks: the block first reads the
 * boxes of the chunks of DTC_CHUNK operations and keeps, in order, the
 * chunks whose box meets its tile, and each warp then reads one such chunk.
 *
 * The kernel's time is a chain of latencies (few blocks, little work
 * each), so a thread applies its operations DTC_GROUP at a time: it first
 * loads the mask bytes of all of them, then blends them in order.
 */

#include "cuda_compat.h"
#include "drawtext_cuda.h"

#define WARP      32
#define NB_WARPS  (DTC_BLOCK / WARP)
#define DTC_GROUP 4

/* drawtext_cuda_inline reads its list an operation a thread */
static_assert(DTC_INLINE_ENTRIES <= DTC_BLOCK, "inline list longer than a block");

/* Exclusive prefix count of hit over the block, in thread order, and the
 * total: the place of this thread's item in a compacted list. Ends with a
 * barrier after which warp_count may be written again only after one
 * more barrier. */
static __device__ __inline__ int block_compact(int hit, int *off, int *warp_count,
                                               int lane, int warp)
{
    unsigned ballot = __ballot_sync(0xffffffffu, hit);
    int total = 0;

    *off = 0;
    if (lane == 0)
        warp_count[warp] = __popc(ballot);
    __syncthreads();
    for (int w = 0; w < NB_WARPS; w++) {
        if (w < warp)
            *off += warp_count[w];
        total += warp_count[w];
    }
    *off += __popc(ballot & ((1u << lane) - 1));
    return total;
}

/* Field by field, not as a structure copy: the compiler then reads the
 * launch's parameters in place (a copy of a structure out of them makes it
 * copy all the parameters to local memory first). */
static __device__ __forceinline__ void load_op(DTCOp *d, const DTCOp *s)
{
    d->x0    = s->x0;
    d->y0    = s->y0;
    d->x1    = s->x1;
    d->y1    = s->y1;
    d->type  = s->type;
    d->alpha = s->alpha;
    d->mask  = s->mask;
    d->pitch = s->pitch;
    *(unsigned *)d->color = *(const unsigned *)s->color;
}

static __device__ __inline__ int meets(const DTCOp *op, int tx0, int tx1, int ty0, int ty1)
{
    return op->x0 < tx1 && op->x1 > tx0 && op->y0 < ty1 && op->y1 > ty0;
}

/* Keep in sops, in order, those of the operations ops[i] (one a thread;
 * none where i >= nb_ops) that meet the tile; returns their count, after
 * a barrier. */
static __device__ __forceinline__ int keep_ops(const DTCOp *ops, int i, int nb_ops,
                                               int tx0, int tx1, int ty0, int ty1,
                                               DTCOp *sops, int *warp_count, int lane, int warp)
{
    int hit = 0, off, total;
    DTCOp op;

    if (i < nb_ops) {
        load_op(&op, &ops[i]);
        hit = meets(&op, tx0, tx1, ty0, ty1);
    }
    total = block_compact(hit, &off, warp_count, lane, warp);
    if (hit)
        sops[off] = op;
    __syncthreads();
    return total;
}

/* Apply sops[0..total) in order to sample (sx, sy) of channel c, whose
 * value is v, DTC_GROUP at a time. */
static __device__ __forceinline__ unsigned blend_ops(unsigned v, const DTCOp *sops, int total,
                                                     const unsigned char *atlas, int c,
                                                     int hsub, int vsub, int sx, int sy)
{
    const int sx0 = sx << hsub, sx1 = (sx + 1) << hsub;
    const int sy0 = sy << vsub, sy1 = (sy + 1) << vsub;

    for (int j0 = 0; j0 < total; j0 += DTC_GROUP) {
        unsigned a[DTC_GROUP], src[DTC_GROUP];
        int on[DTC_GROUP];
#pragma unroll
        for (int u = 0; u < DTC_GROUP; u++) {
            const DTCOp *op = &sops[min(j0 + u, total - 1)];
            const int cx0 = max(sx0, op->x0), cx1 = min(sx1, op->x1);
            const int cy0 = max(sy0, op->y0), cy1 = min(sy1, op->y1);
            on[u]  = j0 + u < total && cx0 < cx1 && cy0 < cy1;
            src[u] = op->color[c];
            a[u]   = on[u] ? dtc_blend_factor(op, atlas, cx0, cx1, cy0, cy1, hsub, vsub) : 0;
        }
#pragma unroll
        for (int u = 0; u < DTC_GROUP; u++)
            if (on[u])
                v = dtc_blend(v, src[u], a[u]);
    }
    return v;
}

/* The kernel's body; ops: the operations, in global memory followed by
 * their chunk boxes (drawtext_cuda), or at most DTC_INLINE_ENTRIES in the
 * launch's parameters (drawtext_cuda_inline: each kernel is its own
 * instance, so that the compiler reads the parameters in place instead of
 * copying them). */
template <bool IN_PARAMS>
static __device__ __forceinline__ void draw(const DTCParams &p, const DTCOp *ops)
{
    __shared__ DTCOp sops[DTC_BLOCK];
    __shared__ int chunks[DTC_BLOCK];
    __shared__ int warp_count[NB_WARPS];

    const int c     = blockIdx.z;
    const DTCChannel *ch = &p.ch[c];
    const int hsub  = ch->hsub, vsub = ch->vsub;
    const int bx0   = (p.x0 >> hsub) + blockIdx.x * DTC_BLOCK_W;
    const int by0   = (p.y0 >> vsub) + blockIdx.y * DTC_BLOCK_H;
    const int sx    = bx0 + threadIdx.x;
    const int sy    = by0 + threadIdx.y;
    const int tid   = threadIdx.y * DTC_BLOCK_W + threadIdx.x;
    const int lane  = tid & (WARP - 1);
    const int warp  = tid / WARP;
    /* the block's tile in luma samples */
    const int tx0 = bx0 << hsub, tx1 = (bx0 + DTC_BLOCK_W) << hsub;
    const int ty0 = by0 << vsub, ty1 = (by0 + DTC_BLOCK_H) << vsub;
    const int inside = c < p.nb_channels &&
                       sx < ch->width && sx <= (p.x1 - 1) >> hsub &&
                       sy < ch->height && sy <= (p.y1 - 1) >> vsub;
    const unsigned char *atlas = (const unsigned char *)p.atlas;
    unsigned char *ptr = 0;
    unsigned v = 0;

    if (inside) {
        ptr = (unsigned char *)ch->data + (long long)sy * ch->linesize + (long long)sx * ch->step;
        v   = *ptr;
    }

    if (IN_PARAMS) {
        /* the whole list at once, an operation a thread */
        const int total = keep_ops(ops, tid, p.nb_ops, tx0, tx1, ty0, ty1,
                                   sops, warp_count, lane, warp);
        if (inside)
            *ptr = blend_ops(v, sops, total, atlas, c, hsub, vsub, sx, sy);
        return;
    }

    const DTCOp *boxes = ops + p.nb_ops;
    const int nb_chunks = DTC_NB_CHUNKS(p.nb_ops);

    for (int cbase = 0; cbase < nb_chunks; cbase += DTC_BLOCK) {
        const int k = cbase + tid;
        int hit = 0, off, nb_hit;

        if (k < nb_chunks)
            hit = meets(&boxes[k], tx0, tx1, ty0, ty1);
        nb_hit = block_compact(hit, &off, warp_count, lane, warp);
        if (hit)
            chunks[off] = k;
        __syncthreads();

        /* NB_WARPS chunks at a time, one per warp, in order */
        for (int g = 0; g < nb_hit; g += NB_WARPS) {
            const int i = g + warp < nb_hit ? chunks[g + warp] * DTC_CHUNK + lane : p.nb_ops;
            const int total = keep_ops(ops, i, p.nb_ops, tx0, tx1, ty0, ty1,
                                       sops, warp_count, lane, warp);
            if (inside)
                v = blend_ops(v, sops, total, atlas, c, hsub, vsub, sx, sy);
            __syncthreads();
        }
    }

    if (inside)
        *ptr = v;
}

extern "C" __global__ void __launch_bounds__(DTC_BLOCK)
drawtext_cuda(DTCParams p)
{
    draw<false>(p, (const DTCOp *)p.ops);
}

extern "C" __global__ void __launch_bounds__(DTC_BLOCK)
drawtext_cuda_inline(DTCInlineParams q)
{
    draw<true>(q.p, q.ops);
}
