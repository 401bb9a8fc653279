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
 * Shared by the cudadiff filter (host, C), its kernel (device, CUDA C++)
 * and the CPU twins (framediff, the framediff codec): the kernel
 * parameters, in plain C types only so that both sides lay the structures
 * out identically, and the placement of the sent bits in the difference
 * list's bitmap (libavutil/framediff.h, version 2), written once for both.
 */

#ifndef KERNELS_CUDADIFF_H
#define KERNELS_CUDADIFF_H

#include "kernel_func.h"

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
    unsigned int bitmap_start;  ///< offset of this plane's bitmap in the list's
                                ///< bitmap (CUDADIFF_BITMAP_BYTES of the planes before)
} CudaDiffPlane;

typedef struct CudaDiffParams {
    CudaDiffPlane plane[4];
    int nb_planes;
    unsigned int nb_vecs;       ///< vectors in all planes
    unsigned int nb_tiles;      ///< blocks launched
    int threshold;              ///< a byte is sent if |C - R| > threshold; -1 on
                                ///< refresh frames: every byte
    unsigned int epoch;         ///< 1..2^30-1, changes every launch
    int bitmap_store;           ///< 1 when every plane's width is a multiple of
                                ///< CUDADIFF_VEC (see cudadiff_bitmap_store()):
                                ///< each vector's bits are stored, not ORed
    unsigned long long tile_status; ///< uint64 per tile: epoch<<34 | flag<<32 | value
    unsigned long long count;       ///< uint32: bytes sent
    unsigned long long bitmap;      ///< uint32 words, the bitmaps of all planes,
                                    ///< as in the list; zero before the launch
                                    ///< unless bitmap_store is set
    unsigned long long values;      ///< one byte per byte sent: its new value
} CudaDiffParams;

/** Bytes of the bitmap of a plane of n bytes: one bit per byte. */
#define CUDADIFF_BITMAP_BYTES(n) (((n) + 7) >> 3)

/**
 * Where the bits of a run of sent bytes go in the list's bitmap: mask has
 * bit i set if byte q + i of a plane is sent (i < 25), the plane's bitmap
 * starting at byte bitmap_start. The bits land in the little-endian 32-bit
 * words *word and *word + 1 of the bitmap, to be ORed in as *lo and *hi.
 * Only words holding a set bit need to be touched, and those lie inside
 * the bitmap.
 */
KERNEL_INLINE void cudadiff_bitmap_bits(unsigned int bitmap_start, unsigned int q,
                                        unsigned int mask, unsigned int *word,
                                        unsigned int *lo, unsigned int *hi)
{
    unsigned long long bit = 8ull * bitmap_start + q;
    unsigned long long v   = (unsigned long long)mask << (bit & 31);

    *word = (unsigned int)(bit >> 5);
    *lo   = (unsigned int)v;
    *hi   = (unsigned int)(v >> 32);
}

/**
 * Whether the kernel may store each vector's sent bits instead of ORing them
 * into a cleared bitmap: when every plane's width (bytes per line) is a
 * multiple of CUDADIFF_VEC, every vector is whole, starts at a byte q of its
 * plane that is a multiple of 16, and every plane's bitmap starts at an
 * even byte, so its 16 bits are exactly one aligned 16-bit word of the
 * bitmap, and the vectors' words cover the bitmap. The bitmap then needs no
 * clearing before the launch (one operation less a frame).
 */
KERNEL_INLINE int cudadiff_bitmap_store(const int *width, int nb_planes)
{
    int i;
    for (i = 0; i < nb_planes; i++)
        if (width[i] % CUDADIFF_VEC)
            return 0;
    return 1;
}

#if !KERNEL_GPU
/*
 * The CPU twin of the kernel's atomic OR: the bits of a run into a
 * bitmap in memory, byte by byte (so on any host), touching only bytes
 * that get a set bit.
 */
static inline void cudadiff_bitmap_or(unsigned char *bitmap, unsigned int bitmap_start,
                                      unsigned int q, unsigned int mask)
{
    unsigned int word, lo, hi, k;

    cudadiff_bitmap_bits(bitmap_start, q, mask, &word, &lo, &hi);
    for (k = 0; k < 4; k++) {
        if (lo >> (8 * k) & 0xff)
            bitmap[4 * word + k]     |= lo >> (8 * k) & 0xff;
        if (hi >> (8 * k) & 0xff)
            bitmap[4 * word + 4 + k] |= hi >> (8 * k) & 0xff;
    }
}
#endif

#endif /* KERNELS_CUDADIFF_H */
