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
 * once, applies in order every operation that touches it
 * (dtc_blend_sample(), drawutils' arithmetic) and writes it once. The
 * operations are read in chunks of one per thread; each block keeps,
 * in order, those of a chunk that touch its tile in shared memory, so
 * that a thread tests only operations near it.
 */

#include "cuda_compat.h"
#include "drawtext_cuda.h"

#define WARP     32
#define NB_WARPS (DTC_BLOCK / WARP)

extern "C" __global__ void __launch_bounds__(DTC_BLOCK)
drawtext_cuda(DTCParams p)
{
    __shared__ DTCOp sops[DTC_BLOCK];
    __shared__ int warp_count[NB_WARPS];

    const int c     = blockIdx.z;
    const DTCChannel ch = p.ch[c];
    const int hsub  = ch.hsub, vsub = ch.vsub;
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
                       sx < ch.width && sx <= (p.x1 - 1) >> hsub &&
                       sy < ch.height && sy <= (p.y1 - 1) >> vsub;
    const DTCOp *ops = (const DTCOp *)p.ops;
    const unsigned char *atlas = (const unsigned char *)p.atlas;
    unsigned char *ptr = 0;
    unsigned v = 0;

    if (inside) {
        ptr = (unsigned char *)ch.data + (long long)sy * ch.linesize + (long long)sx * ch.step;
        v   = *ptr;
    }

    for (int base = 0; base < p.nb_ops; base += DTC_BLOCK) {
        const int i = base + tid;
        unsigned ballot;
        int hit = 0, off = 0, total = 0;
        DTCOp op;

        if (i < p.nb_ops) {
            op  = ops[i];
            hit = op.x0 < tx1 && op.x1 > tx0 && op.y0 < ty1 && op.y1 > ty0;
        }
        ballot = __ballot_sync(0xffffffffu, hit);
        if (lane == 0)
            warp_count[warp] = __popc(ballot);
        __syncthreads();
        for (int w = 0; w < NB_WARPS; w++) {
            if (w < warp)
                off += warp_count[w];
            total += warp_count[w];
        }
        off += __popc(ballot & ((1u << lane) - 1));
        if (hit)
            sops[off] = op;
        __syncthreads();
        if (inside)
            for (int k = 0; k < total; k++)
                if (dtc_touches(&sops[k], hsub, vsub, sx, sy))
                    v = dtc_blend_sample(v, &sops[k], atlas, c, hsub, vsub, sx, sy);
        __syncthreads();
    }

    if (inside)
        *ptr = v;
}
