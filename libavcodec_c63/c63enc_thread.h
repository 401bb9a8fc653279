/*
 * Codec63 encoder (CPU): the row scheduler
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
 * The c63 encoder's threads (c63enc_thread.c): the frames in flight, their
 * MCU rows taken by the caller's thread and the worker threads, and the
 * jobs that rows complete. The jobs themselves are the encoder's
 * (c63enc.c): a row's motion estimation, transform and reconstruction
 * (which waits for what it reads of the frame before), the sums of a row
 * of the reconstruction, a row's entropy coding.
 */

#ifndef AVCODEC_C63_C63ENC_THREAD_H
#define AVCODEC_C63_C63ENC_THREAD_H

#include <stdatomic.h>
#include <stdint.h>

#include "libavutil/executor.h"
#include "libavutil/frame.h"
#include "libavutil/mem_internal.h"
#include "libavcodec/avcodec.h"
#include "libavcodec/threadprogress.h"

/* Frames in flight at most (with more than one thread), and the sets of
 * progress for them: a frame's jobs may still read the progress of the
 * frame before it after that one has been output, so a set is taken again
 * only two frames later. */
#define MAX_INFLIGHT  2
#define NB_PROGRESS   (MAX_INFLIGHT + 1)

struct C63EncContext;
struct C63EncBuffers;

/* A frame in the encoder: its jobs and their progress. The fields that
 * threads write as they go are on cache lines of their own. */
typedef struct C63EncFrame {
    AVFrame        *frame;          ///< the input, until the packet is made
    struct C63EncBuffers *buf;
    const struct C63EncFrame *prev; ///< the frame coded before it, or NULL
    int             cur;            ///< it reconstructs into recon[cur]
    int             nb_sums;        ///< its reconstruction's sums jobs (0 or mb_h)
    atomic_uint     number;         ///< the frame's number (modulo 2^32)
    /* nb_seg words: the rows of segment k not yet taken, top | end << 16;
     * all 0 (none) while the set is being filled */
    atomic_uint    *claim;
    atomic_int     *code_wait;      ///< mb_h: rows a row's entropy coding still waits for
    atomic_int     *sums_wait;      ///< mb_h: rows a row's sums still wait for
    ThreadProgress *row_done;       ///< mb_h: each MCU row reconstructed
    ThreadProgress *sums_done;      ///< mb_h: the sums of each MCU row
    ThreadProgress  done;           ///< 1 when every job has run
    DECLARE_ALIGNED(64, atomic_int, jobs_left);
} C63EncFrame;

typedef struct C63EncThreads {
    struct C63EncContext *enc;      ///< whose jobs the threads run
    int           mb_h;             ///< MCU rows a frame
    int           nb_workers;       ///< worker threads beside the caller (0: none)
    int           depth;            ///< frames in flight before one is waited for
    AVExecutor   *exec;
    struct C63Waker *wakers;        ///< nb_workers
    int           nb_seg;           ///< segments of the picture: ceil(threads / 2), at most mb_h
    struct C63Todo *todo;           ///< one per thread (role)
    atomic_int    nb_roles;         ///< roles given: 0 is the caller's
    C63EncFrame   fr[NB_PROGRESS];
} C63EncThreads;

/**
 * The threads of avctx->thread_count (0: as many as the host has) for
 * frames of mb_h MCU rows of enc; sets depth.
 */
int ff_c63enc_thread_init(C63EncThreads *th, AVCodecContext *avctx,
                          struct C63EncContext *enc, int mb_h);

/** Waits for the jobs published, then frees everything. */
void ff_c63enc_thread_free(C63EncThreads *th);

/**
 * The set of frame number n (that of frame n - NB_PROGRESS, output and
 * read by no job now), with no rows to take while the caller fills its
 * frame, buf, prev, cur and nb_sums.
 */
C63EncFrame *ff_c63enc_thread_frame(C63EncThreads *th, int64_t n);

/**
 * Publish the jobs of f, frame number n, filled: the threads take its rows
 * (with one thread, the caller runs them all now).
 */
int ff_c63enc_thread_submit(C63EncThreads *th, C63EncFrame *f, int64_t n);

/** Run rows (of f or the frame after) until every job of f is done. */
void ff_c63enc_thread_wait(C63EncThreads *th, C63EncFrame *f);

/** 1 if every job of f is done. */
static inline int ff_c63enc_thread_done(C63EncFrame *f)
{
    return !atomic_load(&f->jobs_left);
}

/* The encoder's jobs, which the threads run (c63enc.c). */

/** Motion estimation, transform and reconstruction of MCU row v of f, once
 *  the rows of the frame before that it reads or overwrites are done. */
void ff_c63enc_job_row(struct C63EncContext *s, C63EncFrame *f, int v);

/** The 8x2 sums of the rows of MCU row v of f's reconstruction. */
void ff_c63enc_job_sums(struct C63EncContext *s, C63EncFrame *f, int v);

/** The entropy coding of MCU row v of f. */
void ff_c63enc_job_code(struct C63EncContext *s, C63EncFrame *f, int v);

#endif /* AVCODEC_C63_C63ENC_THREAD_H */
