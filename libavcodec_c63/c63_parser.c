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
 * Codec63 parser: splits a raw c63 stream into frames (SOI .. EOI).
 * Header segments are skipped by their lengths (DQT by its fixed size,
 * quirk Q1), so marker bytes inside them are never taken for EOI.
 */

#include "libavutil/intreadwrite.h"
#include "libavcodec/parser.h"
#include "libavcodec/parser_internal.h"

#include "c63.h"

enum Phase { P_FF, P_MARKER, P_LEN_HI, P_LEN_LO, P_SKIP, P_DATA, P_DATA_FF };

typedef struct C63ParseContext {
    ParseContext pc;
    enum Phase phase;
    int marker;
    int len;
    int skip;
} C63ParseContext;

static int find_frame_end(C63ParseContext *c, const uint8_t *buf, int size)
{
    for (int i = 0; i < size; i++) {
        const uint8_t b = buf[i];

        switch (c->phase) {
        case P_FF:
            if (b == 0xFF)
                c->phase = P_MARKER;
            break;
        case P_MARKER:
            if (b == 0xFF)
                break;
            c->marker = b;
            if (b == C63_EOI) {
                c->phase = P_FF;
                return i + 1;
            }
            c->phase = b == C63_SOI ? P_FF : P_LEN_HI;
            break;
        case P_LEN_HI:
            c->len   = b << 8;
            c->phase = P_LEN_LO;
            break;
        case P_LEN_LO:
            c->len |= b;
            /* 195 bytes follow the DQT length field, whatever it says. */
            c->skip  = c->marker == C63_DQT ? 195 : FFMAX(c->len - 2, 0);
            c->phase = c->skip ? P_SKIP : c->marker == C63_SOS ? P_DATA : P_FF;
            break;
        case P_SKIP: {
            int n = FFMIN(c->skip, size - i);
            c->skip -= n;
            i += n - 1;
            if (!c->skip)
                c->phase = c->marker == C63_SOS ? P_DATA : P_FF;
            break;
        }
        case P_DATA: {
            const uint8_t *ff = memchr(buf + i, 0xFF, size - i);
            if (!ff)
                return END_NOT_FOUND;
            i = ff - buf;
            c->phase = P_DATA_FF;
            break;
        }
        case P_DATA_FF:
            if (b == 0x00) {
                c->phase = P_DATA;
            } else if (b == C63_EOI) {
                c->phase = P_FF;
                return i + 1;
            } else if (b != 0xFF) {
                /* A marker without EOI before it: the frame ends here and
                 * the marker is scanned again as the start of the next. */
                c->phase = P_FF;
                return i - 1;
            }
            break;
        }
    }
    return END_NOT_FOUND;
}

static int c63_parse(AVCodecParserContext *s, AVCodecContext *avctx,
                     const uint8_t **poutbuf, int *poutbuf_size,
                     const uint8_t *buf, int buf_size)
{
    C63ParseContext *c = s->priv_data;
    int next;

    if (s->flags & PARSER_FLAG_COMPLETE_FRAMES) {
        next = buf_size;
    } else {
        next = find_frame_end(c, buf, buf_size);
        if (ff_combine_frame(&c->pc, next, &buf, &buf_size) < 0) {
            *poutbuf      = NULL;
            *poutbuf_size = 0;
            return buf_size;
        }
    }

    if (buf_size > C63_SOF_OFFSET + 20 &&
        AV_RB16(buf + C63_SOF_OFFSET) == (0xFF00 | C63_SOF0)) {
        const uint8_t *sof = buf + C63_SOF_OFFSET;
        s->key_frame    = sof[19] == 1;
        s->pict_type    = s->key_frame ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_P;
        s->height       = s->coded_height = AV_RB16(sof + 5);
        s->width        = s->coded_width  = AV_RB16(sof + 7);
        s->format       = AV_PIX_FMT_YUV420P;
    }

    *poutbuf      = buf;
    *poutbuf_size = buf_size;
    return next;
}

const FFCodecParser ff_c63_parser = {
    PARSER_CODEC_LIST(AV_CODEC_ID_C63),
    .priv_data_size = sizeof(C63ParseContext),
    .parse          = c63_parse,
    .close          = ff_parse_close,
};
