/*
 * The CPU twin of c63's parallel entropy decoding against the serial
 * decoder
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
 *   hdserial [-damage SEED] [-k] FILE...
 *
 * Decodes every packet of each c63 stream (any container) twice: with the
 * c63 decoder (serial, one thread) and with the parallel decoding's CPU
 * twin (tests/harness/c63hd_serial.h, the CUDA hwaccel's stages run on the
 * CPU) followed by the decoder's own reconstruction. Where the serial
 * decoder gives a picture, the twin must give the same (the whole coded
 * area); where it refuses the entropy-coded data, the twin must refuse it
 * with the same message; what the serial decoder refuses before (the
 * header, sizes, a missing reference) never reaches the hwaccel and is
 * only counted. Prints one line a file (and on stderr how many groups of
 * segments the resolution decoded again); exit 0 if they agree throughout,
 * 1 where they do not, 2 on usage or I/O errors.
 *
 * -damage SEED: damage the stream first, the same for both: of every four
 * packets the second gets one byte of its entropy-coded data replaced,
 * the fourth is cut short, at places drawn from SEED. -k: a file that
 * is no c63 stream (a fuzzer's input) is said so and skipped, read with
 * the c63 demuxer where probing finds nothing.
 */

#include <cinttypes>

extern "C" {
#include "libavformat/avformat.h"
#include "libavutil/mem.h"
}
#include "tests/c63/harness/hdcompare.h"

static unsigned damage_seed;
static bool damage, keep_going;

static unsigned rnd(void)
{
    damage_seed = damage_seed * 1103515245u + 12345u;
    return damage_seed >> 8;
}

/* -damage: packet n of the stream, damaged or not */
static void damage_packet(AVPacket *pkt, int n)
{
    const int data = pkt->size - C63_HEADER_SIZE;
    if (data <= 0 || av_packet_make_writable(pkt) < 0)
        return;
    if (n % 4 == 1)
        pkt->data[C63_HEADER_SIZE + rnd() % data] = (uint8_t)rnd();
    else if (n % 4 == 3)
        av_shrink_packet(pkt, C63_HEADER_SIZE + rnd() % data);
}

static int check_file(const char *name)
{
    AVFormatContext *fmt = NULL;
    AVCodecContext *dec = NULL;
    AVPacket *pkt = av_packet_alloc();
    AVFrame *frame = av_frame_alloc();
    Twin tw;
    int frames = 0, refusals = 0, header = 0, bad = 0, ret, idx, n = 0;

    ff_c63dsp_init(&tw.dsp);
    ff_c63_hd_tables(&tw.tables);
    if (!pkt || !frame)
        return 2;
    if (avformat_open_input(&fmt, name, NULL, NULL) < 0 && keep_going)
        avformat_open_input(&fmt, name, av_find_input_format("c63"), NULL);
    if (!fmt || avformat_find_stream_info(fmt, NULL) < 0 ||
        (idx = av_find_best_stream(fmt, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0)) < 0 ||
        fmt->streams[idx]->codecpar->codec_id != AV_CODEC_ID_C63) {
        if (keep_going) {
            printf("%s: no c63 stream\n", strrchr(name, '/') ? strrchr(name, '/') + 1 : name);
            ret = 0;
        } else {
            fprintf(stderr, "hdserial: %s: cannot read a c63 stream\n", name);
            ret = 2;
        }
        goto end;
    }
    dec = avcodec_alloc_context3(avcodec_find_decoder(AV_CODEC_ID_C63));
    if (!dec || avcodec_parameters_to_context(dec, fmt->streams[idx]->codecpar) < 0 ||
        (dec->thread_count = 1, avcodec_open2(dec, NULL, NULL) < 0)) {
        /* (the decoder refuses the container's parameters) */
        printf("%s: the decoder cannot be opened for it\n",
               strrchr(name, '/') ? strrchr(name, '/') + 1 : name);
        ret = keep_going ? 0 : 2;
        goto end;
    }

    while (av_read_frame(fmt, pkt) >= 0) {
        std::string serial_error;
        int sret, tret;
        if (pkt->stream_index != idx) {
            av_packet_unref(pkt);
            continue;
        }
        if (damage)
            damage_packet(pkt, n++);
        sret = serial_decode(dec, pkt, frame, &serial_error);
        if (sret < 0 && !entropy_stage(serial_error)) {
            header++;
            av_packet_unref(pkt);
            continue;
        }
        tw.width  = dec->width;
        tw.height = dec->height;
        tret = twin_decode(&tw, pkt->data, pkt->size);
        if (sret < 0 || tret < 0) {
            if (sret < 0 && tret < 0 && serial_error == last_error) {
                refusals++;
            } else {
                printf("%s: packet at %" PRId64 ": serial: %s; twin: %s", name, pkt->pos,
                       sret < 0 ? serial_error.c_str() : "a picture\n",
                       tret < 0 ? last_error.c_str() : "a picture\n");
                bad++;
            }
        } else {
            if (!same_picture(tw, frame)) {
                printf("%s: frame %d: the twin's picture differs\n", name, frames);
                bad++;
            }
            frames++;
        }
        if (sret >= 0)
            av_frame_unref(frame);
        av_packet_unref(pkt);
    }
    printf("%s: %d pictures and %d refusals alike, %d refused before the entropy-coded data\n",
           strrchr(name, '/') ? strrchr(name, '/') + 1 : name, frames, refusals, header);
    /* how often a group's overlap missed (the tuning's concern, not the
     * outcome's) */
    fprintf(stderr, "%s: %d groups resolved again\n", name, tw.redone);
    ret = bad ? 1 : 0;
end:
    avcodec_free_context(&dec);
    avformat_close_input(&fmt);
    av_packet_free(&pkt);
    av_frame_free(&frame);
    return ret;
}

int main(int argc, char **argv)
{
    int ret = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: hdserial FILE...\n");
        return 2;
    }
    av_log_set_callback(log_cb);
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "-damage") && i + 1 < argc) {
            damage      = true;
            damage_seed = strtoul(argv[++i], NULL, 10);
        } else if (!strcmp(argv[i], "-k")) {
            keep_going = true;
        } else {
            fprintf(stderr, "hdserial: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    for (; i < argc; i++) {
        const int r = check_file(argv[i]);
        if (r > ret)
            ret = r;
    }
    return ret;
}
