/*
 * Codec63 DCT basis: the CPU's tables
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
 * Initialisers of the CPU's DCT tables (c63data.c, c63dsp.c), from the
 * literals of cuda_kernels/c63_dct.h, whose one copy the kernels' table is
 * built from too:
 *
 *   C63_DCT_TABLE     initialiser of float [8][8], T[i][j]
 *   C63_DCT_TABLE_T   initialiser of float [8][8], its transpose
 */

#ifndef AVCODEC_C63_C63DCT_H
#define AVCODEC_C63_C63DCT_H

#include "cuda_kernels/c63_dct.h"

#define C63_DCT_COL_(j) C63_DCT(0, j), C63_DCT(1, j), C63_DCT(2, j), C63_DCT(3, j), \
                        C63_DCT(4, j), C63_DCT(5, j), C63_DCT(6, j), C63_DCT(7, j)

#define C63_DCT_TABLE { \
    { C63_DCT_ROW_(0) }, { C63_DCT_ROW_(1) }, { C63_DCT_ROW_(2) }, { C63_DCT_ROW_(3) }, \
    { C63_DCT_ROW_(4) }, { C63_DCT_ROW_(5) }, { C63_DCT_ROW_(6) }, { C63_DCT_ROW_(7) } }
#define C63_DCT_TABLE_T { \
    { C63_DCT_COL_(0) }, { C63_DCT_COL_(1) }, { C63_DCT_COL_(2) }, { C63_DCT_COL_(3) }, \
    { C63_DCT_COL_(4) }, { C63_DCT_COL_(5) }, { C63_DCT_COL_(6) }, { C63_DCT_COL_(7) } }

#endif /* AVCODEC_C63_C63DCT_H */
