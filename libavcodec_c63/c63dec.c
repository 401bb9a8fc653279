/*
 * Codec63 decoder
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

#include <stdarg.h>
#include <stdatomic.h>
#include <string.h>

#include "config_components.h"

#include "libavutil/avassert.h"
#include "libavutil/imgutils.h"
#include "libavutil/intreadwrite.h"
#include "libavutil/mem.h"
#include "libavutil/mem_internal.h"
#include "libavutil/thread.h"
#include "libavcodec/avcodec.h"
#include "libavcodec/codec_internal.h"
#include "libavcodec/decode.h"
#include "libavcodec/get_bits.h"
#include "libavcodec/jpegtables.h"
#include "libavcodec/mathops.h"
#include "libavcodec/threadprogress.h"
#include "libavcodec/videodsp.h"
#include "libavcodec/vlc.h"

#include "libavcodec/hwaccel_internal.h"
#include "libavcodec/hwconfig.h"

#include "c63.h"
#include "c63dec.h"
#include "c63dsp.h"

#define VLC_BITS 9

/* Zero bytes after the unstuffed data, past the padding the bit reader
 * needs: a block is read ahead of its position without checking (see
 * BitCache), by at most 1694 bits and an 8-byte load. */
#define C63_DATA_PADDING 256

/* [0]: luminance, [1]: chrominance. Vectors use the luminance DC table. */
static const VLCElem *dc_vlc[2], *ac_vlc[2];

static av_cold const VLCElem *build_vlc(VLCInitState *state, const uint8_t *bits,
                                        const uint8_t *val, int nb)
{
    int8_t lens[256];
    int k = 0;

    for (int l = 1; l <= 16; l++)
        for (int n = 0; n < bits[l]; n++)
            lens[k++] = l;
    av_assert0(k == nb);
    /* JPEG codes are canonical in the order of the val table. */
    return ff_vlc_init_tables_from_lengths(state, VLC_BITS, nb, lens, 1, val, 1, 1, 0, 0);
}

/* Codes read together with the magnitude bits that follow: an entry of
 * ac_fast or dc_fast, indexed by the next FAST_BITS bits, is
 * FAST_VALUE | run << 8 | len | value << 16 for a code whose len bits,
 * magnitude included, fit there (a DC difference or vector component, run
 * 0; an AC coefficient), FAST_EOB | len for end-of-block, 0 for anything
 * else (ZRL, longer codes), which goes through dc_vlc or ac_vlc. */
#define FAST_BITS  11
#define FAST_VALUE (1 << 5)
#define FAST_EOB   (1 << 6)
static uint32_t ac_fast[2][1 << FAST_BITS], dc_fast[2][1 << FAST_BITS];

/* 1 << the larger of the frequency row and column of zigzag position k */
static uint8_t ring_bit[64];

static av_cold void build_fast(uint32_t *fast, const uint16_t *code, const uint8_t *len,
                               int nb_sym, int ac)
{
    for (int sym = 0; sym < nb_sym; sym++) {
        const int run = sym >> 4, size = sym & 15, l = len[sym];
        const int free = FAST_BITS - l - size;
        uint32_t *e;

        if (!l || free < 0 || (ac && !size && run))   /* unused, too long, ZRL */
            continue;
        e = fast + (code[sym] << (FAST_BITS - l));
        if (!size) {
            for (int n = 0; n < 1 << free; n++)
                e[n] = (ac ? FAST_EOB : FAST_VALUE) | l;
            continue;
        }
        for (int mag = 0; mag < 1 << size; mag++) {
            /* the JPEG magnitude: a leading 0 bit means negative */
            const int v = mag >> (size - 1) ? mag : mag - (1 << size) + 1;
            for (int n = 0; n < 1 << free; n++)
                e[mag << free | n] = FAST_VALUE | run << 8 | (l + size) | (uint32_t)v << 16;
        }
    }
}

static av_cold void init_static(void)
{
    static VLCElem tables[2 * 640 + 2 * 1400];
    VLCInitState state = VLC_INIT_STATE(tables);

    dc_vlc[0] = build_vlc(&state, ff_mjpeg_bits_dc_luminance,   ff_mjpeg_val_dc,  12);
    dc_vlc[1] = build_vlc(&state, ff_mjpeg_bits_dc_chrominance, ff_mjpeg_val_dc,  12);
    ac_vlc[0] = build_vlc(&state, ff_mjpeg_bits_ac_luminance,   ff_mjpeg_val_ac_luminance,   162);
    ac_vlc[1] = build_vlc(&state, ff_mjpeg_bits_ac_chrominance, ff_mjpeg_val_ac_chrominance, 162);

    for (int k = 0; k < 64; k++)
        ring_bit[k] = 1 << FFMAX(ff_zigzag_direct[k] >> 3, ff_zigzag_direct[k] & 7);

    ff_c63_init_huff_codes();
    for (int c = 0; c < 2; c++) {
        build_fast(ac_fast[c], ff_c63_huff.ac_code[c], ff_c63_huff.ac_len[c], 256, 1);
        build_fast(dc_fast[c], ff_c63_huff.dc_code[c], ff_c63_huff.dc_len[c], 12, 0);
    }
}

static av_cold int c63_decode_init(AVCodecContext *avctx)
{
    static AVOnce once = AV_ONCE_INIT;
    C63DecContext *s = avctx->priv_data;

    avctx->pix_fmt = AV_PIX_FMT_YUV420P;
    ff_c63dsp_init(&s->dsp);
    ff_videodsp_init(&s->vdsp, 8);
    ff_thread_once(&once, init_static);
    s->ref       = av_frame_alloc();
    s->pend      = av_frame_alloc();
    s->pend2     = av_frame_alloc();
    s->in        = av_packet_alloc();
    s->pend_pkt  = av_packet_alloc();
    s->pend2_pkt = av_packet_alloc();
    if (!s->ref || !s->pend || !s->pend2 || !s->in || !s->pend_pkt || !s->pend2_pkt)
        return AVERROR(ENOMEM);
    return ff_thread_progress_init(&s->progress, 1);
}

/* Entropy decoding and reconstruction at once, on two slice threads. */
static int use_pipeline(const AVCodecContext *avctx)
{
    return (avctx->active_thread_type & FF_THREAD_SLICE) && avctx->thread_count > 1;
}

static int setup_geometry(AVCodecContext *avctx, C63DecContext *s, int width, int height)
{
    int ret;

    if (s->have_geo) {
        if (width == s->geo.width && height == s->geo.height)
            return 0;
        av_log(avctx, AV_LOG_ERROR,
               "Frame size changed mid-stream from %dx%d to %dx%d; not supported\n",
               s->geo.width, s->geo.height, width, height);
        return AVERROR_INVALIDDATA;
    }
    if (!width || !height) {
        av_log(avctx, AV_LOG_ERROR, "Invalid frame size %dx%d\n", width, height);
        return AVERROR_INVALIDDATA;
    }
    if ((ret = ff_set_dimensions(avctx, width, height)) < 0)
        return ret;

    /* Blocks are decoded straight into the output frames, which hold the
     * whole padded picture: the coded size. */
    ff_c63_geometry(&s->geo, width, height);
    avctx->coded_width  = s->geo.w[0];
    avctx->coded_height = s->geo.h[0];

    {
        static const enum AVPixelFormat pix_fmts[] = {
#if CONFIG_C63_CUDA_HWACCEL
            AV_PIX_FMT_CUDA,
#endif
            AV_PIX_FMT_YUV420P,
            AV_PIX_FMT_NONE,
        };
        if ((ret = ff_get_format(avctx, pix_fmts)) < 0)
            return ret;
        avctx->pix_fmt = ret;
    }

    if (!avctx->hwaccel) {      /* (with one, the blocks are the device's) */
        s->nb_slots = use_pipeline(avctx) ? s->geo.mb_h : 1;
        av_freep(&s->blocks);
        av_freep(&s->coef);
        s->blocks = av_malloc_array((size_t)s->nb_slots * s->geo.mb_w, 6 * sizeof(*s->blocks));
        s->coef   = av_malloc_array((size_t)s->nb_slots * s->geo.mb_w, 6 * sizeof(*s->coef));
        if (!s->blocks || !s->coef)
            return AVERROR(ENOMEM);
    }
    s->have_geo = 1;
    return 0;
}

static void av_printf_format(2, 3) header_error(void *logctx, const char *fmt, ...)
{
    va_list vl;

    if (!logctx)
        return;
    va_start(vl, fmt);
    av_vlog(logctx, AV_LOG_ERROR, fmt, vl);
    va_end(vl);
}

/* The frame header; its errors are logged to logctx (NULL: not logged). */
static int parse_header(void *logctx, const uint8_t *buf, int size, C63FrameHeader *h)
{
    static const uint8_t sof_tail[9] = { 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 2 };
    static const uint8_t sos[10]     = { 0x00, 0x0C, 3, 1, 0x00, 2, 0x11, 3, 0x11, 0x00 };
    const uint8_t *p = buf, *end = buf + size;
    int seen_dqt = 0, seen_sof = 0, seen_dht = 0;

    if (size < 2 || p[0] != 0xFF || p[1] != C63_SOI) {
        header_error(logctx, "Missing SOI marker\n");
        return AVERROR_INVALIDDATA;
    }
    p += 2;

    for (;;) {
        int marker, len;

        if (end - p < 4 || p[0] != 0xFF) {
            header_error(logctx, "Truncated or garbled frame header\n");
            return AVERROR_INVALIDDATA;
        }
        marker = p[1];
        len    = AV_RB16(p + 2);
        p     += 2;

        switch (marker) {
        case C63_DQT:
            /* The length field is 2 short (quirk Q1): always 3 tables. */
            if (seen_dqt++) {
                header_error(logctx, "Repeated DQT segment\n");
                return AVERROR_INVALIDDATA;
            }
            if (end - p < 2 + 3 * 65) {
                header_error(logctx, "Truncated DQT segment\n");
                return AVERROR_INVALIDDATA;
            }
            p += 2;
            for (int c = 0; c < 3; c++, p += 65) {
                if (p[0] != c) {
                    header_error(logctx, "Bad quantisation table index %d\n", p[0]);
                    return AVERROR_INVALIDDATA;
                }
                memcpy(h->q[c], p + 1, 64);
            }
            break;
        case C63_SOF0:
            if (seen_sof++) {
                header_error(logctx, "Repeated SOF0 segment\n");
                return AVERROR_INVALIDDATA;
            }
            if (len != 18 || end - p < 18 || p[2] != 8 || p[7] != 3 ||
                memcmp(p + 8, sof_tail, sizeof(sof_tail)) || p[17] > 1) {
                header_error(logctx, "Invalid SOF0 segment\n");
                return AVERROR_INVALIDDATA;
            }
            h->height   = AV_RB16(p + 3);
            h->width    = AV_RB16(p + 5);
            h->keyframe = p[17];
            p += 18;
            break;
        case C63_DHT: {
            uint8_t std[416];
            if (seen_dht++) {
                header_error(logctx, "Repeated DHT segment\n");
                return AVERROR_INVALIDDATA;
            }
            /* c63 always uses the JPEG example tables. */
            if (len != 2 + ff_c63_dht_payload(std) || end - p < len ||
                memcmp(p + 2, std, sizeof(std))) {
                header_error(logctx, "DHT segment is not the standard tables; not supported\n");
                return AVERROR_INVALIDDATA;
            }
            p += len;
            break;
        }
        case C63_SOS:
            if (!seen_dqt || !seen_sof) {
                header_error(logctx, "SOS before %s\n", seen_dqt ? "SOF0" : "DQT");
                return AVERROR_INVALIDDATA;
            }
            if (end - p < 12 || memcmp(p, sos, sizeof(sos)) ||
                p[10] != 0x3F || p[11] != 0x00) {
                header_error(logctx, "Invalid SOS segment\n");
                return AVERROR_INVALIDDATA;
            }
            h->data = p + 12;
            return 0;
        default:
            header_error(logctx, "Unexpected marker 0x%02X in frame header\n", marker);
            return AVERROR_INVALIDDATA;
        }
    }
}

/* Copy the entropy-coded data without its 0xFF 0x00 stuffing, up to the
 * EOI marker. */
static int unstuff(AVCodecContext *avctx, C63DecContext *s,
                   const uint8_t *src, const uint8_t *end)
{
    uint8_t *dst;

    av_fast_padded_malloc(&s->data, &s->data_size, end - src + C63_DATA_PADDING);
    if (!s->data)
        return AVERROR(ENOMEM);
    dst = s->data;

    while (src < end) {
        const uint8_t *ff = memchr(src, 0xFF, end - src);
        size_t n = (ff ? ff : end) - src;
        memcpy(dst, src, n);
        dst += n;
        src += n;
        if (!ff)
            break;
        if (end - src < 2)
            break;
        if (src[1] == 0x00) {
            *dst++ = 0xFF;
            src   += 2;
            continue;
        }
        if (src[1] == C63_EOI) {
            memset(dst, 0, C63_DATA_PADDING + AV_INPUT_BUFFER_PADDING_SIZE);
            return dst - s->data;
        }
        av_log(avctx, AV_LOG_ERROR, "Unexpected marker 0x%02X in entropy-coded data\n", src[1]);
        return AVERROR_INVALIDDATA;
    }
    av_log(avctx, AV_LOG_ERROR, "Truncated frame: no EOI marker\n");
    return AVERROR_INVALIDDATA;
}

/* What a block needs of its left neighbour (same plane, same block row). */
typedef struct BlockState {
    int left_mv;        ///< the left neighbour used a vector
    C63MV left;         ///< and that vector
} BlockState;

/*
 * A block is read from a 64-bit cache of the bitstream, loaded again only
 * when fewer bits are left in it than the next read needs: a code is then
 * found with a shift and a table load, not a load of the data first. pos
 * is the bit position of the cache's top bit. The reads stay within
 * C63_DATA_PADDING past the end (see unstuff()): a block is at most 2 + 2 *
 * 16 + 22 + 63 * 26 = 1694 bits, and the position is clamped between blocks as the
 * checked bit reader clamps it. Codes that dc_fast and ac_fast do not give
 * go through get_vlc2() and get_xbits() at the same position.
 */
typedef struct BitCache {
    const uint8_t *buf;
    uint64_t cache;
    unsigned pos;
    int left;           ///< bits of cache that are the data's
} BitCache;

static av_always_inline void bc_load(BitCache *b)
{
    b->cache = AV_RB64(b->buf + (b->pos >> 3)) << (b->pos & 7);
    b->left  = 64 - (b->pos & 7);
}

static av_always_inline void bc_need(BitCache *b, int n)
{
    if (b->left < n)
        bc_load(b);
}

static av_always_inline void bc_skip(BitCache *b, int n)
{
    b->cache <<= n;
    b->left   -= n;
    b->pos    += n;
}

/* The entry of table fast for the next FAST_BITS bits. */
static av_always_inline uint32_t bc_fast(BitCache *b, const uint32_t *fast)
{
    bc_need(b, FAST_BITS);
    return fast[b->cache >> (64 - FAST_BITS)];
}

/* A DC difference or vector component (a DC-table size of at most max_size
 * and its magnitude) into *v; < 0 on an invalid code. */
static av_always_inline int bc_value(BitCache *b, GetBitContext *gb, int chroma,
                                     int max_size, int *v)
{
    const uint32_t e = bc_fast(b, dc_fast[chroma]);
    int size;

    if (e) {
        *v = (int32_t)e >> 16;
        bc_skip(b, e & 31);
        return 0;
    }
    gb->index = b->pos;
    size = get_vlc2(gb, dc_vlc[chroma], VLC_BITS, 2);
    if (size < 0 || size > max_size)
        return AVERROR_INVALIDDATA;
    *v = size ? get_xbits(gb, size) : 0;
    b->pos = gb->index;
    bc_load(b);
    return 0;
}

/* Entropy-decode one block into *blk and coef (zeroed first). */
static int decode_block(AVCodecContext *avctx, C63DecContext *s, GetBitContext *gb,
                        int plane, int bx, int by, int keyframe,
                        BlockState *st, int *dc, C63Block *blk, int16_t coef[64])
{
    const C63Geometry *g = &s->geo;
    const int chroma = plane > 0;
    const uint32_t *fast = ac_fast[chroma];
    BitCache b = { .buf = gb->buffer, .pos = gb->index };
    int use_mv, diff, rings = 0;

    for (int i = 0; i < 64; i += 8)
        AV_ZERO128(coef + i);

    bc_load(&b);
    use_mv = b.cache >> 63;
    bc_skip(&b, 1);
    if (use_mv) {
        C63MV mv;
        int x, y;

        if (keyframe) {
            av_log(avctx, AV_LOG_ERROR, "Motion vector in a keyframe\n");
            return AVERROR_INVALIDDATA;
        }
        if (b.cache >> 63) {
            bc_skip(&b, 1);
            if (!bx || !st->left_mv) {
                av_log(avctx, AV_LOG_ERROR, "Vector reuse without a left neighbour vector\n");
                return AVERROR_INVALIDDATA;
            }
            mv = st->left;
        } else {
            int v[2];
            bc_skip(&b, 1);
            for (int i = 0; i < 2; i++)
                if (bc_value(&b, gb, 0, 7, &v[i]) < 0) {
                    av_log(avctx, AV_LOG_ERROR, "Invalid motion vector code\n");
                    return AVERROR_INVALIDDATA;
                }
            mv.x = v[0];    /* |v| < 128: sizes are at most 7 */
            mv.y = v[1];
        }
        x = 8 * bx + mv.x;
        y = 8 * by + mv.y;
        if (x < 0 || y < 0 || x > g->w[plane] - 8 || y > g->h[plane] - 8) {
            av_log(avctx, AV_LOG_ERROR,
                   "Motion vector (%d,%d) of block (%d,%d) in plane %d points outside the plane\n",
                   mv.x, mv.y, bx, by, plane);
            return AVERROR_INVALIDDATA;
        }
        blk->mvx = mv.x;
        blk->mvy = mv.y;
        st->left = mv;
    }
    st->left_mv = use_mv;
    blk->use_mv = use_mv;

    if (bc_value(&b, gb, chroma, 11, &diff) < 0) {
        av_log(avctx, AV_LOG_ERROR, "Invalid DC code in block (%d,%d) of plane %d\n",
               bx, by, plane);
        return AVERROR_INVALIDDATA;
    }
    *dc += diff;
    if (*dc < INT16_MIN || *dc > INT16_MAX) {
        av_log(avctx, AV_LOG_ERROR, "DC coefficient out of range\n");
        return AVERROR_INVALIDDATA;
    }
    coef[0] = *dc;

    for (int k = 1; k < 64;) {
        int code, run, size;
        const uint32_t e = bc_fast(&b, fast);

        if (e & FAST_VALUE) {
            k += (e >> 8) & 15;
            if (k > 63)
                goto bad_run;
            rings    |= ring_bit[k];
            coef[k++] = (int32_t)e >> 16;
            bc_skip(&b, e & 31);
            continue;
        }
        if (e & FAST_EOB) {
            b.pos += e & 31;
            break;
        }
        gb->index = b.pos;
        code = get_vlc2(gb, ac_vlc[chroma], VLC_BITS, 2);
        if (code < 0) {
            av_log(avctx, AV_LOG_ERROR, "Invalid AC code in block (%d,%d) of plane %d\n",
                   bx, by, plane);
            return AVERROR_INVALIDDATA;
        }
        run  = code >> 4;
        size = code & 15;
        if (!size) {
            if (!run) {
                b.pos = gb->index;
                break;                  /* EOB */
            }
            run = 16;                   /* ZRL */
            if (k + run > 63)
                goto bad_run;
        } else {
            k += run;
            if (k > 63) {
bad_run:
                av_log(avctx, AV_LOG_ERROR, "AC run past the end of block (%d,%d) of plane %d\n",
                       bx, by, plane);
                return AVERROR_INVALIDDATA;
            }
            coef[k] = get_xbits(gb, size);
            rings |= ring_bit[k];
            run    = 1;
        }
        k    += run;
        b.pos = gb->index;
        bc_load(&b);
    }
    gb->index = FFMIN(b.pos, (unsigned)gb->size_in_bits_plus8);

    blk->rings = rings;
    return 0;
}

/* Entropy-decode macroblock row v into row slot of blocks and coef. */
static int decode_row(AVCodecContext *avctx, C63DecContext *s, GetBitContext *gb,
                      int v, int keyframe, BlockState st[3][2], int dc[3], int slot)
{
    const C63Geometry *g = &s->geo;
    C63Block *blk    = s->blocks + (size_t)slot * g->mb_w * 6;
    int16_t (*coef)[64] = s->coef + (size_t)slot * g->mb_w * 6;
    int ret;

    for (int u = 0; u < g->mb_w; u++) {
        for (int i = 0; i < 6; i++, blk++, coef++) {
            int p  = i < 4 ? 0 : i - 3;
            int bx = p ? u : 2 * u + (i & 1);
            int by = p ? v : 2 * v + (i >> 1);
            ret = decode_block(avctx, s, gb, p, bx, by, keyframe,
                               &st[p][p ? 0 : i >> 1], &dc[p], blk, *coef);
            if (ret < 0)
                return ret;
        }
    }
    /* Decoders may read at most 7 zero bits past the data (quirk Q2). */
    if (get_bits_left(gb) < -7) {
        av_log(avctx, AV_LOG_ERROR, "Entropy-coded data ends too early (MCU row %d)\n", v);
        return AVERROR_INVALIDDATA;
    }
    return 0;
}

/* Prefetch the lines of the planes in [p0, p1) of macroblock row v from
 * macroblock u on, in cur and (inter frames) ref: one cache line, four
 * macroblocks of luma or eight of chroma. */
static av_always_inline void prefetch_mbs(C63DecContext *s, const AVFrame *cur, const AVFrame *ref,
                                          int keyframe, int p0, int p1, int u, int v)
{
    for (int n = 0; n < 2 - keyframe; n++) {
        const AVFrame *f = n ? ref : cur;
        for (int p = p0; p < p1; p++) {
            const int m = p ? 8 : 16;
            s->vdsp.prefetch(f->data[p] + m * (v * f->linesize[p] + u), f->linesize[p], m);
        }
    }
}

/* Reconstruct macroblock row v of cur from row slot of blocks and coef. */
static void reconstruct_row(C63DecContext *s, AVFrame *cur, int v, int keyframe,
                            const uint8_t q[3][64], int slot)
{
    const C63Geometry *g = &s->geo;
    const AVFrame *ref   = s->ref;
    const C63Block *blk  = s->blocks + (size_t)slot * g->mb_w * 6;
    const int16_t (*coef)[64] = (const int16_t (*)[64])s->coef + (size_t)slot * g->mb_w * 6;

    for (int u = 0; u < g->mb_w; u++) {
        /* Blocks are written into cur, and predicted from where the
         * vectors point in the reference, near the block: ask for the
         * lines of both one cache line ahead. */
        if (!(u & 3) && u + 4 < g->mb_w)
            prefetch_mbs(s, cur, ref, keyframe, 0, 1, u + 4, v);
        if (!(u & 7) && u + 8 < g->mb_w)
            prefetch_mbs(s, cur, ref, keyframe, 1, 3, u + 8, v);
        for (int i = 0; i < 6; i++, blk++, coef++) {
            const int p  = i < 4 ? 0 : i - 3;
            const int bx = p ? u : 2 * u + (i & 1);
            const int by = p ? v : 2 * v + (i >> 1);
            const ptrdiff_t stride = cur->linesize[p], ref_stride = ref->linesize[p];
            const uint8_t *pred = blk->use_mv ?
                ref->data[p] + (8 * by + blk->mvy) * ref_stride + 8 * bx + blk->mvx : NULL;

            /* no AC coefficient: bound 1, the DC alone (no transform) */
            s->dsp.dequant_idct_add(cur->data[p] + 8 * by * stride + 8 * bx, stride,
                                    pred, ref_stride, *coef, q[p],
                                    blk->rings ? av_log2(blk->rings) + 1 : 1);
        }
    }
}

typedef struct DecodeJob {
    GetBitContext *gb;
    AVFrame       *cur;
    int            keyframe;
    const uint8_t (*q)[64];
    int            ret;         ///< the entropy decoder's result
    atomic_int     failed;      ///< the entropy decoder stopped on an error
} DecodeJob;

/* Slice-thread job 0 entropy-decodes the frame row by row, reporting each
 * row done; job 1 reconstructs each row once it is reported, and stops
 * when job 0 failed. Each row has its own slot, so that job 0 never waits;
 * run one after the other, they still give the frame. */
static int decode_job(AVCodecContext *avctx, void *arg, int job, int thread)
{
    C63DecContext *s = avctx->priv_data;
    DecodeJob *j = arg;
    const C63Geometry *g = &s->geo;

    if (job == 0) {
        BlockState st[3][2] = { { { 0 } } };
        int dc[3] = { 0 };

        for (int v = 0; v < g->mb_h; v++) {
            j->ret = decode_row(avctx, s, j->gb, v, j->keyframe, st, dc, v);
            if (j->ret < 0) {
                atomic_store(&j->failed, 1);
                ff_thread_progress_report(&s->progress, INT_MAX);
                return 0;
            }
            ff_thread_progress_report(&s->progress, v + 1);
        }
    } else {
        for (int v = 0; v < g->mb_h; v++) {
            ff_thread_progress_await(&s->progress, v + 1);
            if (atomic_load(&j->failed))
                break;
            reconstruct_row(s, j->cur, v, j->keyframe, j->q, v);
        }
    }
    return 0;
}

static int decode_blocks(AVCodecContext *avctx, C63DecContext *s, GetBitContext *gb,
                         AVFrame *cur, int keyframe, const uint8_t q[3][64])
{
    const C63Geometry *g = &s->geo;
    BlockState st[3][2] = { { { 0 } } };   /* per plane, per block row of the MCU */
    int dc[3] = { 0 };                      /* DC predictors, per plane */
    int ret;

    if (s->nb_slots > 1) {
        DecodeJob j = { .gb = gb, .cur = cur, .keyframe = keyframe, .q = q };
        atomic_init(&j.failed, 0);
        ff_thread_progress_reset(&s->progress);
        avctx->execute2(avctx, decode_job, &j, NULL, 2);
        return j.ret;
    }
    for (int v = 0; v < g->mb_h; v++) {
        if ((ret = decode_row(avctx, s, gb, v, keyframe, st, dc, 0)) < 0)
            return ret;
        reconstruct_row(s, cur, v, keyframe, q, 0);
    }
    return 0;
}

/* The header of the frame in avpkt and the check of its size; errors are
 * logged to logctx (NULL: not logged). */
static int check_header(void *logctx, const AVPacket *avpkt, C63FrameHeader *h)
{
    int ret = parse_header(logctx, avpkt->data, avpkt->size, h);
    if (ret < 0)
        return ret;
    /* Every block takes at least 5 bits (use_mv, a DC code of 2 or more,
     * then EOB or an AC code of 2 or more); Q2 may leave up to 7 trailing
     * zero bits unwritten. So a packet too short for its picture size is
     * refused before anything of that size is allocated. */
    {
        const int64_t blocks = 6 * (int64_t)((h->width + 15) >> 4) * ((h->height + 15) >> 4);
        const int64_t bits   = 8 * (int64_t)(avpkt->data + avpkt->size - h->data) + 32;
        if (bits < 5 * blocks) {
            header_error(logctx, "Frame of %dx%d (%"PRId64" blocks) cannot be coded "
                         "in %d bytes of data\n", h->width, h->height, blocks,
                         (int)(avpkt->data + avpkt->size - h->data));
            return AVERROR_INVALIDDATA;
        }
    }
    return 0;
}

/* One packet: decoded into frame on the CPU, or started on the device into
 * s->pend (s->pending is set), or into s->pend2 while s->pend is on the
 * device (s->pending2 is set; the caller checked that its start does not
 * depend on how s->pend ends: start_early()); frame is then not used. */
static int decode_packet(AVCodecContext *avctx, AVFrame *frame, const AVPacket *avpkt)
{
    C63DecContext *s = avctx->priv_data;
    C63FrameHeader h;
    GetBitContext gb;
    int ret, size;

    if ((ret = check_header(avctx, avpkt, &h)) < 0)
        return ret;
    if ((ret = setup_geometry(avctx, s, h.width, h.height)) < 0)
        return ret;
    /* (a frame queued behind one on the device has that one as its
     * reference; it is started again if that one fails) */
    if (!h.keyframe && !s->ref->buf[0] && !s->pending) {
        av_log(avctx, AV_LOG_ERROR, "Inter frame without a reference frame\n");
        return AVERROR_INVALIDDATA;
    }

    if (avctx->hwaccel) {
        /* The hwaccel unstuffs and decodes the data itself, and reports the
         * errors of both as the code below does (finish_pending()). */
        const int second = s->pending;
        AVFrame *f = second ? s->pend2 : s->pend;
        s->hdr      = h;
        s->cur      = f;
        s->keep_ref = 1;
        if ((ret = ff_get_buffer(avctx, f, AV_GET_BUFFER_FLAG_REF)) < 0 ||
            (ret = FF_HW_CALL(avctx, start_frame, NULL, avpkt->data, avpkt->size)) < 0 ||
            (ret = FF_HW_CALL(avctx, decode_slice, h.data, avpkt->data + avpkt->size - h.data)) < 0 ||
            (ret = FF_HW_SIMPLE_CALL(avctx, end_frame)) < 0) {
            av_frame_unref(f);
            if (!s->keep_ref && !second)
                av_frame_unref(s->ref);
            return ret;
        }
        if (h.keyframe)
            f->flags |= AV_FRAME_FLAG_KEY;
        f->pict_type = h.keyframe ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_P;
        f->pkt_dts   = avpkt->dts;
        if (second)
            s->pending2 = 1;
        else
            s->pending = 1;
        return 0;
    }

    size = unstuff(avctx, s, h.data, avpkt->data + avpkt->size);
    if (size < 0)
        return size;
    if ((ret = init_get_bits8(&gb, s->data, size)) < 0)
        return ret;

    if ((ret = ff_get_buffer(avctx, frame, AV_GET_BUFFER_FLAG_REF)) < 0)
        return ret;
    ret = decode_blocks(avctx, s, &gb, frame, h.keyframe, h.q);
    av_frame_unref(s->ref);
    if (ret < 0) {
        /* The reconstruction is damaged; wait for the next keyframe. */
        return ret;
    }
    if ((ret = av_frame_ref(s->ref, frame)) < 0)
        return ret;

    if (h.keyframe)
        frame->flags |= AV_FRAME_FLAG_KEY;
    frame->pict_type = h.keyframe ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_P;
    frame->pkt_dts   = avpkt->dts;
    return 0;
}

/* Decode s->in: keep it with the frame if that is started on the device. */
static int decode_in(AVCodecContext *avctx, AVFrame *frame)
{
    C63DecContext *s = avctx->priv_data;
    const int second = s->pending;
    const int ret = decode_packet(avctx, frame, s->in);

    if (ret < 0 && frame)
        av_frame_unref(frame);
    if (second && s->pending2)
        av_packet_move_ref(s->pend2_pkt, s->in);
    else if (!second && s->pending)
        av_packet_move_ref(s->pend_pkt, s->in);
    else
        av_packet_unref(s->in);
    return ret;
}

/* Whether s->in can start on the device before the frame there is
 * finished: its header is good and of the same size, so that its start
 * logs nothing before that frame's errors; it takes that frame as its
 * reference, and is started again if that frame fails. */
static int start_early(AVCodecContext *avctx)
{
    C63DecContext *s = avctx->priv_data;
    C63FrameHeader h;

    return s->in->data && check_header(NULL, s->in, &h) >= 0 && s->have_geo &&
           h.width == s->geo.width && h.height == s->geo.height;
}

/* Drop the frames on the device, once the device is done with them. */
static void drop_pending(AVCodecContext *avctx)
{
    C63DecContext *s = avctx->priv_data;

    if ((s->pending || s->pending2) && FF_HW_HAS_CB(avctx, flush))
        FF_HW_SIMPLE_CALL(avctx, flush);
    s->pending = s->pending2 = 0;
    av_frame_unref(s->pend);
    av_frame_unref(s->pend2);
    av_packet_unref(s->pend_pkt);
    av_packet_unref(s->pend2_pkt);
}

/* The first frame on the device, into frame once it is good; the second,
 * if any, becomes the first, or, if the first fails, is dropped, its
 * packet to be started again. */
static int finish_pending(AVCodecContext *avctx, AVFrame *frame)
{
    C63DecContext *s = avctx->priv_data;
    int ret;

    s->pending = 0;
#if CONFIG_C63_CUDA_HWACCEL
    ret = ff_c63_cuda_finish(avctx);
#else
    ret = AVERROR_BUG;
#endif
    av_packet_unref(s->pend_pkt);
    if (ret < 0) {
        av_frame_unref(s->pend);
        if (!s->keep_ref)
            av_frame_unref(s->ref);
        if (s->pending2) {
            /* It was started on this frame's picture: start it again. */
            av_packet_unref(s->in);
            av_packet_move_ref(s->in, s->pend2_pkt);
            drop_pending(avctx);
        }
        return ret;
    }
    av_frame_unref(s->ref);
    ret = av_frame_ref(s->ref, s->pend);
    if (ret >= 0)
        av_frame_move_ref(frame, s->pend);
    av_frame_unref(s->pend);
    if (s->pending2) {
        av_frame_move_ref(s->pend, s->pend2);
        av_packet_move_ref(s->pend_pkt, s->pend2_pkt);
        s->pending  = 1;
        s->pending2 = 0;
    }
    return ret;
}

static int c63_receive_frame(AVCodecContext *avctx, AVFrame *frame)
{
    C63DecContext *s = avctx->priv_data;
    int ret;

    if (s->deferred < 0) {
        ret = s->deferred;
        s->deferred = 0;
        return ret;
    }
    for (;;) {
        if (!s->in->data) {
            ret = ff_decode_get_packet(avctx, s->in);
            /* (no packet yet: the device goes on with the frame it has) */
            if (ret < 0 && !(ret == AVERROR_EOF && s->pending))
                return ret;
        }
        if (s->pending) {
            /* The next frame is queued beside this one where it can be,
             * else started once this one is finished, before it is passed
             * on; an error of that start is returned next time, in its
             * order. */
            const int early = start_early(avctx);
            int next = 0;
            if (early)
                next = decode_in(avctx, NULL);
            ret = finish_pending(avctx, frame);
            if (!early && ret >= 0 && s->in->data)
                next = decode_in(avctx, NULL);
            s->deferred = FFMIN(next, 0);
            return ret;
        }
        ret = decode_in(avctx, frame);
        if (!s->pending)
            return ret;
    }
}

static void c63_decode_flush(AVCodecContext *avctx)
{
    C63DecContext *s = avctx->priv_data;
    drop_pending(avctx);
    av_packet_unref(s->in);
    s->deferred = 0;
    av_frame_unref(s->ref);
}

static av_cold int c63_decode_close(AVCodecContext *avctx)
{
    C63DecContext *s = avctx->priv_data;
    if (s->pending || s->pending2)   /* (never after a failed init) */
        drop_pending(avctx);
    av_frame_free(&s->pend);
    av_frame_free(&s->pend2);
    av_packet_free(&s->pend_pkt);
    av_packet_free(&s->pend2_pkt);
    av_packet_free(&s->in);
    av_frame_free(&s->ref);
    av_freep(&s->blocks);
    av_freep(&s->coef);
    ff_thread_progress_destroy(&s->progress);   /* also after a failed or no init */
    av_freep(&s->data);
    s->data_size = 0;
    return 0;
}

const FFCodec ff_c63_decoder = {
    .p.name         = "c63",
    CODEC_LONG_NAME("Codec63 (University of Oslo teaching codec)"),
    .p.type         = AVMEDIA_TYPE_VIDEO,
    .p.id           = AV_CODEC_ID_C63,
    .p.capabilities = AV_CODEC_CAP_DR1 | AV_CODEC_CAP_DELAY | AV_CODEC_CAP_SLICE_THREADS,
    .priv_data_size = sizeof(C63DecContext),
    .init           = c63_decode_init,
    .close          = c63_decode_close,
    .flush          = c63_decode_flush,
    FF_CODEC_RECEIVE_FRAME_CB(c63_receive_frame),
    .caps_internal  = FF_CODEC_CAP_INIT_CLEANUP,
    .hw_configs     = (const AVCodecHWConfigInternal *const []) {
#if CONFIG_C63_CUDA_HWACCEL
        HW_CONFIG_HWACCEL(1, 1, 0, CUDA, CUDA, ff_c63_cuda_hwaccel),
#endif
        NULL
    },
};
