/*
 * checkframediff: the framediff decoder against hostile packets, and the
 * lists' software code (the CUDA kernel's CPU twin) against a plain model
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

/*
 * Usage: checkframediff [CORPUS_DIR]
 *
 * 1. For several formats and odd sizes, random pictures are differenced by
 *    ff_framediff_list_make() (the bitmap placed by cudadiff_bitmap_or(),
 *    the CPU twin of the kernel's) and the list compared with one made by a
 *    plain model of libavutil/framediff.h (bit q & 7 of byte q >> 3 of the
 *    plane's bitmap; values in order), then checked and applied.
 * 2. The decoder gets a stream of valid packets with hostile ones among
 *    them: garbage, truncated zlib, a version 1 list, 0 and 5 planes,
 *    sizes that disagree with the stream, a bitmap claiming more bytes than
 *    follow, bits past a plane's end, a list larger than any of the
 *    stream's. Each hostile packet must fail with AVERROR_INVALIDDATA and
 *    leave the picture as it was; then packets are lost: the picture must
 *    stay what a receiver that missed them has, and be exact again at the
 *    refresh.
 * 3. Lists on frames: a frame that carries another user data unregistered
 *    entry (x264's UUID, its payload a valid list) gets a list, then a
 *    second one: the other entry must stay as it was and exactly one entry
 *    carry the list's UUID. The framediff encoder must send that list, not
 *    the other entry's, and refuse a list made for another picture size; a
 *    frame whose only entry has another UUID carries no list (the encoder
 *    differences its picture), nor does one whose entry is too short for a
 *    list header.
 *
 * Prints each case and the decoder's messages, then "checkframediff: N
 * passed, N failed". With CORPUS_DIR (tests/fuzz/corpus), also writes the
 * streams as target_dec_framediff_fuzzer/checkframediff-yuv420p, inputs of
 * FFmpeg's tools/target_dec_fuzzer.c (packets separated by its tag, then
 * the extradata and its 1024-byte trailer), and the lists of part 1 as
 * target_framediffapply_fuzzer/checkframediff-FORMAT-SIZE, inputs of
 * tests/fuzz/target_framediffapply_fuzzer.c.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "libavcodec/avcodec.h"
#include "libavutil/error.h"
#include "libavutil/frame.h"
#include "libavutil/framediff.h"
#include "libavutil/intreadwrite.h"
#include "libavutil/log.h"
#include "libavutil/mem.h"
#include "libavutil/pixdesc.h"

#include "libavcodec/framediff/difflist.h"
#include "libavcodec/framediff/framediff_stream.h"

static int pass, fail;
static uint32_t seed = 1;

static uint32_t rnd(void)
{
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
}

static void check(int ok, const char *what)
{
    printf("%s: %s\n", what, ok ? "ok" : "FAILED");
    ok ? pass++ : fail++;
}

/* ---------------------------------------------------- the twin code --- */

static const char *seed_dir;

static void check_twin(enum AVPixelFormat fmt, int w, int h, int fuzz_index)
{
    FILE *seeds = NULL;
    FrameDiffGeometry g, lg;
    uint8_t *pic[4] = { NULL }, *recv, *model_r, *list, *model, *applied;
    int linesize[4], p, f, ok = 1;
    char what[128];
    size_t max;

    if (ff_framediff_list_geometry(&g, fmt, w, h) < 0) {
        check(0, "geometry");
        return;
    }
    max     = ff_framediff_list_size(&g, g.size);
    recv    = av_mallocz(g.size);
    model_r = av_mallocz(g.size);
    applied = av_mallocz(g.size);
    list    = av_mallocz(max);
    model   = av_mallocz(max);
    for (p = 0; p < g.nb_planes; p++) {
        linesize[p] = g.width[p] + 5;
        pic[p] = av_mallocz((size_t)linesize[p] * g.height[p]);
    }
    if (seed_dir && fuzz_index >= 0) {
        /* an input of tests/fuzz/target_framediffapply_fuzzer.c: picture
         * index, options (dump_entries), then 16-bit lengths and lists */
        char path[1024];
        snprintf(path, sizeof(path), "%s/target_framediffapply_fuzzer/checkframediff-%s-%dx%d",
                 seed_dir, av_get_pix_fmt_name(fmt), w, h);
        if ((seeds = fopen(path, "wb"))) {
            fputc(fuzz_index, seeds);
            fputc(2, seeds);
        }
    }
    for (f = 0; f < 4 && ok; f++) {
        const int thr = f == 2 ? -1 : 10, refresh = f == 2;
        uint32_t n = 0, bstart = 0;
        size_t size;
        for (p = 0; p < g.nb_planes; p++)
            for (int i = 0; i < linesize[p] * g.height[p]; i++)
                pic[p][i] = f && rnd() % 3 ? pic[p][i] : rnd();
        size = ff_framediff_list_make(list, recv, pic, linesize, &g, thr, 10,
                                      refresh, f);
        /* the model: straight from the layout's description */
        memset(model + AV_FRAME_DIFF_OFF_BITMAP, 0, g.bitmap_start[g.nb_planes]);
        for (p = 0; p < g.nb_planes; p++) {
            uint8_t *bm = model + AV_FRAME_DIFF_OFF_BITMAP + bstart;
            for (uint32_t q = 0; q < (uint32_t)g.width[p] * g.height[p]; q++) {
                int c = pic[p][(q / g.width[p]) * linesize[p] + q % g.width[p]];
                uint8_t *r = model_r + g.offset[p] + q;
                if (abs(c - *r) > thr) {
                    *r = c;
                    bm[q >> 3] |= 1 << (q & 7);
                    model[AV_FRAME_DIFF_OFF_BITMAP + g.bitmap_start[g.nb_planes] + n++] = c;
                }
            }
            bstart += (g.width[p] * g.height[p] + 7) / 8;
        }
        ff_framediff_list_header(model, &g, 10, refresh, f, n);
        ok = size == ff_framediff_list_size(&g, n) && !memcmp(list, model, size) &&
             !memcmp(recv, model_r, g.size) &&
             ff_framediff_list_check(list, size, &g, &lg, NULL) == 0;
        if (ok) {
            ff_framediff_list_apply(applied, list, &g);
            ok = !memcmp(applied, recv, g.size);
        }
        if (seeds && size < 65536) {
            fputc(size & 0xff, seeds);
            fputc(size >> 8, seeds);
            fwrite(list, 1, size, seeds);
        }
    }
    if (seeds)
        fclose(seeds);
    snprintf(what, sizeof(what), "twin %s %dx%d", av_get_pix_fmt_name(fmt), w, h);
    check(ok, what);
    for (p = 0; p < g.nb_planes; p++)
        av_free(pic[p]);
    av_free(recv); av_free(model_r); av_free(applied); av_free(list); av_free(model);
}

/* ----------------------------------------------------- the decoder --- */

#define W 13
#define H 7

static FILE *seed_file;
static const uint64_t fuzz_tag = 0x4741542D5A5A5546ULL;

static void log_cb(void *avcl, int level, const char *fmt, va_list vl)
{
    char line[1024];
    if (level > AV_LOG_INFO)
        return;
    vsnprintf(line, sizeof(line), fmt, vl);
    printf("    [%s] %s", level <= AV_LOG_ERROR ? "error" : level <= AV_LOG_WARNING ?
           "warning" : "info", line);
}

/* Compress a list into a packet. */
static AVPacket *packet(const uint8_t *list, size_t size)
{
    AVPacket *pkt = av_packet_alloc();
    uLongf len = compressBound(size);
    av_new_packet(pkt, len);
    compress2(pkt->data, &len, list, size, 6);
    av_shrink_packet(pkt, len);
    return pkt;
}

/* Decode one packet; the error, or 0 with the picture in out. */
static int decode(AVCodecContext *avctx, AVPacket *pkt, const FrameDiffGeometry *g,
                  uint8_t *out)
{
    AVFrame *frame = av_frame_alloc();
    int ret, p;

    if (seed_file) {
        fwrite(pkt->data, 1, pkt->size, seed_file);
        fwrite(&fuzz_tag, 1, sizeof(fuzz_tag), seed_file);
    }
    ret = avcodec_send_packet(avctx, pkt);
    if (ret >= 0)
        ret = avcodec_receive_frame(avctx, frame);
    if (ret >= 0)
        for (p = 0; p < g->nb_planes; p++)
            for (int y = 0; y < g->height[p]; y++)
                memcpy(out + g->offset[p] + y * g->width[p],
                       frame->data[p] + y * frame->linesize[p], g->width[p]);
    av_frame_free(&frame);
    return ret;
}

static void check_decoder(void)
{
    const AVCodec *codec = avcodec_find_decoder(AV_CODEC_ID_FRAMEDIFF);
    AVCodecContext *avctx = avcodec_alloc_context3(codec);
    FrameDiffGeometry g;
    uint8_t *pic[4], *sender, *receiver, *out, *list, *bad;
    int linesize[4], p, f, ret;
    size_t size, max;
    static const char extradata[] = "FDIF\001yuv420p";
    AVPacket *pkt;

    if (seed_dir) {
        char path[1024];
        snprintf(path, sizeof(path), "%s/target_dec_framediff_fuzzer/checkframediff-yuv420p", seed_dir);
        seed_file = fopen(path, "wb");
    }
    ff_framediff_list_geometry(&g, AV_PIX_FMT_YUV420P, W, H);
    max      = ff_framediff_list_size(&g, g.size);
    sender   = av_mallocz(g.size);
    receiver = av_mallocz(g.size);
    out      = av_mallocz(g.size);
    list     = av_mallocz(max);
    bad      = av_mallocz(max + 64);
    for (p = 0; p < 3; p++) {
        linesize[p] = g.width[p];
        pic[p] = av_mallocz(g.width[p] * g.height[p]);
    }
    avctx->width  = W;
    avctx->height = H;
    avctx->extradata = av_mallocz(sizeof(extradata) + AV_INPUT_BUFFER_PADDING_SIZE);
    memcpy(avctx->extradata, extradata, sizeof(extradata));
    avctx->extradata_size = sizeof(extradata);
    ret = avcodec_open2(avctx, codec, NULL);
    check(ret == 0, "decoder opens");

    for (f = 0; f < 12; f++) {
        const int refresh = f % 6 == 0, lost = f == 3 || f == 4;
        char what[128];
        for (p = 0; p < 3; p++)
            for (int i = 0; i < g.width[p] * g.height[p]; i++)
                pic[p][i] = rnd() % 4 ? pic[p][i] : rnd();
        size = ff_framediff_list_make(list, sender, pic, linesize, &g,
                                      refresh ? -1 : 20, 20, refresh, f);
        if (lost) {
            printf("list %d: lost\n", f);
            continue;
        }
        ff_framediff_list_apply(receiver, list, &g);
        pkt = packet(list, size);
        ret = decode(avctx, pkt, &g, out);
        av_packet_free(&pkt);
        snprintf(what, sizeof(what), "list %d%s: %s", f, refresh ? " (refresh)" : "",
                 f < 3 || f >= 6 ? "exact" : "what a receiver that lost lists 3 and 4 has");
        check(ret == 0 && !memcmp(out, receiver, g.size) &&
              (f < 3 || f >= 6 || memcmp(out, sender, g.size)) &&
              (f < 3 || f >= 6 ? !memcmp(out, sender, g.size) : 1), what);

        if (f != 1)
            continue;
        /* hostile packets, between lists 1 and 2 */
        {
            const size_t bm = g.bitmap_start[g.nb_planes];
            const uint32_t n = AV_RL32(list + AV_FRAME_DIFF_OFF_NB_SENT);
            struct { const char *name; int zlib_cut; } cases[] = {
                { "garbage", 0 }, { "truncated zlib", 1 }, { "version 1", 0 },
                { "0 planes", 0 }, { "5 planes", 0 }, { "a plane wider than the stream's", 0 },
                { "frame size disagrees", 0 }, { "bitmap claims more bytes than follow", 0 },
                { "header claims more bytes than the bitmap", 0 },
                { "list cut short", 0 }, { "bits past the end of a plane", 0 },
                { "list longer than any of the stream", 0 }, { "5 planes, 5 sizes", 0 },
            };
            for (int c = 0; c < FF_ARRAY_ELEMS(cases); c++) {
                size_t bsize = size;
                memcpy(bad, list, size);
                switch (c) {
                case 0: for (size_t i = 0; i < 40; i++) bad[i] = rnd(); bsize = 40; break;
                case 2: bad[AV_FRAME_DIFF_OFF_VERSION] = 1; break;
                case 3: bad[AV_FRAME_DIFF_OFF_NB_PLANES] = 0; break;
                case 4: bad[AV_FRAME_DIFF_OFF_NB_PLANES] = 5; break;
                case 5: AV_WL32(bad + AV_FRAME_DIFF_OFF_WIDTH(1), g.width[1] + 1);
                        AV_WL32(bad + AV_FRAME_DIFF_OFF_FRAME_SIZE, g.size + g.height[1]); break;
                case 6: AV_WL32(bad + AV_FRAME_DIFF_OFF_FRAME_SIZE, g.size + 1); break;
                case 7: {   /* one more bit set, as many values */
                    uint8_t *b = bad + AV_FRAME_DIFF_OFF_BITMAP;
                    for (size_t i = 0; i < bm * 8 - 8; i++)
                        if (!(b[i >> 3] >> (i & 7) & 1)) { b[i >> 3] |= 1 << (i & 7); break; }
                    AV_WL32(bad + AV_FRAME_DIFF_OFF_NB_SENT, n + 1);
                    break; }
                case 8: AV_WL32(bad + AV_FRAME_DIFF_OFF_NB_SENT, n + 1); bad[bsize++] = 0; break;
                case 9: bsize = size - 1; break;
                case 10: bad[AV_FRAME_DIFF_OFF_BITMAP + g.bitmap_start[1] - 1] |= 0x80;
                         AV_WL32(bad + AV_FRAME_DIFF_OFF_NB_SENT, n + 1); bad[bsize++] = 0; break;
                case 11: memset(bad + size, 0, 64); bsize = max + 1; break;
                case 12: bad[AV_FRAME_DIFF_OFF_NB_PLANES] = 5;
                         AV_WL32(bad + AV_FRAME_DIFF_OFF_WIDTH(3), 4);
                         AV_WL32(bad + AV_FRAME_DIFF_OFF_HEIGHT(3), 4); break;
                }
                if (c == 0) {
                    pkt = av_packet_alloc();
                    av_new_packet(pkt, bsize);
                    memcpy(pkt->data, bad, bsize);
                } else {
                    pkt = packet(bad, bsize);
                    if (cases[c].zlib_cut)
                        av_shrink_packet(pkt, pkt->size / 2);
                }
                printf("hostile packet: %s\n", cases[c].name);
                memset(out, 0x55, g.size);
                ret = decode(avctx, pkt, &g, out);
                av_packet_free(&pkt);
                check(ret == AVERROR_INVALIDDATA, "    refused with AVERROR_INVALIDDATA");
            }
        }
    }
    avcodec_free_context(&avctx);
    for (p = 0; p < 3; p++)
        av_free(pic[p]);
    av_free(sender); av_free(receiver); av_free(out); av_free(list); av_free(bad);

    if (seed_file) {
        /* target_dec_fuzzer's trailer: width, height, ..., extradata size */
        uint8_t trailer[1024] = { 0 };
        AV_WL32(trailer + 0, W);
        AV_WL32(trailer + 4, H);
        AV_WL32(trailer + 21, sizeof(extradata));
        fwrite(extradata, 1, sizeof(extradata), seed_file);
        fwrite(trailer, 1, sizeof(trailer), seed_file);
        fclose(seed_file);
        seed_file = NULL;
    }
}

/* -------------------------------------------- lists on frames --- */

static const uint8_t list_uuid[AV_FRAME_DIFF_UUID_SIZE] = AV_FRAME_DIFF_UUID;

/* x264's user data unregistered SEI, which an H.264 decoder exports */
static const uint8_t x264_uuid[16] = {
    0xdc, 0x45, 0xe9, 0xbd, 0xe6, 0xd9, 0x48, 0xb7,
    0x96, 0x2c, 0xd8, 0x20, 0xd9, 0x23, 0xee, 0xef,
};

/* Entries of frame that carry the list's UUID, whatever their size. */
static int count_lists(const AVFrame *frame)
{
    int n = 0;

    for (int i = 0; i < frame->nb_side_data; i++) {
        const AVFrameSideData *sd = frame->side_data[i];
        n += sd->type == AV_FRAME_DATA_SEI_UNREGISTERED &&
             sd->size >= AV_FRAME_DIFF_UUID_SIZE &&
             !memcmp(sd->data, list_uuid, AV_FRAME_DIFF_UUID_SIZE);
    }
    return n;
}

/* A list sending every byte of the picture pic (lines g->width[p] apart). */
static size_t whole_list(uint8_t *list, uint8_t *const pic[4], const FrameDiffGeometry *g)
{
    uint8_t *recv = av_mallocz(g->size);
    size_t size = ff_framediff_list_make(list, recv, pic, g->width, g, -1, 20, 1, 0);

    av_free(recv);
    return size;
}

/* A fresh framediff encoder and decoder; frame to one packet to out. */
static int encode_decode(const AVFrame *frame, const FrameDiffGeometry *g, uint8_t *out)
{
    AVCodecContext *enc = avcodec_alloc_context3(avcodec_find_encoder(AV_CODEC_ID_FRAMEDIFF));
    AVCodecContext *dec = avcodec_alloc_context3(avcodec_find_decoder(AV_CODEC_ID_FRAMEDIFF));
    AVPacket *pkt = av_packet_alloc();
    int ret;

    enc->width     = dec->width  = W;
    enc->height    = dec->height = H;
    enc->pix_fmt   = AV_PIX_FMT_YUV420P;
    enc->time_base = (AVRational){ 1, 25 };
    ret = avcodec_open2(enc, enc->codec, NULL);
    if (ret >= 0) {
        dec->extradata = av_mallocz(enc->extradata_size + AV_INPUT_BUFFER_PADDING_SIZE);
        memcpy(dec->extradata, enc->extradata, enc->extradata_size);
        dec->extradata_size = enc->extradata_size;
        ret = avcodec_open2(dec, dec->codec, NULL);
    }
    if (ret >= 0)
        ret = avcodec_send_frame(enc, frame);
    if (ret >= 0)
        ret = avcodec_receive_packet(enc, pkt);
    if (ret >= 0)
        ret = decode(dec, pkt, g, out);
    av_packet_free(&pkt);
    avcodec_free_context(&enc);
    avcodec_free_context(&dec);
    return ret;
}

static void check_side_data(void)
{
    FrameDiffGeometry g, smaller;
    AVFrame *frame = av_frame_alloc(), *other = av_frame_alloc();
    AVFrameSideData *foreign, *sd;
    const AVBufferRef *foreign_buf;
    uint8_t *pa[4], *pb[4], *pc, *out, *list_a, *list_b, *copy, *dst;
    size_t size_a, size_b, max;
    int p, i, ok;

    ff_framediff_list_geometry(&g, AV_PIX_FMT_YUV420P, W, H);
    max    = ff_framediff_list_size(&g, g.size);
    list_a = av_mallocz(max);
    list_b = av_mallocz(max);
    copy   = av_mallocz(AV_FRAME_DIFF_UUID_SIZE + max);
    pc     = av_mallocz(g.size);
    out    = av_mallocz(g.size);
    /* three pictures: A in the other entry's list, B in ours, C the frame's */
    for (p = 0; p < 3; p++) {
        pa[p] = av_malloc(g.width[p] * g.height[p]);
        pb[p] = av_malloc(g.width[p] * g.height[p]);
        for (i = 0; i < g.width[p] * g.height[p]; i++) {
            pa[p][i] = rnd();
            pb[p][i] = rnd();
            pc[g.offset[p] + i] = rnd();
        }
    }
    pa[3] = pb[3] = NULL;
    size_a = whole_list(list_a, pa, &g);
    size_b = whole_list(list_b, pb, &g);

    frame->format = AV_PIX_FMT_YUV420P;
    frame->width  = W;
    frame->height = H;
    av_frame_get_buffer(frame, 0);
    for (p = 0; p < 3; p++)
        for (int y = 0; y < g.height[p]; y++)
            memcpy(frame->data[p] + y * frame->linesize[p],
                   pc + g.offset[p] + y * g.width[p], g.width[p]);
    foreign = av_frame_new_side_data(frame, AV_FRAME_DATA_SEI_UNREGISTERED,
                                     AV_FRAME_DIFF_UUID_SIZE + size_a);
    memcpy(foreign->data, x264_uuid, AV_FRAME_DIFF_UUID_SIZE);
    memcpy(foreign->data + AV_FRAME_DIFF_UUID_SIZE, list_a, size_a);
    memcpy(copy, foreign->data, foreign->size);
    foreign_buf = foreign->buf;

    printf("a frame with x264's user data unregistered entry, a valid list after its UUID\n");
    check(!av_frame_diff_get_side_data(frame), "    not taken for a list");
    check(encode_decode(frame, &g, out) == 0 && !memcmp(out, pc, g.size),
          "    the encoder differences the picture");

    printf("a list given to it, then a second one\n");
    dst = ff_framediff_list_new_side_data(frame, size_a);
    memcpy(dst, list_a, size_a);
    dst = ff_framediff_list_new_side_data(frame, size_b);
    memcpy(dst, list_b, size_b);
    sd  = av_frame_diff_get_side_data(frame);
    check(frame->nb_side_data == 2 && frame->side_data[0]->buf == foreign_buf &&
          frame->side_data[0]->type == AV_FRAME_DATA_SEI_UNREGISTERED &&
          frame->side_data[0]->size == AV_FRAME_DIFF_UUID_SIZE + size_a &&
          !memcmp(frame->side_data[0]->data, copy, AV_FRAME_DIFF_UUID_SIZE + size_a),
          "    x264's entry untouched");
    check(count_lists(frame) == 1 && sd && sd->size == AV_FRAME_DIFF_UUID_SIZE + size_b &&
          !memcmp(sd->data + AV_FRAME_DIFF_UUID_SIZE, list_b, size_b),
          "    one entry with the list's UUID, the second list");
    check(encode_decode(frame, &g, out) == 0 && !memcmp(out, pb[0], g.width[0] * g.height[0]) &&
          !memcmp(out + g.offset[1], pb[1], g.width[1] * g.height[1]) &&
          !memcmp(out + g.offset[2], pb[2], g.width[2] * g.height[2]),
          "    the encoder sends that list");

    printf("a list made for a smaller picture\n");
    ff_framediff_list_geometry(&smaller, AV_PIX_FMT_YUV420P, W - 2, H - 2);
    size_a = whole_list(list_a, pb, &smaller);
    dst = ff_framediff_list_new_side_data(frame, size_a);
    memcpy(dst, list_a, size_a);
    check(encode_decode(frame, &g, out) == AVERROR_INVALIDDATA,
          "    refused by the encoder with AVERROR_INVALIDDATA");

    printf("a frame whose entry with the list's UUID is shorter than a list header\n");
    sd = av_frame_new_side_data(other, AV_FRAME_DATA_SEI_UNREGISTERED,
                                AV_FRAME_DIFF_UUID_SIZE + AV_FRAME_DIFF_HEADER_SIZE - 1);
    memcpy(sd->data, list_uuid, AV_FRAME_DIFF_UUID_SIZE);
    memcpy(sd->data + AV_FRAME_DIFF_UUID_SIZE, list_b, AV_FRAME_DIFF_HEADER_SIZE - 1);
    ok = !av_frame_diff_get_side_data(other);
    dst = ff_framediff_list_new_side_data(other, size_b);
    memcpy(dst, list_b, size_b);
    sd = av_frame_diff_get_side_data(other);
    check(ok && sd && sd->size == AV_FRAME_DIFF_UUID_SIZE + size_b &&
          !memcmp(sd->data + AV_FRAME_DIFF_UUID_SIZE, list_b, size_b),
          "    not taken for a list; a new list is");

    printf("a frame without a list, smaller than the encoder's picture\n");
    av_frame_unref(other);
    other->format = AV_PIX_FMT_YUV420P;
    other->width  = W - 2;
    other->height = H - 2;
    av_frame_get_buffer(other, 0);
    check(encode_decode(other, &g, out) == AVERROR(EINVAL),
          "    refused by the encoder with AVERROR(EINVAL)");

    av_frame_free(&frame);
    av_frame_free(&other);
    for (p = 0; p < 3; p++) {
        av_free(pa[p]);
        av_free(pb[p]);
    }
    av_free(pc); av_free(out); av_free(list_a); av_free(list_b); av_free(copy);
}

int main(int argc, char **argv)
{
    /* the pictures of tests/fuzz/target_framediffapply_fuzzer.c, in its
     * order, then others */
    static const struct { enum AVPixelFormat fmt; int w, h; } twins[] = {
        { AV_PIX_FMT_GRAY8,    16,  8 }, { AV_PIX_FMT_YUV420P,  17,  9 },
        { AV_PIX_FMT_YUV420P,   1,  1 }, { AV_PIX_FMT_NV12,     32, 18 },
        { AV_PIX_FMT_YUYV422,   7,  3 }, { AV_PIX_FMT_RGB0,      5,  4 },
        { AV_PIX_FMT_YUVA420P, 10,  6 }, { AV_PIX_FMT_RGB24,     3,  2 },
        { AV_PIX_FMT_YUV420P,  33, 17 }, { AV_PIX_FMT_NV12,     31,  9 },
        { AV_PIX_FMT_YUV444P,  64,  3 },
    };

    seed_dir = argc > 1 ? argv[1] : NULL;
    av_log_set_callback(log_cb);
    for (int i = 0; i < FF_ARRAY_ELEMS(twins); i++)
        check_twin(twins[i].fmt, twins[i].w, twins[i].h, i < 8 ? i : -1);
    check_decoder();
    check_side_data();
    printf("checkframediff: %d passed, %d failed\n", pass, fail);
    return fail != 0;
}
