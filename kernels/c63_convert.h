/*
 * The input conversion of the c63 CUDA encoder: its launch parameters,
 * shared by the kernel (c63_cuda_enc.cu, c63_convert), the encoder and checkcuda
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
 * One launch of c63_convert makes the three coding planes of a frame: plane
 * p's dw x dh coding plane (stride dw, dw a multiple of 8, 8-byte aligned)
 * is the sw x sh samples of its source (pitch bytes a row, step bytes
 * between samples: 1 planar, 2 one half of an interleaved UV plane) in the
 * top-left corner and zeros elsewhere. Each thread makes one group of 8
 * output bytes of a row with one 8-byte store; it reads its source with
 * one 8-byte (step 1) or 16-byte (step 2) load where the group lies inside
 * the source and the address is aligned, byte by byte otherwise. The
 * groups of the three planes are numbered one after the other (first).
 *
 * Plain C types only, so that both sides lay the structure out
 * identically (pointers travel as unsigned long long, as CUdeviceptr).
 */

#ifndef KERNELS_C63_CONVERT_H
#define KERNELS_C63_CONVERT_H

#include "kernel_func.h"

#define C63_CONV_THREADS 256

typedef struct C63ConvPlane {
    unsigned long long dst, src;    ///< device addresses
    int dw, dh;                     ///< coding plane, stride dw
    int pitch, sw, sh, step;        ///< source
    int gw;                         ///< groups a row: dw / 8
    int first;                      ///< its first group in the launch
} C63ConvPlane;

typedef struct C63ConvParams {
    C63ConvPlane p[3];
    int groups;                     ///< groups of all three planes
} C63ConvParams;

#if !KERNEL_GPU
/** gw, first and groups from the planes' other fields; returns the
 *  launch's thread block count. */
static inline int c63_conv_layout(C63ConvParams *c)
{
    c->groups = 0;
    for (int i = 0; i < 3; i++) {
        c->p[i].gw    = c->p[i].dw / 8;
        c->p[i].first = c->groups;
        c->groups    += c->p[i].gw * c->p[i].dh;
    }
    return (c->groups + C63_CONV_THREADS - 1) / C63_CONV_THREADS;
}
#endif

#endif /* KERNELS_C63_CONVERT_H */
