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
 * drawtext_cuda: drawtext on CUDA frames.
 *
 * Options, text expansion, shaping, layout and the FreeType glyph cache are
 * drawtext's own (libavfilter/drawtext.h). drawtext's two drawing calls
 * are recorded as DTCOp operations instead of being executed: a glyph
 * bitmap is copied once into an atlas in device memory (appended when a
 * new glyph, size or subpixel shift appears), and per frame the list of
 * operations goes through pinned memory to the device asynchronously on
 * the hwcontext's stream, followed by one kernel launch that draws them
 * in place. Buffers only grow, to the largest frame seen; nothing is
 * allocated in the steady state and the picture never leaves the device.
 */

#include <string.h>

#include "libavutil/common.h"
#include "libavutil/cuda_check.h"
#include "libavutil/hwcontext.h"
#include "libavutil/hwcontext_cuda_internal.h"
#include "libavutil/mem.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"
#include "libavutil/tree.h"

#include "libavfilter/avfilter.h"
#include "libavfilter/drawtext.h"
#include "libavfilter/filters.h"
#include "libavfilter/formats.h"
#include "libavfilter/video.h"
#include "libavfilter/cuda/load_helper.h"
#include "libavfilter/cudainput/cuda_input.h"

#include "cuda_kernels/drawtext_cuda.h"

#define CHECK_CU(x) FF_CUDA_CHECK_DL(ctx, c->hwctx->internal->cuda_dl, x)

/* Driver entry points that ffnvcodec's loader does not provide. */
typedef CUresult CUDAAPI tcuMemAllocHost(void **pp, size_t bytesize);
typedef CUresult CUDAAPI tcuMemFreeHost(void *p);

static const enum AVPixelFormat supported_formats[] = {
    AV_PIX_FMT_YUV420P, AV_PIX_FMT_NV12,    AV_PIX_FMT_YUV444P,
    AV_PIX_FMT_0RGB,    AV_PIX_FMT_0BGR,    AV_PIX_FMT_RGB0,   AV_PIX_FMT_BGR0,
    AV_PIX_FMT_YUYV422, AV_PIX_FMT_UYVY422, AV_PIX_FMT_RGB24,  AV_PIX_FMT_BGR24,
    AV_PIX_FMT_GRAY8,
};

/** A glyph bitmap in the atlas, found by the address of its pixels. */
typedef struct AtlasEntry {
    const uint8_t *buffer;
    int offset;
} AtlasEntry;

typedef struct DrawTextCudaContext {
    AVCUDADeviceContext *hwctx;
    enum AVPixelFormat sw_format;
    int w, h;

    CUmodule   cu_module;
    CUfunction cu_func;             ///< drawtext_cuda: the list in device memory
    CUfunction cu_func_inline;      ///< drawtext_cuda_inline: in the parameters
    CUevent    ops_done;            ///< the last copy of the operations ended
    int        ops_pending;
    DTCInlineParams inline_params;

    DTCParams  params;              ///< channels for the configured format
    int color_plane[DTC_MAX_CHANNELS]; ///< where channel i's value is in an
    int color_index[DTC_MAX_CHANNELS]; ///< FFDrawColor of the drawing format

    tcuMemAllocHost *mem_alloc_host; ///< NULL: the list is in pageable memory
    tcuMemFreeHost  *mem_free_host;

    DTCOp     *ops;                 ///< pinned host copy, ops_size entries
    int        nb_ops, ops_size;
    CUdeviceptr d_ops;

    struct AVTreeNode *atlas_index; ///< AtlasEntry by buffer address
    AtlasEntry atlas_recent[256];   ///< the last found, by hash of the address
    uint8_t   *atlas;               ///< host copy of the atlas
    unsigned   atlas_size, atlas_alloc;
    unsigned   atlas_uploaded;      ///< bytes of the atlas on the device
    CUdeviceptr d_atlas;
    unsigned   d_atlas_size;
} DrawTextCudaContext;

static int entry_cmp(const void *a, const void *b)
{
    const AtlasEntry *ea = a, *eb = b;
    uintptr_t pa = (uintptr_t)ea->buffer, pb = (uintptr_t)eb->buffer;
    return (pa > pb) - (pa < pb);
}

static int free_entry(void *opaque, void *elem)
{
    av_free(elem);
    return 0;
}

/* Forget the atlas: drawtext freed or replaced glyphs (process_command). */
static void atlas_reset(DrawTextCudaContext *c)
{
    av_tree_enumerate(c->atlas_index, NULL, NULL, free_entry);
    av_tree_destroy(c->atlas_index);
    c->atlas_index    = NULL;
    memset(c->atlas_recent, 0, sizeof(c->atlas_recent));
    c->atlas_size     = 0;
    c->atlas_uploaded = 0;
}

/* Offset of the bitmap in the atlas, appending it if it is new. */
static int atlas_offset(AVFilterContext *ctx, const FT_Bitmap *bitmap)
{
    DrawTextContext *s = ctx->priv;
    DrawTextCudaContext *c = s->backend_priv;
    AtlasEntry key = { .buffer = bitmap->buffer }, *e;
    AtlasEntry *recent = &c->atlas_recent[((uintptr_t)bitmap->buffer >> 4 ^
                                           (uintptr_t)bitmap->buffer >> 12) & 255];
    struct AVTreeNode *node;
    size_t size = (size_t)bitmap->pitch * bitmap->rows;

    /* a glyph is drawn again on every frame: most are found at once */
    if (recent->buffer == bitmap->buffer && bitmap->buffer)
        return recent->offset;
    e = av_tree_find(c->atlas_index, &key, entry_cmp, NULL);
    if (e) {
        *recent = *e;
        return e->offset;
    }

    if (bitmap->pitch <= 0 || size > INT_MAX - c->atlas_size) {
        av_log(ctx, AV_LOG_ERROR, "Glyph bitmap of %dx%d (pitch %d) cannot be "
               "placed in the atlas\n", bitmap->width, bitmap->rows, bitmap->pitch);
        return AVERROR(EINVAL);
    }
    if (c->atlas_size + size > c->atlas_alloc) {
        unsigned alloc = FFMAX(c->atlas_alloc * 2, c->atlas_size + size + 65536);
        uint8_t *p = av_realloc(c->atlas, alloc);
        if (!p)
            return AVERROR(ENOMEM);
        c->atlas       = p;
        c->atlas_alloc = alloc;
    }
    e    = av_mallocz(sizeof(*e));
    node = av_tree_node_alloc();
    if (!e || !node) {
        av_free(e);
        av_free(node);
        return AVERROR(ENOMEM);
    }
    e->buffer = bitmap->buffer;
    e->offset = c->atlas_size;
    memcpy(c->atlas + c->atlas_size, bitmap->buffer, size);
    c->atlas_size += size;
    av_tree_insert(&c->atlas_index, e, entry_cmp, &node);
    av_free(node);
    return e->offset;
}

static void free_host(DrawTextCudaContext *c, DTCOp *ops)
{
    if (c->mem_free_host)
        c->mem_free_host(ops);
    else
        av_free(ops);
}

/* Room for n entries; the pinned buffer only grows. */
static int reserve_ops(AVFilterContext *ctx, int n)
{
    DrawTextContext *s = ctx->priv;
    DrawTextCudaContext *c = s->backend_priv;
    CudaFunctions *cu = c->hwctx->internal->cuda_dl;

    if (n > c->ops_size) {
        int size = FFMAX3(c->ops_size * 2, 256, n);
        DTCOp *ops;
        CUdeviceptr d_ops;

        if (n < 0 || size > INT_MAX / (int)sizeof(DTCOp))
            return AVERROR(ENOMEM);
        if (c->mem_alloc_host) {
            if (CHECK_CU(c->mem_alloc_host((void **)&ops, size * sizeof(DTCOp))) < 0)
                return AVERROR(ENOMEM);
        } else if (!(ops = av_malloc(size * sizeof(DTCOp)))) {
            return AVERROR(ENOMEM);
        }
        if (CHECK_CU(cu->cuMemAlloc(&d_ops, size * sizeof(DTCOp))) < 0) {
            free_host(c, ops);
            return AVERROR(ENOMEM);
        }
        if (c->ops) {
            memcpy(ops, c->ops, c->nb_ops * sizeof(DTCOp));
            /* the device copy may still be read by the last launch */
            CHECK_CU(cu->cuStreamSynchronize(c->hwctx->stream));
            free_host(c, c->ops);
            CHECK_CU(cu->cuMemFree(c->d_ops));
        }
        c->ops      = ops;
        c->d_ops    = d_ops;
        c->ops_size = size;
    }
    return 0;
}

static DTCOp *new_op(AVFilterContext *ctx)
{
    DrawTextContext *s = ctx->priv;
    DrawTextCudaContext *c = s->backend_priv;

    if (c->nb_ops == INT_MAX || reserve_ops(ctx, c->nb_ops + 1) < 0)
        return NULL;
    return &c->ops[c->nb_ops++];
}

static void set_colors(DrawTextCudaContext *c, DTCOp *op, const FFDrawColor *color)
{
    for (int i = 0; i < DTC_MAX_CHANNELS; i++)
        op->color[i] = i < c->params.nb_channels ?
                       color->comp[c->color_plane[i]].u8[c->color_index[i]] : 0;
}

static int push_op(AVFilterContext *ctx, const DTCOp *op)
{
    DTCOp *dst = new_op(ctx);

    if (!dst)
        return AVERROR(ENOMEM);
    *dst = *op;
    return 0;
}

static int cuda_blend_rectangle(AVFilterContext *ctx, AVFrame *frame,
                                FFDrawColor *color, int dst_w, int dst_h,
                                int x, int y, int w, int h)
{
    DrawTextContext *s = ctx->priv;
    DrawTextCudaContext *c = s->backend_priv;
    DTCOp op;

    if (!dtc_rect_op(&op, dst_w, dst_h, x, y, w, h, color->rgba[3]))
        return 0;
    set_colors(c, &op, color);
    return push_op(ctx, &op);
}

static int cuda_blend_glyph(AVFilterContext *ctx, AVFrame *frame,
                            FFDrawColor *color, int dst_w, int dst_h,
                            const FT_Bitmap *bitmap, int offset,
                            int w, int h, int x, int y)
{
    DrawTextContext *s = ctx->priv;
    DrawTextCudaContext *c = s->backend_priv;
    DTCOp op;
    int base;

    if (bitmap->pixel_mode != FT_PIXEL_MODE_GRAY) {
        av_log(ctx, AV_LOG_ERROR, "Glyph bitmap of pixel mode %d: only 8-bit "
               "gray bitmaps are supported\n", bitmap->pixel_mode);
        return AVERROR(ENOSYS);
    }
    if (w <= 0 || h <= 0 || !color->rgba[3])
        return 0;
    base = atlas_offset(ctx, bitmap);
    if (base < 0)
        return base;
    if (!dtc_mask_op(&op, dst_w, dst_h, base + offset, bitmap->pitch,
                     w, h, x, y, color->rgba[3]))
        return 0;
    set_colors(c, &op, color);
    return push_op(ctx, &op);
}

/* Upload what is new in the atlas, then launch: a short list in the
 * launch's parameters, a longer one copied to the device first. */
static int run_kernel(AVFilterContext *ctx, AVFrame *frame)
{
    DrawTextContext *s = ctx->priv;
    DrawTextCudaContext *c = s->backend_priv;
    CudaFunctions *cu = c->hwctx->internal->cuda_dl;
    CUstream stream = c->hwctx->stream;
    DTCInlineParams *q = &c->inline_params;
    DTCParams p = c->params;
    void *args[] = { &p }, *inline_args[] = { q };
    int ret, gw, gh, entries;

    if (!c->nb_ops)
        return 0;

    if (c->atlas_size > c->d_atlas_size) {
        unsigned size = FFMAX(c->d_atlas_size * 2, c->atlas_size);
        /* the last launch may still read the old atlas */
        if ((ret = CHECK_CU(cu->cuStreamSynchronize(stream))) < 0)
            return ret;
        if (c->d_atlas)
            CHECK_CU(cu->cuMemFree(c->d_atlas));
        c->d_atlas = 0;
        c->d_atlas_size = c->atlas_uploaded = 0;
        if ((ret = CHECK_CU(cu->cuMemAlloc(&c->d_atlas, size))) < 0)
            return ret;
        c->d_atlas_size = size;
    }
    if (c->atlas_size > c->atlas_uploaded) {
        /* pageable source: the call returns once the bytes are staged */
        ret = CHECK_CU(cu->cuMemcpyHtoDAsync(c->d_atlas + c->atlas_uploaded,
                                             c->atlas + c->atlas_uploaded,
                                             c->atlas_size - c->atlas_uploaded,
                                             stream));
        if (ret < 0)
            return ret;
        c->atlas_uploaded = c->atlas_size;
    }

    if (c->nb_ops > INT_MAX - DTC_NB_CHUNKS(c->nb_ops))
        return AVERROR(ENOMEM);
    entries = DTC_NB_ENTRIES(c->nb_ops);
    if ((ret = reserve_ops(ctx, entries)) < 0)
        return ret;
    dtc_finish_ops(c->ops, c->nb_ops, &p);
    for (int i = 0; i < p.nb_channels; i++) {
        const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(c->sw_format);
        int plane = desc->comp[i].plane;
        int off   = desc->comp[i].offset;
        p.ch[i].data     = (CUdeviceptr)frame->data[plane] + off;
        p.ch[i].linesize = frame->linesize[plane];
    }
    p.ops    = c->d_ops;
    p.atlas  = c->d_atlas;
    gw = (p.x1 - 1 - p.x0) / DTC_BLOCK_W + 1;
    gh = (p.y1 - 1 - p.y0) / DTC_BLOCK_H + 1;

    /* the driver copies the parameters at the launch: the pinned list is
     * free again at once */
    if (dtc_inline_params(q, &p, c->ops, entries))
        return CHECK_CU(cu->cuLaunchKernel(c->cu_func_inline, gw, gh, p.nb_channels,
                                           DTC_BLOCK_W, DTC_BLOCK_H, 1,
                                           0, stream, inline_args, NULL));

    ret = CHECK_CU(cu->cuMemcpyHtoDAsync(c->d_ops, c->ops, entries * sizeof(DTCOp), stream));
    if (ret < 0)
        return ret;
    if ((ret = CHECK_CU(cu->cuEventRecord(c->ops_done, stream))) < 0)
        return ret;
    c->ops_pending = 1;

    return CHECK_CU(cu->cuLaunchKernel(c->cu_func, gw, gh, p.nb_channels,
                                       DTC_BLOCK_W, DTC_BLOCK_H, 1,
                                       0, stream, args, NULL));
}

static void free_device(AVFilterContext *ctx)
{
    DrawTextContext *s = ctx->priv;
    DrawTextCudaContext *c = s->backend_priv;
    CudaFunctions *cu;
    CUcontext dummy;

    if (!c || !c->hwctx)
        return;
    cu = c->hwctx->internal->cuda_dl;
    if (CHECK_CU(cu->cuCtxPushCurrent(c->hwctx->cuda_ctx)) < 0)
        return;
    CHECK_CU(cu->cuStreamSynchronize(c->hwctx->stream));
    if (c->ops_done)
        CHECK_CU(cu->cuEventDestroy(c->ops_done));
    if (c->ops)
        free_host(c, c->ops);
    if (c->d_ops)
        CHECK_CU(cu->cuMemFree(c->d_ops));
    if (c->d_atlas)
        CHECK_CU(cu->cuMemFree(c->d_atlas));
    if (c->cu_module)
        CHECK_CU(cu->cuModuleUnload(c->cu_module));
    CHECK_CU(cu->cuCtxPopCurrent(&dummy));
    c->ops_done  = NULL;
    c->ops       = NULL;
    c->ops_size  = c->nb_ops = 0;
    c->d_ops     = 0;
    c->d_atlas   = 0;
    c->d_atlas_size = c->atlas_uploaded = 0;
    c->cu_module = NULL;
    c->hwctx     = NULL;
}

static int config_input(AVFilterLink *inlink);

static const DrawTextBackend cuda_backend = {
    .config_input    = config_input,
    .blend_rectangle = cuda_blend_rectangle,
    .blend_glyph     = cuda_blend_glyph,
};

static av_cold int init(AVFilterContext *ctx)
{
    DrawTextContext *s = ctx->priv;

    s->backend      = &cuda_backend;
    s->backend_priv = av_mallocz(sizeof(DrawTextCudaContext));
    if (!s->backend_priv)
        return AVERROR(ENOMEM);
    return ff_drawtext_init(ctx);
}

static av_cold void uninit(AVFilterContext *ctx)
{
    DrawTextContext *s = ctx->priv;
    DrawTextCudaContext *c = s->backend_priv;

    if (c) {
        free_device(ctx);
        atlas_reset(c);
        av_freep(&c->atlas);
        av_freep(&s->backend_priv);
    }
    ff_drawtext_uninit(ctx);
}

/* Channels of the frame, in the order of the drawing format's components,
 * and where their values are in an FFDrawColor of the drawing format. */
static void set_channels(DrawTextCudaContext *c, enum AVPixelFormat draw_format,
                         int w, int h)
{
    const AVPixFmtDescriptor *desc  = av_pix_fmt_desc_get(c->sw_format);
    const AVPixFmtDescriptor *ddesc = av_pix_fmt_desc_get(draw_format);
    DTCParams *p = &c->params;

    memset(p, 0, sizeof(*p));
    p->nb_channels = desc->nb_components;
    for (int i = 0; i < desc->nb_components; i++) {
        const AVComponentDescriptor *comp = &desc->comp[i];
        int chroma = !(desc->flags & AV_PIX_FMT_FLAG_RGB) && (i == 1 || i == 2) &&
                     desc->nb_components >= 3;
        DTCChannel *ch = &p->ch[i];

        ch->step   = comp->step;
        ch->hsub   = chroma ? desc->log2_chroma_w : 0;
        ch->vsub   = chroma ? desc->log2_chroma_h : 0;
        ch->width  = AV_CEIL_RSHIFT(w, ch->hsub);
        ch->height = AV_CEIL_RSHIFT(h, ch->vsub);
        /* 8-bit components: the u8 index is the byte offset */
        c->color_plane[i] = ddesc->comp[i].plane;
        c->color_index[i] = ddesc->comp[i].offset;
    }
}

static int config_input(AVFilterLink *inlink)
{
    AVFilterContext *ctx = inlink->dst;
    DrawTextContext *s   = ctx->priv;
    DrawTextCudaContext *c = s->backend_priv;
    AVHWFramesContext *frames_ctx;
    enum AVPixelFormat draw_format;
    int ret;

    if ((ret = ff_cuda_filter_input(ctx, inlink, supported_formats,
                                    FF_ARRAY_ELEMS(supported_formats), &frames_ctx)) < 0)
        return ret;

    /* libavfilter negotiates the colour properties of a CUDA link as if
     * its frames were yuv420p (pick_format() in avfiltergraph.c). A software
     * link of the frames' own format, which is what drawtext sees, has full
     * range and no YUV colour space when the format is not regular YUV
     * (gray, RGB): take those, so that the colours are drawtext's. */
    if (!ff_fmt_is_regular_yuv(frames_ctx->sw_format)) {
        const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(frames_ctx->sw_format);
        inlink->color_range = AVCOL_RANGE_JPEG;
        inlink->colorspace  = desc->flags & AV_PIX_FMT_FLAG_RGB ? AVCOL_SPC_RGB
                                                                : AVCOL_SPC_UNSPECIFIED;
    }

    /* drawutils does not draw on packed 4:2:2; its values and subsampling
     * are those of yuv422p, which the channels then address in place */
    draw_format = frames_ctx->sw_format == AV_PIX_FMT_YUYV422 ||
                  frames_ctx->sw_format == AV_PIX_FMT_UYVY422 ?
                  AV_PIX_FMT_YUV422P : frames_ctx->sw_format;
    ret = ff_drawtext_config_input(inlink, draw_format);
    if (ret < 0)
        return ret;

    /* reconfiguration after a command: keep the device state */
    if (c->hwctx && c->hwctx == frames_ctx->device_ctx->hwctx &&
        c->sw_format == frames_ctx->sw_format &&
        c->w == inlink->w && c->h == inlink->h)
        return 0;

    free_device(ctx);
    atlas_reset(c);
    c->hwctx     = frames_ctx->device_ctx->hwctx;
    c->sw_format = frames_ctx->sw_format;
    c->w         = inlink->w;
    c->h         = inlink->h;
    set_channels(c, draw_format, c->w, c->h);
    /* looked up in the library that the loader opened (compat/cuda) */
    c->mem_alloc_host = NULL;
    c->mem_free_host  = NULL;
    if (c->hwctx->internal->cuda_dl->lib) {
        void *lib = c->hwctx->internal->cuda_dl->lib;
        c->mem_alloc_host = (tcuMemAllocHost *)FFNV_SYM_FUNC(lib, "cuMemAllocHost_v2");
        c->mem_free_host  = (tcuMemFreeHost *)FFNV_SYM_FUNC(lib, "cuMemFreeHost");
        if (!c->mem_alloc_host || !c->mem_free_host)
            c->mem_alloc_host = NULL, c->mem_free_host = NULL;
    }
    {
        extern const unsigned char ff_drawtext_cuda_ptx_data[];
        extern const unsigned int ff_drawtext_cuda_ptx_len;
        CudaFunctions *cu = c->hwctx->internal->cuda_dl;
        CUcontext dummy;

        ret = CHECK_CU(cu->cuCtxPushCurrent(c->hwctx->cuda_ctx));
        if (ret < 0)
            return ret;
        ret = ff_cuda_load_module(ctx, c->hwctx, &c->cu_module,
                                  ff_drawtext_cuda_ptx_data, ff_drawtext_cuda_ptx_len);
        if (ret >= 0)
            ret = CHECK_CU(cu->cuModuleGetFunction(&c->cu_func, c->cu_module,
                                                   "drawtext_cuda"));
        if (ret >= 0)
            ret = CHECK_CU(cu->cuModuleGetFunction(&c->cu_func_inline, c->cu_module,
                                                   "drawtext_cuda_inline"));
        if (ret >= 0)
            ret = CHECK_CU(cu->cuEventCreate(&c->ops_done, CU_EVENT_DISABLE_TIMING));
        CHECK_CU(cu->cuCtxPopCurrent(&dummy));
        if (ret < 0)
            return ret;
    }
    return 0;
}

static int config_output(AVFilterLink *outlink)
{
    AVFilterContext *ctx = outlink->src;
    FilterLink *inl  = ff_filter_link(ctx->inputs[0]);
    FilterLink *outl = ff_filter_link(outlink);

    if (!inl->hw_frames_ctx)
        return AVERROR(EINVAL);
    outlink->w = ctx->inputs[0]->w;
    outlink->h = ctx->inputs[0]->h;
    av_buffer_unref(&outl->hw_frames_ctx);
    outl->hw_frames_ctx = av_buffer_ref(inl->hw_frames_ctx);
    return outl->hw_frames_ctx ? 0 : AVERROR(ENOMEM);
}

static int filter_frame(AVFilterLink *inlink, AVFrame *frame)
{
    AVFilterContext *ctx = inlink->dst;
    DrawTextContext *s   = ctx->priv;
    DrawTextCudaContext *c = s->backend_priv;
    CudaFunctions *cu = c->hwctx->internal->cuda_dl;
    CUcontext dummy;
    int ret;

    if ((ret = ff_cuda_filter_frame_check(ctx, frame, c->w, c->h, c->sw_format,
                                          "drawtext_cuda does not follow size or format "
                                          "changes")) < 0)
        goto fail;

    ret = CHECK_CU(cu->cuCtxPushCurrent(c->hwctx->cuda_ctx));
    if (ret < 0)
        goto fail;
    /* the pinned operations of the last frame are being copied */
    if (c->ops_pending) {
        ret = CHECK_CU(cu->cuEventSynchronize(c->ops_done));
        c->ops_pending = 0;
    }
    c->nb_ops = 0;
    if (ret >= 0)
        ret = ff_drawtext_draw_frame(inlink, frame);
    if (ret >= 0)
        ret = run_kernel(ctx, frame);
    CHECK_CU(cu->cuCtxPopCurrent(&dummy));
    if (ret < 0)
        goto fail;

    return ff_filter_frame(ctx->outputs[0], frame);

fail:
    av_frame_free(&frame);
    return ret;
}

static int process_command(AVFilterContext *ctx, const char *cmd, const char *arg,
                           char *res, int res_len, int flags)
{
    DrawTextContext *s = ctx->priv;
    DrawTextCudaContext *c = s->backend_priv;
    CudaFunctions *cu = c->hwctx ? c->hwctx->internal->cuda_dl : NULL;
    int ret;

    /* drawtext may free glyphs whose bitmaps the atlas index points to */
    if (cu)
        CHECK_CU(cu->cuStreamSynchronize(c->hwctx->stream));
    ret = ff_drawtext_command(ctx, cmd, arg, res, res_len, flags);
    s = ctx->priv;
    c = s->backend_priv;
    atlas_reset(c);
    return ret;
}

static const AVClass drawtext_cuda_class = {
    .class_name = "drawtext_cuda",
    .item_name  = av_default_item_name,
    .option     = ff_drawtext_options,
    .version    = LIBAVUTIL_VERSION_INT,
    .category   = AV_CLASS_CATEGORY_FILTER,
};

static const AVFilterPad drawtext_cuda_inputs[] = {
    {
        .name         = "default",
        .type         = AVMEDIA_TYPE_VIDEO,
        .flags        = AVFILTERPAD_FLAG_NEEDS_WRITABLE,
        .filter_frame = filter_frame,
        .config_props = config_input,
    },
};

static const AVFilterPad drawtext_cuda_outputs[] = {
    {
        .name         = "default",
        .type         = AVMEDIA_TYPE_VIDEO,
        .config_props = config_output,
    },
};

const FFFilter ff_vf_drawtext_cuda = {
    .p.name          = "drawtext_cuda",
    .p.description   = NULL_IF_CONFIG_SMALL("Draw text on top of CUDA video frames, as drawtext does."),
    .p.priv_class    = &drawtext_cuda_class,
    .p.flags         = AVFILTER_FLAG_SUPPORT_TIMELINE_GENERIC,
    .priv_size       = sizeof(DrawTextContext),
    .init            = init,
    .uninit          = uninit,
    FILTER_INPUTS(drawtext_cuda_inputs),
    FILTER_OUTPUTS(drawtext_cuda_outputs),
    FILTER_SINGLE_PIXFMT(AV_PIX_FMT_CUDA),
    .process_command = process_command,
    .flags_internal  = FF_FILTER_FLAG_HWFRAME_AWARE,
};
