/*
 * Codec63 decoder: its context, shared with its hwaccel
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

#ifndef AVCODEC_C63_C63DEC_H
#define AVCODEC_C63_C63DEC_H

#include <stdint.h>

#include "libavutil/frame.h"
#include "libavcodec/packet.h"
#include "libavcodec/threadprogress.h"
#include "libavcodec/videodsp.h"

#include "c63.h"
#include "c63dsp.h"

/* The frame header, as parse_header() reads it. */
typedef struct C63FrameHeader {
    int width, height, keyframe;
    uint8_t q[3][64];
    const uint8_t *data;    ///< first byte of entropy-coded data
} C63FrameHeader;

/* A block as the entropy decoder leaves it for the reconstruction. */
typedef struct C63Block {
    int8_t  mvx, mvy;           ///< the vector, if use_mv
    uint8_t use_mv;
    uint8_t rings;              ///< bit r: a non-zero AC coefficient whose larger
                                ///  of frequency row and column is r (none: only
                                ///  coef[0], the DC, may be non-zero)
} C63Block;

typedef struct C63DecContext {
    C63DSPContext dsp;
    VideoDSPContext vdsp;
    C63Geometry   geo;
    int           have_geo;
    AVFrame      *ref;          ///< the last output frame, reconstruction of the
                                ///  whole padded picture (coded size); empty
                                ///  when there is no reference
    uint8_t      *data;         ///< unstuffed entropy-coded data
    unsigned      data_size;

    /* The entropy decoder fills a row of blocks (6 per macroblock, in MCU
     * order) that the reconstruction then reads: one row when both run in
     * turn, every row of the frame when they run at once on two slice
     * threads (see decode_job()). */
    int           nb_slots;     ///< rows of blocks in blocks and coef
    C63Block     *blocks;
    int16_t     (*coef)[64];
    ThreadProgress progress;    ///< rows entropy-decoded in the current frame

    AVPacket     *in;           ///< the packet taken and not yet decoded

    /* For the hwaccel: the frames being decoded, and what they say back. A
     * frame is started on the device and finished (waited for, its status
     * checked) when the next packet has come or the stream ends, so that
     * the device decodes it while the host passes the previous one on. The
     * next frame is queued behind it when its header is good (pend2), with
     * it as the reference, and started again if it fails; else it starts
     * once that one is finished. So errors and the reference follow the
     * CPU decoder's order exactly. */
    C63FrameHeader hdr;
    AVFrame      *cur;          ///< the frame the hwaccel decodes into
    AVFrame      *pend, *pend2;
    AVPacket     *pend_pkt, *pend2_pkt; ///< theirs (the status refers to its bytes)
    int           pending, pending2;    ///< pend, pend2 are started on the device
    int           deferred;     ///< the error of the packet started after the
                                ///  frame last returned, for the next call
    int           keep_ref;     ///< set before the hwaccel runs; it clears it
                                ///  once the device works on the reference's
                                ///  buffers, and sets it again for an error
                                ///  of the data's end (the reference stays,
                                ///  as unstuff()'s errors leave it)
} C63DecContext;


struct AVCodecContext;

/**
 * Wait for the first of the frames the CUDA hwaccel's end_frame() started
 * (two at most) and check what the device says back.
 * @return 0, or the error of the serial decoder with its message; keep_ref
 *         is set as for an error of end_frame()
 */
int ff_c63_cuda_finish(struct AVCodecContext *avctx);

#endif /* AVCODEC_C63_C63DEC_H */
