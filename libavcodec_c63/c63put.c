/*
 * Codec63 frame writer (shared by the c63 and c63_cuda encoders)
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

#include "libavutil/imgutils.h"
#include "libavcodec/avcodec.h"
#include "libavcodec/encode.h"
#include "libavcodec/put_bits.h"

#include "c63.h"
#include "c63enc.h"

/* Worst case of one block in bits: use_mv, reuse, two vectors, DC and 63
 * AC codes of at most 16 + 10 bits. */
#define BLOCK_MAX_BITS (2 + 2 * (5 + 7) + 11 + 11 + 63 * 26)

int ff_c63_encode_check(AVCodecContext *avctx, int qp, int range[3])
{
    int ret;

    if (avctx->width < 1 || avctx->height < 1 ||
        avctx->width > 65535 || avctx->height > 65535) {
        av_log(avctx, AV_LOG_ERROR,
               "Frame size %dx%d is not supported: c63 codes 1x1 up to 65535x65535\n",
               avctx->width, avctx->height);
        return AVERROR(EINVAL);
    }
    if ((ret = av_image_check_size(FFALIGN(avctx->width, 16), FFALIGN(avctx->height, 16), 0, avctx)) < 0)
        return ret;
    if (qp < C63_QP_MIN || qp > C63_QP_MAX) {
        av_log(avctx, AV_LOG_ERROR, "Quality factor %d out of range %d..%d\n",
               qp, C63_QP_MIN, C63_QP_MAX);
        return AVERROR(EINVAL);
    }
    if (avctx->gop_size < 1) {
        av_log(avctx, AV_LOG_ERROR, "Keyframe interval (-g) must be at least 1, not %d\n",
               avctx->gop_size);
        return AVERROR(EINVAL);
    }
    if (avctx->me_range < 0 || avctx->me_range > C63_RANGE_MAX) {
        av_log(avctx, AV_LOG_ERROR, "Search range (-me_range) %d out of range 0..%d\n",
               avctx->me_range, C63_RANGE_MAX);
        return AVERROR(EINVAL);
    }
    range[0] = avctx->me_range ? avctx->me_range : C63_RANGE_DEFAULT;
    range[1] = range[2] = range[0] / 2;
    return 0;
}

static av_always_inline void put_value(PutBitContext *pb, const uint16_t *code,
                                       const uint8_t *len, int v)
{
    int s = v ? av_log2(FFABS(v)) + 1 : 0;
    put_bits(pb, len[s], code[s]);
    if (s)
        put_sbits(pb, s, v - (v < 0));
}

static void put_block(PutBitContext *pb, const int16_t *coef, int chroma, int *dc)
{
    const C63HuffCodes *h = &ff_c63_huff;
    const uint16_t *ac_code = h->ac_code[chroma];
    const uint8_t  *ac_len  = h->ac_len[chroma];
    int last = 63, run = 0;

    put_value(pb, h->dc_code[chroma], h->dc_len[chroma], coef[0] - *dc);
    *dc = coef[0];

    while (last > 0 && !coef[last])
        last--;
    for (int k = 1; k <= last; k++) {
        int v = coef[k], s, a;
        if (!v) {
            run++;
            continue;
        }
        while (run >= 16) {
            put_bits(pb, ac_len[0xF0], ac_code[0xF0]);
            run -= 16;
        }
        a = FFABS(v);
        s = av_log2(a) + 1;
        put_bits(pb, ac_len[(run << 4) | s], ac_code[(run << 4) | s]);
        put_sbits(pb, s, v - (v < 0));
        run = 0;
    }
    if (last < 63)
        put_bits(pb, ac_len[0x00], ac_code[0x00]);
}

int ff_c63_write_frame(AVCodecContext *avctx, C63Writer *w, AVPacket *pkt,
                       const C63Geometry *g, const uint8_t q[3][64],
                       const C63CodedFrame *f)
{
    const C63HuffCodes *h = &ff_c63_huff;
    size_t nblocks = (size_t)g->mb_w * g->mb_h * 6;
    size_t max_bytes = nblocks * (BLOCK_MAX_BITS / 8 + 1) + 16;
    const int bw[3] = { g->w[0] / 8, g->w[1] / 8, g->w[2] / 8 };
    PutBitContext pb;
    int dc[3] = { 0 };
    uint64_t nbits;
    size_t nbytes, nff = 0, size;
    int tail_nonzero = 0, ret;
    uint8_t *dst;

    if (max_bytes > INT_MAX / 2)
        return AVERROR(EINVAL);
    av_fast_padded_malloc(&w->bits, &w->bits_size, max_bytes);
    if (!w->bits)
        return AVERROR(ENOMEM);
    init_put_bits(&pb, w->bits, max_bytes);

    for (int v = 0; v < g->mb_h; v++) {
        for (int u = 0; u < g->mb_w; u++) {
            for (int i = 0; i < 6; i++) {
                int p  = i < 4 ? 0 : i - 3;
                int bx = p ? u : 2 * u + (i & 1);
                int by = p ? v : 2 * v + (i >> 1);
                size_t b = (size_t)by * bw[p] + bx;

                if (f->keyframe) {
                    put_bits(&pb, 1, 0);
                } else {
                    const C63MV mv = f->mv[p][b];
                    put_bits(&pb, 1, 1);
                    /* Every inter block uses a vector, so the left
                     * neighbour always has one too. */
                    if (bx && f->mv[p][b - 1].x == mv.x && f->mv[p][b - 1].y == mv.y) {
                        put_bits(&pb, 1, 1);
                    } else {
                        put_bits(&pb, 1, 0);
                        put_value(&pb, h->dc_code[0], h->dc_len[0], mv.x);
                        put_value(&pb, h->dc_code[0], h->dc_len[0], mv.y);
                    }
                }
                put_block(&pb, f->coef[p] + 64 * b, p > 0, &dc[p]);
            }
        }
    }

    /* Quirk Q2: the reference ends the data with one more byte (the pending
     * bits, left-aligned, or 0x00 when none are pending) if and only if any
     * of the last 32 bits written is set. */
    nbits = put_bits_count(&pb);
    flush_put_bits(&pb);
    for (uint64_t i = nbits > 32 ? nbits - 32 : 0; i < nbits && !tail_nonzero; i++)
        tail_nonzero = w->bits[i >> 3] >> (7 - (i & 7)) & 1;
    nbytes = nbits / 8;
    if (tail_nonzero) {
        if (!(nbits & 7))
            w->bits[nbytes] = 0;
        nbytes++;
    }

    for (const uint8_t *p = w->bits, *end = w->bits + nbytes;
         (p = memchr(p, 0xFF, end - p)); p++)
        nff++;

    size = C63_HEADER_SIZE + nbytes + nff + 2;
    if ((ret = ff_get_encode_buffer(avctx, pkt, size, 0)) < 0)
        return ret;

    dst = pkt->data;
    ff_c63_write_header(dst, g->width, g->height, f->keyframe, q);
    dst += C63_HEADER_SIZE;
    for (const uint8_t *p = w->bits, *end = w->bits + nbytes; p < end;) {
        const uint8_t *ff = memchr(p, 0xFF, end - p);
        size_t n = (ff ? ff + 1 : end) - p;
        memcpy(dst, p, n);
        dst += n;
        p   += n;
        if (ff)
            *dst++ = 0x00;
    }
    *dst++ = 0xFF;
    *dst++ = C63_EOI;

    if (f->keyframe)
        pkt->flags |= AV_PKT_FLAG_KEY;
    return 0;
}

void ff_c63_writer_free(C63Writer *w)
{
    av_freep(&w->bits);
    w->bits_size = 0;
}
