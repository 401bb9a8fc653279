/*
 * Codec63 input analysis (scene cuts, activity), shared by the c63 encoder
 * (C) and c63_cuda (device code)
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

/**
 * @file
 * A frame starts a new scene when the luma histogram of its input
 * (C63_SC_BINS bins of every other sample of every other row of the
 * picture) differs from the previous input frame's by more than a share of
 * the samples: with d = sum over the bins of |h - h_prev| / 2, the count of
 * samples that would have to change bin, a cut when
 * 100 d > (100 - threshold) n, n the samples counted. Histograms do not
 * change with motion, so a pan or a moving object is no cut; a new shot
 * almost always moves a third of the samples or more. All integer, so that
 * the CPU and the GPU cut at the same frames.
 *
 * The activity of a picture, what the buffer model of rate control
 * expects a frame's bits to follow before it is coded, is the sum of the
 * absolute differences between horizontal and vertical neighbours in its
 * luma, over every other row (each counted row with the row below it);
 * an integer too.
 *
 * The CPU's histogram and activity, c63_sc_hist() and c63_sc_activity(),
 * are in libavcodec/c63/c63scene.h.
 */

#ifndef KERNELS_C63_SCENE_H
#define KERNELS_C63_SCENE_H

#include "kernel_func.h"

#define C63_SC_BINS      64
#define C63_SC_SHIFT     2      ///< sample >> C63_SC_SHIFT is its bin
#define C63_SC_THREADS   256    ///< c63_sc_hist: threads a thread block
#define C63_SC_ROWS      8      ///< c63_sc_hist: counted rows a thread block

/**
 * c63_cuda's scene-cut state, in device memory of the encoder's module
 * (zero when the module is loaded, as PTX zeroes a .global variable
 * without an initialiser: the first frame is a keyframe).
 */
typedef struct C63SceneState {
    unsigned int hist[2][C63_SC_BINS];  ///< this frame's (hist[cur]) and the frame before's
    int cur;
    int have_prev;                      ///< hist[!cur] is the frame before's
    int since_key;                      ///< frames since the last keyframe, this one excluded
    int key;                            ///< this frame is a keyframe: what c63_cuda's kernels read
} C63SceneState;

/** Parameters of c63_sc_hist and c63_sc_decide. */
typedef struct C63SceneParams {
    unsigned long long luma;    ///< the luma plane (device address)
    unsigned long long hist;    ///< c63_sc_hist: unsigned[C63_SC_BINS] to add into (zeroed
                                ///< before); 0: c63_scene.hist[c63_scene.cur]
    int stride;                 ///< bytes a row of luma
    int width, height;          ///< the picture
    int threshold;              ///< 1..100 (0: never a cut)
    int gop;                    ///< the longest keyframe interval
    int force;                  ///< the caller asks for a keyframe
} C63SceneParams;

/** Samples a picture's histogram counts. */
KERNEL_INLINE long long c63_sc_samples(int width, int height)
{
    return (long long)((width + 1) >> 1) * ((height + 1) >> 1);
}

/** The samples that change bin from histogram b to histogram a (C63_SC_BINS each). */
KERNEL_INLINE long long c63_sc_change(const unsigned int *a, const unsigned int *b)
{
    long long diff = 0;

    for (int k = 0; k < C63_SC_BINS; k++)
        diff += a[k] > b[k] ? a[k] - b[k] : b[k] - a[k];
    /* each sample that changes bin leaves one and enters another */
    return diff >> 1;
}

/** Whether change samples of a width x height picture changing bin is a cut. */
KERNEL_INLINE int c63_sc_cut(long long change, int width, int height, int threshold)
{
    return threshold > 0 && 100 * change > (100 - threshold) * c63_sc_samples(width, height);
}

/** Whether a frame is a keyframe. */
KERNEL_INLINE int c63_sc_key(int force, int have_prev, int since_key, int gop, int cut)
{
    return force || !have_prev || since_key >= gop || cut;
}

/** Parameters of c63_activity: the result is added to *sum (zeroed before). */
typedef struct C63ActivityParams {
    unsigned long long luma;    ///< the luma plane (device address)
    unsigned long long sum;     ///< unsigned long long: the activity
    int pitch;                  ///< bytes a row
    int width, height;          ///< the picture
} C63ActivityParams;

#endif /* KERNELS_C63_SCENE_H */
