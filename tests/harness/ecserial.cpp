/*
 * ecserial: c63_cuda's GPU entropy coder, run on the CPU, on the c63
 * encoder's coefficients
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

/*
 * Usage: ecserial [-quality Q] [-g GOP] [-me_range R] -O OUTPUT INPUT WIDTHxHEIGHT
 *
 * INPUT is raw yuv420p of the given size. Each picture is coded as the c63
 * encoder codes it, through the encoder's own row coding
 * (ff_c63_encode_row(), one thread, rows in order) with the options given
 * (the c63 encoder's, same names and defaults), and the frame's
 * coefficients and vectors are entropy-coded twice: by the c63 encoder's
 * CPU writer (ff_c63_write_begin(), _row(), _end()) and by c63_cuda's GPU
 * coder, the kernels' stages run serially on the CPU (both through
 * tests/harness/c63ec_serial.h).
 * The serial coder's packets are written to OUTPUT, one after the other: a .c63
 * stream, which must be the c63 encoder's (FATE compares its md5 with the
 * references). So the GPU coder's logic is checked on the encoder's real
 * data without a GPU.
 *
 * Prints to stderr "ecserial: N frames, the GPU coder run serially gives the CPU
 * writer's packets" and exits 0; when a packet of the serial coder differs from
 * the writer's, says where and exits 1; on an error prints FFmpeg's
 * message and exits 1.
 */

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

extern "C" {
#include "libavcodec/avcodec.h"
#include "libavcodec/me_cmp.h"
#include "libavutil/error.h"
#include "libavutil/frame.h"
#include "libavcodec/c63/c63.h"
#include "libavcodec/c63/c63dsp.h"
#include "libavcodec/c63/c63me.h"
#include "libavcodec/c63/c63enc.h"
}
#include "tests/c63/harness/c63ec_serial.h"

static int fail(const char *what, int err)
{
    char buf[AV_ERROR_MAX_STRING_SIZE];
    av_strerror(err, buf, sizeof(buf));
    fprintf(stderr, "ecserial: %s: %s\n", what, buf);
    return 1;
}

/* The next picture of in into frame: 0, or 1 at the end of the file. */
static int read_picture(FILE *in, AVFrame *frame)
{
    for (int p = 0; p < 3; p++) {
        const int w = p ? AV_CEIL_RSHIFT(frame->width, 1) : frame->width;
        const int h = p ? AV_CEIL_RSHIFT(frame->height, 1) : frame->height;
        for (int y = 0; y < h; y++)
            if (fread(frame->data[p] + (size_t)y * frame->linesize[p], 1, w, in) != (size_t)w)
                return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *out_path = NULL, *in_path = NULL, *size = NULL;
    int qp = C63_QP_DEFAULT, gop = 100, me_range = 0, w, h;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-quality") && i + 1 < argc)
            qp = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-g") && i + 1 < argc)
            gop = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-me_range") && i + 1 < argc)
            me_range = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-O") && i + 1 < argc)
            out_path = argv[++i];
        else if (!in_path)
            in_path = argv[i];
        else if (!size)
            size = argv[i];
        else
            size = NULL, i = argc;
    }
    if (!out_path || !in_path || !size || sscanf(size, "%dx%d", &w, &h) != 2) {
        fprintf(stderr, "usage: %s [-quality Q] [-g GOP] [-me_range R] -O OUTPUT "
                "INPUT WIDTHxHEIGHT\n", argv[0]);
        return 2;
    }

    /* what the encoder checks and sets up at init, on a context with its
     * defaults */
    AVCodecContext *avctx = avcodec_alloc_context3(avcodec_find_encoder_by_name("c63"));
    if (!avctx)
        return fail("context", AVERROR(ENOMEM));
    avctx->width    = w;
    avctx->height   = h;
    avctx->gop_size = gop;
    avctx->me_range = me_range;
    int range[3], ret = ff_c63_encode_check(avctx, qp, range);
    if (ret < 0) {
        avcodec_free_context(&avctx);
        return fail("options", ret);
    }
    C63Geometry g;
    uint8_t q[3][64];
    C63DSPContext dsp;
    MECmpContext mecc;
    ff_c63_geometry(&g, w, h);
    ff_c63_quant_tables(q, C63_TABLES_ANNEXK, qp);
    ff_c63_init_huff_codes();
    ff_c63dsp_init(&dsp);
    ff_me_cmp_init(&mecc, avctx);

    /* the planes, padded and zeroed; the coefficients and vectors of the
     * three planes in one buffer each, as the GPU coder takes them */
    size_t off[3], total = 0;
    for (int p = 0; p < 3; p++) {
        off[p] = total;
        total += (size_t)g.w[p] * g.h[p];
    }
    std::vector<uint8_t> orig(total), recon[2] = { std::vector<uint8_t>(total),
                                                   std::vector<uint8_t>(total) };
    std::vector<uint16_t> sums[2] = { std::vector<uint16_t>(total), std::vector<uint16_t>(total) };
    std::vector<int16_t> coef(total);
    std::vector<C63MV> mv(total / 64);
    C63CodedFrame coded = {};
    for (int p = 0; p < 3; p++) {
        coded.coef[p] = coef.data() + off[p];
        coded.mv[p]   = mv.data() + off[p] / 64;
    }

    AVFrame *frame = av_frame_alloc();
    AVPacket *a = av_packet_alloc(), *b = av_packet_alloc();
    if (!frame || !a || !b)
        return fail("allocation", AVERROR(ENOMEM));
    frame->format = AV_PIX_FMT_YUV420P;
    frame->width  = w;
    frame->height = h;
    if ((ret = av_frame_get_buffer(frame, 0)) < 0)
        return fail("frame", ret);
    FILE *in = fopen(in_path, "rb"), *out = fopen(out_path, "wb");
    if (!in || !out) {
        fprintf(stderr, "ecserial: cannot open %s\n", in ? out_path : in_path);
        return 1;
    }

    C63Writer writer = {};
    C63ECSerialWriter serial = {};
    int since_key = gop, cur = 0, n = 0;
    const C63RDParams rd = {};  /* the reference's choices */
    for (; !read_picture(in, frame); n++) {
        C63RowCoding c = {};
        c.rd    = &rd;
        c.dsp   = &dsp;
        c.mecc  = &mecc;
        c.g     = &g;
        c.q     = q;
        c.range = range;
        c.src   = frame;
        c.coded = &coded;
        for (int p = 0; p < 3; p++) {
            c.orig[p]     = orig.data() + off[p];
            c.ref[p]      = recon[!cur].data() + off[p];
            c.ref_sums[p] = sums[!cur].data() + off[p];
            c.rec[p]      = recon[cur].data() + off[p];
        }
        coded.keyframe = since_key >= gop;
        since_key = coded.keyframe ? 1 : since_key + 1;
        for (int v = 0; v < g.mb_h; v++)
            ff_c63_encode_row(&c, v);
        /* the next frame's search bounds */
        for (int p = 0; p < 3; p++)
            ff_c63_block_sums(&dsp, sums[cur].data() + off[p], recon[cur].data() + off[p],
                              g.w[p], g.h[p], 0, g.h[p]);
        cur = !cur;

        if ((ret = c63_write_frame(avctx, &writer, a, &g, q, &coded)) < 0)
            return fail("CPU writer", ret);
        if ((ret = c63ec_serial_write_frame(&serial, b, &g, q, &coded)) < 0)
            return fail("the GPU coder run serially", ret);
        if (a->size != b->size || memcmp(a->data, b->data, a->size)) {
            int i = 0;
            while (i < a->size && i < b->size && a->data[i] == b->data[i])
                i++;
            fprintf(stderr, "ecserial: frame %d (%s): the serial coder's packet of %d bytes is not the CPU "
                    "writer's of %d: first difference at byte %d\n", n,
                    coded.keyframe ? "key" : "inter", b->size, a->size, i);
            return 1;
        }
        if (fwrite(b->data, 1, b->size, out) != (size_t)b->size) {
            fprintf(stderr, "ecserial: cannot write %s\n", out_path);
            return 1;
        }
        av_packet_unref(a);
        av_packet_unref(b);
    }
    if (fclose(out)) {
        fprintf(stderr, "ecserial: cannot write %s\n", out_path);
        return 1;
    }
    fclose(in);
    fprintf(stderr, "ecserial: %d frames, the GPU coder run serially gives the CPU writer's packets\n", n);

    ff_c63_writer_free(&writer);
    c63ec_serial_writer_free(&serial);
    av_packet_free(&a);
    av_packet_free(&b);
    av_frame_free(&frame);
    avcodec_free_context(&avctx);
    return n ? 0 : 1;
}
