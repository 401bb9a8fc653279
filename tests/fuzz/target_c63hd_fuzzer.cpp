/*
 * libFuzzer target: c63's parallel entropy decoding's CPU twin against
 * the serial decoder on hostile entropy-coded data
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
 * An input is a picture size and up to four frames: byte 0 and 1 give the
 * width and height (1 to 64), byte 2 which frames are keyframes and which
 * end with EOI, byte 3 where the rest is cut into frames. Each frame is a
 * valid header (the quality from the frame's first byte) followed by its
 * part of the input as entropy-coded data. Both the serial decoder and the
 * twin decode every frame; the process aborts where they disagree (a
 * picture against a refusal, other messages, other pictures).
 */

#include <cstdint>
#include <cstdlib>

#include "tests/c63/harness/hdcompare.h"

/* The decoder itself, as FFmpeg's tools/target_dec_fuzzer.c takes it (an
 * --enable-ossfuzz build registers no codecs for avcodec_find_decoder());
 * its FFCodec begins with the public AVCodec. */
extern "C" const AVCodec ff_c63_decoder;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
    static bool once;
    const AVCodec *codec = &ff_c63_decoder;
    AVCodecContext *dec;
    AVPacket *pkt;
    AVFrame *frame;
    Twin tw;
    size_t pos = 4;
    int width, height;

    if (!once) {
        av_log_set_callback(log_cb);
        once = true;
    }
    if (size < 4 || size > 1 << 16)
        return 0;
    width  = 1 + in[0] % 64;
    height = 1 + in[1] % 64;
    dec    = avcodec_alloc_context3(codec);
    pkt    = av_packet_alloc();
    frame  = av_frame_alloc();
    if (!dec || !pkt || !frame)
        abort();
    dec->thread_count = 1;
    if (int ret = avcodec_open2(dec, codec, NULL); ret < 0) {
        fprintf(stderr, "cannot open the decoder: %s\n", last_error.c_str());
        abort();
    }
    ff_c63dsp_init(&tw.dsp);
    ff_c63_hd_tables(&tw.tables);

    for (int f = 0; f < 4 && pos < size; f++) {
        const size_t part = FFMIN(size - pos, (size_t)1 + (in[3] >> (2 * f) & 3) * (size - 4) / 4);
        const int eoi = in[2] >> (4 + f) & 1, key = !f || (in[2] >> f & 1);
        uint8_t q[3][64];
        std::string serial_error;
        int sret, tret;

        if (av_new_packet(pkt, C63_HEADER_SIZE + part + 2) < 0)
            abort();
        ff_c63_quant_tables(q, 0, 1 + in[pos] % 50);
        ff_c63_write_header(pkt->data, width, height, key, q);
        memcpy(pkt->data + C63_HEADER_SIZE, in + pos, part);
        pkt->data[C63_HEADER_SIZE + part]     = 0xFF;
        pkt->data[C63_HEADER_SIZE + part + 1] = 0xD9;
        if (!eoi)
            av_shrink_packet(pkt, C63_HEADER_SIZE + part);
        pos += part;

        sret = serial_decode(dec, pkt, frame, &serial_error);
        if (sret < 0 && !entropy_stage(serial_error)) {
            av_packet_unref(pkt);
            continue;
        }
        tw.width  = dec->width;
        tw.height = dec->height;
        tret = twin_decode(&tw, pkt->data, pkt->size);
        if ((sret < 0) != (tret < 0) || (sret < 0 && serial_error != last_error) ||
            (sret >= 0 && !same_picture(tw, frame))) {
            fprintf(stderr, "frame %d: serial: %s; twin: %s\n", f,
                    sret < 0 ? serial_error.c_str() : "a picture",
                    tret < 0 ? last_error.c_str() : "a picture");
            abort();
        }
        av_frame_unref(frame);
        av_packet_unref(pkt);
    }
    avcodec_free_context(&dec);
    av_packet_free(&pkt);
    av_frame_free(&frame);
    return 0;
}
