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
 * Launch parameters shared by the mestimate_cuda filter, checkcuda and the
 * kernels of mestimate_cuda.cu.
 */

#ifndef KERNELS_MESTIMATE_CUDA_H
#define KERNELS_MESTIMATE_CUDA_H

/** Threads per block of mestimate_esa (a power of two). */
#define MESTIMATE_ESA_THREADS 256
/** Largest mb_size mestimate_esa serves (costs below 2^32). */
#define MESTIMATE_ESA_MAX_MB  256
/** Most dynamic shared memory mestimate_esa_staged is given (bytes). */
#define MESTIMATE_STAGE_MAX   (40 * 1024)
/** Threads per block of mestimate_block. */
#define MESTIMATE_BLOCK_THREADS 64

#include "block_match.h"

/**
 * mestimate_bmN for mb_size N: the window stride (bytes) and the dynamic
 * shared memory (bytes) for the widest window of a plane whose last whole
 * block is at (x_max, y_max); 0 when there is no such kernel for mb_size or
 * the window does not fit in MESTIMATE_STAGE_MAX.
 */
static inline unsigned mestimate_bm_smem(int mb_size, int search_param, int x_max, int y_max,
                                         int *stride)
{
    long long nx = 2LL * search_param + 1, ny = 2LL * search_param + 1, words;

    if (mb_size != 8 && mb_size != 16 && mb_size != 32 && mb_size != 64)
        return 0;
    if (nx > x_max + 1LL) nx = x_max + 1LL;
    if (ny > y_max + 1LL) ny = y_max + 1LL;
    if (nx > MESTIMATE_STAGE_MAX || ny > MESTIMATE_STAGE_MAX)
        return 0;
    *stride = (int)BM_STRIDE(mb_size, nx);
    words   = BM_SMEM_WORDS(mb_size, (long long)*stride, BM_ROWS(mb_size, ny));
    return 4 * words <= MESTIMATE_STAGE_MAX ? (unsigned)(4 * words) : 0;
}

#endif /* KERNELS_MESTIMATE_CUDA_H */
