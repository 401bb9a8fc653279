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
 * Block motion vectors of CUDA frames, bit for bit those of mestimate (its
 * CPU twin): the same options, the same AV_FRAME_DATA_MOTION_VECTORS side
 * data, the same one-frame delay. The searches run on the GPU
 * (cuda_kernels/mestimate_cuda.cu, whose search code,
 * me_search.h, tests/harness/checkme.c compares with ff_me_search_*); only the
 * vectors come back to the host.
 */

#include <string.h>

#include "libavutil/avassert.h"
#include "libavutil/common.h"
#include "libavutil/cuda_check.h"
#include "libavutil/hwcontext.h"
#include "libavutil/hwcontext_cuda_internal.h"
#include "libavutil/mem.h"
#include "libavutil/motion_vector.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"

#include "libavfilter/avfilter.h"
#include "libavfilter/filters.h"
#include "libavfilter/motion_estimation.h"
#include "libavfilter/video.h"
#include "libavfilter/cuda/load_helper.h"
#include "libavfilter/cudainput/cuda_input.h"

#include "cuda_kernels/me_search.h"
#include "cuda_kernels/mestimate_cuda.h"

#define CHECK_CU(x) FF_CUDA_CHECK_DL(ctx, s->hwctx->internal->cuda_dl, x)

/* The luma (first) plane is searched, as mestimate does. */
static const enum AVPixelFormat supported_formats[] = {
    AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUVA420P, AV_PIX_FMT_NV12,
    AV_PIX_FMT_YUV444P, AV_PIX_FMT_GRAY8,
};

typedef struct MECudaContext {
    const AVClass *class;
    int method;
    int mb_size;
    int search_param;

    int log2_mb_size;
    int b_width, b_height, b_count;

    AVCUDADeviceContext *hwctx;
    CUmodule   cu_module;
    CUfunction cu_func_block;
    CUfunction cu_func_esa;
    CUfunction cu_func_esa_staged;
    CUfunction cu_func_bm;          ///< mestimate_bmN for N = mb_size, if any
    int stage_stride;               ///< mestimate_esa_staged: stride of the copy
    unsigned stage_bytes;           ///< and its size; 0: not used
    int bm_stride;                  ///< mestimate_bmN: stride of the window
    unsigned bm_bytes;              ///< and its shared size; 0: not used
    CUdeviceptr d_mvs;              ///< 2 directions x b_count x (x, y) int
    int *mvs;                       ///< host copy

    enum AVPixelFormat sw_format;
    int w, h;
    AVFrame *prev, *cur, *next;
} MECudaContext;

static av_cold int init(AVFilterContext *ctx)
{
    MECudaContext *s = ctx->priv;

    if (s->method == AV_ME_METHOD_EPZS || s->method == AV_ME_METHOD_UMH) {
        av_log(ctx, AV_LOG_ERROR, "method %s is not available on the GPU: its "
               "predictors are the vectors of neighbouring blocks. mestimate_cuda "
               "runs esa, tss, tdls, ntss, fss, ds and hexbs; use mestimate for "
               "epzs and umh\n", s->method == AV_ME_METHOD_EPZS ? "epzs" : "umh");
        return AVERROR(ENOSYS);
    }
    return 0;
}

static void free_device(AVFilterContext *ctx)
{
    MECudaContext *s = ctx->priv;
    CudaFunctions *cu;
    CUcontext dummy;

    av_freep(&s->mvs);
    if (!s->hwctx)
        return;
    cu = s->hwctx->internal->cuda_dl;
    if (CHECK_CU(cu->cuCtxPushCurrent(s->hwctx->cuda_ctx)) < 0)
        return;
    if (s->d_mvs)
        CHECK_CU(cu->cuMemFree(s->d_mvs));
    if (s->cu_module)
        CHECK_CU(cu->cuModuleUnload(s->cu_module));
    CHECK_CU(cu->cuCtxPopCurrent(&dummy));
    s->d_mvs     = 0;
    s->cu_module = NULL;
}

static av_cold void uninit(AVFilterContext *ctx)
{
    MECudaContext *s = ctx->priv;

    av_frame_free(&s->prev);
    av_frame_free(&s->cur);
    av_frame_free(&s->next);
    free_device(ctx);
}

static int alloc_device(AVFilterContext *ctx)
{
    MECudaContext *s  = ctx->priv;
    CudaFunctions *cu = s->hwctx->internal->cuda_dl;
    /* a module for each search (mestimate_cuda.cu): bmN, esa, block */
    extern const unsigned char ff_mestimate_cuda_block_ptx_data[], ff_mestimate_cuda_esa_ptx_data[],
                               ff_mestimate_cuda_bm8_ptx_data[], ff_mestimate_cuda_bm16_ptx_data[],
                               ff_mestimate_cuda_bm32_ptx_data[], ff_mestimate_cuda_bm64_ptx_data[];
    extern const unsigned int ff_mestimate_cuda_block_ptx_len, ff_mestimate_cuda_esa_ptx_len,
                              ff_mestimate_cuda_bm8_ptx_len, ff_mestimate_cuda_bm16_ptx_len,
                              ff_mestimate_cuda_bm32_ptx_len, ff_mestimate_cuda_bm64_ptx_len;
    static const unsigned char *const bm_data[] = {
        ff_mestimate_cuda_bm8_ptx_data, ff_mestimate_cuda_bm16_ptx_data,
        ff_mestimate_cuda_bm32_ptx_data, ff_mestimate_cuda_bm64_ptx_data,
    };
    const unsigned int bm_len[] = {
        ff_mestimate_cuda_bm8_ptx_len, ff_mestimate_cuda_bm16_ptx_len,
        ff_mestimate_cuda_bm32_ptx_len, ff_mestimate_cuda_bm64_ptx_len,
    };
    const size_t size = 2 * (size_t)s->b_count * 2 * sizeof(int);
    const int esa = s->method == AV_ME_METHOD_ESA;
    CUcontext dummy;
    int ret;

    s->mvs = av_malloc(size);
    if (!s->mvs)
        return AVERROR(ENOMEM);

    ret = CHECK_CU(cu->cuCtxPushCurrent(s->hwctx->cuda_ctx));
    if (ret < 0)
        return ret;
    if ((ret = CHECK_CU(cu->cuMemAlloc(&s->d_mvs, size))) < 0)
        goto fail;
    /* the kernel filter_frame() runs, and only its module */
    if (esa && s->bm_bytes) {
        const int i = s->log2_mb_size - 3;     /* mestimate_bm_smem(): 8 to 64 */
        char name[32];
        av_assert0(i >= 0 && i < FF_ARRAY_ELEMS(bm_data));
        snprintf(name, sizeof(name), "mestimate_bm%d", 1 << s->log2_mb_size);
        if ((ret = ff_cuda_load_module(ctx, s->hwctx, &s->cu_module, bm_data[i], bm_len[i])) < 0 ||
            (ret = CHECK_CU(cu->cuModuleGetFunction(&s->cu_func_bm, s->cu_module, name))) < 0)
            goto fail;
    } else if (esa && (1 << s->log2_mb_size) <= MESTIMATE_ESA_MAX_MB) {
        if ((ret = ff_cuda_load_module(ctx, s->hwctx, &s->cu_module,
                                       ff_mestimate_cuda_esa_ptx_data,
                                       ff_mestimate_cuda_esa_ptx_len)) < 0 ||
            (ret = CHECK_CU(cu->cuModuleGetFunction(&s->cu_func_esa, s->cu_module,
                                                    "mestimate_esa"))) < 0 ||
            (ret = CHECK_CU(cu->cuModuleGetFunction(&s->cu_func_esa_staged, s->cu_module,
                                                    "mestimate_esa_staged"))) < 0)
            goto fail;
    } else {
        if ((ret = ff_cuda_load_module(ctx, s->hwctx, &s->cu_module,
                                       ff_mestimate_cuda_block_ptx_data,
                                       ff_mestimate_cuda_block_ptx_len)) < 0 ||
            (ret = CHECK_CU(cu->cuModuleGetFunction(&s->cu_func_block, s->cu_module,
                                                    "mestimate_block"))) < 0)
            goto fail;
    }

fail:
    CHECK_CU(cu->cuCtxPopCurrent(&dummy));
    return ret;
}

static int config_props(AVFilterLink *outlink)
{
    AVFilterContext *ctx = outlink->src;
    AVFilterLink *inlink = ctx->inputs[0];
    FilterLink *inl      = ff_filter_link(inlink);
    FilterLink *outl     = ff_filter_link(outlink);
    MECudaContext *s     = ctx->priv;
    AVHWFramesContext *frames_ctx;
    int ret;

    free_device(ctx);

    if ((ret = ff_cuda_filter_input(ctx, inlink, supported_formats,
                                    FF_ARRAY_ELEMS(supported_formats), &frames_ctx)) < 0)
        return ret;

    /* as mestimate: mb_size rounded up to a power of two */
    if (s->mb_size > FFMIN(inlink->w, inlink->h)) {
        av_log(ctx, AV_LOG_ERROR, "mb_size %d: no whole block fits in a %dx%d "
               "frame (mestimate refuses it too)\n", s->mb_size, inlink->w, inlink->h);
        return AVERROR(EINVAL);
    }
    s->log2_mb_size = av_ceil_log2_c(s->mb_size);
    s->b_width  = inlink->w >> s->log2_mb_size;
    s->b_height = inlink->h >> s->log2_mb_size;
    s->b_count  = s->b_width * s->b_height;
    if (!s->b_count) {
        av_log(ctx, AV_LOG_ERROR, "mb_size %d (rounded up to %d): no whole block "
               "fits in a %dx%d frame (mestimate refuses it too)\n",
               s->mb_size, 1 << s->log2_mb_size, inlink->w, inlink->h);
        return AVERROR(EINVAL);
    }
    /* mestimate computes x_mb + search_param and search_param + 1 in int */
    if (s->search_param > INT_MAX - FFMAX(inlink->w, inlink->h)) {
        av_log(ctx, AV_LOG_ERROR, "search_param %d out of range: at most %d for "
               "a %dx%d frame\n", s->search_param,
               INT_MAX - FFMAX(inlink->w, inlink->h), inlink->w, inlink->h);
        return AVERROR(EINVAL);
    }

    {
        /* esa: the block and its window in shared memory where they fit */
        int stride, lines;
        me_esa_stage_size(1 << s->log2_mb_size, s->search_param,
                          (s->b_width - 1) << s->log2_mb_size,
                          (s->b_height - 1) << s->log2_mb_size, &stride, &lines);
        s->stage_stride = stride;
        s->stage_bytes  = (int64_t)stride * lines <= MESTIMATE_STAGE_MAX ?
                          (unsigned)stride * lines : 0;
        /* esa for mb_size 8 to 64: the block matching c63_cuda uses too */
        s->bm_bytes = mestimate_bm_smem(1 << s->log2_mb_size, s->search_param,
                                        (s->b_width - 1) << s->log2_mb_size,
                                        (s->b_height - 1) << s->log2_mb_size, &s->bm_stride);
    }

    s->hwctx     = frames_ctx->device_ctx->hwctx;
    s->sw_format = frames_ctx->sw_format;
    s->w         = inlink->w;
    s->h         = inlink->h;

    outlink->w = inlink->w;
    outlink->h = inlink->h;
    av_buffer_unref(&outl->hw_frames_ctx);
    outl->hw_frames_ctx = av_buffer_ref(inl->hw_frames_ctx);
    if (!outl->hw_frames_ctx)
        return AVERROR(ENOMEM);

    av_log(ctx, AV_LOG_VERBOSE, "%dx%d %s: %dx%d blocks of %d, search_param %d\n",
           s->w, s->h, av_get_pix_fmt_name(s->sw_format), s->b_width, s->b_height,
           1 << s->log2_mb_size, s->search_param);
    return alloc_device(ctx);
}

/* Vectors of s->cur against s->prev (dir 0) and s->next (dir 1) into s->mvs. */
static int search(AVFilterContext *ctx)
{
    MECudaContext *s  = ctx->priv;
    CudaFunctions *cu = s->hwctx->internal->cuda_dl;
    CUstream stream   = s->hwctx->stream;
    const int mb_size = 1 << s->log2_mb_size;
    CUcontext dummy;
    int dir, ret;

    if (s->prev->linesize[0] != s->cur->linesize[0] ||
        s->next->linesize[0] != s->cur->linesize[0]) {
        av_log(ctx, AV_LOG_ERROR, "Frames of one stream with different line "
               "sizes (%d, %d, %d)\n", s->prev->linesize[0],
               s->cur->linesize[0], s->next->linesize[0]);
        return AVERROR(EINVAL);
    }

    ret = CHECK_CU(cu->cuCtxPushCurrent(s->hwctx->cuda_ctx));
    if (ret < 0)
        return ret;

    for (dir = 0; dir < 2; dir++) {
        CUdeviceptr cur = (CUdeviceptr)s->cur->data[0];
        CUdeviceptr ref = (CUdeviceptr)(dir ? s->next : s->prev)->data[0];
        CUdeviceptr mvs = s->d_mvs + (size_t)dir * s->b_count * 2 * sizeof(int);
        int linesize = s->cur->linesize[0], mb = mb_size, log2_mb = s->log2_mb_size;
        int p = s->search_param, bw = s->b_width, bh = s->b_height, method = s->method;

        if (s->method == AV_ME_METHOD_ESA && s->bm_bytes) {
            int stride = s->bm_stride;
            void *args[] = { &cur, &ref, &linesize, &p, &bw, &bh, &stride, &mvs };
            ret = CHECK_CU(cu->cuLaunchKernel(s->cu_func_bm, bw, bh, 1,
                                              MESTIMATE_ESA_THREADS, 1, 1,
                                              s->bm_bytes, stream, args, NULL));
        } else if (s->method == AV_ME_METHOD_ESA && mb_size <= MESTIMATE_ESA_MAX_MB &&
                   s->stage_bytes) {
            int stride = s->stage_stride;
            void *args[] = { &cur, &ref, &linesize, &mb, &log2_mb, &p, &bw, &bh,
                             &stride, &mvs };
            ret = CHECK_CU(cu->cuLaunchKernel(s->cu_func_esa_staged, bw, bh, 1,
                                              MESTIMATE_ESA_THREADS, 1, 1,
                                              s->stage_bytes, stream, args, NULL));
        } else if (s->method == AV_ME_METHOD_ESA && mb_size <= MESTIMATE_ESA_MAX_MB) {
            void *args[] = { &cur, &ref, &linesize, &mb, &log2_mb, &p, &bw, &bh, &mvs };
            ret = CHECK_CU(cu->cuLaunchKernel(s->cu_func_esa, bw, bh, 1,
                                              MESTIMATE_ESA_THREADS, 1, 1,
                                              0, stream, args, NULL));
        } else {
            void *args[] = { &cur, &ref, &linesize, &mb, &log2_mb, &p, &bw, &bh,
                             &method, &mvs };
            ret = CHECK_CU(cu->cuLaunchKernel(s->cu_func_block,
                                              (s->b_count + MESTIMATE_BLOCK_THREADS - 1) /
                                              MESTIMATE_BLOCK_THREADS, 1, 1,
                                              MESTIMATE_BLOCK_THREADS, 1, 1,
                                              0, stream, args, NULL));
        }
        if (ret < 0)
            goto fail;
    }
    if ((ret = CHECK_CU(cu->cuMemcpyDtoHAsync(s->mvs, s->d_mvs,
                                              2 * (size_t)s->b_count * 2 * sizeof(int),
                                              stream))) < 0 ||
        (ret = CHECK_CU(cu->cuStreamSynchronize(stream))) < 0)
        goto fail;

fail:
    CHECK_CU(cu->cuCtxPopCurrent(&dummy));
    return ret;
}

static int filter_frame(AVFilterLink *inlink, AVFrame *frame)
{
    AVFilterContext *ctx = inlink->dst;
    MECudaContext *s     = ctx->priv;
    const int mb_size    = 1 << s->log2_mb_size;
    AVFrameSideData *sd;
    AVMotionVector *mv;
    AVFrame *out;
    int dir, i, ret;

    if ((ret = ff_cuda_filter_frame_check(ctx, frame, s->w, s->h, s->sw_format,
                                          "motion vectors need frames of one size")) < 0) {
        av_frame_free(&frame);
        return ret;
    }

    /* what mestimate does, in the same order */
    if (frame->pts == AV_NOPTS_VALUE)
        return ff_filter_frame(ctx->outputs[0], frame);

    av_frame_free(&s->prev);
    s->prev = s->cur;
    s->cur  = s->next;
    s->next = frame;

    if (!s->cur) {
        s->cur = av_frame_clone(frame);
        if (!s->cur)
            return AVERROR(ENOMEM);
    }
    if (!s->prev)
        return 0;

    ret = search(ctx);
    if (ret < 0)
        return ret;

    out = av_frame_clone(s->cur);
    if (!out)
        return AVERROR(ENOMEM);
    sd = av_frame_new_side_data(out, AV_FRAME_DATA_MOTION_VECTORS,
                                2 * s->b_count * sizeof(AVMotionVector));
    if (!sd) {
        av_frame_free(&out);
        return AVERROR(ENOMEM);
    }
    mv = (AVMotionVector *)sd->data;
    for (dir = 0; dir < 2; dir++)
        for (i = 0; i < s->b_count; i++, mv++) {
            const int *v = s->mvs + 2 * ((size_t)dir * s->b_count + i);
            const int x  = (i % s->b_width) << s->log2_mb_size;
            const int y  = (i / s->b_width) << s->log2_mb_size;
            /* add_mv_data() of vf_mestimate.c */
            mv->w      = mb_size;
            mv->h      = mb_size;
            mv->dst_x  = x + (mb_size >> 1);
            mv->dst_y  = y + (mb_size >> 1);
            mv->src_x  = v[0] + (mb_size >> 1);
            mv->src_y  = v[1] + (mb_size >> 1);
            mv->source = dir ? 1 : -1;
            mv->flags  = 0;
        }

    return ff_filter_frame(ctx->outputs[0], out);
}

#define OFFSET(x) offsetof(MECudaContext, x)
#define FLAGS (AV_OPT_FLAG_VIDEO_PARAM | AV_OPT_FLAG_FILTERING_PARAM)
#define CONST(name, help, val, u) { name, help, 0, AV_OPT_TYPE_CONST, {.i64=val}, 0, 0, FLAGS, .unit = u }

/* mestimate's options: names, ranges, defaults */
static const AVOption mestimate_cuda_options[] = {
    { "method", "motion estimation method", OFFSET(method), AV_OPT_TYPE_INT, {.i64 = AV_ME_METHOD_ESA}, AV_ME_METHOD_ESA, AV_ME_METHOD_UMH, FLAGS, .unit = "method" },
        CONST("esa",   "exhaustive search",                  AV_ME_METHOD_ESA,   "method"),
        CONST("tss",   "three step search",                  AV_ME_METHOD_TSS,   "method"),
        CONST("tdls",  "two dimensional logarithmic search", AV_ME_METHOD_TDLS,  "method"),
        CONST("ntss",  "new three step search",              AV_ME_METHOD_NTSS,  "method"),
        CONST("fss",   "four step search",                   AV_ME_METHOD_FSS,   "method"),
        CONST("ds",    "diamond search",                     AV_ME_METHOD_DS,    "method"),
        CONST("hexbs", "hexagon-based search",               AV_ME_METHOD_HEXBS, "method"),
        CONST("epzs",  "enhanced predictive zonal search (not on the GPU: refused)", AV_ME_METHOD_EPZS, "method"),
        CONST("umh",   "uneven multi-hexagon search (not on the GPU: refused)",      AV_ME_METHOD_UMH,  "method"),
    { "mb_size", "macroblock size (rounded up to a power of two)", OFFSET(mb_size), AV_OPT_TYPE_INT, {.i64 = 16}, 8, INT_MAX, FLAGS },
    { "search_param", "search parameter", OFFSET(search_param), AV_OPT_TYPE_INT, {.i64 = 7}, 4, INT_MAX, FLAGS },
    { NULL }
};

AVFILTER_DEFINE_CLASS(mestimate_cuda);

static const AVFilterPad mestimate_cuda_inputs[] = {
    {
        .name         = "default",
        .type         = AVMEDIA_TYPE_VIDEO,
        .filter_frame = filter_frame,
    },
};

static const AVFilterPad mestimate_cuda_outputs[] = {
    {
        .name         = "default",
        .type         = AVMEDIA_TYPE_VIDEO,
        .config_props = config_props,
    },
};

const FFFilter ff_vf_mestimate_cuda = {
    .p.name         = "mestimate_cuda",
    .p.description  = NULL_IF_CONFIG_SMALL("Generate motion vectors, as mestimate, on CUDA frames."),
    .p.priv_class   = &mestimate_cuda_class,
    .p.flags        = AVFILTER_FLAG_METADATA_ONLY,
    .priv_size      = sizeof(MECudaContext),
    .init           = init,
    .uninit         = uninit,
    FILTER_INPUTS(mestimate_cuda_inputs),
    FILTER_OUTPUTS(mestimate_cuda_outputs),
    FILTER_SINGLE_PIXFMT(AV_PIX_FMT_CUDA),
    .flags_internal = FF_FILTER_FLAG_HWFRAME_AWARE,
};
