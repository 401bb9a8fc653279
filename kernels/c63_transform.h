/*
 * Codec63 CUDA transform launch parameters
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
 * One launch of c63_encode transforms and reconstructs the three planes of
 * a frame. The planes lie one after the other in orig, ref and rec (plane
 * p's first sample at 64 * first), their coefficients in coef (64 int16 a
 * block) and their vectors in mv (one C63MV a block) in the same block
 * order; q holds the three 64-byte quantisation tables. Blocks are
 * numbered over the three planes in raster order, plane after plane.
 * C63_ENC_THREADS threads a thread block, 8 a block (one a row): the
 * launch has ceil(nblocks / C63_ENC_BLOCKS) thread blocks.
 *
 * c63_encode_rd is the same with trellis quantisation (c63_rd_quant(),
 * with the eight threads of each block). With the DC chain (-trellis 2),
 * c63_encode_rdq does its first half (the levels, and each block's exact
 * DC into dcz), c63_dc_chain (c63_rd.h) decides the DC levels, and
 * c63_recon the second half (the reconstruction from coef).
 *
 * Plain C types only, so that both sides lay the structure out
 * identically (pointers travel as unsigned long long, as CUdeviceptr).
 */

#ifndef KERNELS_C63_TRANSFORM_H
#define KERNELS_C63_TRANSFORM_H

#include "kernel_func.h"

#define C63_ENC_THREADS 128
#define C63_ENC_BLOCKS  (C63_ENC_THREADS / 8)

typedef struct C63EncPlane {
    int w;                          ///< width and stride, a multiple of 8
    int first;                      ///< its first block over the three planes
} C63EncPlane;

typedef struct C63EncParams {
    unsigned long long coef, rec, mv, orig, ref, q;   ///< device addresses
    C63EncPlane p[3];
    int nblocks;                    ///< blocks of the three planes
    int key;                        ///< no prediction (a keyframe); -1: scene->key
    int limit_ac;                   ///< AC levels within +-511 (luma), +-1023 (chroma)
    long long lambda;               ///< c63_encode_rd: the trellis's (c63_rd.h)
    unsigned long long ac_len;      ///< c63_encode_rd: AC code lengths, [2][256]
    unsigned long long dcz;         ///< c63_encode_rdq: each block's exact DC (int)
    unsigned long long scene;       ///< key -1: the C63SceneState (c63_scene.h) that decides
} C63EncParams;

#if !KERNEL_GPU
/** first and nblocks from the planes' sizes (multiples of 8); returns the
 *  launch's thread block count. */
static inline int c63_enc_layout(C63EncParams *e, const int w[3], const int h[3])
{
    e->nblocks = 0;
    for (int i = 0; i < 3; i++) {
        e->p[i].w     = w[i];
        e->p[i].first = e->nblocks;
        e->nblocks   += (w[i] / 8) * (h[i] / 8);
    }
    return (e->nblocks + C63_ENC_BLOCKS - 1) / C63_ENC_BLOCKS;
}
#endif

#endif /* KERNELS_C63_TRANSFORM_H */
