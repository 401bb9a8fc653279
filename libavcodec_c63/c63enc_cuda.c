/*
 * Codec63 encoder (CUDA)
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
 * Codec63 encoder with motion estimation, transform, quantisation and
 * reconstruction in CUDA kernels (cuda_kernels/c63_cuda_enc.cu, c63_cuda_rd.cu).
 * The output is byte-identical to the c63 (CPU) encoder's.
 *
 * Per frame: the input is converted into zero-padded planes on the device
 * (CUDA frames directly, system-memory frames through a pinned staging
 * buffer and the slot's device copy, uploaded on a stream of their own),
 * then the kernels run on the encoder's compute stream: motion estimation,
 * transform and reconstruction, then entropy coding (c63_ec_*,
 * kernels/c63_ec.h) into the slot's device packet buffer, header to EOI.
 * Only the packet's size comes back on that stream; the packer thread then
 * copies the payload, and nothing else, into pinned memory on a third
 * stream. The coefficients never leave the device; the reconstruction
 * stays there as the next frame's reference.
 *
 * The three streams are the encoder's own and do not block on other
 * streams: the compute stream waits for a frame's input through an event,
 * recorded on the upload stream or, for CUDA frames, on the stream of the
 * frames' device context (where hwupload_cuda and NVDEC put their copies).
 * So an upload of the next frame, which from pageable memory waits for
 * everything queued before it on its stream, does not wait for this
 * encoder's kernels, and the upload of a system-memory frame runs on the
 * copy engine while the kernels of the frame before it run.
 *
 * Frames pass through depth slots in order. The calling thread takes a
 * frame, stages it and queues its GPU work; a packer thread waits for each
 * slot's GPU work, fetches its packet and hands the slot back.
 * So with depth > 1 the GPU work of later frames and the reading of the
 * next input run while earlier frames are finished, and packets come out
 * up to depth - 1 frames late.
 *
 * The device packet buffers are sized for the worst case that the
 * format allows (c63ec_max_packet(): every block at its largest, every
 * byte stuffed), so no frame can overflow them.
 */

#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "config.h"

#include "libavutil/avassert.h"
#include "libavutil/cuda_check.h"
#include "libavutil/hwcontext.h"
#include "libavutil/hwcontext_cuda_internal.h"
#include "libavutil/imgutils.h"
#include "libavutil/mem.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"
#include "libavutil/thread.h"
#include "libavcodec/avcodec.h"
#include "libavcodec/codec_internal.h"
#include "libavcodec/encode.h"
#include "libavcodec/hwconfig.h"
#include "libavfilter/cuda/load_helper.h"

#include "c63.h"
#include "c63enc.h"
#include "c63rc.h"
#include "cuda_kernels/block_match.h"
#include "cuda_kernels/c63_convert.h"
#include "cuda_kernels/c63_transform.h"
#include "cuda_kernels/c63_ec.h"
#include "cuda_kernels/c63_scene.h"

extern const unsigned char ff_c63_cuda_enc_ptx_data[];
extern const unsigned int ff_c63_cuda_enc_ptx_len;
extern const unsigned char ff_c63_cuda_rd_ptx_data[];
extern const unsigned int ff_c63_cuda_rd_ptx_len;

#define CHECK_CU(x) FF_CUDA_CHECK_DL(avctx, s->cu, x)

#define MAX_DEPTH     16

/* Stages timed by the slot's events on the compute stream (ev[i] to
 * ev[i + 1]); the download adds the packer's copy, and the upload of a
 * system-memory frame is timed on its own stream. */
enum Stage {
    STAGE_CONVERT,          ///< conversion into the padded planes
    STAGE_ME,               ///< scene cuts and motion estimation
    STAGE_ENCODE,           ///< transform, quantisation, reconstruction
    STAGE_ENTROPY,          ///< entropy coding (GPU coder)
    STAGE_DOWNLOAD,         ///< the packet to the host
    NB_STAGES,
    STAGE_UPLOAD = NB_STAGES, ///< a system-memory frame to the device
    NB_STATS,
};

static const char *const stage_names[NB_STATS] = {
    "conversion", "motion estimation", "transform+reconstruction", "entropy coding",
    "download", "upload",
};

/* The entropy coder's kernels, in launch order. */
enum ECKernel {
    EC_CODE, EC_SUM, EC_APPLY, EC_GATHER, EC_STUFF, NB_EC,
};

static const char *const ec_names[NB_EC] = {
    "c63_ec_code", "c63_ec_sum", "c63_ec_apply", "c63_ec_gather", "c63_ec_stuff",
};

/* Driver entry points that ffnvcodec's loader does not provide. */
typedef CUresult CUDAAPI tcuMemAllocHost(void **pp, size_t bytesize);
typedef CUresult CUDAAPI tcuMemFreeHost(void *p);
typedef CUresult CUDAAPI tcuEventElapsedTime(float *ms, CUevent start, CUevent end);

/* The kernels' structures are the host's. */
static_assert(sizeof(C63ECTables) == sizeof(C63HuffCodes) &&
              offsetof(C63ECTables, ac_len) == offsetof(C63HuffCodes, ac_len) &&
              sizeof(C63ECMV) == sizeof(C63MV) && C63EC_HEADER_SIZE == C63_HEADER_SIZE,
              "c63_ec.h does not match c63.h");

enum SlotState {
    SLOT_FREE,
    SLOT_QUEUED,            ///< GPU work queued, waiting for the packer
    SLOT_DONE,              ///< packet (or error) ready for the caller
};

typedef struct C63CudaSlot {
    AVFrame  *frame;        ///< input CUDA frame, held until its copy is done
    AVPacket *pkt;          ///< the coded frame, once done
    int       ret;          ///< packing result
    enum SlotState state;
    uint8_t  *in_host;      ///< pinned staging of a system-memory frame
    CUdeviceptr d_in;       ///< its device copy, read by the conversion
    CUevent   ev_in;        ///< the input is on the device
    CUevent   ev_up[2];     ///< around the upload (statistics)
    int       uploaded;     ///< the input went through ev_up
    CUdeviceptr d_pkt;      ///< the coded packet on the device
    C63ECInfo *info_host;   ///< pinned: the packet's size
    uint8_t  *pkt_host;     ///< pinned: the packet, grown as needed
    size_t    pkt_host_size;
    CUevent   ev[NB_STAGES + 1];
    CUevent   ev_copy[2];   ///< around the packet's copy (statistics)
    int64_t   pts, duration;
    int       keyframe;     ///< from the packet
    double    qscale;       ///< rate control: the frame's scale (else 0)
    uint8_t   q[3][64];     ///< and its tables
    uint8_t   hdr[C63_HEADER_SIZE]; ///< and its header, with those tables
} C63CudaSlot;

/** What the host learns of a frame's input with a buffer model. */
typedef struct C63InputStats {
    uint64_t activity;              ///< c63_sc_activity()
    unsigned hist[C63_SC_BINS];     ///< c63_sc_hist(), with scene cuts
} C63InputStats;

typedef struct C63CudaEncContext {
    const AVClass *class;
    int   qp;
    int   tables;
    int   mv_rd;
    int   intra_rd;
    int   sc_threshold;   ///< -sc_threshold
    int   rd_modes;       ///< C63_RD_MV | C63_RD_INTRA, as the options ask
    int   sc;             ///< the scene-cut threshold used (0: none)
    int   depth;
    int   stats_gpu;
    char *device;
    int   primary_ctx;    ///< -primary_ctx (-1: not set)

    AVBufferRef         *hwdevice;
    AVCUDADeviceContext *hwctx;
    CudaFunctions       *cu;
    CUstream             stream;        ///< the kernels
    CUstream             up_stream;     ///< uploads of system-memory frames
    CUstream             copy_stream;   ///< the packer's packet copies
    CUmodule             module;        ///< c63_cuda_enc.cu's kernels
    CUmodule             module_rd;     ///< c63_cuda_rd.cu's, where the options use them
    CUdeviceptr          d_scene;       ///< c63_scene of module
    CUfunction           f_convert, f_encode, f_encode_rd, f_sc_hist, f_sc_decide;
    CUfunction           f_mv_rd_pre, f_mv_rd;             ///< -mv_rd, -intra_rd
    CUfunction           f_encode_rdq, f_dc_chain, f_recon;   ///< -trellis 2
    CUfunction           f_activity;
    CUfunction           f_me[2];       ///< luma's and chroma's c63_me<C63_ME_NR(range)>
    CUfunction           f_ec[NB_EC];
    tcuMemAllocHost     *mem_alloc_host;
    tcuMemFreeHost      *mem_free_host;
    tcuEventElapsedTime *event_elapsed;

    C63Geometry geo;
    int         range[3];
    uint8_t     q[3][64];           ///< the tables of -quality
    C63RateControl rc;
    int64_t     nb_submitted, nb_taken;     ///< frames queued, packets taken

    size_t      plane_size[3], plane_off[3], total;  ///< padded planes
    size_t      in_off[3], in_size;                  ///< staged input planes
    CUdeviceptr d_orig, d_recon[2], d_coef, d_mv, d_q;
    CUdeviceptr d_dcz;              ///< -trellis 2: each block's exact DC
    CUdeviceptr d_mvrd_pre;         ///< -mv_rd, -intra_rd: a C63MVRDPre a block
    /* with a buffer model, rate control needs each frame's kind and
     * activity before it is queued: the host decides scene cuts */
    CUdeviceptr d_in_stats;         ///< C63InputStats of the frame submitted
    struct C63InputStats *in_stats; ///< pinned: the same
    unsigned    hist[2][C63_SC_BINS]; ///< luma histograms of the last two frames queued
    CUdeviceptr d_ec;               ///< the GPU coder's buffers, one allocation
    C63ECParams ecp;                ///< their layout; pkt and keyframe per frame
    C63EncParams encp;              ///< c63_encode's; rec, ref, key and lambda per frame
    C63DCChainParams dcp;           ///< c63_dc_chain's; lambda per frame
    C63MVRDParams mvrdp;            ///< c63_mv_rd's; ref, lambdas and steps per frame
    int         enc_grid;
    size_t      max_pkt;            ///< c63ec_max_packet()
    int         ec_grid[NB_EC];     ///< blocks of each kernel's grid
    int         cur;
    int         since_key;          ///< without scene cuts (with them, c63_scene on the device)

    C63CudaSlot slot[MAX_DEPTH];
    int         head, nb_inflight;
    int         eof;
    AVFrame    *frame;

#if HAVE_THREADS
    pthread_t       packer;
    pthread_mutex_t lock;
    pthread_cond_t  cond;
    int             packer_started, quit;
#endif

    int         collect_stats;
    double      stage_ms[NB_STATS];
    int64_t     nb_frames;
} C63CudaEncContext;

static int alloc_host(AVCodecContext *avctx, C63CudaEncContext *s, void **p, size_t size)
{
    if (s->mem_alloc_host)
        return CHECK_CU(s->mem_alloc_host(p, FFMAX(size, 1)));
    *p = av_malloc(FFMAX(size, 1));
    return *p ? 0 : AVERROR(ENOMEM);
}

static void free_host(C63CudaEncContext *s, void **p)
{
    if (!*p)
        return;
    if (s->mem_free_host)
        s->mem_free_host(*p);
    else
        av_free(*p);
    *p = NULL;
}

/* The encoder's own device: by default the GPU's primary context, which
 * the other users of the GPU in the process share (one context per
 * process, so that encoders run side by side instead of in time slices);
 * a context of its own where that is asked for, or where the primary
 * context is already in use with other flags. */
static av_cold int open_device(AVCodecContext *avctx)
{
    C63CudaEncContext *s = avctx->priv_data;
    AVDictionary *opts = NULL;
    int ret;

    if ((ret = av_dict_set(&opts, "primary_ctx", s->primary_ctx ? "1" : "0", 0)) < 0)
        return ret;
    ret = av_hwdevice_ctx_create(&s->hwdevice, AV_HWDEVICE_TYPE_CUDA, s->device, opts, 0);
    av_dict_free(&opts);
    if (ret == AVERROR(ENOTSUP) && s->primary_ctx < 0) {
        av_log(avctx, AV_LOG_WARNING, "The GPU's primary CUDA context is in use with other "
               "flags; the encoder opens a context of its own.\n");
        ret = av_hwdevice_ctx_create(&s->hwdevice, AV_HWDEVICE_TYPE_CUDA, s->device, NULL, 0);
    }
    return ret;
}

static av_cold int init_device(AVCodecContext *avctx)
{
    C63CudaEncContext *s = avctx->priv_data;
    AVHWDeviceContext *dev;
    int ret;

    if ((avctx->hw_frames_ctx || avctx->hw_device_ctx) && (s->device || s->primary_ctx >= 0)) {
        av_log(avctx, AV_LOG_ERROR, "The options gpu and primary_ctx apply only when the "
               "encoder opens its own device; this one is given (%s).\n",
               avctx->hw_frames_ctx ? "the input frames' device" : "hw_device_ctx");
        return AVERROR(EINVAL);
    }
    if (avctx->hw_frames_ctx) {
        AVHWFramesContext *fc = (AVHWFramesContext *)avctx->hw_frames_ctx->data;
        if (fc->format != AV_PIX_FMT_CUDA) {
            av_log(avctx, AV_LOG_ERROR, "hw_frames_ctx is not a CUDA frames context\n");
            return AVERROR(EINVAL);
        }
        s->hwdevice = av_buffer_ref(fc->device_ref);
    } else if (avctx->hw_device_ctx) {
        dev = (AVHWDeviceContext *)avctx->hw_device_ctx->data;
        if (dev->type != AV_HWDEVICE_TYPE_CUDA) {
            av_log(avctx, AV_LOG_ERROR, "hw_device_ctx is not a CUDA device\n");
            return AVERROR(EINVAL);
        }
        s->hwdevice = av_buffer_ref(avctx->hw_device_ctx);
    } else {
        ret = open_device(avctx);
        if (ret == AVERROR(ENOTSUP) && s->primary_ctx > 0) {
            av_log(avctx, AV_LOG_ERROR, "The GPU's primary CUDA context is in use with other "
                   "flags; -primary_ctx 0 (or auto) opens a context of its own.\n");
            return ret;
        }
        if (ret < 0) {
            av_log(avctx, AV_LOG_ERROR,
                   "No usable CUDA device: the c63_cuda encoder needs an NVIDIA GPU "
                   "and its driver. Use -c:v c63 for CPU encoding.\n");
            return ret;
        }
    }
    if (!s->hwdevice)
        return AVERROR(ENOMEM);

    dev       = (AVHWDeviceContext *)s->hwdevice->data;
    s->hwctx  = dev->hwctx;
    s->cu     = s->hwctx->internal->cuda_dl;

    /* Looked up in the library that the loader opened (compat/cuda). */
    if (s->cu->lib) {
        s->mem_alloc_host = (tcuMemAllocHost *)FFNV_SYM_FUNC(s->cu->lib, "cuMemAllocHost_v2");
        s->mem_free_host  = (tcuMemFreeHost *)FFNV_SYM_FUNC(s->cu->lib, "cuMemFreeHost");
        s->event_elapsed  = (tcuEventElapsedTime *)FFNV_SYM_FUNC(s->cu->lib, "cuEventElapsedTime");
        if (!s->mem_alloc_host || !s->mem_free_host)
            s->mem_alloc_host = NULL, s->mem_free_host = NULL;
    }
    if (!s->mem_alloc_host)
        av_log(avctx, AV_LOG_WARNING, "No pinned host memory: transfers will be slower\n");
    return 0;
}

/* With statistics, record ev on st: the start or the end of a part of a
 * frame's work that pack_slot() or fetch_packet() times. */
static int stats_event(AVCodecContext *avctx, CUevent ev, CUstream st)
{
    C63CudaEncContext *s = avctx->priv_data;
    return s->collect_stats ? CHECK_CU(s->cu->cuEventRecord(ev, st)) : 0;
}

/* Add the time from start to end to the total of stage. */
static void stats_add(AVCodecContext *avctx, enum Stage stage, CUevent start, CUevent end)
{
    C63CudaEncContext *s = avctx->priv_data;
    float ms = 0;
    if (CHECK_CU(s->event_elapsed(&ms, start, end)) >= 0)
        s->stage_ms[stage] += ms;
}

/* The packet that the GPU coded, into sl->pkt: its payload, and only that,
 * copied on the packer's stream into the slot's pinned buffer. Called with
 * the context current, once the slot's GPU work is done. */
static int fetch_packet(AVCodecContext *avctx, C63CudaSlot *sl)
{
    C63CudaEncContext *s = avctx->priv_data;
    CudaFunctions *cu = s->cu;
    const size_t size = sl->info_host->size;
    int ret;

    if (size < C63_HEADER_SIZE + 2 || size > s->max_pkt) {
        av_log(avctx, AV_LOG_ERROR, "Coded frame of %zu bytes out of range\n", size);
        return AVERROR_BUG;
    }
    /* Grown to the largest frame so far, so allocated a few times only. */
    if (size > sl->pkt_host_size) {
        const size_t grow = FFMIN(s->max_pkt, size + size / 4);
        free_host(s, (void **)&sl->pkt_host);
        sl->pkt_host_size = 0;
        if ((ret = alloc_host(avctx, s, (void **)&sl->pkt_host, grow)) < 0)
            return ret;
        sl->pkt_host_size = grow;
    }
    if ((ret = stats_event(avctx, sl->ev_copy[0], s->copy_stream)) < 0 ||
        (ret = CHECK_CU(cu->cuMemcpyDtoHAsync(sl->pkt_host, sl->d_pkt, size, s->copy_stream))) < 0 ||
        (ret = stats_event(avctx, sl->ev_copy[1], s->copy_stream)) < 0 ||
        (ret = CHECK_CU(cu->cuStreamSynchronize(s->copy_stream))) < 0)
        return ret;
    if (s->collect_stats)
        stats_add(avctx, STAGE_DOWNLOAD, sl->ev_copy[0], sl->ev_copy[1]);
    if ((ret = ff_get_encode_buffer(avctx, sl->pkt, size, 0)) < 0)
        return ret;
    memcpy(sl->pkt->data, sl->pkt_host, size);
    sl->keyframe = sl->pkt_host[C63EC_KEY_OFFSET];
    if (sl->keyframe)
        sl->pkt->flags |= AV_PKT_FLAG_KEY;
    return 0;
}

/* Wait for the slot's GPU work and fetch its packet into sl->pkt. */
static int pack_slot(AVCodecContext *avctx, C63CudaSlot *sl)
{
    C63CudaEncContext *s = avctx->priv_data;
    CudaFunctions *cu = s->cu;
    CUcontext dummy;
    int ret;

    if ((ret = CHECK_CU(cu->cuCtxPushCurrent(s->hwctx->cuda_ctx))) < 0)
        return ret;
    ret = CHECK_CU(cu->cuEventSynchronize(sl->ev[NB_STAGES]));
    if (ret >= 0 && s->collect_stats) {
        for (int i = 0; i < NB_STAGES; i++)
            stats_add(avctx, i, sl->ev[i], sl->ev[i + 1]);
        if (sl->uploaded)
            stats_add(avctx, STAGE_UPLOAD, sl->ev_up[0], sl->ev_up[1]);
        s->nb_frames++;
    }
    if (ret >= 0)
        ret = fetch_packet(avctx, sl);
    CHECK_CU(cu->cuCtxPopCurrent(&dummy));
    av_frame_unref(sl->frame);
    if (ret < 0)
        return ret;

    sl->pkt->pts      = sl->pts;
    sl->pkt->dts      = sl->pts;
    sl->pkt->duration = sl->duration;
    return 0;
}

#if HAVE_THREADS
/* The packer: codes the queued slots in order, until told to quit. */
static void *packer_thread(void *arg)
{
    AVCodecContext *avctx = arg;
    C63CudaEncContext *s = avctx->priv_data;
    int idx = 0;

    pthread_mutex_lock(&s->lock);
    for (;;) {
        C63CudaSlot *sl = &s->slot[idx];
        while (!s->quit && sl->state != SLOT_QUEUED)
            pthread_cond_wait(&s->cond, &s->lock);
        if (s->quit)
            break;
        pthread_mutex_unlock(&s->lock);
        sl->ret = pack_slot(avctx, sl);
        pthread_mutex_lock(&s->lock);
        sl->state = SLOT_DONE;
        pthread_cond_broadcast(&s->cond);
        idx = (idx + 1) % s->depth;
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}
#endif

/* Hand the slot's GPU work over to the packer. */
static void queue_slot(C63CudaEncContext *s, C63CudaSlot *sl)
{
#if HAVE_THREADS
    if (s->packer_started) {
        pthread_mutex_lock(&s->lock);
        sl->state = SLOT_QUEUED;
        pthread_cond_broadcast(&s->cond);
        pthread_mutex_unlock(&s->lock);
        return;
    }
#endif
    sl->state = SLOT_QUEUED;
}

/* Return the oldest slot's packet, waiting for it if wait is set;
 * AVERROR(EAGAIN) if it is not done and wait is not set. */
static int take_packet(AVCodecContext *avctx, AVPacket *pkt, int wait)
{
    C63CudaEncContext *s = avctx->priv_data;
    C63CudaSlot *sl = &s->slot[s->head];
    int ret;

#if HAVE_THREADS
    if (s->packer_started) {
        pthread_mutex_lock(&s->lock);
        while (wait && sl->state != SLOT_DONE)
            pthread_cond_wait(&s->cond, &s->lock);
        ret = sl->state == SLOT_DONE;
        pthread_mutex_unlock(&s->lock);
        if (!ret)
            return AVERROR(EAGAIN);
    } else
#endif
    {
        if (!wait)
            return AVERROR(EAGAIN);
        sl->ret = pack_slot(avctx, sl);
    }

    ret       = sl->ret;
    sl->state = SLOT_FREE;
    s->head   = (s->head + 1) % s->depth;
    s->nb_inflight--;
    if (ret >= 0)
        ret = ff_c63_rc_packet(&s->rc, avctx, s->nb_taken, sl->pkt, sl->qscale, sl->keyframe);
    s->nb_taken++;
    if (ret >= 0)
        av_packet_move_ref(pkt, sl->pkt);
    av_packet_unref(sl->pkt);
    return ret;
}

/*
 * The GPU coder's device buffers (one allocation, laid out by
 * c63ec_init_params()), its tables and header template, its
 * grids and the packer's copy stream. The packet buffers, one a slot, are
 * c63ec_max_packet() bytes: the format's worst case.
 */
static av_cold int init_entropy(AVCodecContext *avctx)
{
    C63CudaEncContext *s = avctx->priv_data;
    CudaFunctions *cu = s->cu;
    const C63Geometry *g = &s->geo;
    C63ECParams *p = &s->ecp;
    const uint64_t size = c63ec_init_params(p, g->mb_w, g->mb_h, 0);
    const uint64_t max_words = c63ec_max_words(p->nblocks);
    uint8_t hdr[C63_HEADER_SIZE];
    int ret;

    if ((ret = CHECK_CU(cu->cuMemAlloc(&s->d_ec, size))) < 0)
        return ret;
    /* zeroed once, so that nothing the kernels leave unwritten (the
     * C63ECInfo padding that goes back with the packet size) is read
     * uninitialised; done before the copies below, whatever their stream */
    if ((ret = CHECK_CU(cu->cuMemsetD8Async(s->d_ec, 0, size, s->stream))) < 0 ||
        (ret = CHECK_CU(cu->cuStreamSynchronize(s->stream))) < 0)
        return ret;
    c63ec_init_params(p, g->mb_w, g->mb_h, s->d_ec);
    p->coef = s->d_coef;
    p->mv   = s->d_mv;
    ff_c63_write_header(hdr, g->width, g->height, 0, s->q);
    if ((ret = CHECK_CU(cu->cuMemcpyHtoD(p->tables, &ff_c63_huff, sizeof(ff_c63_huff)))) < 0 ||
        (ret = CHECK_CU(cu->cuMemcpyHtoD(p->hdr, hdr, sizeof(hdr)))) < 0)
        return ret;
    s->max_pkt = c63ec_max_packet(p->nblocks);

    s->ec_grid[EC_CODE]   = c63ec_code_grid(p->nblocks);
    s->ec_grid[EC_SUM]    = p->nchunks;
    s->ec_grid[EC_APPLY]  = p->nchunks;
    s->ec_grid[EC_GATHER] = FFMIN(max_words / C63EC_THREADS, C63EC_GRID);
    s->ec_grid[EC_STUFF]  = s->ec_grid[EC_GATHER];

    return CHECK_CU(cu->cuStreamCreate(&s->copy_stream, CU_STREAM_NON_BLOCKING));
}

/* The formats the kernels read (CUDA frames: their sw_format): checked
 * at init and for every frame, which may differ from the context. */
static int check_format(AVCodecContext *avctx, enum AVPixelFormat fmt)
{
    if (fmt != AV_PIX_FMT_YUV420P && fmt != AV_PIX_FMT_YUVJ420P && fmt != AV_PIX_FMT_NV12) {
        av_log(avctx, AV_LOG_ERROR, "Unsupported input format %s\n", av_get_pix_fmt_name(fmt));
        return AVERROR(EINVAL);
    }
    return 0;
}

/* The options and the input format, before anything is allocated. */
static av_cold int check_input(AVCodecContext *avctx)
{
    C63CudaEncContext *s = avctx->priv_data;
    int ret;

    if ((ret = ff_c63_encode_check(avctx, s->qp, s->range)) < 0 ||
        (ret = ff_c63_rc_init(&s->rc, avctx, s->qp)) < 0)
        return ret;
    /* frame n's scale needs the sizes of frames up to n - C63_RC_LAG,
     * which are taken before frame n is queued only with this depth */
    if (s->rc.mode == C63_RC_ABR && s->depth > C63_RC_LAG) {
        av_log(avctx, AV_LOG_ERROR, "-depth above %d does not apply with -b:v\n", C63_RC_LAG);
        return AVERROR(EINVAL);
    }
    if (avctx->pix_fmt == AV_PIX_FMT_CUDA) {
        if (!avctx->hw_frames_ctx) {
            av_log(avctx, AV_LOG_ERROR, "CUDA frames need a hw_frames_ctx\n");
            return AVERROR(EINVAL);
        }
        return check_format(avctx,
                            ((AVHWFramesContext *)avctx->hw_frames_ctx->data)->sw_format);
    }
    return 0;
}

/* The geometry, the tables and the planes' places in the device buffers. */
static av_cold void init_layout(AVCodecContext *avctx)
{
    C63CudaEncContext *s = avctx->priv_data;
    const C63Geometry *g = &s->geo;

    ff_c63_geometry(&s->geo, avctx->width, avctx->height);
    ff_c63_quant_tables(s->q, s->tables, s->qp);
    ff_c63_init_huff_codes();

    s->collect_stats = s->stats_gpu || av_log_get_level() >= AV_LOG_VERBOSE;
    if (!s->event_elapsed)
        s->collect_stats = 0;

    s->total = 0;
    for (int p = 0; p < 3; p++) {
        int cw = p ? AV_CEIL_RSHIFT(g->width, 1) : g->width;
        int ch = p ? AV_CEIL_RSHIFT(g->height, 1) : g->height;
        s->plane_size[p] = (size_t)g->w[p] * g->h[p];
        s->plane_off[p]  = s->total;
        s->total        += s->plane_size[p];
        s->in_off[p]     = s->in_size;
        s->in_size      += FFALIGN((size_t)cw * ch, 256);
    }
}

/*
 * The streams, the modules and their kernels (in the pushed context). The
 * driver compiles a module whole when it is loaded (the longest part of
 * the start-up with an empty PTX cache), so the kernels of the
 * rate-distortion options and of the buffer model are loaded only where
 * they run.
 */
static av_cold int load_kernels(AVCodecContext *avctx)
{
    C63CudaEncContext *s = avctx->priv_data;
    CudaFunctions *cu = s->cu;
    /* the 64-bit entry point: the loader's cuModuleGetGlobal is v1's */
    typedef CUresult CUDAAPI GetGlobal(CUdeviceptr *, size_t *, CUmodule, const char *);
    GetGlobal *get_global = cu->lib ? (GetGlobal *)FFNV_SYM_FUNC(cu->lib, "cuModuleGetGlobal_v2")
                                    : NULL;
    size_t scene_size = 0;
    int ret;

    if ((ret = CHECK_CU(cu->cuStreamCreate(&s->stream,    CU_STREAM_NON_BLOCKING))) < 0 ||
        (ret = CHECK_CU(cu->cuStreamCreate(&s->up_stream, CU_STREAM_NON_BLOCKING))) < 0)
        return ret;
    if (!get_global) {
        av_log(avctx, AV_LOG_ERROR, "The CUDA driver has no cuModuleGetGlobal_v2\n");
        return AVERROR(ENOSYS);
    }
    if ((ret = ff_cuda_load_module(avctx, s->hwctx, &s->module,
                                   ff_c63_cuda_enc_ptx_data, ff_c63_cuda_enc_ptx_len)) < 0)
        return ret;
    if ((ret = CHECK_CU(cu->cuModuleGetFunction(&s->f_convert, s->module, "c63_convert"))) < 0 ||
        (ret = CHECK_CU(cu->cuModuleGetFunction(&s->f_encode,  s->module, "c63_encode")))  < 0 ||
        (ret = CHECK_CU(cu->cuModuleGetFunction(&s->f_sc_hist, s->module, "c63_sc_hist"))) < 0 ||
        (ret = CHECK_CU(cu->cuModuleGetFunction(&s->f_sc_decide, s->module, "c63_sc_decide"))) < 0 ||
        (ret = CHECK_CU(get_global(&s->d_scene, &scene_size, s->module, "c63_scene"))) < 0)
        return ret;
    av_assert0(scene_size == sizeof(C63SceneState));
    if (avctx->trellis || s->mv_rd || s->intra_rd || s->rc.vbv) {
        CUmodule m;
        if ((ret = ff_cuda_load_module(avctx, s->hwctx, &s->module_rd,
                                       ff_c63_cuda_rd_ptx_data, ff_c63_cuda_rd_ptx_len)) < 0)
            return ret;
        m = s->module_rd;
        if ((ret = CHECK_CU(cu->cuModuleGetFunction(&s->f_encode_rd, m, "c63_encode_rd"))) < 0 ||
            (ret = CHECK_CU(cu->cuModuleGetFunction(&s->f_encode_rdq, m, "c63_encode_rdq"))) < 0 ||
            (ret = CHECK_CU(cu->cuModuleGetFunction(&s->f_dc_chain, m, "c63_dc_chain"))) < 0 ||
            (ret = CHECK_CU(cu->cuModuleGetFunction(&s->f_recon,  m, "c63_recon")))   < 0 ||
            (ret = CHECK_CU(cu->cuModuleGetFunction(&s->f_mv_rd_pre, m, "c63_mv_rd_pre"))) < 0 ||
            (ret = CHECK_CU(cu->cuModuleGetFunction(&s->f_mv_rd,  m, "c63_mv_rd")))   < 0 ||
            (ret = CHECK_CU(cu->cuModuleGetFunction(&s->f_activity, m, "c63_activity"))) < 0)
            return ret;
    }
    for (int p = 0; p < 2; p++) {
        char name[16];
        snprintf(name, sizeof(name), "c63_me%d", C63_ME_NR(s->range[p]));
        if ((ret = CHECK_CU(cu->cuModuleGetFunction(&s->f_me[p], s->module, name))) < 0)
            return ret;
    }
    for (int i = 0; i < NB_EC; i++)
        if ((ret = CHECK_CU(cu->cuModuleGetFunction(&s->f_ec[i], s->module, ec_names[i]))) < 0)
            return ret;
    return 0;
}

/* The frame buffers on the device, cleared, the transform's parameters and
 * the entropy coder's buffers (in the pushed context). */
static av_cold int alloc_frame_buffers(AVCodecContext *avctx)
{
    C63CudaEncContext *s = avctx->priv_data;
    CudaFunctions *cu = s->cu;
    const C63Geometry *g = &s->geo;
    size_t coef_bytes = s->total * sizeof(int16_t);
    size_t mv_bytes   = s->total / 64 * sizeof(C63MV);
    int ret;

    if ((ret = CHECK_CU(cu->cuMemAlloc(&s->d_orig,     s->total)))   < 0 ||
        (ret = CHECK_CU(cu->cuMemAlloc(&s->d_recon[0], s->total)))   < 0 ||
        (ret = CHECK_CU(cu->cuMemAlloc(&s->d_recon[1], s->total)))   < 0 ||
        (ret = CHECK_CU(cu->cuMemAlloc(&s->d_coef,     coef_bytes))) < 0 ||
        (ret = CHECK_CU(cu->cuMemAlloc(&s->d_mv,       mv_bytes)))   < 0 ||
        (ret = CHECK_CU(cu->cuMemAlloc(&s->d_q,        sizeof(s->q)))) < 0)
        return ret;
    if (avctx->trellis == 2 &&
        (ret = CHECK_CU(cu->cuMemAlloc(&s->d_dcz, s->total / 64 * sizeof(int)))) < 0)
        return ret;
    if ((s->mv_rd || s->intra_rd) &&
        (ret = CHECK_CU(cu->cuMemAlloc(&s->d_mvrd_pre, s->total / 64 * sizeof(C63MVRDPre)))) < 0)
        return ret;
    if (s->rc.vbv &&
        ((ret = CHECK_CU(cu->cuMemAlloc(&s->d_in_stats, sizeof(*s->in_stats)))) < 0 ||
         (ret = alloc_host(avctx, s, (void **)&s->in_stats, sizeof(*s->in_stats))) < 0))
        return ret;
    if ((ret = init_entropy(avctx)) < 0)
        return ret;
    s->enc_grid  = c63_enc_layout(&s->encp, g->w, g->h);
    s->encp.coef = s->d_coef;
    s->encp.mv   = s->d_mv;
    s->encp.orig = s->d_orig;
    s->encp.q    = s->d_q;
    s->encp.ac_len = s->ecp.tables + offsetof(C63ECTables, ac_len);
    s->encp.dcz    = s->d_dcz;
    s->encp.scene  = s->d_scene;
    s->dcp.coef    = s->d_coef;
    s->dcp.dcz     = s->d_dcz;
    s->dcp.q       = s->d_q;
    s->dcp.dc_len  = s->ecp.tables + offsetof(C63ECTables, dc_len);
    s->dcp.nchains = 0;
    for (int p = 0; p < 3; p++) {
        s->dcp.p[p].bw          = g->w[p] / 8;
        s->dcp.p[p].first       = s->encp.p[p].first;
        s->dcp.p[p].first_chain = s->dcp.nchains;
        s->dcp.nchains         += g->mb_h;
    }
    s->rd_modes = (s->mv_rd ? C63_RD_MV : 0) | (s->intra_rd ? C63_RD_INTRA : 0);
    s->encp.limit_ac = ff_c63_own_choices(avctx, &s->rc, s->tables, s->rd_modes,
                                          s->sc_threshold, &s->sc);
    for (int p = 0; p < 3; p++)     /* the kernel finds plane p at 64 * first */
        av_assert0(s->plane_off[p] == 64 * (size_t)s->encp.p[p].first);
    s->mvrdp.mv   = s->d_mv;
    s->mvrdp.orig = s->d_orig;
    s->mvrdp.pre  = s->d_mvrd_pre;
    s->mvrdp.nblocks = s->encp.nblocks;
    s->mvrdp.nrows = 0;
    for (int p = 0; p < 3; p++) {
        s->mvrdp.p[p].w         = g->w[p];
        s->mvrdp.p[p].h         = g->h[p];
        s->mvrdp.p[p].first     = s->encp.p[p].first;
        s->mvrdp.p[p].first_row = s->mvrdp.nrows;
        s->mvrdp.nrows         += g->h[p] / 8;
    }
    if ((ret = CHECK_CU(cu->cuMemsetD8Async(s->d_recon[0], 0, s->total, s->stream))) < 0 ||
        (ret = CHECK_CU(cu->cuMemsetD8Async(s->d_recon[1], 0, s->total, s->stream))) < 0 ||
        (ret = CHECK_CU(cu->cuMemsetD8Async(s->d_mv, 0, mv_bytes, s->stream)))       < 0 ||
        (ret = CHECK_CU(cu->cuMemcpyHtoD(s->d_q, s->q, sizeof(s->q))))               < 0)
        return ret;
    return 0;
}

/* The buffers and events of one slot of the pipeline (in the pushed
 * context). */
static av_cold int alloc_slot(AVCodecContext *avctx, C63CudaSlot *sl)
{
    C63CudaEncContext *s = avctx->priv_data;
    CudaFunctions *cu = s->cu;
    int ret;

    if ((ret = alloc_host(avctx, s, (void **)&sl->in_host, s->in_size)) < 0 ||
        (ret = CHECK_CU(cu->cuMemAlloc(&sl->d_in, s->in_size))) < 0 ||
        (ret = CHECK_CU(cu->cuEventCreate(&sl->ev_in, CU_EVENT_DISABLE_TIMING))) < 0)
        return ret;
    for (int e = 0; e < 2; e++)
        if ((ret = CHECK_CU(cu->cuEventCreate(&sl->ev_up[e],
                                s->collect_stats ? 0 : CU_EVENT_DISABLE_TIMING))) < 0)
            return ret;
    if ((ret = alloc_host(avctx, s, (void **)&sl->info_host, sizeof(*sl->info_host))) < 0 ||
        (ret = CHECK_CU(cu->cuMemAlloc(&sl->d_pkt, s->max_pkt))) < 0)
        return ret;
    for (int e = 0; e <= NB_STAGES; e++)
        if ((ret = CHECK_CU(cu->cuEventCreate(&sl->ev[e],
                                s->collect_stats ? 0 : CU_EVENT_DISABLE_TIMING))) < 0)
            return ret;
    for (int e = 0; e < 2; e++)
        if ((ret = CHECK_CU(cu->cuEventCreate(&sl->ev_copy[e],
                                s->collect_stats ? 0 : CU_EVENT_DISABLE_TIMING))) < 0)
            return ret;
    sl->frame = av_frame_alloc();
    sl->pkt   = av_packet_alloc();
    if (!sl->frame || !sl->pkt)
        return AVERROR(ENOMEM);
    return 0;
}

/* Everything on the device, in the encoder's CUDA context. */
static av_cold int init_gpu(AVCodecContext *avctx)
{
    C63CudaEncContext *s = avctx->priv_data;
    CudaFunctions *cu = s->cu;
    CUcontext dummy;
    int ret;

    if ((ret = CHECK_CU(cu->cuCtxPushCurrent(s->hwctx->cuda_ctx))) < 0)
        return ret;

    if ((ret = load_kernels(avctx)) < 0 ||
        (ret = alloc_frame_buffers(avctx)) < 0)
        goto fail;
    for (int i = 0; i < s->depth; i++)
        if ((ret = alloc_slot(avctx, &s->slot[i])) < 0)
            goto fail;
    if (!(s->frame = av_frame_alloc())) {
        ret = AVERROR(ENOMEM);
        goto fail;
    }
    ret = CHECK_CU(cu->cuStreamSynchronize(s->stream));

fail:
    CHECK_CU(cu->cuCtxPopCurrent(&dummy));
    return ret;
}

/* The packer thread (none without threads: the frames are then coded on
 * the calling thread). */
static av_cold int start_packer(AVCodecContext *avctx)
{
#if HAVE_THREADS
    C63CudaEncContext *s = avctx->priv_data;
    int ret;

    if ((ret = AVERROR(pthread_mutex_init(&s->lock, NULL))))
        return ret;
    if ((ret = AVERROR(pthread_cond_init(&s->cond, NULL)))) {
        pthread_mutex_destroy(&s->lock);
        return ret;
    }
    if ((ret = AVERROR(pthread_create(&s->packer, NULL, packer_thread, avctx)))) {
        pthread_cond_destroy(&s->cond);
        pthread_mutex_destroy(&s->lock);
        av_log(avctx, AV_LOG_ERROR, "Cannot start the packer thread\n");
        return ret;
    }
    s->packer_started = 1;
#endif
    return 0;
}

static av_cold int c63_cuda_encode_init(AVCodecContext *avctx)
{
    C63CudaEncContext *s = avctx->priv_data;
    int ret;

    if ((ret = check_input(avctx)) < 0 ||
        (ret = init_device(avctx)) < 0)
        return ret;
    init_layout(avctx);
    ret = init_gpu(avctx);
    s->since_key = avctx->gop_size;
    if (ret < 0)
        return ret;
    return start_packer(avctx);
}

/* Input planes on the device: CUDA frames as they are, system-memory
 * frames through the slot's pinned staging buffer and device copy. The
 * compute stream is made to wait for them. A frame refused here has
 * queued nothing. */
static int upload_input(AVCodecContext *avctx, C63CudaSlot *sl, const AVFrame *frame,
                        enum AVPixelFormat *fmt, CUdeviceptr src[3], int pitch[3])
{
    C63CudaEncContext *s = avctx->priv_data;
    CudaFunctions *cu = s->cu;
    const C63Geometry *g = &s->geo;
    int ret;

    sl->uploaded = 0;
    if (frame->format == AV_PIX_FMT_CUDA) {
        AVHWFramesContext *fc;
        AVCUDADeviceContext *fhw;
        if (!frame->hw_frames_ctx)
            return AVERROR(EINVAL);
        fc  = (AVHWFramesContext *)frame->hw_frames_ctx->data;
        fhw = fc->device_ctx->hwctx;
        if (fhw->cuda_ctx != s->hwctx->cuda_ctx) {
            av_log(avctx, AV_LOG_ERROR, "CUDA frames of another CUDA context\n");
            return AVERROR(EINVAL);
        }
        *fmt = fc->sw_format;
        if ((ret = check_format(avctx, *fmt)) < 0)
            return ret;
        for (int p = 0; p < 3; p++) {
            src[p]   = (CUdeviceptr)frame->data[p];
            pitch[p] = frame->linesize[p];
        }
        /* The kernels wait for what the frame's stream has queued (its
         * upload or its decoding), and the frame is held until they have
         * read it. */
        if ((ret = CHECK_CU(cu->cuEventRecord(sl->ev_in, fhw->stream))) < 0 ||
            (ret = CHECK_CU(cu->cuStreamWaitEvent(s->stream, sl->ev_in, 0))) < 0)
            return ret;
        return av_frame_ref(sl->frame, frame);
    }

    *fmt = frame->format;
    if ((ret = check_format(avctx, *fmt)) < 0)
        return ret;
    for (int p = 0; p < 3; p++) {
        int cw = p ? AV_CEIL_RSHIFT(g->width, 1) : g->width;
        int ch = p ? AV_CEIL_RSHIFT(g->height, 1) : g->height;
        if (*fmt == AV_PIX_FMT_NV12 && p) {
            /* the interleaved plane, staged over the U and V areas */
            if (p == 2)
                break;
            cw *= 2;
        }
        av_image_copy_plane(sl->in_host + s->in_off[p], cw, frame->data[p], frame->linesize[p],
                            cw, ch);
        src[p]   = sl->d_in + s->in_off[p];
        pitch[p] = cw;
    }
    /* The slot's buffers are free: the slot's last frame is done. */
    if ((ret = stats_event(avctx, sl->ev_up[0], s->up_stream)) < 0 ||
        (ret = CHECK_CU(cu->cuMemcpyHtoDAsync(sl->d_in, sl->in_host, s->in_size, s->up_stream))) < 0 ||
        (ret = stats_event(avctx, sl->ev_up[1], s->up_stream)) < 0)
        return ret;
    sl->uploaded = s->collect_stats;
    if ((ret = CHECK_CU(cu->cuEventRecord(sl->ev_in, s->up_stream))) < 0)
        return ret;
    return CHECK_CU(cu->cuStreamWaitEvent(s->stream, sl->ev_in, 0));
}

/* Thread blocks of c63_activity and c63_sc_hist (c63_scene.h) for a frame. */
static int sc_hist_grid(const C63Geometry *g)
{
    const int rows = (g->height + 1) >> 1;
    return (rows + C63_SC_ROWS - 1) / C63_SC_ROWS;
}

/*
 * With a buffer model: the activity of the frame's input and whether it
 * starts a new scene (c63_scene.h), which rate control needs before it
 * gives the frame its scale: c63_activity and c63_sc_hist on the upload
 * stream, after the upload of a system-memory frame, which wait only for
 * the frame (not for the frames before it on the compute stream).
 */
static int input_analysis(AVCodecContext *avctx, C63CudaSlot *sl, CUdeviceptr luma, int pitch,
                          uint64_t *act, int *cut)
{
    C63CudaEncContext *s = avctx->priv_data;
    CudaFunctions *cu = s->cu;
    const C63Geometry *g = &s->geo;
    unsigned *h = s->hist[s->nb_submitted & 1];
    const int grid = sc_hist_grid(g);
    C63ActivityParams ap = {
        .luma   = luma,
        .sum    = s->d_in_stats + offsetof(C63InputStats, activity),
        .pitch  = pitch,
        .width  = g->width,
        .height = g->height,
    };
    C63SceneParams sp = {
        .luma   = luma,
        .hist   = s->d_in_stats + offsetof(C63InputStats, hist),
        .stride = pitch,
        .width  = g->width,
        .height = g->height,
    };
    void *aargs[] = { &ap }, *hargs[] = { &sp };
    int ret;

    if ((ret = CHECK_CU(cu->cuStreamWaitEvent(s->up_stream, sl->ev_in, 0))) < 0 ||
        (ret = CHECK_CU(cu->cuMemsetD8Async(s->d_in_stats, 0, sizeof(*s->in_stats),
                                            s->up_stream))) < 0 ||
        (ret = CHECK_CU(cu->cuLaunchKernel(s->f_activity, grid, 1, 1, C63_SC_THREADS, 1, 1,
                                           0, s->up_stream, aargs, NULL))) < 0 ||
        (s->sc &&
         (ret = CHECK_CU(cu->cuLaunchKernel(s->f_sc_hist, grid, 1, 1, C63_SC_THREADS, 1, 1,
                                            0, s->up_stream, hargs, NULL))) < 0) ||
        (ret = CHECK_CU(cu->cuMemcpyDtoHAsync(s->in_stats, s->d_in_stats, sizeof(*s->in_stats),
                                              s->up_stream))) < 0 ||
        (ret = CHECK_CU(cu->cuStreamSynchronize(s->up_stream))) < 0)
        return ret;
    *act = s->in_stats->activity;
    memcpy(h, s->in_stats->hist, sizeof(s->in_stats->hist));
    *cut = s->sc && s->nb_submitted &&
           c63_sc_cut(c63_sc_change(h, s->hist[!(s->nb_submitted & 1)]), g->width, g->height,
                      s->sc);
    return 0;
}

static int launch3(AVCodecContext *avctx, CUfunction f, int gx, int gy, int gz, int tx, int ty,
                   unsigned shmem, void **args)
{
    C63CudaEncContext *s = avctx->priv_data;
    return CHECK_CU(s->cu->cuLaunchKernel(f, gx, gy, gz, tx, ty, 1, shmem, s->stream, args, NULL));
}

static int launch(AVCodecContext *avctx, CUfunction f, int gx, int gy, int tx, int ty,
                  unsigned shmem, void **args)
{
    return launch3(avctx, f, gx, gy, 1, tx, ty, shmem, args);
}

/* What the stages of one frame share (submit_frame()). */
typedef struct C63CudaFrame {
    const AVFrame *frame;
    C63CudaSlot *sl;
    enum AVPixelFormat fmt;         ///< the input's (software) format
    CUdeviceptr src[3];             ///< its planes on the device
    int         pitch[3];
    CUdeviceptr ref, rec;           ///< the reference, the reconstruction
    int         key;                ///< 1 keyframe, 0 not; -1 the kernels decide (c63_scene)
    C63RDParams rd;
} C63CudaFrame;

/*
 * Rate control: the frame's kind, its scale, and its tables and its
 * header with them, for c63_encode and the coder (queued after the frame
 * before's kernels; copies from pageable memory are staged at once).
 */
static int frame_params(AVCodecContext *avctx, C63CudaFrame *f)
{
    C63CudaEncContext *s = avctx->priv_data;
    const C63Geometry *g = &s->geo;
    CudaFunctions *cu = s->cu;
    C63CudaSlot *sl = f->sl;
    uint64_t act = 0;
    int ret, cut = 0;

    if (s->rc.vbv && (ret = input_analysis(avctx, sl, f->src[0], f->pitch[0], &act, &cut)) < 0)
        return ret;
    f->key = s->sc && !s->rc.vbv ? -1 :
             c63_sc_key(f->frame->pict_type == AV_PICTURE_TYPE_I, s->nb_submitted > 0,
                        s->since_key, avctx->gop_size, cut);
    if ((ret = ff_c63_rc_frame_q(&s->rc, avctx, s->nb_submitted, f->key, act, &sl->qscale)) < 0)
        return ret;
    if (s->rc.mode == C63_RC_QUALITY) {
        ff_c63_rd_params(&f->rd, s->q, avctx->trellis, s->rd_modes);
        return 0;
    }
    ff_c63_quant_tables_scale(sl->q, s->tables, sl->qscale);
    ff_c63_rd_params(&f->rd, sl->q, avctx->trellis, s->rd_modes);
    ff_c63_write_header(sl->hdr, g->width, g->height, 0, sl->q);
    if ((ret = CHECK_CU(cu->cuMemcpyHtoDAsync(s->d_q, sl->q, sizeof(sl->q), s->stream))) < 0)
        return ret;
    return CHECK_CU(cu->cuMemcpyHtoDAsync(s->ecp.hdr, sl->hdr, sizeof(sl->hdr), s->stream));
}

/* STAGE_CONVERT: the input into the padded planes. */
static int launch_convert(AVCodecContext *avctx, const C63CudaFrame *f)
{
    C63CudaEncContext *s = avctx->priv_data;
    const C63Geometry *g = &s->geo;
    C63ConvParams cp;
    void *args[] = { &cp };

    for (int p = 0; p < 3; p++) {
        C63ConvPlane *c = &cp.p[p];
        c->dst   = s->d_orig + s->plane_off[p];
        c->dw    = g->w[p];
        c->dh    = g->h[p];
        c->src   = f->src[p];
        c->pitch = f->pitch[p];
        c->sw    = p ? AV_CEIL_RSHIFT(g->width, 1) : g->width;
        c->sh    = p ? AV_CEIL_RSHIFT(g->height, 1) : g->height;
        c->step  = 1;
        if (f->fmt == AV_PIX_FMT_NV12 && p) {
            c->src   = f->src[1] + (p - 1);
            c->pitch = f->pitch[1];
            c->step  = 2;
        }
    }
    return launch(avctx, s->f_convert, c63_conv_layout(&cp), 1, C63_CONV_THREADS, 1, 0, args);
}

/* STAGE_ME: the scene cut where the kernels decide it, the vectors of
 * an inter frame (or of a frame that may be one) and their choice. */
static int launch_motion(AVCodecContext *avctx, const C63CudaFrame *f)
{
    C63CudaEncContext *s = avctx->priv_data;
    const C63Geometry *g = &s->geo;
    int ret;

    if (f->key < 0) {
        C63SceneParams sp = {
            .luma      = s->d_orig,
            .stride    = g->w[0],
            .width     = g->width,
            .height    = g->height,
            .threshold = s->sc,
            .gop       = avctx->gop_size,
            .force     = f->frame->pict_type == AV_PICTURE_TYPE_I,
        };
        void *args[] = { &sp };
        if ((ret = launch(avctx, s->f_sc_hist, sc_hist_grid(g), 1, C63_SC_THREADS, 1, 0,
                          args)) < 0 ||
            (ret = launch(avctx, s->f_sc_decide, 1, 1, C63_SC_BINS, 1, 0, args)) < 0)
            return ret;
    }
    if (f->key > 0)
        return 0;
    /* luma (p = 0), then both chroma planes (same size and range) in one
     * launch; with scene cuts, they return at once on a keyframe */
    for (int p = 0; p < 2; p++) {
        CUdeviceptr mv  = s->d_mv + s->plane_off[p] / 64 * sizeof(C63MV);
        CUdeviceptr cur = s->d_orig + s->plane_off[p];
        CUdeviceptr rp  = f->ref + s->plane_off[p];
        int w = g->w[p], h = g->h[p], r = s->range[p], nr = C63_ME_NR(r);
        int win_stride = BM_STRIDE(8, 2 * r), win_rows = BM_ROWS_N(8, 2 * r, nr);
        int zstride = p ? s->plane_off[2] - s->plane_off[1] : 0;
        int sc = f->key < 0;
        void *args[] = { &mv, &cur, &rp, &w, &h, &r, &win_stride, &zstride, &sc };
        if ((ret = launch3(avctx, s->f_me[p], w / 8, h / 8, p ? 2 : 1,
                           C63_ME_THREADS(r, nr), 1, win_stride * win_rows, args)) < 0)
            return ret;
    }
    if (f->rd.lambda_me) {
        const uint8_t (*q)[64] = s->rc.mode == C63_RC_QUALITY ? s->q : f->sl->q;
        C63MVRDParams mp = s->mvrdp;
        void *args[] = { &mp };
        mp.ref       = f->ref;
        mp.lambda_me = f->rd.lambda_me;
        mp.modes     = f->rd.modes;
        mp.scene     = f->key < 0 ? s->d_scene : 0;
        for (int p = 0; p < 3; p++)
            mp.p[p].qdc = q[p][0];
        if ((ret = launch(avctx, s->f_mv_rd_pre,
                          (mp.nblocks + C63_MVRD_PRE_THREADS - 1) / C63_MVRD_PRE_THREADS, 1,
                          C63_MVRD_PRE_THREADS, 1, 0, args)) < 0 ||
            (ret = launch(avctx, s->f_mv_rd, (mp.nrows + C63_MVRD_WARPS - 1) / C63_MVRD_WARPS, 1,
                          32 * C63_MVRD_WARPS, 1, 0, args)) < 0)
            return ret;
    }
    return 0;
}

/* STAGE_ENCODE: transform, quantisation and reconstruction of the three
 * planes in one launch; with -trellis 2 the levels, the DC chain of each
 * MCU row, then the reconstruction. */
static int launch_encode(AVCodecContext *avctx, const C63CudaFrame *f)
{
    C63CudaEncContext *s = avctx->priv_data;
    C63EncParams ep = s->encp;
    void *args[] = { &ep };
    int ret;

    ep.rec    = f->rec;
    ep.ref    = f->ref;
    ep.key    = f->key;
    ep.lambda = f->rd.lambda;
    if (f->rd.dc) {
        C63DCChainParams dp = s->dcp;
        void *dargs[] = { &dp };
        dp.lambda = f->rd.lambda;
        if ((ret = launch(avctx, s->f_encode_rdq, s->enc_grid, 1, C63_ENC_THREADS, 1, 0,
                          args)) < 0 ||
            (ret = launch(avctx, s->f_dc_chain, dp.nchains, 1, 32, 1, 0, dargs)) < 0)
            return ret;
        return launch(avctx, s->f_recon, s->enc_grid, 1, C63_ENC_THREADS, 1, 0, args);
    }
    return launch(avctx, f->rd.lambda ? s->f_encode_rd : s->f_encode, s->enc_grid, 1,
                  C63_ENC_THREADS, 1, 0, args);
}

/* STAGE_ENTROPY: the GPU coder's kernels, into the slot's packet. */
static int launch_entropy(AVCodecContext *avctx, const C63CudaFrame *f)
{
    C63CudaEncContext *s = avctx->priv_data;
    C63ECParams ecp = s->ecp;
    void *args[] = { &ecp };
    int ret;

    ecp.pkt      = f->sl->d_pkt;
    ecp.keyframe = f->key;
    for (int i = 0; i < NB_EC; i++)
        if ((ret = launch(avctx, s->f_ec[i], s->ec_grid[i], 1,
                          i == EC_CODE ? C63EC_CODE_THREADS : C63EC_THREADS, 1, 0, args)) < 0)
            return ret;
    return 0;
}

/* STAGE_DOWNLOAD: only the packet's size; the packer copies the payload. */
static int queue_size_copy(AVCodecContext *avctx, const C63CudaFrame *f)
{
    C63CudaEncContext *s = avctx->priv_data;
    CudaFunctions *cu = s->cu;

    return CHECK_CU(cu->cuMemcpyDtoHAsync(f->sl->info_host, s->ecp.info,
                                          sizeof(*f->sl->info_host), s->stream));
}

/* The stages on the compute stream, in order: stage i lies between the
 * slot's events ev[i] and ev[i + 1] (pack_slot() times them). */
static int (*const stage_launch[NB_STAGES])(AVCodecContext *avctx, const C63CudaFrame *f) = {
    [STAGE_CONVERT]  = launch_convert,
    [STAGE_ME]       = launch_motion,
    [STAGE_ENCODE]   = launch_encode,
    [STAGE_ENTROPY]  = launch_entropy,
    [STAGE_DOWNLOAD] = queue_size_copy,
};

static int submit_frame(AVCodecContext *avctx, const AVFrame *frame)
{
    C63CudaEncContext *s = avctx->priv_data;
    CudaFunctions *cu = s->cu;
    C63CudaSlot *sl = &s->slot[(s->head + s->nb_inflight) % s->depth];
    C63CudaFrame f = { .frame = frame, .sl = sl };
    CUcontext dummy;
    int ret;

    /* The keyframe count and the reference change only when the frame is
     * queued: a frame refused here (another CUDA context, another format)
     * or a failed call leaves them as they were, so that the frames that
     * follow are coded against the last frame that was. With scene cuts
     * the kernels decide (key -1: c63_scene.key) and the packet says,
     * unless a buffer model needs the decision before (input_analysis()). */
    f.rec = s->d_recon[!s->cur];
    f.ref = s->d_recon[s->cur];
    sl->pts      = frame->pts;
    sl->duration = frame->duration;

    if ((ret = CHECK_CU(cu->cuCtxPushCurrent(s->hwctx->cuda_ctx))) < 0)
        return ret;

    if ((ret = upload_input(avctx, sl, frame, &f.fmt, f.src, f.pitch)) < 0 ||
        (ret = frame_params(avctx, &f)) < 0)
        goto end;
    for (int i = 0; i < NB_STAGES; i++)
        if ((ret = stats_event(avctx, sl->ev[i], s->stream)) < 0 ||
            (ret = stage_launch[i](avctx, &f)) < 0)
            goto end;
    ret = CHECK_CU(cu->cuEventRecord(sl->ev[NB_STAGES], s->stream));

end:
    if (ret < 0) {
        /* the slot is taken again by the next frame: nothing may still
         * read its staging buffer or its input frame */
        cu->cuStreamSynchronize(s->up_stream);
        cu->cuStreamSynchronize(s->stream);
    }
    CHECK_CU(cu->cuCtxPopCurrent(&dummy));
    if (ret < 0) {
        av_frame_unref(sl->frame);
        return ret;
    }
    s->since_key = f.key > 0 ? 1 : s->since_key + 1;
    s->cur ^= 1;
    s->nb_submitted++;
    s->nb_inflight++;
    queue_slot(s, sl);
    return 0;
}

static int c63_cuda_receive_packet(AVCodecContext *avctx, AVPacket *pkt)
{
    C63CudaEncContext *s = avctx->priv_data;
    int ret;

    /* Keep the GPU fed: queue every frame there is room for. */
    while (!s->eof && s->nb_inflight < s->depth) {
        ret = ff_encode_get_frame(avctx, s->frame);
        if (ret == AVERROR_EOF) {
            s->eof = 1;
            break;
        }
        if (ret == AVERROR(EAGAIN))
            break;
        if (ret < 0)
            return ret;
        ret = submit_frame(avctx, s->frame);
        av_frame_unref(s->frame);
        if (ret < 0)
            return ret;
    }
    if (!s->nb_inflight) {
        if (!s->eof)
            return AVERROR(EAGAIN);
        ff_c63_rc_end(&s->rc, avctx, s->nb_taken);
        return AVERROR_EOF;
    }
    /* Room for more input: only take a packet that is ready. */
    return take_packet(avctx, pkt, s->eof || s->nb_inflight == s->depth);
}

/* Stops the packer thread, if it runs. */
static av_cold void stop_packer(C63CudaEncContext *s)
{
#if HAVE_THREADS
    if (s->packer_started) {
        pthread_mutex_lock(&s->lock);
        s->quit = 1;
        pthread_cond_broadcast(&s->cond);
        pthread_mutex_unlock(&s->lock);
        pthread_join(s->packer, NULL);
        pthread_cond_destroy(&s->cond);
        pthread_mutex_destroy(&s->lock);
        s->packer_started = 0;
    }
#endif
}

/* The GPU time of each stage over the frames coded, if any. */
static av_cold void log_stats(AVCodecContext *avctx)
{
    C63CudaEncContext *s = avctx->priv_data;
    double total = 0, compute = 0;
    int level = s->stats_gpu ? AV_LOG_INFO : AV_LOG_VERBOSE;

    if (!s->nb_frames)
        return;
    for (int i = 0; i < NB_STATS; i++)
        total += s->stage_ms[i];
    for (int i = STAGE_CONVERT; i <= STAGE_ENTROPY; i++)
        compute += s->stage_ms[i];
    av_log(avctx, level, "GPU time over %"PRId64" frames:\n", s->nb_frames);
    /* the upload first: it is the first stage of a frame */
    av_log(avctx, level, "  %-26s %10.3f ms total %8.3f ms/frame\n", stage_names[STAGE_UPLOAD],
           s->stage_ms[STAGE_UPLOAD], s->stage_ms[STAGE_UPLOAD] / s->nb_frames);
    for (int i = 0; i < NB_STAGES; i++)
        av_log(avctx, level, "  %-26s %10.3f ms total %8.3f ms/frame\n", stage_names[i],
               s->stage_ms[i], s->stage_ms[i] / s->nb_frames);
    av_log(avctx, level, "  %-26s %10.3f ms total %8.3f ms/frame (%.1f fps)\n",
           "compute stream", compute, compute / s->nb_frames,
           compute > 0 ? 1000.0 * s->nb_frames / compute : 0.0);
    av_log(avctx, level, "  %-26s %10.3f ms total %8.3f ms/frame (%.1f fps)\n", "all",
           total, total / s->nb_frames, total > 0 ? 1000.0 * s->nb_frames / total : 0.0);
}

/* The buffers and events of one slot (in the pushed context). */
static av_cold void free_slot(C63CudaEncContext *s, C63CudaSlot *sl)
{
    CudaFunctions *cu = s->cu;

    free_host(s, (void **)&sl->in_host);
    if (sl->d_in)
        cu->cuMemFree(sl->d_in);
    if (sl->ev_in)
        cu->cuEventDestroy(sl->ev_in);
    for (int e = 0; e < 2; e++)
        if (sl->ev_up[e])
            cu->cuEventDestroy(sl->ev_up[e]);
    free_host(s, (void **)&sl->info_host);
    free_host(s, (void **)&sl->pkt_host);
    if (sl->d_pkt)
        cu->cuMemFree(sl->d_pkt);
    for (int e = 0; e <= NB_STAGES; e++)
        if (sl->ev[e])
            cu->cuEventDestroy(sl->ev[e]);
    for (int e = 0; e < 2; e++)
        if (sl->ev_copy[e])
            cu->cuEventDestroy(sl->ev_copy[e]);
    av_frame_free(&sl->frame);
    av_packet_free(&sl->pkt);
}

/* Everything on the device, once its streams are idle, in the encoder's
 * CUDA context. */
static av_cold void free_gpu(C63CudaEncContext *s)
{
    CudaFunctions *cu = s->cu;
    CUcontext dummy;

    cu->cuCtxPushCurrent(s->hwctx->cuda_ctx);
    if (s->stream)
        cu->cuStreamSynchronize(s->stream);
    if (s->up_stream)
        cu->cuStreamSynchronize(s->up_stream);
    for (int i = 0; i < MAX_DEPTH; i++)
        free_slot(s, &s->slot[i]);
    if (s->d_orig)     cu->cuMemFree(s->d_orig);
    if (s->d_recon[0]) cu->cuMemFree(s->d_recon[0]);
    if (s->d_recon[1]) cu->cuMemFree(s->d_recon[1]);
    if (s->d_coef)     cu->cuMemFree(s->d_coef);
    if (s->d_mv)       cu->cuMemFree(s->d_mv);
    if (s->d_dcz)      cu->cuMemFree(s->d_dcz);
    if (s->d_mvrd_pre) cu->cuMemFree(s->d_mvrd_pre);
    if (s->d_q)        cu->cuMemFree(s->d_q);
    if (s->d_in_stats) cu->cuMemFree(s->d_in_stats);
    free_host(s, (void **)&s->in_stats);
    if (s->d_ec)       cu->cuMemFree(s->d_ec);
    if (s->copy_stream) {
        cu->cuStreamSynchronize(s->copy_stream);
        cu->cuStreamDestroy(s->copy_stream);
    }
    if (s->up_stream)
        cu->cuStreamDestroy(s->up_stream);
    if (s->stream)
        cu->cuStreamDestroy(s->stream);
    if (s->module_rd)
        cu->cuModuleUnload(s->module_rd);
    if (s->module)
        cu->cuModuleUnload(s->module);
    cu->cuCtxPopCurrent(&dummy);
}

static av_cold int c63_cuda_encode_close(AVCodecContext *avctx)
{
    C63CudaEncContext *s = avctx->priv_data;

    stop_packer(s);
    log_stats(avctx);
    if (s->hwctx && s->cu)
        free_gpu(s);
    memset(s->slot, 0, sizeof(s->slot));
    s->d_orig = s->d_recon[0] = s->d_recon[1] = s->d_coef = s->d_mv = s->d_q = s->d_dcz = 0;
    s->d_mvrd_pre = 0;
    s->d_ec = 0;
    s->copy_stream = s->up_stream = s->stream = NULL;
    s->module = s->module_rd = NULL;
    s->d_scene = 0;
    av_frame_free(&s->frame);
    ff_c63_rc_uninit(&s->rc, avctx);
    av_buffer_unref(&s->hwdevice);
    s->hwctx = NULL;
    s->cu    = NULL;
    return 0;
}

#define OFFSET(x) offsetof(C63CudaEncContext, x)
#define VE AV_OPT_FLAG_VIDEO_PARAM | AV_OPT_FLAG_ENCODING_PARAM
static const AVOption options[] = {
    C63_ENCODER_OPTIONS(C63CudaEncContext)
    { "depth", "Frames in flight: GPU work and packet output overlap (1 = synchronous)", OFFSET(depth),
      AV_OPT_TYPE_INT, { .i64 = 2 }, 1, MAX_DEPTH, VE },
    { "stats_gpu", "Log GPU time per stage at the end", OFFSET(stats_gpu),
      AV_OPT_TYPE_BOOL, { .i64 = 0 }, 0, 1, VE },
    { "gpu", "CUDA device to use when none is given (index)", OFFSET(device),
      AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, VE },
    { "primary_ctx", "When none is given, use the GPU's primary CUDA context, shared within the process "
      "(auto: yes, else a context of its own where it is in use with other flags)", OFFSET(primary_ctx),
      AV_OPT_TYPE_BOOL, { .i64 = -1 }, -1, 1, VE },
    { NULL },
};

static const AVClass c63_cuda_class = {
    .class_name = "c63_cuda encoder",
    .item_name  = av_default_item_name,
    .option     = options,
    .version    = LIBAVUTIL_VERSION_INT,
};

static const FFCodecDefault c63_cuda_defaults[] = {
    C63_ENCODER_DEFAULTS
};

static const AVCodecHWConfigInternal *const c63_cuda_hw_configs[] = {
    HW_CONFIG_ENCODER_FRAMES(CUDA, CUDA),
    HW_CONFIG_ENCODER_DEVICE(NONE, CUDA),
    NULL,
};

const FFCodec ff_c63_cuda_encoder = {
    .p.name         = "c63_cuda",
    CODEC_LONG_NAME("Codec63 (University of Oslo teaching codec), CUDA"),
    .p.type         = AVMEDIA_TYPE_VIDEO,
    .p.id           = AV_CODEC_ID_C63,
    .p.capabilities = AV_CODEC_CAP_DR1 | AV_CODEC_CAP_DELAY | AV_CODEC_CAP_HARDWARE,
    .priv_data_size = sizeof(C63CudaEncContext),
    .init           = c63_cuda_encode_init,
    FF_CODEC_RECEIVE_PACKET_CB(c63_cuda_receive_packet),
    .close          = c63_cuda_encode_close,
    CODEC_PIXFMTS(AV_PIX_FMT_YUV420P, AV_PIX_FMT_NV12, AV_PIX_FMT_YUVJ420P,
                  AV_PIX_FMT_CUDA),
    .p.priv_class   = &c63_cuda_class,
    .defaults       = c63_cuda_defaults,
    .hw_configs     = c63_cuda_hw_configs,
    .caps_internal  = FF_CODEC_CAP_INIT_CLEANUP,
};
