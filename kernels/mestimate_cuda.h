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

#endif /* KERNELS_MESTIMATE_CUDA_H */
