/*
 * Codec63 DCT basis: the one copy of its literals
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
 * The reference's DCT basis (docs/c63-format.md section 6.5),
 * T[i][j] = cos((2i+1) j pi / 16), as the float literals the reference
 * writes: the eight cosines C63_DCT_C0..7 (cos(k pi / 16)) below are its
 * only copy. Every other entry is one of them or its negation (exact), so
 * each table built from these macros holds the reference's bits:
 *
 *   C63_DCT(i, j)     T[i][j], a constant expression
 *   C63_DCT_ROW_(i)   the elements of row i
 *   C63_DCT_ELEMS     the elements of T[i][j] at 8 * i + j, for a flat
 *                     float [64] (the kernels' c63_dct)
 *
 * Plain preprocessor only: included by the kernels' c63_tables.h and by
 * libavcodec/c63/c63dct.h, which builds the CPU's tables from it.
 */

#ifndef KERNELS_C63_DCT_H
#define KERNELS_C63_DCT_H

#define C63_DCT_C0 1.0f
#define C63_DCT_C1 0.980785f
#define C63_DCT_C2 0.923880f
#define C63_DCT_C3 0.831470f
#define C63_DCT_C4 0.707107f
#define C63_DCT_C5 0.555570f
#define C63_DCT_C6 0.382683f
#define C63_DCT_C7 0.195090f

/* cos(k pi / 16) for 0 <= k < 8 */
#define C63_DCT_COS_(k) ((k) == 0 ? C63_DCT_C0 : (k) == 1 ? C63_DCT_C1 : \
                         (k) == 2 ? C63_DCT_C2 : (k) == 3 ? C63_DCT_C3 : \
                         (k) == 4 ? C63_DCT_C4 : (k) == 5 ? C63_DCT_C5 : \
                         (k) == 6 ? C63_DCT_C6 : C63_DCT_C7)
/* cos(k pi / 16) for any k >= 0 with k % 16 != 8 (which no T[i][j] has) */
#define C63_DCT_COS(k) ((k) % 32 <  8 ?  C63_DCT_COS_((k) % 32)      : \
                        (k) % 32 < 16 ? -C63_DCT_COS_(16 - (k) % 32) : \
                        (k) % 32 < 24 ? -C63_DCT_COS_((k) % 32 - 16) : \
                                         C63_DCT_COS_(32 - (k) % 32))

#define C63_DCT(i, j) C63_DCT_COS((2 * (i) + 1) * (j))

#define C63_DCT_ROW_(i) C63_DCT(i, 0), C63_DCT(i, 1), C63_DCT(i, 2), C63_DCT(i, 3), \
                        C63_DCT(i, 4), C63_DCT(i, 5), C63_DCT(i, 6), C63_DCT(i, 7)

#define C63_DCT_ELEMS \
    C63_DCT_ROW_(0), C63_DCT_ROW_(1), C63_DCT_ROW_(2), C63_DCT_ROW_(3), \
    C63_DCT_ROW_(4), C63_DCT_ROW_(5), C63_DCT_ROW_(6), C63_DCT_ROW_(7)

#endif /* KERNELS_C63_DCT_H */
