/*
 * Codec63 rate control: the quantiser scale of each frame
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

#ifndef AVCODEC_C63_C63RC_H
#define AVCODEC_C63_C63RC_H

#include <stdint.h>

#include "libavcodec/avcodec.h"
#include "cuda_kernels/c63_rd.h"

/**
 * How the quantisation tables of each frame are chosen.
 */
enum C63RCMode {
    C63_RC_QUALITY,     ///< the tables of -quality, every frame (the reference's bytes)
    C63_RC_CQ,          ///< -q:v: the tables of one quantiser scale, every frame
    C63_RC_ABR,         ///< -b:v: a scale per frame for an average bitrate
};

/**
 * The controller decides frame n from the sizes of frames 0 .. n - LAG
 * only, so that its decisions do not depend on how many frames an encoder
 * keeps in flight (threads, GPU queues).
 */
#define C63_RC_LAG 2

typedef struct C63RateControl {
    enum C63RCMode mode;
    double  qscale;         ///< CQ: the scale; ABR: the first frames' scale
    double  qmin, qmax;     ///< bounds of the scale (-qmin, -qmax)
    double  frame_bits;     ///< ABR: bits a frame is given
    double  buffer_bits;    ///< ABR: the error that doubles or halves the bits asked for
    /* ABR state: the frames whose size is known, 0 .. nb_done - 1 */
    int64_t nb_done;
    double  key_share;      ///< the share of keyframes among the frames (1 / -g)
    double  cplx_key;       ///< complexity (bits * scale^ALPHA) of keyframes
    int64_t nb_key;         ///< keyframes taken in
    double  cplx_inter_sum; ///< decayed sum of the complexities of inter frames
    double  inter_weight;   ///< the same decayed sum of ones
    double  bits_total;     ///< bits of all of them
    double  wanted_total;   ///< bits they were given
    int64_t nb_above, nb_below; ///< frames whose scale was cut to qmax, to qmin
    int     pass;           ///< 1, 2: -pass; 0: one pass
    /* second pass: the first pass's frames */
    struct C63RCStat {
        double cplx;        ///< complexity (bits * scale^ALPHA)
        int    key;
    } *stats;
    int64_t nb_stats;
    int64_t nb_planned;     ///< frames whose complexity left cplx_left
    double  cplx_left;      ///< complexity of the frames from nb_planned on
    double  predicted;      ///< bits the model gave the frames taken in
    int     key_warned;
    int     ended;          ///< ff_c63_rc_end() has run
    /* the decoder's buffer (-maxrate, -bufsize): bits arrive at -maxrate
     * and each frame's leave at its time */
    enum {
        C63_VBV_NONE,
        C63_VBV_CAPPED,     ///< -maxrate above -b:v: a full buffer stops the channel
        C63_VBV_CONSTANT,   ///< -maxrate = -b:v: the channel never stops, so a full
                            ///< buffer overflows
    } vbv;
    double  vbv_size;       ///< -bufsize
    double  vbv_in;         ///< bits that arrive in a frame's time
    double  vbv_fill;       ///< bits in the buffer before frame nb_done leaves it
    /* complexity over activity + area (0: none yet): [0] the mean, [1] a
     * decaying maximum */
    double  ratio_key[2];   ///< of keyframes
    double  ratio_inter[2]; ///< of inter frames
    double  pixels;         ///< the picture's area
    int64_t nb_under, nb_over; ///< frames that under- and overflowed it
    /* the scale of each frame in flight, and its size once known */
    double  q[C63_RC_LAG + 1];
    int     key[C63_RC_LAG + 1];
    int64_t bits[C63_RC_LAG + 1];
    double  act[C63_RC_LAG + 1];    ///< with a buffer: the activity of each frame in flight
} C63RateControl;

/**
 * Set up rate control from the context's options (-b:v, -q:v, -qmin,
 * -qmax, -pass and the first pass's statistics, -maxrate, -minrate,
 * -bufsize, -rc_init_occupancy) and refuse those that do not apply. qp is
 * the -quality option.
 */
int ff_c63_rc_init(C63RateControl *rc, AVCodecContext *avctx, int qp);

/**
 * The quantiser scale of frame n (frames are asked for in order; asking
 * again for the same n after a failure is allowed), a keyframe if key
 * (-1: not known yet), whose input has the activity of c63_sc_activity().
 * Both are needed with a buffer model (rc->vbv set); else they are unused. The sizes of frames
 * 0 .. n - C63_RC_LAG must have been given to ff_c63_rc_packet(); one that
 * was not (its packet was lost) counts as the bits it was given, as an
 * inter frame. *qscale is 0 without rate control. Fails on a
 * second pass's frame that the first pass did not have.
 */
int ff_c63_rc_frame_q(C63RateControl *rc, AVCodecContext *avctx, int64_t n, int key,
                      uint64_t activity, double *qscale);

/**
 * Frame n's packet, coded at qscale (what ff_c63_rc_frame_q() gave), a
 * keyframe if key: its size and kind go to the controller (in a first
 * pass, with its statistics, into avctx->stats_out), and a scale other
 * than 0 into the packet's quality stats.
 */
int ff_c63_rc_packet(C63RateControl *rc, AVCodecContext *avctx, int64_t n, AVPacket *pkt,
                     double qscale, int key);

/** Free what ff_c63_rc_init() allocated (the encoder's close). */
void ff_c63_rc_uninit(C63RateControl *rc, AVCodecContext *avctx);

/**
 * After the last packet (frames 0 .. nb_frames - 1 given to
 * ff_c63_rc_packet()): warn if the stream missed the bitrate because the
 * scale was held at -qmin or -qmax, or if frames under- or overflowed the
 * buffer. Only the first call does anything.
 */
void ff_c63_rc_end(C63RateControl *rc, AVCodecContext *avctx, int64_t nb_frames);

/**
 * The lambdas of a frame coded with tables q: trellis (1: the AC levels,
 * 2: the DC levels too) and the vector choices (modes: C63_RD_MV,
 * C63_RD_INTRA) turn the decisions on (else their lambda is 0). lambda, in squared error per bit, is C63_RD_LAMBDA
 * x Q^2, Q the mean of the 16 first luma steps in zigzag order (the step
 * of flat tables); lambda_me, in SAD per bit, C63_RD_LAMBDA_ME x
 * sqrt(lambda).
 */
void ff_c63_rd_params(C63RDParams *rd, const uint8_t q[3][64], int trellis, int modes);

/** -sc_threshold when the encoder makes choices of its own */
#define C63_SC_THRESHOLD_DEFAULT 70

/**
 * Whether the encoder makes choices of its own rather than the reference's
 * (rate control, -tables other than annexk, -trellis, vector choices
 * (rd_modes) or scene cuts): it then keeps the AC levels to what the
 * reference decoder reads. *sc gets the scene-cut threshold to use (0:
 * none) for sc_threshold, the -sc_threshold option: -1 (the default) is
 * C63_SC_THRESHOLD_DEFAULT where the encoder makes choices of its own and
 * 0 where it makes the reference's.
 */
int ff_c63_own_choices(const AVCodecContext *avctx, const C63RateControl *rc, int tables,
                       int rd_modes, int sc_threshold, int *sc);

#endif /* AVCODEC_C63_C63RC_H */
