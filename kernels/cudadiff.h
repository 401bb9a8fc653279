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
 * Kernel parameters shared by the cudadiff filter (host, C) and its kernel
 * (device, CUDA C++). Plain C types only, so that both sides lay the
 * structures out identically.
 */

#ifndef AVFILTER_CUDA_KERNELS_CUDADIFF_H
#define AVFILTER_CUDA_KERNELS_CUDADIFF_H

/** Threads per block. */
#define CUDADIFF_BLOCK      256
/** Bytes per vector: one 128-bit load. */
#define CUDADIFF_VEC        16
/** Vectors per thread. */
#define CUDADIFF_VPT        2
/** Vectors per tile (one block). */
#define CUDADIFF_TILE_VECS  (CUDADIFF_BLOCK * CUDADIFF_VPT)
/** Bytes, and at most entries, per tile. */
#define CUDADIFF_TILE       (CUDADIFF_TILE_VECS * CUDADIFF_VEC)

/** Output modes, as the filter's mode option: one kernel pair each. */
#define CUDADIFF_MODE_RECON 0
#define CUDADIFF_MODE_DIFF  1
#define CUDADIFF_MODE_MASK  2

/** Tile status flags, bits 32..33 of a tile's status word. */
#define CUDADIFF_TILE_AGGREGATE 1
#define CUDADIFF_TILE_INCLUSIVE 2

typedef struct CudaDiffPlane {
    unsigned long long src;     ///< input plane (CUdeviceptr)
    unsigned long long dst;     ///< output plane
    unsigned long long recv;    ///< receiver picture R of this plane; in recon
                                ///< mode read only (the previous output frame)
    int src_pitch;
    int dst_pitch;
    int recv_pitch;
    int width;                  ///< bytes per line
    int height;                 ///< lines
    int vecs_per_line;          ///< ceil(width / CUDADIFF_VEC)
    unsigned int vec_start;     ///< first vector of this plane
    unsigned int pos_start;     ///< offset of this plane in the packed picture
} CudaDiffPlane;

typedef struct CudaDiffParams {
    CudaDiffPlane plane[4];
    int nb_planes;
    unsigned int nb_vecs;       ///< vectors in all planes
    unsigned int nb_tiles;      ///< blocks launched
    int threshold;              ///< a byte is sent if |C - R| > threshold
    unsigned int epoch;         ///< 1..2^30-1, changes every launch
    unsigned long long tile_status; ///< uint64 per tile: epoch<<34 | flag<<32 | value
    unsigned long long count;       ///< uint32: entries in the list
    unsigned long long list_pos;    ///< uint32 per entry
    unsigned long long list_delta;  ///< int16 per entry
} CudaDiffParams;

#endif /* AVFILTER_CUDA_KERNELS_CUDADIFF_H */
