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
 * Input checks shared by the filters on CUDA frames (cudadiff,
 * drawtext_cuda, mestimate_cuda): each failure is logged with the
 * filter's name and returns an AVERROR.
 */

#ifndef AVFILTER_CUDAINPUT_CUDA_INPUT_H
#define AVFILTER_CUDAINPUT_CUDA_INPUT_H

#include "libavutil/frame.h"
#include "libavutil/hwcontext.h"
#include "libavutil/pixfmt.h"
#include "libavfilter/avfilter.h"

/**
 * The frames context of inlink in *frames, when the link carries CUDA
 * frames of one of the nb_fmts software formats fmts. Otherwise an error
 * is logged (no frames context, not CUDA frames, or the format and the
 * list of those the filter takes) and AVERROR(EINVAL) or AVERROR(ENOSYS)
 * returned.
 */
int ff_cuda_filter_input(AVFilterContext *ctx, AVFilterLink *inlink,
                         const enum AVPixelFormat *fmts, int nb_fmts,
                         AVHWFramesContext **frames);

/**
 * 0 when frame is a CUDA frame of w x h and software format sw_format (the
 * filter's configuration); otherwise an error is logged, ending with why
 * the filter cannot follow a change, and AVERROR(EINVAL) returned.
 */
int ff_cuda_filter_frame_check(AVFilterContext *ctx, const AVFrame *frame, int w, int h,
                               enum AVPixelFormat sw_format, const char *why);

#endif /* AVFILTER_CUDAINPUT_CUDA_INPUT_H */
