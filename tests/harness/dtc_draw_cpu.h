/*
 * drawtext_cuda's kernel on the CPU, for the test programs
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
 * The CPU twin of drawtext_cuda's kernel: the operations of a list drawn
 * sample by sample with the kernel's own per-sample arithmetic,
 * dtc_blend_factor() and dtc_blend() of cuda_kernels/drawtext_cuda.h.
 * checkdrawtext compares it with drawutils, checkcuda the kernel with it.
 */

#ifndef TESTS_DTC_DRAW_CPU_H
#define TESTS_DTC_DRAW_CPU_H

#include <stdint.h>

#include "cuda_kernels/drawtext_cuda.h"

/**
 * Apply one operation to sample (sx, sy) of channel c, whose value is v;
 * return the new value. Bit for bit ff_blend_rectangle()/ff_blend_mask()
 * for 8-bit components.
 */
static inline unsigned dtc_blend_sample(unsigned v, const DTCOp *op,
                                        const unsigned char *atlas, int c,
                                        int hsub, int vsub, int sx, int sy)
{
    int cx0 = sx << hsub, cx1 = (sx + 1) << hsub;
    int cy0 = sy << vsub, cy1 = (sy + 1) << vsub;

    if (cx0 < op->x0) cx0 = op->x0;
    if (cx1 > op->x1) cx1 = op->x1;
    if (cy0 < op->y0) cy0 = op->y0;
    if (cy1 > op->y1) cy1 = op->y1;
    if (cx0 >= cx1 || cy0 >= cy1)
        return v;
    return dtc_blend(v, op->color[c],
                     dtc_blend_factor(op, atlas, cx0, cx1, cy0, cy1, hsub, vsub));
}

/** Quick test: does the operation touch sample (sx, sy)? */
static inline int dtc_touches(const DTCOp *op, int hsub, int vsub, int sx, int sy)
{
    return (sx + 1) << hsub > op->x0 && sx << hsub < op->x1 &&
           (sy + 1) << vsub > op->y0 && sy << vsub < op->y1;
}

/**
 * The kernel's CPU twin: every sample of every channel (data are host
 * pointers here), the operations applied in order.
 */
static inline void dtc_draw_cpu(const DTCChannel *ch, int nb_channels,
                                const DTCOp *ops, int nb_ops,
                                const unsigned char *atlas)
{
    for (int c = 0; c < nb_channels; c++) {
        for (int sy = 0; sy < ch[c].height; sy++) {
            for (int sx = 0; sx < ch[c].width; sx++) {
                unsigned char *p = (unsigned char *)(uintptr_t)ch[c].data +
                                   (long long)sy * ch[c].linesize + (long long)sx * ch[c].step;
                unsigned v = *p;
                for (int i = 0; i < nb_ops; i++)
                    if (dtc_touches(&ops[i], ch[c].hsub, ch[c].vsub, sx, sy))
                        v = dtc_blend_sample(v, &ops[i], atlas, c,
                                             ch[c].hsub, ch[c].vsub, sx, sy);
                *p = v;
            }
        }
    }
}

#endif /* TESTS_DTC_DRAW_CPU_H */
