/*
 * Codec63 decoding in CUDA kernels (hwaccel)
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
 * The c63 decoder's CUDA hwaccel: the decoder parses the frame header and
 * checks what the header says (c63dec.c); everything after it runs on the
 * device. Per frame the host copies the packet's entropy-coded data and
 * the quantisation tables up in one transfer, queues the stages of the
 * parallel entropy decoding (cuda_kernels/c63_hdec.h: unstuffing,
 * synchronisation, resolution, writing, vectors), the reconstruction
 * (c63_recon, the encoder's kernel: dequantisation, the format's float
 * inverse DCT, motion compensation from the previous picture, which stays
 * on the device) and the copy into the output frame, and returns
 * (end_frame). The decoder waits for the status word, the only thing that
 * comes back, once the next packet has come (ff_c63_cuda_finish()): the
 * device decodes a frame while the host passes the previous one on. A
 * second frame may be queued beside the first: each has its own stream,
 * packet and decoding buffers and status (C63CUDASlot), so that their
 * entropy decodings, which need few of the device's multiprocessors, run
 * side by side; the second's reconstruction waits for the first (its
 * reference). The pictures rotate among three buffers so that a failed
 * first frame leaves its own reference for the second's new start. An
 * error is the serial decoder's, with its message (ff_c63_hd_status()).
 */

#include <string.h>

#include "libavutil/cuda_check.h"
#include "libavutil/hwcontext.h"
#include "libavutil/hwcontext_cuda_internal.h"
#include "libavutil/mem.h"
#include "libavcodec/avcodec.h"
#include "libavcodec/decode.h"
#include "libavcodec/hwaccel_internal.h"
#include "libavcodec/internal.h"

#include "cuda_kernels/c63_transform.h"
#include "c63dec.h"
#include "c63hd.h"
#include "libavfilter/cuda/load_helper.h"

extern const unsigned char ff_c63_cuda_dec_ptx_data[];
extern const unsigned int ff_c63_cuda_dec_ptx_len;

#define CHECK_CU(x) FF_CUDA_CHECK_DL(avctx, h->cu, x)

/* Driver entry points that ffnvcodec's loader does not provide. */
typedef CUresult CUDAAPI tcuMemAllocHost(void **pp, size_t bytesize);
typedef CUresult CUDAAPI tcuMemFreeHost(void *p);

enum { K_CHUNKS, K_UNSTUFF, K_GUESS, K_LINK, K_CHAIN, K_SYNC, K_RESOLVE, K_WRITE, K_FIXUP, K_RECON, NB_KERNELS };

/* A frame on the device: what it has of its own while the next one is
 * queued beside it. Its entropy decoding runs on its own stream, beside
 * that of the frame before; only its reconstruction waits for that
 * frame's. */
typedef struct C63CUDASlot {
    CUstream stream;
    CUdeviceptr d_in;           ///< the quantisation tables (192 bytes), then the packet
    CUdeviceptr d_status;
    uint8_t *h_in;              ///< pinned: the same, to upload
    C63HDStatus *h_status;      ///< pinned
    CUevent done;               ///< recorded once its status is copied back

    /* per geometry */
    CUdeviceptr d_start, d_info, d_coef, d_mv;
    /* per largest packet (with d_in and h_in) */
    CUdeviceptr d_data, d_chunks, d_entry, d_exit, d_sums, d_cp, d_cps, d_guess, d_gsums,
                d_link, d_lcp, d_lcps;

    C63HDParams p;              ///< for its status
    const uint8_t *pkt;         ///< its entropy-coded data (the decoder keeps the packet)
    int out, ref;               ///< the d_rec it writes and the one it reads
} C63CUDASlot;

typedef struct C63CUDAContext {
    AVCUDADeviceContext *hwctx;
    CudaFunctions *cu;
    CUmodule module;
    CUfunction f[NB_KERNELS];

    /* per geometry */
    CUdeviceptr d_tables, d_rec[3];
    int good;                   ///< d_rec of the last good frame: the reference

    size_t pkt_cap;             ///< stuffed bytes the slots' packet buffers hold
    tcuMemAllocHost *mem_alloc_host;    ///< (NULL: av_malloc(), unpinned)
    tcuMemFreeHost  *mem_free_host;

    C63CUDASlot slot[2];
    int first;                  ///< the slot of the first frame on the device
    int nb_queued;              ///< frames on the device, 0 to 2

    const uint8_t *pkt;         ///< the entropy-coded data of the frame to start
    int pkt_size;
} C63CUDAContext;

#define Q_BYTES 256             ///< the tables' part of d_in, aligned

static int alloc_host(AVCodecContext *avctx, C63CUDAContext *h, void **p, size_t size)
{
    if (h->mem_alloc_host)
        return CHECK_CU(h->mem_alloc_host(p, size));
    *p = av_malloc(size);
    return *p ? 0 : AVERROR(ENOMEM);
}

static void free_host(C63CUDAContext *h, void *p)
{
    if (p && h->mem_free_host)
        h->mem_free_host(p);
    else
        av_free(p);
}

static void free_device(AVCodecContext *avctx, C63CUDAContext *h, CUdeviceptr *const *d, int n)
{
    for (int i = 0; i < n; i++)
        if (*d[i]) {
            CHECK_CU(h->cu->cuMemFree(*d[i]));
            *d[i] = 0;
        }
}

static void free_packet_buffers(AVCodecContext *avctx, C63CUDAContext *h)
{
    for (int i = 0; i < 2; i++) {
        C63CUDASlot *sl = &h->slot[i];
        CUdeviceptr *const d[] = { &sl->d_in, &sl->d_data, &sl->d_chunks, &sl->d_entry,
                                   &sl->d_exit, &sl->d_sums, &sl->d_cp, &sl->d_cps,
                                   &sl->d_guess, &sl->d_gsums, &sl->d_link,
                                   &sl->d_lcp, &sl->d_lcps };
        free_device(avctx, h, d, FF_ARRAY_ELEMS(d));
        free_host(h, sl->h_in);
        sl->h_in = NULL;
    }
    h->pkt_cap = 0;
}

/* Wait for everything queued on the device. */
static int sync_streams(AVCodecContext *avctx, C63CUDAContext *h)
{
    int ret = 0;
    for (int i = 0; i < 2; i++)
        if (h->slot[i].stream) {
            const int err = CHECK_CU(h->cu->cuStreamSynchronize(h->slot[i].stream));
            ret = ret < 0 ? ret : err;
        }
    return ret;
}

/* The buffers for size stuffed bytes (grown by half again), once the
 * frames on the device are done with the old ones. */
static int packet_buffers(AVCodecContext *avctx, C63CUDAContext *h, int size)
{
    CudaFunctions *cu = h->cu;
    size_t cap;
    int nsegs, nchunks, ret;

    if ((size_t)size <= h->pkt_cap)
        return 0;
    if ((ret = sync_streams(avctx, h)) < 0)
        return ret;
    free_packet_buffers(avctx, h);
    cap     = FFMAX((size_t)size + size / 2, 65536);
    if (cap > INT_MAX / 2)
        cap = size;
    nsegs   = c63hd_nsegs(cap);
    nchunks = (cap + C63HD_CHUNK - 1) / C63HD_CHUNK;
    for (int i = 0; i < 2; i++) {
        C63CUDASlot *sl = &h->slot[i];
        if ((ret = CHECK_CU(cu->cuMemAlloc(&sl->d_in, Q_BYTES + cap + 16))) < 0 ||
            (ret = alloc_host(avctx, h, (void **)&sl->h_in, Q_BYTES + cap + 16)) < 0 ||
            (ret = CHECK_CU(cu->cuMemAlloc(&sl->d_data, cap + C63HD_PAD))) < 0 ||
            (ret = CHECK_CU(cu->cuMemAlloc(&sl->d_chunks, 4 * (size_t)nchunks))) < 0 ||
            (ret = CHECK_CU(cu->cuMemAlloc(&sl->d_entry, sizeof(c63hd_state) * nsegs))) < 0 ||
            (ret = CHECK_CU(cu->cuMemAlloc(&sl->d_exit, sizeof(c63hd_state) * nsegs))) < 0 ||
            (ret = CHECK_CU(cu->cuMemAlloc(&sl->d_sums, sizeof(C63HDSum) * nsegs))) < 0 ||
            (ret = CHECK_CU(cu->cuMemAlloc(&sl->d_cp, sizeof(c63hd_state) * C63HD_REC *
                                                      nsegs))) < 0 ||
            (ret = CHECK_CU(cu->cuMemAlloc(&sl->d_cps, sizeof(C63HDSum) * C63HD_REC *
                                                       nsegs))) < 0 ||
            (ret = CHECK_CU(cu->cuMemAlloc(&sl->d_guess, sizeof(c63hd_state) * C63HD_GUESSES *
                                                         C63HD_REC * nsegs))) < 0 ||
            (ret = CHECK_CU(cu->cuMemAlloc(&sl->d_gsums, sizeof(C63HDSum) * C63HD_GUESSES *
                                                         C63HD_REC * nsegs))) < 0 ||
            (ret = CHECK_CU(cu->cuMemAlloc(&sl->d_link, 8 * (size_t)nsegs))) < 0 ||
            (ret = CHECK_CU(cu->cuMemAlloc(&sl->d_lcp, sizeof(c63hd_state) * C63HD_GUESSES *
                                                       C63HD_REC * nsegs))) < 0 ||
            (ret = CHECK_CU(cu->cuMemAlloc(&sl->d_lcps, sizeof(C63HDSum) * C63HD_GUESSES *
                                                        C63HD_REC * nsegs))) < 0) {
            free_packet_buffers(avctx, h);
            return ret;
        }
    }
    h->pkt_cap = cap;
    return 0;
}

static int c63_cuda_start_frame(AVCodecContext *avctx, const AVBufferRef *buf_ref,
                                const uint8_t *buf, uint32_t buf_size)
{
    return 0;
}

static int c63_cuda_decode_slice(AVCodecContext *avctx, const uint8_t *buf, uint32_t size)
{
    C63CUDAContext *h = avctx->internal->hwaccel_priv_data;
    h->pkt      = buf;
    h->pkt_size = size;
    return 0;
}

static int launch(AVCodecContext *avctx, C63CUDAContext *h, CUstream stream, int k,
                  int grid, int threads, void *params)
{
    void *args[] = { params };
    return CHECK_CU(h->cu->cuLaunchKernel(h->f[k], grid, 1, 1, threads, 1, 1, 0, stream,
                                         args, NULL));
}

/* Queue the frame's decoding, beside the frame on the device if there is
 * one (its reconstruction behind that frame's, its reference then);
 * ff_c63_cuda_finish() waits for it. */
static int decode(AVCodecContext *avctx, C63CUDAContext *h, AVFrame *frame)
{
    C63DecContext *s = avctx->priv_data;
    CudaFunctions *cu = h->cu;
    const C63Geometry *g = &s->geo;
    C63CUDASlot *sl = &h->slot[(h->first + h->nb_queued) & 1];
    CUstream st = sl->stream;
    const C63CUDASlot *before = h->nb_queued ? &h->slot[h->first] : NULL;
    C63HDParams p = { 0 };
    C63EncParams e = { 0 };
    int w[3], ht[3], rows, guess_blocks, ret;
    /* written: neither the reference nor, where a frame is queued before,
     * that frame's reference, which stays if that frame fails */
    const int ref = before ? before->out : h->good;
    int out = 0;
    while (out == ref || (before && out == before->ref))
        out++;

    if (h->nb_queued > 1)
        return AVERROR_BUG;
    ff_c63_hd_params(&p, g, h->pkt_size, s->hdr.keyframe);
    if (!p.nchunks) {
        C63HDStatus none = { .marker = C63HD_NOMARKER };
        return ff_c63_hd_status(avctx, &p, &none, h->pkt);
    }
    if ((ret = packet_buffers(avctx, h, h->pkt_size)) < 0)
        return ret;

    /* From here on the device works on the reference's buffers: an error
     * that is not the data's end (below) drops the reference. */
    s->keep_ref = 0;

    /* up: the tables, the packet and a zero byte after it */
    memcpy(sl->h_in, s->hdr.q, sizeof(s->hdr.q));
    memcpy(sl->h_in + Q_BYTES, h->pkt, h->pkt_size);
    sl->h_in[Q_BYTES + h->pkt_size] = 0;
    sl->h_status->marker = C63HD_NOMARKER;
    sl->h_status->size   = 0;
    sl->h_status->error  = C63HD_NO_ERROR;
    sl->h_status->redone = 0;

    p.pkt    = sl->d_in + Q_BYTES;
    p.data   = sl->d_data;
    p.chunks = sl->d_chunks;
    p.status = sl->d_status;
    p.tables = h->d_tables;
    p.entry  = sl->d_entry;
    p.exit   = sl->d_exit;
    p.sums   = sl->d_sums;
    p.cp     = sl->d_cp;
    p.cps    = sl->d_cps;
    p.guess  = sl->d_guess;
    p.gsums  = sl->d_gsums;
    p.link   = sl->d_link;
    p.lcp    = sl->d_lcp;
    p.lcps   = sl->d_lcps;
    p.start  = sl->d_start;
    p.info   = sl->d_info;
    p.coef   = sl->d_coef;
    p.mv     = sl->d_mv;

    for (int i = 0; i < 3; i++) {
        w[i]  = g->w[i];
        ht[i] = g->h[i];
    }
    c63_enc_layout(&e, w, ht);
    e.coef = sl->d_coef;
    e.rec  = h->d_rec[out];
    e.ref  = h->d_rec[ref];
    e.mv   = sl->d_mv;
    e.q    = sl->d_in;
    e.key  = s->hdr.keyframe;
    rows   = p.bh[0] + p.bh[1] + p.bh[2];
    /* a thread for each guess of each segment, and for each link */
    guess_blocks = (p.nsegs * C63HD_GUESSES + C63HD_GUESS_THREADS - 1) / C63HD_GUESS_THREADS;

    if ((ret = CHECK_CU(cu->cuMemcpyHtoDAsync(sl->d_in, sl->h_in, Q_BYTES + h->pkt_size + 1,
                                              st))) < 0 ||
        (ret = CHECK_CU(cu->cuMemcpyHtoDAsync(sl->d_status, sl->h_status, sizeof(*sl->h_status),
                                              st))) < 0 ||
        (ret = CHECK_CU(cu->cuMemsetD8Async(sl->d_data, 0, h->pkt_size + C63HD_PAD, st))) < 0 ||
        (ret = CHECK_CU(cu->cuMemsetD8Async(sl->d_start, 0xFF, 4 * ((size_t)p.nblocks + 1), st))) < 0 ||
        (ret = CHECK_CU(cu->cuMemsetD8Async(sl->d_info, 0, 4 * (size_t)p.nblocks, st))) < 0 ||
        (ret = CHECK_CU(cu->cuMemsetD8Async(sl->d_coef, 0, 128 * (size_t)p.nblocks, st))) < 0)
        return ret;
    if ((ret = launch(avctx, h, st, K_CHUNKS,  p.nchunks, C63HD_CHUNK_THREADS, &p)) < 0 ||
        (ret = launch(avctx, h, st, K_UNSTUFF, p.nchunks, C63HD_CHUNK_THREADS, &p)) < 0 ||
        (ret = launch(avctx, h, st, K_GUESS,   guess_blocks, C63HD_GUESS_THREADS, &p)) < 0 ||
        (ret = launch(avctx, h, st, K_LINK,    guess_blocks, C63HD_GUESS_THREADS, &p)) < 0 ||
        (ret = launch(avctx, h, st, K_CHAIN,   1, C63HD_CHAIN_THREADS, &p)) < 0 ||
        (ret = launch(avctx, h, st, K_SYNC,    p.ngroups, C63HD_GROUP, &p)) < 0 ||
        (ret = launch(avctx, h, st, K_RESOLVE, 1, C63HD_RESOLVE_THREADS, &p)) < 0 ||
        (ret = launch(avctx, h, st, K_WRITE,
                      (p.nsegs * C63HD_SUB + C63HD_GROUP - 1) / C63HD_GROUP, C63HD_GROUP, &p)) < 0 ||
        (ret = launch(avctx, h, st, K_FIXUP, (rows * 32 + 127) / 128, 128, &p)) < 0)
        return ret;
    /* the reference is the frame before's picture, the rest its own */
    if (before && (ret = CHECK_CU(cu->cuStreamWaitEvent(st, before->done, 0))) < 0)
        return ret;
    if ((ret = launch(avctx, h, st, K_RECON, (e.nblocks + C63_ENC_BLOCKS - 1) / C63_ENC_BLOCKS,
                      C63_ENC_THREADS, &e)) < 0)
        return ret;
    for (int i = 0; i < 3; i++) {
        const CUDA_MEMCPY2D cpy = {
            .srcMemoryType = CU_MEMORYTYPE_DEVICE,
            .srcDevice     = h->d_rec[out] + (size_t)64 * e.p[i].first,
            .srcPitch      = w[i],
            .dstMemoryType = CU_MEMORYTYPE_DEVICE,
            .dstDevice     = (CUdeviceptr)frame->data[i],
            .dstPitch      = frame->linesize[i],
            .WidthInBytes  = w[i],
            .Height        = ht[i],
        };
        if ((ret = CHECK_CU(cu->cuMemcpy2DAsync(&cpy, st))) < 0)
            return ret;
    }
    if ((ret = CHECK_CU(cu->cuMemcpyDtoHAsync(sl->h_status, sl->d_status, sizeof(*sl->h_status),
                                              st))) < 0 ||
        (ret = CHECK_CU(cu->cuEventRecord(sl->done, st))) < 0)
        return ret;
    sl->p   = p;
    sl->pkt = h->pkt;
    sl->out = out;
    sl->ref = ref;
    h->nb_queued++;
    return 0;
}

int ff_c63_cuda_finish(AVCodecContext *avctx)
{
    C63CUDAContext *h = avctx->internal->hwaccel_priv_data;
    C63DecContext *s = avctx->priv_data;
    const C63CUDASlot *sl = &h->slot[h->first];
    CUcontext dummy;
    int ret;

    if (!h->nb_queued)
        return AVERROR_BUG;
    if ((ret = CHECK_CU(h->cu->cuCtxPushCurrent(h->hwctx->cuda_ctx))) < 0)
        return ret;
    ret = CHECK_CU(h->cu->cuEventSynchronize(sl->done));
    CHECK_CU(h->cu->cuCtxPopCurrent(&dummy));
    h->first ^= 1;
    h->nb_queued--;
    if (ret < 0)
        return ret;

    if ((ret = ff_c63_hd_status(avctx, &sl->p, sl->h_status, sl->pkt)) < 0) {
        s->keep_ref = sl->h_status->marker == C63HD_NOMARKER ||
                      sl->pkt[sl->h_status->marker + 1] != C63_EOI;
        return ret;
    }
    h->good = sl->out;
    return 0;
}

static void c63_cuda_flush(AVCodecContext *avctx)
{
    C63CUDAContext *h = avctx->internal->hwaccel_priv_data;
    CUcontext dummy;

    if (h->hwctx && CHECK_CU(h->cu->cuCtxPushCurrent(h->hwctx->cuda_ctx)) >= 0) {
        sync_streams(avctx, h);
        CHECK_CU(h->cu->cuCtxPopCurrent(&dummy));
    }
    h->nb_queued = 0;
}

static int c63_cuda_end_frame(AVCodecContext *avctx)
{
    C63CUDAContext *h = avctx->internal->hwaccel_priv_data;
    C63DecContext *s = avctx->priv_data;
    AVFrame *frame = s->cur;
    CUcontext dummy;
    int ret;

    if ((ret = CHECK_CU(h->cu->cuCtxPushCurrent(h->hwctx->cuda_ctx))) < 0)
        return ret;
    ret = decode(avctx, h, frame);
    CHECK_CU(h->cu->cuCtxPopCurrent(&dummy));
    return ret;
}

static int c63_cuda_frame_params(AVCodecContext *avctx, AVBufferRef *hw_frames_ctx)
{
    AVHWFramesContext *fc = (AVHWFramesContext *)hw_frames_ctx->data;
    fc->format    = AV_PIX_FMT_CUDA;
    fc->sw_format = AV_PIX_FMT_YUV420P;
    fc->width     = avctx->coded_width;
    fc->height    = avctx->coded_height;
    return 0;
}

static int c63_cuda_uninit(AVCodecContext *avctx)
{
    C63CUDAContext *h = avctx->internal->hwaccel_priv_data;
    CudaFunctions *cu = h->cu;
    CUcontext dummy;

    if (!h->hwctx)
        return 0;
    if (CHECK_CU(cu->cuCtxPushCurrent(h->hwctx->cuda_ctx)) < 0)
        return 0;
    sync_streams(avctx, h);
    free_packet_buffers(avctx, h);
    {
        CUdeviceptr *const d[] = { &h->d_tables, &h->d_rec[0], &h->d_rec[1], &h->d_rec[2] };
        free_device(avctx, h, d, FF_ARRAY_ELEMS(d));
    }
    for (int i = 0; i < 2; i++) {
        C63CUDASlot *sl = &h->slot[i];
        CUdeviceptr *const d[] = { &sl->d_status, &sl->d_start, &sl->d_info, &sl->d_coef,
                                   &sl->d_mv };
        free_device(avctx, h, d, FF_ARRAY_ELEMS(d));
        free_host(h, sl->h_status);
        if (sl->done)
            CHECK_CU(cu->cuEventDestroy(sl->done));
        if (sl->stream)
            CHECK_CU(cu->cuStreamDestroy(sl->stream));
    }
    if (h->module)
        CHECK_CU(cu->cuModuleUnload(h->module));
    CHECK_CU(cu->cuCtxPopCurrent(&dummy));
    memset(h, 0, sizeof(*h));
    return 0;
}

static int c63_cuda_init(AVCodecContext *avctx)
{
    static const char *const names[NB_KERNELS] = {
        [K_CHUNKS] = "c63_hd_chunks", [K_UNSTUFF] = "c63_hd_unstuff", [K_GUESS] = "c63_hd_guess",
        [K_LINK] = "c63_hd_link", [K_CHAIN] = "c63_hd_chain", [K_SYNC] = "c63_hd_sync",
        [K_RESOLVE] = "c63_hd_resolve", [K_WRITE] = "c63_hd_write", [K_FIXUP] = "c63_hd_fixup",
        [K_RECON] = "c63_recon",
    };
    C63CUDAContext *h = avctx->internal->hwaccel_priv_data;
    C63DecContext *s = avctx->priv_data;
    const C63Geometry *g = &s->geo;
    AVHWFramesContext *fc;
    CudaFunctions *cu;
    CUcontext dummy;
    C63HDTables tables;
    size_t nblocks, plane_bytes = 0;
    int ret;

    if ((ret = ff_decode_get_hw_frames_ctx(avctx, AV_HWDEVICE_TYPE_CUDA)) < 0)
        return ret;
    fc       = (AVHWFramesContext *)avctx->hw_frames_ctx->data;
    h->hwctx = fc->device_ctx->hwctx;
    h->cu = cu = h->hwctx->internal->cuda_dl;
    if (cu->lib) {
        h->mem_alloc_host = (tcuMemAllocHost *)FFNV_SYM_FUNC(cu->lib, "cuMemAllocHost_v2");
        h->mem_free_host  = (tcuMemFreeHost *)FFNV_SYM_FUNC(cu->lib, "cuMemFreeHost");
        if (!h->mem_alloc_host || !h->mem_free_host)
            h->mem_alloc_host = NULL, h->mem_free_host = NULL;
    }
    ff_c63_hd_tables(&tables);

    nblocks = 6 * (size_t)g->mb_w * g->mb_h;
    for (int i = 0; i < 3; i++)
        plane_bytes += (size_t)g->w[i] * g->h[i];

    if ((ret = CHECK_CU(cu->cuCtxPushCurrent(h->hwctx->cuda_ctx))) < 0)
        return ret;
    if ((ret = ff_cuda_load_module(avctx, h->hwctx, &h->module,
                                   ff_c63_cuda_dec_ptx_data, ff_c63_cuda_dec_ptx_len)) < 0)
        goto end;
    for (int i = 0; i < NB_KERNELS; i++)
        if ((ret = CHECK_CU(cu->cuModuleGetFunction(&h->f[i], h->module, names[i]))) < 0)
            goto end;
    for (int i = 0; i < 2; i++) {
        C63CUDASlot *sl = &h->slot[i];
        if ((ret = CHECK_CU(cu->cuStreamCreate(&sl->stream, CU_STREAM_NON_BLOCKING))) < 0 ||
            (ret = CHECK_CU(cu->cuMemAlloc(&sl->d_status, sizeof(C63HDStatus)))) < 0 ||
            (ret = alloc_host(avctx, h, (void **)&sl->h_status, sizeof(C63HDStatus))) < 0 ||
            (ret = CHECK_CU(cu->cuEventCreate(&sl->done, CU_EVENT_DISABLE_TIMING))) < 0 ||
            (ret = CHECK_CU(cu->cuMemAlloc(&sl->d_start, 4 * (nblocks + 1)))) < 0 ||
            (ret = CHECK_CU(cu->cuMemAlloc(&sl->d_info, 4 * nblocks))) < 0 ||
            (ret = CHECK_CU(cu->cuMemAlloc(&sl->d_coef, 128 * nblocks))) < 0 ||
            (ret = CHECK_CU(cu->cuMemAlloc(&sl->d_mv, 2 * nblocks))) < 0 ||
            (ret = CHECK_CU(cu->cuMemsetD8Async(sl->d_mv, 0, 2 * nblocks, sl->stream))) < 0)
            goto end;
    }
    if ((ret = CHECK_CU(cu->cuMemAlloc(&h->d_tables, sizeof(tables)))) < 0 ||
        (ret = CHECK_CU(cu->cuMemcpyHtoD(h->d_tables, &tables, sizeof(tables)))) < 0)
        goto end;
    for (int i = 0; i < 3; i++)
        if ((ret = CHECK_CU(cu->cuMemAlloc(&h->d_rec[i], plane_bytes))) < 0 ||
            (ret = CHECK_CU(cu->cuMemsetD8Async(h->d_rec[i], 0, plane_bytes,
                                                h->slot[0].stream))) < 0)
            goto end;
    ret = sync_streams(avctx, h);
end:
    CHECK_CU(cu->cuCtxPopCurrent(&dummy));
    /* FFmpeg frees the private data of a failed init without uninit */
    if (ret < 0)
        c63_cuda_uninit(avctx);
    return ret;
}

const FFHWAccel ff_c63_cuda_hwaccel = {
    .p.name         = "c63_cuda",
    .p.type         = AVMEDIA_TYPE_VIDEO,
    .p.id           = AV_CODEC_ID_C63,
    .p.pix_fmt      = AV_PIX_FMT_CUDA,
    .start_frame    = c63_cuda_start_frame,
    .decode_slice   = c63_cuda_decode_slice,
    .end_frame      = c63_cuda_end_frame,
    .flush          = c63_cuda_flush,
    .frame_params   = c63_cuda_frame_params,
    .init           = c63_cuda_init,
    .uninit         = c63_cuda_uninit,
    .priv_data_size = sizeof(C63CUDAContext),
};
