/*
 * Codec63 parallel entropy decoding: the host's part
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

#include <string.h>

#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavcodec/jpegtables.h"

#include "c63hd.h"

static void build(C63HDTables *t, int tab, const uint8_t *bits, const uint8_t *val)
{
    unsigned code = 0;
    int n = 0;

    memset(t->fast[tab], 0, sizeof(t->fast[tab]));
    for (int l = 1; l <= 16; l++) {
        t->first[tab][l] = code;
        t->count[tab][l] = bits[l];
        t->index[tab][l] = n;
        for (int i = 0; i < bits[l]; i++, n++, code++) {
            t->sym[tab][n] = val[n];
            if (l <= C63HD_FAST) {
                const int free = C63HD_FAST - l;
                for (int j = 0; j < 1 << free; j++)
                    t->fast[tab][code << free | j] = l << 8 | val[n];
            }
        }
        code <<= 1;
    }
    for (; n < FF_ARRAY_ELEMS(t->sym[tab]); n++)
        t->sym[tab][n] = 0;
    t->first[tab][0] = t->count[tab][0] = t->index[tab][0] = 0;
}

void ff_c63_hd_tables(C63HDTables *t)
{
    build(t, 0, ff_mjpeg_bits_dc_luminance,   ff_mjpeg_val_dc);
    build(t, 1, ff_mjpeg_bits_dc_chrominance, ff_mjpeg_val_dc);
    build(t, 2, ff_mjpeg_bits_ac_luminance,   ff_mjpeg_val_ac_luminance);
    build(t, 3, ff_mjpeg_bits_ac_chrominance, ff_mjpeg_val_ac_chrominance);
}

void ff_c63_hd_params(C63HDParams *p, const C63Geometry *g, int pkt_size, int keyframe)
{
    p->pkt_size = pkt_size;
    p->nchunks  = (pkt_size + C63HD_CHUNK - 1) / C63HD_CHUNK;
    p->nsegs    = c63hd_nsegs(pkt_size);
    p->ngroups  = c63hd_ngroups(p->nsegs);
    p->keyframe = keyframe;
    p->mb_w     = g->mb_w;
    p->mb_h     = g->mb_h;
    p->nblocks  = 6 * g->mb_w * g->mb_h;
    for (int i = 0, first = 0; i < 3; i++) {
        p->bw[i]    = g->w[i] / 8;
        p->bh[i]    = g->h[i] / 8;
        p->first[i] = first;
        first      += p->bw[i] * p->bh[i];
    }
}

int ff_c63_hd_status(void *logctx, const C63HDParams *p, const C63HDStatus *st,
                     const uint8_t *pkt)
{
    long long b;
    int plane, bx, by, mb, c, detail;

    if (st->marker == C63HD_NOMARKER) {
        av_log(logctx, AV_LOG_ERROR, "Truncated frame: no EOI marker\n");
        return AVERROR_INVALIDDATA;
    }
    if (pkt[st->marker + 1] != C63_EOI) {
        av_log(logctx, AV_LOG_ERROR, "Unexpected marker 0x%02X in entropy-coded data\n",
               pkt[st->marker + 1]);
        return AVERROR_INVALIDDATA;
    }
    if (st->error == C63HD_NO_ERROR)
        return 0;

    b      = C63HD_KEY_BLOCK(st->error);
    detail = C63HD_KEY_DETAIL(st->error);
    mb     = b / 6;
    c      = b % 6;
    plane  = c < 4 ? 0 : c - 3;
    bx     = plane ? mb % p->mb_w : 2 * (mb % p->mb_w) + (c & 1);
    by     = plane ? mb / p->mb_w : 2 * (mb / p->mb_w) + (c >> 1);

    switch (C63HD_KEY_CHECK(st->error)) {
    case C63HD_MV_KEY:
        av_log(logctx, AV_LOG_ERROR, "Motion vector in a keyframe\n");
        break;
    case C63HD_MV_REUSE:
        av_log(logctx, AV_LOG_ERROR, "Vector reuse without a left neighbour vector\n");
        break;
    case C63HD_MV_CODE:
        av_log(logctx, AV_LOG_ERROR, "Invalid motion vector code\n");
        break;
    case C63HD_MV_RANGE:
        av_log(logctx, AV_LOG_ERROR,
               "Motion vector (%d,%d) of block (%d,%d) in plane %d points outside the plane\n",
               (int8_t)(detail >> 8), (int8_t)detail, bx, by, plane);
        break;
    case C63HD_DC_CODE:
        av_log(logctx, AV_LOG_ERROR, "Invalid DC code in block (%d,%d) of plane %d\n",
               bx, by, plane);
        break;
    case C63HD_DC_RANGE:
        av_log(logctx, AV_LOG_ERROR, "DC coefficient out of range\n");
        break;
    case C63HD_AC_CODE:
        av_log(logctx, AV_LOG_ERROR, detail ? "AC run past the end of block (%d,%d) of plane %d\n"
                                            : "Invalid AC code in block (%d,%d) of plane %d\n",
               bx, by, plane);
        break;
    default:
        av_log(logctx, AV_LOG_ERROR, "Entropy-coded data ends too early (MCU row %d)\n",
               (int)(b / (6 * p->mb_w)));
        break;
    }
    return AVERROR_INVALIDDATA;
}
