/*
 * Codec63 tables for the CUDA kernels
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

#ifndef KERNELS_C63_TABLES_H
#define KERNELS_C63_TABLES_H

#include "cuda_compat.h"
#include "c63_dct.h"

/* ff_c63_dct_lookup (libavcodec/c63/c63data.c), from the same literals:
 * T[i][j] at index 8 * i + j. */
__constant__ float c63_dct[64] = { C63_DCT_ELEMS };

/* Zigzag position of each natural position: the inverse of
 * ff_zigzag_direct. */
__constant__ unsigned char c63_izigzag[64] = {
     0,  1,  5,  6, 14, 15, 27, 28,  2,  4,  7, 13, 16, 26, 29, 42,
     3,  8, 12, 17, 25, 30, 41, 43,  9, 11, 18, 24, 31, 40, 44, 53,
    10, 19, 23, 32, 39, 45, 52, 54, 20, 22, 33, 38, 46, 51, 55, 60,
    21, 34, 37, 47, 50, 56, 59, 61, 35, 36, 48, 49, 57, 58, 62, 63,
};

/* C63_ISQRT2 of libavcodec/c63/c63.h */
#define C63_ISQRT2_F 0.70710678118654f

#endif /* KERNELS_C63_TABLES_H */
