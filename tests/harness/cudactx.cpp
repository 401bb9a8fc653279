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
 * Usage: cudactx [DEVICE_B] | cudactx --primary-busy
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
 *
 * --primary-busy: the GPU's primary context is first taken with the
 * driver's default flags, not the ones FFmpeg's CUDA device asks for (as
 * a library of the same process might take it). Then c63_cuda, opening
 * its own device, must code a frame from system memory with -primary_ctx
 * auto (on a context of its own, with a warning), and refuse -primary_ctx
 * 1 with AVERROR(ENOTSUP) and a message that says why.
 */

#include <stdio.h>
#include <string.h>

extern "C" {
#include "libavcodec/avcodec.h"
#include "libavutil/error.h"
#include "libavutil/frame.h"
#include "libavutil/hwcontext.h"
#include "libavutil/hwcontext_cuda_internal.h"
#include "libavutil/log.h"
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

/* the messages of the library that contain log_watch, counted */
static const char *log_watch;
static int log_seen;

static void log_cb(void *avcl, int level, const char *fmt, va_list vl)
{
    char line[1024];
    if (log_watch && level <= AV_LOG_WARNING) {
        va_list copy;
        va_copy(copy, vl);
        vsnprintf(line, sizeof(line), fmt, copy);
        va_end(copy);
        log_seen += !!strstr(line, log_watch);
    }
    av_log_default_callback(avcl, level, fmt, vl);
}

/* c63_cuda from system memory with -primary_ctx PRIMARY: one frame coded
 * (0, and its packet is c63's), or the error of avcodec_open2() */
static int open_and_code(const char *primary, const char *want_md5)
{
    const AVCodec *codec = avcodec_find_encoder_by_name("c63_cuda");
    AVCodecContext *e = codec ? avcodec_alloc_context3(codec) : NULL;
    AVFrame *f = av_frame_alloc();
    AVPacket *pkt = av_packet_alloc();
    AVDictionary *opts = NULL;
    char got[33] = "";
    int ret = AVERROR(ENOMEM);

    if (!e || !f || !pkt)
        goto end;
    e->width = W; e->height = H; e->pix_fmt = AV_PIX_FMT_YUV420P;
    e->time_base = AVRational{ 1, 25 };
    av_dict_set(&opts, "primary_ctx", primary, 0);
    if ((ret = avcodec_open2(e, codec, &opts)) < 0)
        goto end;
    f->format = AV_PIX_FMT_YUV420P; f->width = W; f->height = H;
    if ((ret = av_frame_get_buffer(f, 0)) < 0)
        goto end;
    fill(f, 0);
    f->pts = 0;
    if ((ret = avcodec_send_frame(e, f)) < 0 || (ret = avcodec_send_frame(e, NULL)) < 0 ||
        (ret = avcodec_receive_packet(e, pkt)) < 0)
        goto end;
    md5_hex(pkt->data, pkt->size, got);
    ret = strcmp(got, want_md5) ? AVERROR_BUG : 0;
end:
    av_dict_free(&opts);
    avcodec_free_context(&e);
    av_frame_free(&f);
    av_packet_free(&pkt);
    return ret;
}

static int primary_busy(void)
{
    AVBufferRef *dev = NULL;
    CudaFunctions *cu = NULL;
    CUdevice cudev = 0;
    CUcontext primary = NULL, dummy;
    unsigned flags = 0;
    int active = 0, ret, status = 1;
    const int idx[1] = { 0 };
    char want[1][33];

    if ((ret = av_hwdevice_ctx_create(&dev, AV_HWDEVICE_TYPE_CUDA, "0", NULL, 0)) < 0) {
        fprintf(stderr, "cudactx: cannot create the CUDA contexts: %s\n", err_str(ret));
        return 1;
    }
    if (cpu_packets(idx, 1, want) != 1) {
        fprintf(stderr, "cudactx: c63 on the CPU gave no packet\n");
        goto end;
    }
    cu = ((AVCUDADeviceContext *)((AVHWDeviceContext *)dev->data)->hwctx)->internal->cuda_dl;
    if (cu->cuDeviceGet(&cudev, 0) != CUDA_SUCCESS ||
        cu->cuDevicePrimaryCtxGetState(cudev, &flags, &active) != CUDA_SUCCESS || active ||
        cu->cuDevicePrimaryCtxRetain(&primary, cudev) != CUDA_SUCCESS ||
        cu->cuCtxPushCurrent(primary) != CUDA_SUCCESS ||
        cu->cuCtxPopCurrent(&dummy) != CUDA_SUCCESS) {
        fprintf(stderr, "cudactx: cannot take the primary context (active already: %d)\n", active);
        goto end;
    }
    printf("primary context taken with the driver's flags (0x%x)\n", flags);

    log_watch = "in use with other flags";
    log_seen  = 0;
    ret = open_and_code("auto", want[0]);
    printf("-primary_ctx auto: %s, %s\n", ret ? err_str(ret) : "c63's packet",
           log_seen == 1 ? "warned" : "no warning");
    status = ret != 0 || log_seen != 1;

    log_seen = 0;
    ret = open_and_code("1", want[0]);
    printf("-primary_ctx 1: %s, %s\n", ret == AVERROR(ENOTSUP) ? "refused (ENOTSUP)" : err_str(ret),
           log_seen == 1 ? "said why" : "did not say why");
    status |= ret != AVERROR(ENOTSUP) || log_seen != 1;
    log_watch = NULL;
end:
    if (primary)
        cu->cuDevicePrimaryCtxRelease(cudev);
    av_buffer_unref(&dev);
    return status;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--primary-busy")) {
        av_log_set_callback(log_cb);
        return primary_busy();
    }
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
