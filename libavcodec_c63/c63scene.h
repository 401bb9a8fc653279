/*
 * Codec63 scene statistics on the CPU
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
 * The luma histogram and activity of a picture (cuda_kernels/c63_scene.h
 * defines both) on the CPU: what c63_cuda's kernels c63_sc_hist and
 * c63_activity compute on the GPU.
 */

#ifndef AVCODEC_C63_C63SCENE_H
#define AVCODEC_C63_C63SCENE_H

#include <stddef.h>

#include "cuda_kernels/c63_scene.h"

/** The activity of a picture's luma (stride bytes a row). */
static inline unsigned long long c63_sc_activity(const unsigned char *luma, ptrdiff_t stride,
                                                 int width, int height)
{
    unsigned long long sum = 0;

    for (int y = 0; y < height; y += 2) {
        const unsigned char *p = luma + y * stride;
        unsigned s = 0;
        for (int x = 0; x + 1 < width; x++)
            s += p[x] > p[x + 1] ? p[x] - p[x + 1] : p[x + 1] - p[x];
        if (y + 1 < height)
            for (int x = 0; x < width; x++)
                s += p[x] > p[x + stride] ? p[x] - p[x + stride] : p[x + stride] - p[x];
        sum += s;
    }
    return sum;
}

/** The histogram of a picture's luma (stride bytes a row) into hist. */
static inline void c63_sc_hist(unsigned int *hist, const unsigned char *luma, ptrdiff_t stride,
                               int width, int height)
{
    for (int k = 0; k < C63_SC_BINS; k++)
        hist[k] = 0;
    for (int y = 0; y < height; y += 2)
        for (int x = 0; x < width; x += 2)
            hist[luma[y * stride + x] >> C63_SC_SHIFT]++;
}

#endif /* AVCODEC_C63_C63SCENE_H */
