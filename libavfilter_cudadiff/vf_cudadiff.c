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
 * Send only the bytes that changed by more than a threshold, keeping the
 * picture the receiver shows, on CUDA frames. framediff is its software
 * twin and produces identical frames, metadata and side data.
 */

#include <string.h>

#include "libavutil/common.h"
#include "libavutil/cuda_check.h"
#include "libavutil/hwcontext.h"
#include "libavutil/hwcontext_cuda_internal.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"

#include "libavfilter/avfilter.h"
#include "libavfilter/filters.h"
#include "libavfilter/formats.h"
#include "libavfilter/video.h"
#include "libavfilter/cuda/load_helper.h"

#include "libavfilter/cudainput/cuda_input.h"
#include "libavfilter/cudadiff/diffcommon.h"
#include "cuda_kernels/cudadiff.h"

#define CHECK_CU(x) FF_CUDA_CHECK_DL(ctx, s->hwctx->internal->cuda_dl, x)

/* Alignment of the lines of R on the device. */
#define RECV_ALIGN 256

static const enum AVPixelFormat supported_formats[] = {
    AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUVA420P, AV_PIX_FMT_NV12, AV_PIX_FMT_YUV444P,
    AV_PIX_FMT_0RGB, AV_PIX_FMT_0BGR, AV_PIX_FMT_RGB0, AV_PIX_FMT_BGR0,
    AV_PIX_FMT_YUYV422, AV_PIX_FMT_UYVY422, AV_PIX_FMT_RGB24, AV_PIX_FMT_BGR24,
    AV_PIX_FMT_GRAY8,
};

typedef struct CudaDiffContext {
    const AVClass *class;

    int threshold;
    int mode;
    int refresh;

    AVCUDADeviceContext *hwctx;
    CUmodule    cu_module;
    CUfunction  cu_func_aligned;
    CUfunction  cu_func_unaligned;

    enum AVPixelFormat sw_format;
    int w, h;
    FrameDiffGeometry g;
    CudaDiffParams params;

    CUdeviceptr d_recv;         ///< R, lines of RECV_ALIGN-aligned pitch; in
                                ///< recon mode only the all-zero first R
    CUdeviceptr recv[4];        ///< planes of d_recv
    int         recv_pitch[4];
    AVFrame    *prev;           ///< recon mode: the last output, which is R
    CUdeviceptr d_status;       ///< one uint64 per tile
    CUdeviceptr d_count;        ///< number of entries (uint32)
    CUdeviceptr d_list;         ///< the bitmap (uint32 words), then the values
    size_t      bitmap_alloc;   ///< bytes of the bitmap, rounded up to words
    size_t      values_offset;

    uint32_t frame_index;
    uint32_t epoch;
} CudaDiffContext;

static void free_device(AVFilterContext *ctx)
{
    CudaDiffContext *s = ctx->priv;
    CudaFunctions *cu;
    CUcontext dummy;

    av_frame_free(&s->prev);
    if (!s->hwctx)
        return;
    cu = s->hwctx->internal->cuda_dl;

    if (CHECK_CU(cu->cuCtxPushCurrent(s->hwctx->cuda_ctx)) < 0)
        return;
    if (s->d_recv)
        CHECK_CU(cu->cuMemFree(s->d_recv));
    if (s->d_status)
        CHECK_CU(cu->cuMemFree(s->d_status));
    if (s->d_count)
        CHECK_CU(cu->cuMemFree(s->d_count));
    if (s->d_list)
        CHECK_CU(cu->cuMemFree(s->d_list));
    if (s->cu_module)
        CHECK_CU(cu->cuModuleUnload(s->cu_module));
    CHECK_CU(cu->cuCtxPopCurrent(&dummy));

    s->d_recv = s->d_status = s->d_count = s->d_list = 0;
    s->cu_module = NULL;
}

static av_cold void uninit(AVFilterContext *ctx)
{
    free_device(ctx);
}

/* Allocate and clear everything the kernel needs, once per configuration. */
static int alloc_device(AVFilterContext *ctx)
{
    CudaDiffContext *s = ctx->priv;
    CudaFunctions *cu  = s->hwctx->internal->cuda_dl;
    CudaDiffParams *pr = &s->params;
    /* a module for each output mode (cudadiff.cu) */
    extern const unsigned char ff_cudadiff_recon_ptx_data[], ff_cudadiff_diff_ptx_data[],
                               ff_cudadiff_mask_ptx_data[];
    extern const unsigned int ff_cudadiff_recon_ptx_len, ff_cudadiff_diff_ptx_len,
                              ff_cudadiff_mask_ptx_len;
    static const unsigned char *const ptx_data[] = {
        [CUDADIFF_MODE_RECON] = ff_cudadiff_recon_ptx_data,
        [CUDADIFF_MODE_DIFF]  = ff_cudadiff_diff_ptx_data,
        [CUDADIFF_MODE_MASK]  = ff_cudadiff_mask_ptx_data,
    };
    const unsigned int ptx_len[] = {
        [CUDADIFF_MODE_RECON] = ff_cudadiff_recon_ptx_len,
        [CUDADIFF_MODE_DIFF]  = ff_cudadiff_diff_ptx_len,
        [CUDADIFF_MODE_MASK]  = ff_cudadiff_mask_ptx_len,
    };
    size_t recv_size = 0, recv_off[4], status_size, list_size;
    uint64_t nb_vecs = 0;
    CUcontext dummy;
    int i, ret;

    memset(pr, 0, sizeof(*pr));
    for (i = 0; i < s->g.nb_planes; i++) {
        const int pitch = FFALIGN(s->g.width[i], RECV_ALIGN);
        CudaDiffPlane *pl = &pr->plane[i];

        recv_off[i]       = recv_size;
        recv_size        += (size_t)pitch * s->g.height[i];
        pl->recv_pitch    = pitch;
        pl->width         = s->g.width[i];
        pl->height        = s->g.height[i];
        pl->vecs_per_line = (s->g.width[i] + CUDADIFF_VEC - 1) / CUDADIFF_VEC;
        pl->vec_start     = nb_vecs;
        pl->pos_start     = s->g.offset[i];
        pl->bitmap_start  = s->g.bitmap_start[i];
        nb_vecs          += (uint64_t)pl->vecs_per_line * pl->height;
    }
    pr->nb_planes    = s->g.nb_planes;
    pr->bitmap_store = cudadiff_bitmap_store(s->g.width, s->g.nb_planes);
    pr->nb_vecs      = nb_vecs;
    pr->nb_tiles  = (nb_vecs + CUDADIFF_TILE_VECS - 1) / CUDADIFF_TILE_VECS;

    status_size     = (size_t)pr->nb_tiles * sizeof(uint64_t);
    s->bitmap_alloc  = FFALIGN((size_t)s->g.bitmap_start[s->g.nb_planes], 4);
    s->values_offset = FFALIGN(s->bitmap_alloc, 256);
    list_size        = s->values_offset + s->g.size;

    ret = CHECK_CU(cu->cuCtxPushCurrent(s->hwctx->cuda_ctx));
    if (ret < 0)
        return ret;

    ret = ff_cuda_load_module(ctx, s->hwctx, &s->cu_module,
                              ptx_data[s->mode], ptx_len[s->mode]);
    if (ret < 0)
        goto fail;
    {
        /* one pair of kernels per output mode */
        static const char *const mode_names[] = { "recon", "diff", "mask" };
        char name[64];
        snprintf(name, sizeof(name), "cudadiff_aligned_%s", mode_names[s->mode]);
        ret = CHECK_CU(cu->cuModuleGetFunction(&s->cu_func_aligned, s->cu_module, name));
        if (ret < 0)
            goto fail;
        snprintf(name, sizeof(name), "cudadiff_unaligned_%s", mode_names[s->mode]);
        ret = CHECK_CU(cu->cuModuleGetFunction(&s->cu_func_unaligned, s->cu_module, name));
        if (ret < 0)
            goto fail;
    }

    if ((ret = CHECK_CU(cu->cuMemAlloc(&s->d_recv, recv_size)))  < 0 ||
        (ret = CHECK_CU(cu->cuMemAlloc(&s->d_status, status_size))) < 0 ||
        (ret = CHECK_CU(cu->cuMemAlloc(&s->d_count, sizeof(uint32_t)))) < 0 ||
        (ret = CHECK_CU(cu->cuMemAlloc(&s->d_list, list_size))) < 0)
        goto fail;

    if ((ret = CHECK_CU(cu->cuMemsetD8Async(s->d_recv, 0, recv_size, s->hwctx->stream))) < 0 ||
        (ret = CHECK_CU(cu->cuMemsetD8Async(s->d_status, 0, status_size, s->hwctx->stream))) < 0 ||
        (ret = CHECK_CU(cu->cuMemsetD8Async(s->d_count, 0, sizeof(uint32_t),
                                            s->hwctx->stream))) < 0)
        goto fail;

    for (i = 0; i < s->g.nb_planes; i++) {
        s->recv[i]       = s->d_recv + recv_off[i];
        s->recv_pitch[i] = pr->plane[i].recv_pitch;
    }
    pr->tile_status = s->d_status;
    pr->count       = s->d_count;
    pr->bitmap      = s->d_list;
    pr->values      = s->d_list + s->values_offset;

    av_log(ctx, AV_LOG_VERBOSE, "%dx%d %s: %d planes, %"PRIu32" bytes, "
           "%u tiles of %d bytes\n", s->w, s->h, av_get_pix_fmt_name(s->sw_format),
           s->g.nb_planes, s->g.size, pr->nb_tiles, CUDADIFF_TILE);

fail:
    CHECK_CU(cu->cuCtxPopCurrent(&dummy));
    return ret;
}

static int config_props(AVFilterLink *outlink)
{
    AVFilterContext *ctx  = outlink->src;
    AVFilterLink *inlink  = ctx->inputs[0];
    FilterLink *inl       = ff_filter_link(inlink);
    FilterLink *outl      = ff_filter_link(outlink);
    CudaDiffContext *s    = ctx->priv;
    AVHWFramesContext *frames_ctx;
    int ret;

    free_device(ctx);

    if ((ret = ff_cuda_filter_input(ctx, inlink, supported_formats,
                                    FF_ARRAY_ELEMS(supported_formats), &frames_ctx)) < 0)
        return ret;

    s->hwctx     = frames_ctx->device_ctx->hwctx;
    s->sw_format = frames_ctx->sw_format;
    s->w         = inlink->w;
    s->h         = inlink->h;
    ret = ff_framediff_geometry(&s->g, s->sw_format, s->w, s->h, ctx);
    if (ret < 0)
        return ret;

    ret = alloc_device(ctx);
    if (ret < 0)
        return ret;

    s->frame_index = 0;
    outlink->w = inlink->w;
    outlink->h = inlink->h;
    av_buffer_unref(&outl->hw_frames_ctx);
    outl->hw_frames_ctx = av_buffer_ref(inl->hw_frames_ctx);
    if (!outl->hw_frames_ctx)
        return AVERROR(ENOMEM);
    return 0;
}

static int is_aligned(const AVFrame *f, int nb_planes)
{
    int i;
    if (!f)
        return 1;
    for (i = 0; i < nb_planes; i++)
        if (((uintptr_t)f->data[i] | (unsigned)f->linesize[i]) & (CUDADIFF_VEC - 1))
            return 0;
    return 1;
}

static int run_kernel(AVFilterContext *ctx, AVFrame *out, const AVFrame *in,
                      int refresh)
{
    CudaDiffContext *s = ctx->priv;
    CudaFunctions *cu  = s->hwctx->internal->cuda_dl;
    CUstream stream    = s->hwctx->stream;
    CudaDiffParams *pr = &s->params;
    void *args[]       = { pr };
    uint8_t *bitmap, *values;
    uint32_t count = 0;
    CUcontext dummy;
    int i, ret;

    for (i = 0; i < s->g.nb_planes; i++) {
        if (in->linesize[i] < s->g.width[i] || out->linesize[i] < s->g.width[i]) {
            av_log(ctx, AV_LOG_ERROR, "Plane %d: line size %d/%d below %d bytes\n",
                   i, in->linesize[i], out->linesize[i], s->g.width[i]);
            return AVERROR(EINVAL);
        }
        pr->plane[i].src       = (CUdeviceptr)in->data[i];
        pr->plane[i].src_pitch = in->linesize[i];
        pr->plane[i].dst       = (CUdeviceptr)out->data[i];
        pr->plane[i].dst_pitch = out->linesize[i];
        /* In recon mode the output is the new R, and the last output the
         * old one: the kernel reads it and writes no separate copy. */
        pr->plane[i].recv       = s->prev ? (CUdeviceptr)s->prev->data[i] : s->recv[i];
        pr->plane[i].recv_pitch = s->prev ? s->prev->linesize[i] : s->recv_pitch[i];
    }
    pr->threshold = refresh ? -1 : s->threshold;  /* -1: every byte */
    s->epoch      = s->epoch % ((1u << 30) - 1) + 1;
    pr->epoch     = s->epoch;

    ret = CHECK_CU(cu->cuCtxPushCurrent(s->hwctx->cuda_ctx));
    if (ret < 0)
        return ret;

    /* the kernel ORs the sent bits into a cleared bitmap, or stores them
     * all (bitmap_store) */
    if (!pr->bitmap_store) {
        ret = CHECK_CU(cu->cuMemsetD8Async(pr->bitmap, 0, s->bitmap_alloc, stream));
        if (ret < 0)
            goto fail;
    }
    ret = CHECK_CU(cu->cuLaunchKernel(is_aligned(in, s->g.nb_planes) &&
                                      is_aligned(out, s->g.nb_planes) &&
                                      is_aligned(s->prev, s->g.nb_planes) ?
                                      s->cu_func_aligned : s->cu_func_unaligned,
                                      pr->nb_tiles, 1, 1, CUDADIFF_BLOCK, 1, 1,
                                      0, stream, args, NULL));
    if (ret < 0)
        goto fail;
    ret = CHECK_CU(cu->cuMemcpyDtoHAsync(&count, s->d_count,
                                         sizeof(count), stream));
    if (ret < 0)
        goto fail;
    ret = CHECK_CU(cu->cuStreamSynchronize(stream));
    if (ret < 0)
        goto fail;
    if (count > s->g.size) {
        av_log(ctx, AV_LOG_ERROR, "Kernel reported %"PRIu32" entries for a "
               "%"PRIu32"-byte picture\n", count, s->g.size);
        ret = AVERROR_BUG;
        goto fail;
    }

    ret = ff_framediff_new_side_data(out, &s->g, s->threshold, refresh,
                                     s->frame_index, count, &bitmap, &values);
    if (ret < 0)
        goto fail;
    /* Device memory is little-endian, as the side data. */
    if ((ret = CHECK_CU(cu->cuMemcpyDtoHAsync(bitmap, pr->bitmap,
                                              s->g.bitmap_start[s->g.nb_planes],
                                              stream))) < 0 ||
        (count &&
         (ret = CHECK_CU(cu->cuMemcpyDtoHAsync(values, pr->values, count, stream))) < 0) ||
        (ret = CHECK_CU(cu->cuStreamSynchronize(stream))) < 0)
        goto fail;

fail:
    CHECK_CU(cu->cuCtxPopCurrent(&dummy));
    return ret;
}

static int filter_frame(AVFilterLink *inlink, AVFrame *in)
{
    AVFilterContext *ctx = inlink->dst;
    AVFilterLink *outlink = ctx->outputs[0];
    CudaDiffContext *s = ctx->priv;
    const int refresh = s->refresh && s->frame_index % s->refresh == 0;
    AVFrame *out = NULL;
    int ret;

    if ((ret = ff_cuda_filter_frame_check(ctx, in, s->w, s->h, s->sw_format,
                                          "the receiver's picture cannot follow")) < 0)
        goto fail;

    out = ff_get_video_buffer(outlink, outlink->w, outlink->h);
    if (!out) {
        ret = AVERROR(ENOMEM);
        goto fail;
    }
    /* a frame of the input's pool has the pool's size, which may be larger
     * (scale_cuda aligns it to 32) */
    out->width  = outlink->w;
    out->height = outlink->h;
    ret = av_frame_copy_props(out, in);
    if (ret < 0)
        goto fail;

    ret = run_kernel(ctx, out, in, refresh);
    if (ret < 0)
        goto fail;
    ret = ff_framediff_set_metadata(out, &s->g);
    if (ret < 0)
        goto fail;
    if (s->mode == FRAMEDIFF_MODE_RECON) {
        /* R for the next frame; downstream sees the frame as not writable */
        av_frame_free(&s->prev);
        s->prev = av_frame_clone(out);
        if (!s->prev) {
            ret = AVERROR(ENOMEM);
            goto fail;
        }
    }

    s->frame_index++;
    av_frame_free(&in);
    return ff_filter_frame(outlink, out);

fail:
    av_frame_free(&in);
    av_frame_free(&out);
    return ret;
}

#define FLAGS (AV_OPT_FLAG_FILTERING_PARAM | AV_OPT_FLAG_VIDEO_PARAM)

static const AVOption cudadiff_options[] = {
    FRAMEDIFF_OPTIONS(CudaDiffContext, FLAGS)
    { NULL }
};

AVFILTER_DEFINE_CLASS(cudadiff);

static const AVFilterPad cudadiff_inputs[] = {
    {
        .name         = "default",
        .type         = AVMEDIA_TYPE_VIDEO,
        .filter_frame = filter_frame,
    },
};

static const AVFilterPad cudadiff_outputs[] = {
    {
        .name         = "default",
        .type         = AVMEDIA_TYPE_VIDEO,
        .config_props = config_props,
    },
};

const FFFilter ff_vf_cudadiff = {
    .p.name         = "cudadiff",
    .p.description  = NULL_IF_CONFIG_SMALL("Send only the bytes that changed by more than a threshold (CUDA)."),
    .p.priv_class   = &cudadiff_class,
    .priv_size      = sizeof(CudaDiffContext),
    .uninit         = uninit,
    FILTER_INPUTS(cudadiff_inputs),
    FILTER_OUTPUTS(cudadiff_outputs),
    FILTER_SINGLE_PIXFMT(AV_PIX_FMT_CUDA),
    .flags_internal = FF_FILTER_FLAG_HWFRAME_AWARE,
};
