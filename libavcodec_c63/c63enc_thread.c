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
 * Threads of the c63 encoder: two frames in a row are in flight at once. A
 * thread takes the MCU rows of the oldest frame that has rows left: from
 * the top or from the bottom of a segment of the picture of its own, so
 * that what a thread writes (the reconstruction, its sums, the
 * coefficients) is mostly read again by the same thread, in this frame and
 * the next; it takes rows elsewhere only when its own are taken. After a
 * row, the thread that completes what the entropy coding of a row or the
 * sums of a row (the next frame's motion search bounds) need runs it. A
 * row of the second frame waits only for the rows of the first that it
 * reads or overwrites, so the threads go on into the next frame instead of
 * meeting at the end of each one. The caller's thread is one of the
 * threads: while it waits for a frame's packet it runs rows too, as slice
 * threading's caller does; the others are the worker threads of an
 * AVExecutor. A packet may thus come one frame late; the output does not
 * depend on the thread count. With one thread there is no delay and every
 * row runs on the caller's thread, from the top.
 */

#include <stdatomic.h>

#include "config.h"

#include "libavutil/common.h"
#include "libavutil/cpu.h"
#include "libavutil/executor.h"
#include "libavutil/mem.h"
#include "libavcodec/pthread_internal.h"
#include "libavcodec/threadprogress.h"

#include "c63enc_thread.h"

/* The jobs that a thread completed the rows for (sums and entropy coding)
 * and runs after its rows of that frame: rows, sums and entropy coding
 * each run back to back, as with one thread. */
typedef struct C63Todo {
    DECLARE_ALIGNED(64, C63EncFrame *, f);  ///< the frame of the jobs
    int       nb;
    uint32_t *job;                  ///< 2 * mb_h: row | TODO_CODE
} C63Todo;
#define TODO_CODE 0x80000000u

/* What wakes a worker thread: an executor task that runs the rows left
 * (run_rows()). There are threads - 1 workers, the caller being the other
 * thread. Each is queued at most once; one that is queued or has not yet
 * looked for rows will find the ones published after it was queued, so it
 * need not be queued again for them. */
typedef struct C63Waker {
    AVTask      task;
    atomic_int  queued;
} C63Waker;

static int run_rows(C63EncThreads *th, int role);

/* local: the executor thread's role, 1 .. nb_workers, set at its first
 * task (a task may run on any of the threads) */
static int waker_run(AVTask *t, void *local, void *opaque)
{
    C63EncThreads *th = opaque;
    C63Waker *w = (C63Waker *)t;
    int *role = local;

    atomic_store(&w->queued, 0);
    if (!*role)
        *role = atomic_fetch_add(&th->nb_roles, 1);
    return run_rows(th, *role);
}

static int waker_ready(const AVTask *t, void *opaque)
{
    return 1;
}

static int waker_priority_higher(const AVTask *a, const AVTask *b)
{
    return 0;
}

av_cold int ff_c63enc_thread_init(C63EncThreads *th, AVCodecContext *avctx,
                                  struct C63EncContext *enc, int mb_h)
{
    int ret;

    th->enc  = enc;
    th->mb_h = mb_h;
    th->nb_workers = (avctx->thread_count ? avctx->thread_count
                                          : FFMIN(av_cpu_count(), MAX_AUTO_THREADS)) - 1;
    if (th->nb_workers < 1 || !HAVE_THREADS)
        th->nb_workers = 0;
    th->depth = th->nb_workers ? MAX_INFLIGHT : 1;
    th->nb_seg = av_clip((th->nb_workers + 2) / 2, 1, mb_h);

    for (int i = 0; i < NB_PROGRESS; i++) {
        C63EncFrame *f = &th->fr[i];
        f->claim     = av_calloc(th->nb_seg, sizeof(*f->claim));
        f->code_wait = av_calloc(mb_h, sizeof(*f->code_wait));
        f->sums_wait = av_calloc(mb_h, sizeof(*f->sums_wait));
        f->row_done  = av_calloc(mb_h, sizeof(*f->row_done));
        f->sums_done = av_calloc(mb_h, sizeof(*f->sums_done));
        if (!f->claim || !f->code_wait || !f->sums_wait || !f->row_done || !f->sums_done)
            return AVERROR(ENOMEM);
        for (int j = 0; j < mb_h; j++) {
            if ((ret = ff_thread_progress_init(&f->row_done[j], th->nb_workers > 0)) < 0 ||
                (ret = ff_thread_progress_init(&f->sums_done[j], th->nb_workers > 0)) < 0)
                return ret;
        }
        if ((ret = ff_thread_progress_init(&f->done, th->nb_workers > 0)) < 0)
            return ret;
        if (!(f->frame = av_frame_alloc()))
            return AVERROR(ENOMEM);
    }
    if (!(th->todo = av_calloc(th->nb_workers + 1, sizeof(*th->todo))))
        return AVERROR(ENOMEM);
    atomic_init(&th->nb_roles, 1);
    for (int i = 0; i <= th->nb_workers; i++)
        if (!(th->todo[i].job = av_malloc_array(2 * mb_h, sizeof(*th->todo[i].job))))
            return AVERROR(ENOMEM);

    if (th->nb_workers) {
        const AVTaskCallbacks cb = {
            .user_data       = th,
            .priority_higher = waker_priority_higher,
            .ready           = waker_ready,
            .run             = waker_run,
            .local_context_size = sizeof(int),
        };
        th->wakers = av_calloc(th->nb_workers, sizeof(*th->wakers));
        if (!th->wakers)
            return AVERROR(ENOMEM);
        if (!(th->exec = av_executor_alloc(&cb, th->nb_workers))) {
            av_log(avctx, AV_LOG_ERROR, "Cannot start %d worker threads\n", th->nb_workers);
            return AVERROR(ENOMEM);
        }
    }
    return 0;
}

av_cold void ff_c63enc_thread_free(C63EncThreads *th)
{
    /* waits for the jobs published */
    av_executor_free(&th->exec);
    av_freep(&th->wakers);
    for (int i = 0; i < NB_PROGRESS; i++) {
        C63EncFrame *f = &th->fr[i];
        for (int j = 0; j < th->mb_h; j++) {
            if (f->row_done)
                ff_thread_progress_destroy(&f->row_done[j]);
            if (f->sums_done)
                ff_thread_progress_destroy(&f->sums_done[j]);
        }
        ff_thread_progress_destroy(&f->done);
        av_freep(&f->claim);
        av_freep(&f->code_wait);
        av_freep(&f->sums_wait);
        av_freep(&f->row_done);
        av_freep(&f->sums_done);
        av_frame_free(&f->frame);
    }
    for (int i = 0; th->todo && i <= th->nb_workers; i++)
        av_freep(&th->todo[i].job);
    av_freep(&th->todo);
}

static void job_done(C63EncFrame *f)
{
    if (atomic_fetch_sub(&f->jobs_left, 1) == 1)
        ff_thread_progress_report(&f->done, 1);
}

/* One row fewer for job w | code of t's frame: the sums of row w (which
 * need rows w and w + 1) or its entropy coding (rows w - 1 and w); the
 * thread that brings it to none runs it, later (run_todo()). */
static void dep_done(C63EncThreads *th, C63Todo *t, int w, uint32_t code)
{
    atomic_int *wait = code ? t->f->code_wait : t->f->sums_wait;

    if (w >= 0 && w < th->mb_h && atomic_fetch_sub(&wait[w], 1) == 1)
        t->job[t->nb++] = w | code;
}

/* The jobs t holds: the sums first, which the next frame's rows wait for. */
static void run_todo(C63EncThreads *th, C63Todo *t)
{
    C63EncFrame *f = t->f;

    for (int i = 0; i < t->nb; i++) {
        if (!(t->job[i] & TODO_CODE)) {
            ff_c63enc_job_sums(th->enc, f, t->job[i]);
            ff_thread_progress_report(&f->sums_done[t->job[i]], 1);
            job_done(f);
        }
    }
    for (int i = 0; i < t->nb; i++) {
        if (t->job[i] & TODO_CODE) {
            ff_c63enc_job_code(th->enc, f, t->job[i] & ~TODO_CODE);
            job_done(f);
        }
    }
    t->nb = 0;
}

/* MCU row v of f (t's frame): motion estimation, transform and
 * reconstruction; the sums and entropy coding it completes go to t. */
static void run_row(C63EncThreads *th, C63Todo *t, int v)
{
    C63EncFrame *f = t->f;

    ff_c63enc_job_row(th->enc, f, v);
    ff_thread_progress_report(&f->row_done[v], 1);
    if (f->nb_sums) {
        dep_done(th, t, v - 1, 0);
        dep_done(th, t, v, 0);
    }
    dep_done(th, t, v, TODO_CODE);
    dep_done(th, t, v + 1, TODO_CODE);
    job_done(f);
}

/* Take row from segment k of f: its top row (dir 0) or its bottom row
 * (dir 1). */
static int claim_row(C63EncFrame *f, int k, int dir, int *v)
{
    unsigned w = atomic_load(&f->claim[k]), top, end;

    do {
        top = w & 0xFFFF;
        end = w >> 16;
        if (top >= end)
            return 0;
    } while (!atomic_compare_exchange_weak(&f->claim[k], &w, dir ? w - 0x10000 : w + 1));
    *v = dir ? end - 1 : top;
    return 1;
}

/* Take a row of the oldest frame in flight that has rows left and run it;
 * 0 if no frame has. Thread role (0: the caller) takes the rows of segment
 * role / 2 from the top (even roles) or the bottom (odd roles), then those
 * of the other segments. Before a row of another frame, or before
 * returning 0, it runs the jobs it holds (run_todo()), so that it never
 * waits while holding jobs that a row waits for.
 *
 * The rows of a frame are taken before a row of the next one is (a thread
 * that was late to take a row of a frame whose set was filled again
 * meanwhile may take a row of the newer frame early: that row then waits,
 * but the caller goes on with the older frame's rows in
 * ff_c63enc_thread_wait()), and a row waits only for rows and sums of the
 * frame before. A set being filled has no rows left: its claim words are 0
 * until the rest is set. */
static int run_next_row(C63EncThreads *th, int role)
{
    const int home = role / 2 % th->nb_seg, dir = role & 1;
    C63Todo *t = &th->todo[role];

    for (;;) {
        C63EncFrame *f = NULL;
        int v;

        for (int i = 0; i < NB_PROGRESS; i++) {
            C63EncFrame *c = &th->fr[i];
            int left = 0;
            for (int k = 0; k < th->nb_seg && !left; k++) {
                unsigned w = atomic_load(&c->claim[k]);
                left = (w & 0xFFFF) < (w >> 16);
            }
            if (left && (!f || (int)(atomic_load(&c->number) - atomic_load(&f->number)) < 0))
                f = c;
        }
        if (!f) {
            run_todo(th, t);
            return 0;
        }
        if (t->f != f)
            run_todo(th, t);
        for (int k = 0; k < th->nb_seg; k++) {
            if (claim_row(f, (home + k) % th->nb_seg, dir, &v)) {
                t->f = f;
                run_row(th, t, v);
                return 1;
            }
        }
        /* taken meanwhile: look again */
    }
}

/* Take rows until none is left. */
static int run_rows(C63EncThreads *th, int role)
{
    while (run_next_row(th, role))
        ;
    return 0;
}

C63EncFrame *ff_c63enc_thread_frame(C63EncThreads *th, int64_t n)
{
    C63EncFrame *f = &th->fr[n % NB_PROGRESS];

    /* output, and read by no job now */
    for (int k = 0; k < th->nb_seg; k++)
        atomic_store(&f->claim[k], 0);
    return f;
}

int ff_c63enc_thread_submit(C63EncThreads *th, C63EncFrame *f, int64_t n)
{
    const int mb_h = th->mb_h;

    for (int i = 0; i < mb_h; i++) {
        ff_thread_progress_reset(&f->row_done[i]);
        ff_thread_progress_reset(&f->sums_done[i]);
        atomic_store(&f->code_wait[i], 1 + (i > 0));
        atomic_store(&f->sums_wait[i], 1 + (i + 1 < mb_h));
    }
    ff_thread_progress_reset(&f->done);
    /* the rows, their entropy coding and the sums */
    atomic_store(&f->jobs_left, 2 * mb_h + f->nb_sums);
    atomic_store(&f->number, (unsigned)n);

    /* publish: the segments' rows */
    for (int k = 0; k < th->nb_seg; k++)
        atomic_store(&f->claim[k], (unsigned)(k * mb_h / th->nb_seg) |
                                   (unsigned)((k + 1) * mb_h / th->nb_seg) << 16);
    if (!th->exec)
        return run_rows(th, 0);
    for (int i = 0; i < th->nb_workers; i++)
        if (!atomic_exchange(&th->wakers[i].queued, 1))
            av_executor_execute(th->exec, &th->wakers[i].task);
    return 0;
}

void ff_c63enc_thread_wait(C63EncThreads *th, C63EncFrame *f)
{
    /* The caller runs rows (of this frame or the next) until the frame is
     * done, one at a time: the packet goes out at most a row after it. */
    while (atomic_load(&f->jobs_left) && run_next_row(th, 0))
        ;
    run_todo(th, &th->todo[0]);
    ff_thread_progress_await(&f->done, 1);
}
