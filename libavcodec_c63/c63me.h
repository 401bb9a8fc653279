/*
 * Codec63 motion estimation (CPU)
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

#ifndef AVCODEC_C63_C63ME_H
#define AVCODEC_C63_C63ME_H

#include <stdint.h>

#include "libavcodec/me_cmp.h"

#include "c63.h"
#include "c63dsp.h"

/**
 * Sums of the 8x2 blocks at every position (x, y) of a plane, for rows
 * y0 .. y0 + rows - 1 (positions with x <= w - 8 and y <= h - 2 only).
 * dst has the plane's layout (stride w). Through dsp->block_sums where set.
 */
void ff_c63_block_sums(const C63DSPContext *dsp, uint16_t *dst, const uint8_t *src,
                       int w, int h, int y0, int rows);

/**
 * Full search of docs/c63-format.md section 7.3: the vector of block
 * (bx, by) of a w x h plane against ref within range r (candidates x in
 * [max(0, 8bx - r), min(8bx + r, w - 8)), likewise y; y outer, x inner;
 * first strictly smaller SAD wins; (0, 0) if the window is empty).
 * Candidates are skipped when the bound sum over k of |sum of rows 2k, 2k+1
 * of the block - ref_sums at (x, y + 2k)| (ref_sums: ff_c63_block_sums of
 * ref) reaches the best SAD so far: the bound is never above their SAD, so
 * the result is the same as without it.
 */
C63MV ff_c63_motion_search(const MECmpContext *mecc, const uint8_t *cur, const uint8_t *ref,
                           const uint16_t *ref_sums, int w, int h, int bx, int by, int r);

/**
 * The same search through dsp->me_search (which must be set): sixteen
 * candidates per pass, the zero vector first, groups whose bound (as
 * above) exceeds the best SAD found skipped. Gives the same vector as
 * ff_c63_motion_search.
 */
C63MV ff_c63_motion_search_full(const C63DSPContext *dsp, const uint8_t *cur,
                                const uint8_t *ref, const uint16_t *ref_sums,
                                int w, int h, int bx, int by, int r);

/**
 * c63_sc_activity() (c63scene.h) of a w x h
 * picture's luma (stride bytes a row), through mecc->sad[0] on 16-column
 * tiles of every other row where luma and stride are 16-byte aligned: the
 * same sum, at SIMD speed.
 */
uint64_t ff_c63_activity(const MECmpContext *mecc, const uint8_t *luma, ptrdiff_t stride,
                         int w, int h);

#endif /* AVCODEC_C63_C63ME_H */
