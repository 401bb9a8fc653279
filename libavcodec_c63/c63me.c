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

#include <limits.h>
#include <stdlib.h>

#include "libavutil/common.h"

#include "c63me.h"
#include "c63scene.h"

void ff_c63_block_sums(const C63DSPContext *dsp, uint16_t *dst, const uint8_t *src,
                       int w, int h, int y0, int rows)
{
    const int y1 = FFMIN(y0 + rows, h - 1);
    /* the SIMD version reads 24 bytes a group: groups that stay in the row */
    const int nsimd = dsp && dsp->block_sums && w >= 24 ? (w - 8) / 16 * 16 : 0;

    for (int y = y0; y < y1; y++) {
        const uint8_t *s = src + (ptrdiff_t)y * w;
        uint16_t *d = dst + (ptrdiff_t)y * w;
        unsigned ring[8] = { 0 }, acc = 0;
        int x0 = 0;

        if (nsimd) {
            dsp->block_sums(d, s, w, nsimd);
            x0 = nsimd;     /* the running sums go on from there */
        }
        for (int x = x0; x < w; x++) {
            unsigned cs = s[x] + s[x + w];
            acc += cs - ring[x & 7];
            ring[x & 7] = cs;
            if (x >= x0 + 7)
                d[x - 7] = acc;
        }
    }
}

C63MV ff_c63_motion_search(const MECmpContext *mecc, const uint8_t *cur, const uint8_t *ref,
                           const uint16_t *ref_sums, int w, int h, int bx, int by, int r)
{
    const int mx = 8 * bx, my = 8 * by;
    const int x0 = FFMAX(0, mx - r), x1 = FFMIN(mx + r, w - 8);
    const int y0 = FFMAX(0, my - r), y1 = FFMIN(my + r, h - 8);
    const uint8_t *blk = cur + (ptrdiff_t)my * w + mx;
    C63MV mv = { 0, 0 };
    int best = INT_MAX, part[4] = { 0 };

    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            part[i >> 1] += blk[i * w + j];

    for (int y = y0; y < y1; y++) {
        const uint16_t *sums = ref_sums + (ptrdiff_t)y * w;
        const uint8_t *cand = ref + (ptrdiff_t)y * w;
        for (int x = x0; x < x1; x++) {
            int sad;
            if (abs(part[0] - sums[x])         + abs(part[1] - sums[x + 2 * w]) +
                abs(part[2] - sums[x + 4 * w]) + abs(part[3] - sums[x + 6 * w]) >= best)
                continue;
            sad = mecc->sad[1](NULL, blk, cand + x, w, 8);
            if (sad < best) {
                best = sad;
                mv.x = x - mx;
                mv.y = y - my;
            }
        }
    }
    return mv;
}

C63MV ff_c63_motion_search_full(const C63DSPContext *dsp, const uint8_t *cur,
                                const uint8_t *ref, const uint16_t *ref_sums,
                                int w, int h, int bx, int by, int r)
{
    const int mx = 8 * bx, my = 8 * by;
    const int x0 = FFMAX(0, mx - r), x1 = FFMIN(mx + r, w - 8);
    const int y0 = FFMAX(0, my - r), y1 = FFMIN(my + r, h - 8);
    const ptrdiff_t win = (ptrdiff_t)y0 * w + x0;
    C63MV mv = { 0, 0 };
    uint32_t key;

    if (x0 >= x1 || y0 >= y1)
        return mv;
    /* The zero vector first: on camera footage its SAD is usually close to
     * the best, and bounds the search from the start. */
    key  = dsp->me_search(cur + (ptrdiff_t)my * w + mx, ref + win, w, x1 - x0, y1 - y0,
                          ref_sums + win,
                          mx < x1 && my < y1 ? (my - y0) << 7 | (mx - x0) : -1);
    mv.x = x0 + (key & 127) - mx;
    mv.y = y0 + (key >> 7 & 127) - my;
    return mv;
}

uint64_t ff_c63_activity(const MECmpContext *mecc, const uint8_t *luma, ptrdiff_t stride,
                         int w, int h)
{
    /* tiles: 16 columns whose right neighbours are in the picture, 8
     * counted rows (16 rows) whose rows below are in it */
    const int tw = w > 16 ? (w - 1) / 16 * 16 : 0, th = h / 16 * 16;
    uint64_t sum = 0;

    /* sad[0] takes its first block 16-byte aligned */
    if (((uintptr_t)luma | stride) & 15)
        return c63_sc_activity(luma, stride, w, h);

    for (int y = 0; y < th; y += 16) {
        const uint8_t *p = luma + y * stride;
        for (int x = 0; x < tw; x += 16)
            sum += mecc->sad[0](NULL, p + x, p + x + 1, 2 * stride, 8) +
                   mecc->sad[0](NULL, p + x, p + x + stride, 2 * stride, 8);
    }
    /* the rest, as c63_sc_activity() */
    for (int y = 0; y < h; y += 2) {
        const uint8_t *p = luma + y * stride;
        for (int x = y < th ? tw : 0; x < w; x++) {
            if (x + 1 < w)
                sum += FFABS(p[x] - p[x + 1]);
            if (y + 1 < h)
                sum += FFABS(p[x] - p[x + stride]);
        }
    }
    return sum;
}
