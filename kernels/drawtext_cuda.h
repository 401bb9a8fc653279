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
 * Draw operations of drawtext_cuda, shared by the filter (host, C), its
 * kernel (device, CUDA C++) and its CPU twin (tests/harness/dtc_draw_cpu.h).
 *
 * The filter records drawtext's ff_blend_rectangle() and ff_blend_mask()
 * calls as a list of operations, each clipped exactly as drawutils clips
 * it. The kernel then computes every sample of every colour channel in the
 * union of the operations' rectangles, applying the operations in order
 * with dtc_blend_factor() and dtc_blend(), which are drawutils'
 * arithmetic written per sample: for a subsampled channel, the sample
 * covers (1 << hsub) x (1 << vsub) luma positions, of which the operation
 * covers some; drawutils blends such a partly covered sample with the
 * alpha scaled by the covered count (rectangles) or with the sum of the
 * covered mask values (masks), always shifted by the full subsampling.
 *
 * Plain C types only, so that both sides lay the structures out
 * identically.
 */

#ifndef KERNELS_DRAWTEXT_CUDA_H
#define KERNELS_DRAWTEXT_CUDA_H

#include "kernel_func.h"

/** Threads per block: DTC_BLOCK_W x DTC_BLOCK_H samples of one channel. */
#define DTC_BLOCK_W 32
#define DTC_BLOCK_H 8
#define DTC_BLOCK   (DTC_BLOCK_W * DTC_BLOCK_H)

#define DTC_MAX_CHANNELS 4

/**
 * Operations come in chunks of DTC_CHUNK, each with its bounding box: the
 * kernel reads the boxes first and then only the chunks whose box meets
 * its tile. The boxes follow the operations in the same array (DTCOp
 * entries of which only x0, y0, x1, y1 count); dtc_finish_ops() writes
 * them.
 */
#define DTC_CHUNK 32
#define DTC_NB_CHUNKS(nb_ops)  (((nb_ops) + DTC_CHUNK - 1) / DTC_CHUNK)
/** DTCOp entries the kernel reads for nb_ops operations */
#define DTC_NB_ENTRIES(nb_ops) ((nb_ops) + DTC_NB_CHUNKS(nb_ops))

#define DTC_OP_RECT 0   ///< ff_blend_rectangle()
#define DTC_OP_MASK 1   ///< ff_blend_mask() with an 8-bit mask

/** One draw operation; coordinates in luma samples, clipped, half-open. */
typedef struct DTCOp {
    int x0, y0, x1, y1;
    int type;                   ///< DTC_OP_*
    unsigned int alpha;         ///< drawutils' alpha for this colour
    int mask;                   ///< atlas offset of the mask value at (x0, y0)
    int pitch;                  ///< mask bytes per line
    unsigned char color[DTC_MAX_CHANNELS]; ///< value per channel
} DTCOp;

/** One colour component of the frame. */
typedef struct DTCChannel {
    unsigned long long data;    ///< first sample (CUdeviceptr of the plane + offset)
    int linesize;               ///< bytes per line
    int step;                   ///< bytes between samples
    int hsub, vsub;             ///< log2 subsampling
    int width, height;          ///< samples
} DTCChannel;

typedef struct DTCParams {
    DTCChannel ch[DTC_MAX_CHANNELS];
    unsigned long long ops;     ///< DTCOp[nb_ops] (CUdeviceptr)
    unsigned long long atlas;   ///< glyph masks (CUdeviceptr)
    int nb_channels;
    int nb_ops;                 ///< operations; their chunk boxes follow them
    int x0, y0, x1, y1;         ///< union of the operations, luma samples
} DTCParams;

/**
 * A short list (a line of text) travels in the launch's parameters instead
 * (kernel drawtext_cuda_inline): no copy of its own, no wait for one; the
 * kernel reads the operations in place, one a thread in one pass (its
 * chunk boxes, still written, are not read). DTC_INLINE_ENTRIES entries
 * keep the parameters (2472 bytes) under the 4 KiB every driver takes, and
 * the list within one block's threads.
 */
#define DTC_INLINE_ENTRIES 64

typedef struct DTCInlineParams {
    DTCParams p;                ///< p.ops unused
    DTCOp ops[DTC_INLINE_ENTRIES]; ///< DTC_NB_ENTRIES(p.nb_ops) of them used
} DTCInlineParams;

#if KERNEL_GPU
#define DTC_LOAD(p) __ldg(p)
#else
#define DTC_LOAD(p) (*(p))
#endif

/**
 * drawutils' blend factor of op for the part [cx0, cx1) x [cy0, cy1) of a
 * sample of a channel subsampled by hsub, vsub that op covers (not empty):
 * blend_line()'s alpha for a rectangle (partial lines at alpha >> 1,
 * partial columns scaled by their count), blend_pixel()'s sum of the
 * covered mask values times alpha for a mask. The mask bytes of a part of
 * at most 2 x 2 (every format of the filter) are loaded without waiting
 * on each other.
 */
KERNEL_INLINE unsigned dtc_blend_factor(const DTCOp *op, const unsigned char *atlas,
                                        int cx0, int cx1, int cy0, int cy1,
                                        int hsub, int vsub)
{
    const int nx = cx1 - cx0, ny = cy1 - cy0;

    if (op->type == DTC_OP_RECT) {
        unsigned a = ny == 1 << vsub ? op->alpha : op->alpha >> 1;
        return ((unsigned)nx * a) >> hsub;
    } else {
        const unsigned char *m = atlas + op->mask + (cy0 - op->y0) * op->pitch + (cx0 - op->x0);
        unsigned t = 0;

        if (hsub <= 1 && vsub <= 1) {
            unsigned t01 = 0, t10 = 0, t11 = 0;
            t = DTC_LOAD(m);
            if (nx > 1)
                t01 = DTC_LOAD(m + 1);
            if (ny > 1)
                t10 = DTC_LOAD(m + op->pitch);
            if (nx > 1 && ny > 1)
                t11 = DTC_LOAD(m + op->pitch + 1);
            t += t01 + t10 + t11;
        } else {
            for (int y = 0; y < ny; y++, m += op->pitch)
                for (int x = 0; x < nx; x++)
                    t += DTC_LOAD(m + x);
        }
        return (t >> (hsub + vsub)) * op->alpha;
    }
}

/** drawutils' blend of src into v with the factor a of dtc_blend_factor() */
KERNEL_INLINE unsigned dtc_blend(unsigned v, unsigned src, unsigned a)
{
    return (v * (0x1010101 - a) + src * a) >> 24;
}

/* Clip [*x, *x + *w[ to [0, wmax[ as drawutils' clip_interval(). */
KERNEL_INLINE void dtc_clip_interval(int wmax, int *x, int *w, int *dx)
{
    *dx = 0;
    if (*x < 0) {
        *dx = -*x;
        *w += *x;
        *x  = 0;
    }
    if (*x + *w > wmax)
        *w = wmax - *x;
}

/**
 * Fill op (all but its colours) for
 * ff_blend_rectangle(draw, color, dst, dst_linesize, dst_w, dst_h, x, y, w, h)
 * with color->rgba[3] == a. Return 0 when drawutils would draw nothing.
 */
KERNEL_INLINE int dtc_rect_op(DTCOp *op, int dst_w, int dst_h,
                              int x, int y, int w, int h, unsigned a)
{
    int dummy;
    dtc_clip_interval(dst_w, &x, &w, &dummy);
    dtc_clip_interval(dst_h, &y, &h, &dummy);
    if (w <= 0 || h <= 0 || !a)
        return 0;
    op->x0    = x;
    op->y0    = y;
    op->x1    = x + w;
    op->y1    = y + h;
    op->type  = DTC_OP_RECT;
    op->alpha = 0x10203 * a + 0x2;
    op->mask  = 0;
    op->pitch = 0;
    return 1;
}

/**
 * Fill op (all but its colours) for
 * ff_blend_mask(draw, color, dst, dst_linesize, dst_w, dst_h,
 *               atlas + mask, pitch, w, h, 3, 0, x, y)
 * with color->rgba[3] == a. Return 0 when drawutils would draw nothing.
 */
KERNEL_INLINE int dtc_mask_op(DTCOp *op, int dst_w, int dst_h, int mask, int pitch,
                              int w, int h, int x, int y, unsigned a)
{
    int xm0, ym0;
    dtc_clip_interval(dst_w, &x, &w, &xm0);
    dtc_clip_interval(dst_h, &y, &h, &ym0);
    if (w <= 0 || h <= 0 || !a)
        return 0;
    op->x0    = x;
    op->y0    = y;
    op->x1    = x + w;
    op->y1    = y + h;
    op->type  = DTC_OP_MASK;
    op->alpha = (0x10307 * a + 0x3) >> 8;
    op->mask  = mask + ym0 * pitch + xm0;
    op->pitch = pitch;
    return 1;
}

/**
 * Write the chunk boxes of ops[0..nb_ops) after them (ops has room for
 * DTC_NB_ENTRIES(nb_ops) entries) and set p's nb_ops and the union of the
 * operations; nb_ops > 0.
 */
KERNEL_INLINE void dtc_finish_ops(DTCOp *ops, int nb_ops, DTCParams *p)
{
    DTCOp *box = ops + nb_ops;

    p->nb_ops = nb_ops;
    for (int i = 0; i < nb_ops; i++) {
        const DTCOp *op = &ops[i];
        if (i % DTC_CHUNK == 0) {
            if (i)
                box++;
            *box = *op;
        }
        if (box->x0 > op->x0) box->x0 = op->x0;
        if (box->y0 > op->y0) box->y0 = op->y0;
        if (box->x1 < op->x1) box->x1 = op->x1;
        if (box->y1 < op->y1) box->y1 = op->y1;
    }
    p->x0 = ops[nb_ops].x0; p->y0 = ops[nb_ops].y0;
    p->x1 = ops[nb_ops].x1; p->y1 = ops[nb_ops].y1;
    for (DTCOp *b = ops + nb_ops + 1; b <= box; b++) {
        if (p->x0 > b->x0) p->x0 = b->x0;
        if (p->y0 > b->y0) p->y0 = b->y0;
        if (p->x1 < b->x1) p->x1 = b->x1;
        if (p->y1 < b->y1) p->y1 = b->y1;
    }
}

#if !KERNEL_GPU
#include <stdint.h>
#include <string.h>

/**
 * Fill the parameters of drawtext_cuda_inline for p and its list of
 * entries (operations and chunk boxes, dtc_finish_ops()). Returns 0,
 * leaving q alone, when the list is longer than DTC_INLINE_ENTRIES: then
 * drawtext_cuda reads it from device memory.
 */
static inline int dtc_inline_params(DTCInlineParams *q, const DTCParams *p,
                                    const DTCOp *ops, int entries)
{
    if (entries > DTC_INLINE_ENTRIES)
        return 0;
    q->p     = *p;
    q->p.ops = 0;
    memcpy(q->ops, ops, entries * sizeof(*ops));
    return 1;
}
#endif

#endif /* KERNELS_DRAWTEXT_CUDA_H */
