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

#include "libavutil/bprint.h"
#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/pixdesc.h"
#include "libavfilter/filters.h"

#include "cuda_input.h"

int ff_cuda_filter_input(AVFilterContext *ctx, AVFilterLink *inlink,
                         const enum AVPixelFormat *fmts, int nb_fmts,
                         AVHWFramesContext **frames)
{
    FilterLink *inl = ff_filter_link(inlink);
    AVHWFramesContext *f;
    AVBPrint list;

    if (!inl->hw_frames_ctx) {
        av_log(ctx, AV_LOG_ERROR, "No hardware frames context on the input: "
               "%s takes CUDA frames, e.g. from hwupload_cuda\n", ctx->filter->name);
        return AVERROR(EINVAL);
    }
    f = (AVHWFramesContext *)inl->hw_frames_ctx->data;
    if (f->format != AV_PIX_FMT_CUDA || f->device_ctx->type != AV_HWDEVICE_TYPE_CUDA) {
        av_log(ctx, AV_LOG_ERROR, "Input frames are not CUDA frames\n");
        return AVERROR(EINVAL);
    }
    for (int i = 0; i < nb_fmts; i++)
        if (f->sw_format == fmts[i]) {
            *frames = f;
            return 0;
        }

    av_bprint_init(&list, 0, AV_BPRINT_SIZE_AUTOMATIC);
    for (int i = 0; i < nb_fmts; i++)
        av_bprintf(&list, "%s%s", i ? ", " : "", av_get_pix_fmt_name(fmts[i]));
    av_log(ctx, AV_LOG_ERROR, "Unsupported input format: %s (%s takes %s)\n",
           av_get_pix_fmt_name(f->sw_format), ctx->filter->name, list.str);
    av_bprint_finalize(&list, NULL);
    return AVERROR(ENOSYS);
}

int ff_cuda_filter_frame_check(AVFilterContext *ctx, const AVFrame *frame, int w, int h,
                               enum AVPixelFormat sw_format, const char *why)
{
    const AVHWFramesContext *f;

    if (!frame->hw_frames_ctx) {
        av_log(ctx, AV_LOG_ERROR, "Input frame has no hardware frames context\n");
        return AVERROR(EINVAL);
    }
    f = (const AVHWFramesContext *)frame->hw_frames_ctx->data;
    if (frame->width != w || frame->height != h || f->sw_format != sw_format) {
        av_log(ctx, AV_LOG_ERROR, "Input changed from %dx%d %s to %dx%d %s mid-stream; %s\n",
               w, h, av_get_pix_fmt_name(sw_format), frame->width, frame->height,
               av_get_pix_fmt_name(f->sw_format), why);
        return AVERROR(EINVAL);
    }
    return 0;
}
