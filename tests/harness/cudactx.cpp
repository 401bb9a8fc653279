/*
 * cudactx: c63_cuda fed CUDA frames of another CUDA context (another
 * device where there are two) than the one it was opened with
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
 * Usage: cudactx [DEVICE_B]
 *
 * Creates CUDA device context A on device 0 and B on DEVICE_B (default 0:
 * a second context on the same device; "1" on a machine with two GPUs
 * puts B on the other device), a frames pool of 64x48 yuv420p on each,
 * and opens c63_cuda on A's frames. It sends three frames of one picture:
 * from A, from B, from A. The encoder must take the frames of A, refuse
 * the frame of B with an error, and not lose or damage anything of A's
 * frames: after the refusal, the stream is drained and every packet it
 * gives must be one of A's frames coded as c63 codes them on the CPU.
 * Prints what happened, one line a step, and exits 1 on anything else.
 */

#include <stdio.h>
#include <string.h>

extern "C" {
#include "libavcodec/avcodec.h"
#include "libavutil/error.h"
#include "libavutil/frame.h"
#include "libavutil/hwcontext.h"
#include "libavutil/md5.h"
#include "libavutil/mem.h"
}

static const int W = 64, H = 48;

/* err_str() is C only (a compound literal) */
static const char *err_str(int err)
{
    static char buf[AV_ERROR_MAX_STRING_SIZE];
    return av_make_error_string(buf, sizeof(buf), err);
}

static int make_pool(const char *dev_name, AVBufferRef **dev, AVBufferRef **frames)
{
    int ret = av_hwdevice_ctx_create(dev, AV_HWDEVICE_TYPE_CUDA, dev_name, NULL, 0);
    if (ret < 0)
        return ret;
    *frames = av_hwframe_ctx_alloc(*dev);
    if (!*frames)
        return AVERROR(ENOMEM);
    AVHWFramesContext *fc = (AVHWFramesContext *)(*frames)->data;
    fc->format    = AV_PIX_FMT_CUDA;
    fc->sw_format = AV_PIX_FMT_YUV420P;
    fc->width     = W;
    fc->height    = H;
    return av_hwframe_ctx_init(*frames);
}

/* the picture: a gradient with a moving square, frame i */
static void fill(AVFrame *f, int i)
{
    for (int p = 0; p < 3; p++) {
        int w = p ? W / 2 : W, h = p ? H / 2 : H;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                f->data[p][y * f->linesize[p] + x] =
                    (uint8_t)(p * 60 + x * 3 + y * 2 +
                              ((x >= 8 + 4 * i && x < 24 + 4 * i && y >= 8 && y < 24) ? 90 : 0));
    }
}

static void md5_hex(const uint8_t *d, int n, char out[33])
{
    uint8_t m[16];
    av_md5_sum(m, d, n);
    for (int i = 0; i < 16; i++)
        snprintf(out + 2 * i, 3, "%02x", m[i]);
}

/* c63 on the CPU, the same frames of A (indices of A's frames): the md5 of
 * each packet */
static int cpu_packets(const int *idx, int n, char md5s[][33])
{
    const AVCodec *c = avcodec_find_encoder_by_name("c63");
    AVCodecContext *e = c ? avcodec_alloc_context3(c) : NULL;
    AVFrame *f = av_frame_alloc();
    AVPacket *pkt = av_packet_alloc();
    int ret, got = 0;

    if (!e || !f || !pkt) {
        ret = AVERROR(ENOMEM);
        goto end;
    }
    e->width = W; e->height = H; e->pix_fmt = AV_PIX_FMT_YUV420P;
    e->time_base = AVRational{ 1, 25 };
    if ((ret = avcodec_open2(e, c, NULL)) < 0)
        goto end;
    for (int i = 0; i <= n && ret >= 0; i++) {
        if (i < n) {
            av_frame_unref(f);
            f->format = AV_PIX_FMT_YUV420P; f->width = W; f->height = H;
            if ((ret = av_frame_get_buffer(f, 0)) < 0)
                break;
            fill(f, idx[i]);
            f->pts = i;
        }
        ret = avcodec_send_frame(e, i < n ? f : NULL);
        while (ret >= 0) {
            ret = avcodec_receive_packet(e, pkt);
            if (ret >= 0 && got < n)
                md5_hex(pkt->data, pkt->size, md5s[got++]);
            av_packet_unref(pkt);
        }
        if (ret == AVERROR(EAGAIN))
            ret = 0;
    }
end:
    avcodec_free_context(&e);
    av_frame_free(&f);
    av_packet_free(&pkt);
    return ret == AVERROR_EOF ? got : ret < 0 ? ret : got;
}

int main(int argc, char **argv)
{
    const char *dev_b = argc > 1 ? argv[1] : "0";
    AVBufferRef *dev[2] = { NULL }, *frames[2] = { NULL };
    const AVCodec *codec = avcodec_find_encoder_by_name("c63_cuda");
    AVCodecContext *enc = NULL;
    AVFrame *sw = av_frame_alloc(), *hw = av_frame_alloc();
    AVPacket *pkt = av_packet_alloc();
    const int which[3] = { 0, 1, 0 };   /* the context of each frame sent */
    const int a_idx[2] = { 0, 2 };      /* A's frames, in order */
    char want[2][33], got_md5[33];
    int ret, refused = 0, packets = 0, status = 0;

    if (!codec || !sw || !hw || !pkt) {
        fprintf(stderr, "cudactx: no c63_cuda encoder in this build, or out of memory\n");
        goto fail;
    }
    if ((ret = make_pool("0", &dev[0], &frames[0])) < 0 ||
        (ret = make_pool(dev_b, &dev[1], &frames[1])) < 0) {
        fprintf(stderr, "cudactx: cannot create the CUDA contexts: %s\n", err_str(ret));
        goto fail;
    }
    if ((ret = cpu_packets(a_idx, 2, want)) != 2) {
        fprintf(stderr, "cudactx: c63 on the CPU gave %d packets\n", ret);
        goto fail;
    }

    if (!(enc = avcodec_alloc_context3(codec)))
        goto fail;
    enc->width = W; enc->height = H; enc->pix_fmt = AV_PIX_FMT_CUDA;
    enc->time_base = AVRational{ 1, 25 };
    enc->hw_frames_ctx = av_buffer_ref(frames[0]);
    if ((ret = avcodec_open2(enc, codec, NULL)) < 0) {
        fprintf(stderr, "cudactx: cannot open c63_cuda: %s\n", err_str(ret));
        goto fail;
    }
    printf("c63_cuda opened on the frames of context A\n");
    fprintf(stderr, "cudactx: context A on device 0, context B on device %s\n", dev_b);

    sw->format = AV_PIX_FMT_YUV420P; sw->width = W; sw->height = H;
    if (av_frame_get_buffer(sw, 0) < 0)
        goto fail;

    /* send each frame, then take every packet there is; then drain */
    for (int i = 0; i <= 3; i++) {
        if (i < 3) {
            av_frame_unref(hw);
            if ((ret = av_frame_make_writable(sw)) >= 0)
                fill(sw, i);
            if (ret < 0 ||
                (ret = av_hwframe_get_buffer(frames[which[i]], hw, 0)) < 0 ||
                (ret = av_hwframe_transfer_data(hw, sw, 0)) < 0) {
                fprintf(stderr, "cudactx: cannot make frame %d: %s\n", i, err_str(ret));
                goto fail;
            }
            hw->pts = i;
        }
        ret = avcodec_send_frame(enc, i < 3 ? hw : NULL);
        if (ret < 0 && i < 3) {
            printf("frame %d (context %c): refused by avcodec_send_frame: %s\n",
                   i, "AB"[which[i]], err_str(ret));
            refused += which[i] == 1;
            status |= which[i] != 1;
            continue;
        }
        for (;;) {
            ret = avcodec_receive_packet(enc, pkt);
            if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF)
                break;
            if (ret < 0) {
                printf("after frame %d (context %c): avcodec_receive_packet: %s\n",
                       i < 3 ? i : 2, "AB"[which[i < 3 ? i : 2]], err_str(ret));
                if (i < 3 && which[i] == 1)
                    refused++;
                else
                    status = 1;
                /* the encoder said what it cannot do: go on with the next
                 * frame it can take */
                break;
            }
            md5_hex(pkt->data, pkt->size, got_md5);
            if (packets < 2 && !strcmp(got_md5, want[packets])) {
                printf("packet %d: frame %d of context A, as c63 codes it\n",
                       packets, a_idx[packets]);
            } else {
                printf("packet %d: not the c63 packet of A's frame (%s)\n", packets, got_md5);
                status = 1;
            }
            packets++;
            av_packet_unref(pkt);
        }
        if (i == 3 && ret == AVERROR_EOF)
            printf("drained: end of stream\n");
    }
    printf("the frame of context B was refused: %s\n", refused == 1 ? "yes" : "no");
    if (refused != 1)
        status = 1;
    if (0) {
fail:
        status = 1;
    }
    avcodec_free_context(&enc);
    av_frame_free(&sw);
    av_frame_free(&hw);
    av_packet_free(&pkt);
    for (int k = 0; k < 2; k++) {
        av_buffer_unref(&frames[k]);
        av_buffer_unref(&dev[k]);
    }
    return status;
}
