/*
 * Decode a Codec63 file through the FFmpeg libraries, optionally run the
 * frames through a filter graph, and print the md5 of the pictures.
 *
 *   decode_c63 IN.c63 [FILTERGRAPH]
 *
 * Prints one line, the md5 of every output frame's picture packed as
 * av_image_copy_to_buffer() packs it (align 1), frame after frame: the
 * same bytes as `ffmpeg -i IN.c63 [-vf FILTERGRAPH] -f rawvideo -`.
 * Exits non-zero on any error, after saying what failed.
 *
 * Build against installed libraries:
 *   c++ -std=c++17 decode_c63.cpp -o decode_c63 \
 *       $(pkg-config --cflags --libs libavfilter libavformat libavcodec libavutil)
 *
 * This file is part of the Codec63 FFmpeg extension, an example under the
 * terms of the GNU Lesser General Public License version 2.1 or later.
 */

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/md5.h>
#include <libavutil/opt.h>
}

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace {

struct Fail {
    std::string what;
};

void check(int ret, const char *what)
{
    if (ret < 0) {
        char buf[AV_ERROR_MAX_STRING_SIZE] = { 0 };
        av_strerror(ret, buf, sizeof(buf));
        throw Fail{ std::string(what) + ": " + buf };
    }
}

template <typename T, void (*F)(T **)> struct Deleter {
    void operator()(T *p) const { F(&p); }
};
void close_input(AVFormatContext **s) { avformat_close_input(s); }

using FormatPtr = std::unique_ptr<AVFormatContext, Deleter<AVFormatContext, close_input>>;
using CodecPtr  = std::unique_ptr<AVCodecContext, Deleter<AVCodecContext, avcodec_free_context>>;
using GraphPtr  = std::unique_ptr<AVFilterGraph, Deleter<AVFilterGraph, avfilter_graph_free>>;
using FramePtr  = std::unique_ptr<AVFrame, Deleter<AVFrame, av_frame_free>>;
using PacketPtr = std::unique_ptr<AVPacket, Deleter<AVPacket, av_packet_free>>;

class Md5 {
public:
    Md5() : ctx(av_md5_alloc()) {
        if (!ctx)
            throw Fail{ "out of memory" };
        av_md5_init(ctx);
    }
    ~Md5() { av_free(ctx); }

    void add(const AVFrame *f)
    {
        const AVPixelFormat fmt = static_cast<AVPixelFormat>(f->format);
        int size = av_image_get_buffer_size(fmt, f->width, f->height, 1);
        check(size, "picture size");
        buf.resize(size);
        check(av_image_copy_to_buffer(buf.data(), size, f->data, f->linesize,
                                      fmt, f->width, f->height, 1), "copying the picture");
        av_md5_update(ctx, buf.data(), size);
        frames++;
    }

    std::string hex()
    {
        uint8_t d[16];
        char s[33];
        av_md5_final(ctx, d);
        for (int i = 0; i < 16; i++)
            snprintf(s + 2 * i, 3, "%02x", d[i]);
        return s;
    }

    int frames = 0;

private:
    AVMD5 *ctx;
    std::vector<uint8_t> buf;
};

// A filter graph "buffer -> FILTERGRAPH -> buffersink" for the decoder's frames.
struct Filter {
    GraphPtr graph;
    AVFilterContext *src = nullptr, *sink = nullptr;

    Filter(const char *desc, const AVCodecContext *dec, AVRational tb)
        : graph(avfilter_graph_alloc())
    {
        if (!graph)
            throw Fail{ "out of memory" };
        char args[256];
        snprintf(args, sizeof(args), "video_size=%dx%d:pix_fmt=%d:time_base=%d/%d:pixel_aspect=1/1",
                 dec->width, dec->height, dec->pix_fmt, tb.num, tb.den);
        check(avfilter_graph_create_filter(&src, avfilter_get_by_name("buffer"), "in",
                                           args, nullptr, graph.get()), "creating the buffer source");
        check(avfilter_graph_create_filter(&sink, avfilter_get_by_name("buffersink"), "out",
                                           nullptr, nullptr, graph.get()), "creating the buffer sink");

        AVFilterInOut *outputs = avfilter_inout_alloc(), *inputs = avfilter_inout_alloc();
        if (!outputs || !inputs) {
            avfilter_inout_free(&outputs);
            avfilter_inout_free(&inputs);
            throw Fail{ "out of memory" };
        }
        outputs->name = av_strdup("in");
        outputs->filter_ctx = src;
        inputs->name = av_strdup("out");
        inputs->filter_ctx = sink;
        int ret = avfilter_graph_parse_ptr(graph.get(), desc, &inputs, &outputs, nullptr);
        avfilter_inout_free(&outputs);
        avfilter_inout_free(&inputs);
        check(ret, "parsing the filter graph");
        check(avfilter_graph_config(graph.get(), nullptr), "configuring the filter graph");
    }

    // Sends one frame (nullptr: end of stream), hashes what comes out.
    void run(AVFrame *in, Md5 &md5)
    {
        check(av_buffersrc_add_frame(src, in), "feeding the filter graph");
        FramePtr out(av_frame_alloc());
        if (!out)
            throw Fail{ "out of memory" };
        for (;;) {
            int ret = av_buffersink_get_frame(sink, out.get());
            if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF)
                return;
            check(ret, "filtering");
            md5.add(out.get());
            av_frame_unref(out.get());
        }
    }
};

int decode(const char *path, const char *graph_desc)
{
    AVFormatContext *fmt_raw = nullptr;
    check(avformat_open_input(&fmt_raw, path, nullptr, nullptr), path);
    FormatPtr fmt(fmt_raw);
    check(avformat_find_stream_info(fmt.get(), nullptr), "reading the stream info");

    const AVCodec *codec = nullptr;
    int index = av_find_best_stream(fmt.get(), AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    check(index, "finding a video stream");
    if (codec->id != AV_CODEC_ID_C63)
        throw Fail{ std::string(path) + " holds " + codec->name + ", not c63" };
    AVStream *st = fmt->streams[index];

    CodecPtr dec(avcodec_alloc_context3(codec));
    if (!dec)
        throw Fail{ "out of memory" };
    check(avcodec_parameters_to_context(dec.get(), st->codecpar), "copying the stream parameters");
    check(avcodec_open2(dec.get(), codec, nullptr), "opening the c63 decoder");

    std::unique_ptr<Filter> filter;
    Md5 md5;
    PacketPtr pkt(av_packet_alloc());
    FramePtr frame(av_frame_alloc());
    if (!pkt || !frame)
        throw Fail{ "out of memory" };

    auto drain = [&]() {
        for (;;) {
            int ret = avcodec_receive_frame(dec.get(), frame.get());
            if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF)
                return;
            check(ret, "decoding");
            if (graph_desc) {
                if (!filter)
                    filter.reset(new Filter(graph_desc, dec.get(), st->time_base));
                filter->run(frame.get(), md5);
            } else {
                md5.add(frame.get());
            }
            av_frame_unref(frame.get());
        }
    };

    for (;;) {
        int ret = av_read_frame(fmt.get(), pkt.get());
        if (ret == AVERROR_EOF)
            break;
        check(ret, "reading a packet");
        if (pkt->stream_index == index) {
            ret = avcodec_send_packet(dec.get(), pkt.get());
            av_packet_unref(pkt.get());
            check(ret, "sending a packet to the decoder");
            drain();
        } else {
            av_packet_unref(pkt.get());
        }
    }
    check(avcodec_send_packet(dec.get(), nullptr), "flushing the decoder");
    drain();
    if (filter)
        filter->run(nullptr, md5);

    if (!md5.frames)
        throw Fail{ std::string(path) + ": no frame decoded" };
    printf("%s\n", md5.hex().c_str());
    fprintf(stderr, "%d frames\n", md5.frames);
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s IN.c63 [FILTERGRAPH]\n", argv[0]);
        return 2;
    }
    try {
        return decode(argv[1], argc > 2 ? argv[2] : nullptr);
    } catch (const Fail &f) {
        fprintf(stderr, "decode_c63: %s\n", f.what.c_str());
        return 1;
    }
}
