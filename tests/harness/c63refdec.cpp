// c63refdec: a model of the Codec63 reference decoder (c63dec), written
// from docs/c63-format.md alone and sharing no code with the decoder in
// libavcodec_c63. It decodes a stream the way the reference decoder does,
// quirks included (section 8), and says where the reference decoder would
// not give the stream's intended pictures: a code it lacks (quirk Q3), data
// that runs into a marker (Q2), a size change or other Huffman tables (Q10),
// a vector outside the plane (Q11), anything where its behaviour is an error
// exit or undefined, and anything that breaks the format.
//
//   c63refdec [-stride] [-v] IN.c63 [OUT.yuv]
//
// OUT gets the decoded frames as raw planar 4:2:0: by default each plane's
// picture part (section 6.7; what FFmpeg's `-f rawvideo -pix_fmt yuv420p`
// writes); with -stride exactly the bytes that the reference decoder writes
// (quirk Q12: width*height luma bytes and width*height/4 bytes of each
// chroma plane, taken from the padded planes as they lie in memory). "-" is
// standard output; without OUT nothing is written. -v prints a line a frame.
//
// Exit status: 0 when the reference decoder decodes every frame as the
// stream intends (OUT then holds its output); 2 when it would not (one line
// on standard error names the frame, the quirk or section, and what the
// reference decoder does; OUT holds the frames before that one); 1 for
// usage and I/O errors.
//
// Section numbers below are those of docs/c63-format.md.

#include <cerrno>
#include <cinttypes>
#include <climits>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <vector>

// Section 6.8: every float operation rounded on its own; no contraction
// into FMA: the build passes -ffp-contract=off, and clang honours this too.
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

namespace {

enum { EXIT_OK = 0, EXIT_USAGE = 1, EXIT_MISREAD = 2 };

// Thrown where the reference decoder would not decode the stream as
// intended; main() prints it and exits with EXIT_MISREAD.
struct Misread {
    std::string what;
};

[[noreturn]] void misread(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
[[noreturn]] void misread(const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    throw Misread{ buf };
}

// ---------------------------------------------------------------------------
// Tables

// Section 4.4: natural index 8*v + u of zigzag position k.
const uint8_t zigzag[64] = {
     0,  1,  8, 16,  9,  2,  3, 10, 17, 24, 32, 25, 18, 11,  4,  5,
    12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13,  6,  7, 14, 21, 28,
    35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
    58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
};

// Appendix B: the DHT payload, class/id byte, 16 counts, symbols; four
// tables, 416 bytes, exactly as every frame carries them (section 3.6).
const uint8_t dht_payload[416] = {
    // DC luminance (T.81 K.3)
    0x00,
    0x00, 0x01, 0x05, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B,
    // DC chrominance (K.4)
    0x01,
    0x00, 0x03, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B,
    // AC luminance (K.5)
    0x10,
    0x00, 0x02, 0x01, 0x03, 0x03, 0x02, 0x04, 0x03, 0x05, 0x05, 0x04, 0x04, 0x00, 0x00, 0x01, 0x7D,
    0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07,
    0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xA1, 0x08, 0x23, 0x42, 0xB1, 0xC1, 0x15, 0x52, 0xD1, 0xF0,
    0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0A, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x25, 0x26, 0x27, 0x28,
    0x29, 0x2A, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49,
    0x4A, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69,
    0x6A, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7A, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89,
    0x8A, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7,
    0xA8, 0xA9, 0xAA, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xC2, 0xC3, 0xC4, 0xC5,
    0xC6, 0xC7, 0xC8, 0xC9, 0xCA, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA, 0xE1, 0xE2,
    0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xEA, 0xF1, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8,
    0xF9, 0xFA,
    // AC chrominance (K.6)
    0x11,
    0x00, 0x02, 0x01, 0x02, 0x04, 0x04, 0x03, 0x04, 0x07, 0x05, 0x04, 0x04, 0x00, 0x01, 0x02, 0x77,
    0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71,
    0x13, 0x22, 0x32, 0x81, 0x08, 0x14, 0x42, 0x91, 0xA1, 0xB1, 0xC1, 0x09, 0x23, 0x33, 0x52, 0xF0,
    0x15, 0x62, 0x72, 0xD1, 0x0A, 0x16, 0x24, 0x34, 0xE1, 0x25, 0xF1, 0x17, 0x18, 0x19, 0x1A, 0x26,
    0x27, 0x28, 0x29, 0x2A, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48,
    0x49, 0x4A, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68,
    0x69, 0x6A, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7A, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
    0x88, 0x89, 0x8A, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0xA2, 0xA3, 0xA4, 0xA5,
    0xA6, 0xA7, 0xA8, 0xA9, 0xAA, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xC2, 0xC3,
    0xC4, 0xC5, 0xC6, 0xC7, 0xC8, 0xC9, 0xCA, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA,
    0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xEA, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8,
    0xF9, 0xFA,
};
const size_t dht_offset[4] = { 0, 29, 58, 237 };    // of each table in dht_payload

// A Huffman code as a lookup on the next 16 bits of the data: entry p is
// the symbol whose code is a prefix of p, and that code's length (0: no
// code is a prefix of p).
struct Vlc {
    uint8_t sym[1 << 16];
    uint8_t len[1 << 16];

    // Section 5.2, the canonical code of a DHT table (counts, symbols);
    // symbols for which keep() is false are left out.
    template <class Keep> void build(const uint8_t *table, Keep keep)
    {
        std::memset(len, 0, sizeof(len));
        const uint8_t *count = table + 1, *symbol = table + 17;
        unsigned code = 0, k = 0;
        for (int l = 1; l <= 16; l++) {
            for (int n = 0; n < count[l - 1]; n++, k++, code++) {
                if (!keep(symbol[k], code, l))
                    continue;
                unsigned first = code << (16 - l), span = 1u << (16 - l);
                for (unsigned p = first; p < first + span; p++) {
                    sym[p] = symbol[k];
                    len[p] = uint8_t(l);
                }
            }
            code <<= 1;
        }
    }
};

// The reference decoder's own, built-in tables (it never reads DHT, quirk
// Q10). They are the standard ones with one exception (quirk Q3): its luma
// AC table gives symbol 0A (run 0, size 10) the code FF82, which is already
// symbol 09's, so FF82 decodes as 09, and the standard code of 0A, FF83, is
// not in it at all: the reference decoder stops there. Motion vector sizes
// use the DC luminance codes of sizes 0 to 7 only (section 5.6).
struct Tables {
    Vlc dc[2], ac[2], mv;   // [0] luminance, [1] chrominance
    Tables()
    {
        auto all = [](int, unsigned, int) { return true; };
        dc[0].build(dht_payload + dht_offset[0], all);
        dc[1].build(dht_payload + dht_offset[1], all);
        ac[0].build(dht_payload + dht_offset[2],
                    [](int s, unsigned code, int l) { return !(s == 0x0A && code == 0xFF83 && l == 16); });
        ac[1].build(dht_payload + dht_offset[3], all);
        mv.build(dht_payload + dht_offset[0], [](int s, unsigned, int) { return s <= 7; });
    }
};

// Section 6.5: the reference's rounded cosines T[i][j], i the sample, j
// the frequency. Section 6.4: a(0) (quirk Q9).
const float T[8][8] = {
    { 1.0f,  0.980785f,  0.923880f,  0.831470f,  0.707107f,  0.555570f,  0.382683f,  0.195090f },
    { 1.0f,  0.831470f,  0.382683f, -0.195090f, -0.707107f, -0.980785f, -0.923880f, -0.555570f },
    { 1.0f,  0.555570f, -0.382683f, -0.980785f, -0.707107f,  0.195090f,  0.923880f,  0.831470f },
    { 1.0f,  0.195090f, -0.923880f, -0.555570f,  0.707107f,  0.831470f, -0.382683f, -0.980785f },
    { 1.0f, -0.195090f, -0.923880f,  0.555570f,  0.707107f, -0.831470f, -0.382683f,  0.980785f },
    { 1.0f, -0.555570f, -0.382683f,  0.980785f, -0.707107f, -0.195090f,  0.923880f, -0.831470f },
    { 1.0f, -0.831470f,  0.382683f,  0.195090f, -0.707107f,  0.980785f, -0.923880f,  0.555570f },
    { 1.0f, -0.980785f,  0.923880f, -0.831470f,  0.707107f, -0.555570f,  0.382683f, -0.195090f },
};
const float A0 = 0.70710678118654f;

// T transposed, Tt[j][i] = T[i][j], for the horizontal pass.
struct Transposed {
    float m[8][8];
    Transposed()
    {
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 8; j++)
                m[j][i] = T[i][j];
    }
    const float *operator[](int j) const { return m[j]; }
};
const Transposed Tt;

const char *const plane_name[3] = { "Y", "U", "V" };

// ---------------------------------------------------------------------------
// Entropy-coded data (sections 3.8, 5.1)

// Reads the bit string of a frame's data from its first byte on, removing
// the 00 after each FF. Its bits end where the reference decoder would stop
// reading data: at an FF that is not followed by 00 (a marker), or at the
// end of the file. Past that point peek16() gives zeros; taking a bit from
// there is a misread (section 5.9, quirk Q2: the reference decoder would
// take the marker's FF for data and its second byte for a stuffed byte).
class BitReader {
public:
    // data: the frame's data; frame: its SOI, for messages.
    BitReader(const uint8_t *data, size_t size, const uint8_t *frame)
        : p_(data), end_(data + size), frame_(frame)
    {
    }

    // The next 16 bits, MSB first.
    unsigned peek16()
    {
        fill();
        return unsigned(acc_ >> 48);
    }

    unsigned get(int n)     // n in 0..16
    {
        if (n == 0)
            return 0;
        fill();
        if (n > avail_)
            past_end();
        unsigned v = unsigned(acc_ >> (64 - n));
        skip_(n);
        return v;
    }

    void skip(int n)
    {
        fill();
        if (n > avail_)
            past_end();
        skip_(n);
    }

    uint64_t consumed() const { return consumed_; }

    // Taking a bit past the data: what the reference decoder does there.
    [[noreturn]] void past_end() const
    {
        if (stop_ >= end_)
            misread("the file ends inside the frame's data (section 3.8); the reference decoder "
                    "stops at the end of the file");
        if (stop_ + 1 >= end_)
            misread("the file ends with a lone FF inside the frame's data (section 3.8); the "
                    "reference decoder stops at the end of the file");
        if (stop_[1] == 0xD9)
            misread("the frame's last block needs bits beyond the data (section 5.9, quirk Q2); "
                    "the reference decoder reads EOI's FF as data and drops D9 as a stuffed byte, "
                    "then misses EOI");
        misread("FF %02X, a marker, at byte %zu of the frame inside the entropy-coded data "
                "(section 3.8); the reference decoder takes the FF for data and drops the %02X "
                "as a stuffed byte", stop_[1], size_t(stop_ - frame_), stop_[1]);
    }

private:
    void fill()
    {
        while (avail_ <= 56 && !stopped_) {
            if (p_ >= end_) {
                stopped_ = true;
                stop_ = p_;
                break;
            }
            uint8_t b = *p_;
            if (b == 0xFF) {
                if (p_ + 1 >= end_ || p_[1] != 0x00) {
                    stopped_ = true;
                    stop_ = p_;
                    break;
                }
                p_ += 2;
            } else {
                p_ += 1;
            }
            acc_ |= uint64_t(b) << (56 - avail_);
            avail_ += 8;
        }
    }
    void skip_(int n)
    {
        acc_ <<= n;
        avail_ -= n;
        consumed_ += n;
    }

    const uint8_t *p_, *end_, *frame_;
    const uint8_t *stop_ = nullptr;     // where the data stops: EOF or an FF not followed by 00
    bool stopped_ = false;
    uint64_t acc_ = 0;      // the next avail_ bits, MSB first
    int avail_ = 0;
    uint64_t consumed_ = 0;
};

// Section 5.3: the value of s magnitude bits b.
int extend(unsigned b, int s)
{
    if (s == 0)
        return 0;
    return b < (1u << (s - 1)) ? int(b) - int((1u << s) - 1) : int(b);
}

// Reads one symbol with the reference decoder's table vlc; what names the
// element for messages.
int read_vlc(BitReader &br, const Vlc &vlc, const char *what)
{
    unsigned p = br.peek16();
    int l = vlc.len[p];
    if (l == 0)
        misread("%s: the next bits, %04X, start with no code of the reference decoder's table; "
                "it stops (\"VLC token not found\")", what, p);
    br.skip(l);
    return vlc.sym[p];
}

// ---------------------------------------------------------------------------
// Pictures

struct Plane {
    int w = 0, h = 0;               // padded size (section 2.1)
    std::vector<uint8_t> s;
    uint8_t *row(int y) { return s.data() + size_t(y) * w; }
    const uint8_t *row(int y) const { return s.data() + size_t(y) * w; }
};

struct Picture {
    Plane p[3];
};

// Per frame state of the vectors (sections 5.5, 5.6): use_mv and the vector
// of every block decoded so far in this frame, by plane, in raster order.
struct BlockInfo {
    bool use_mv = false;
    int mv_x = 0, mv_y = 0;
};

struct Decoder {
    const Tables &tab;
    int width = 0, height = 0;      // of the first frame (quirk Q10)
    int mb_w = 0, mb_h = 0;
    Picture ref, cur;       // the reference picture (section 6.1), the frame being decoded
    std::vector<BlockInfo> info[3];
    bool verbose = false;
    int at_c = -1, at_bx = 0, at_by = 0;    // the block being decoded, -1: none

    explicit Decoder(const Tables &t) : tab(t) {}

    void setup(int w, int h)
    {
        width = w;
        height = h;
        mb_w = (w + 15) / 16;
        mb_h = (h + 15) / 16;
        for (Picture *pic : { &ref, &cur })
            for (int c = 0; c < 3; c++) {
                Plane &pl = pic->p[c];
                pl.w = c ? 8 * mb_w : 16 * mb_w;
                pl.h = c ? 8 * mb_h : 16 * mb_h;
                pl.s.assign(size_t(pl.w) * pl.h, 0);
            }
        for (int c = 0; c < 3; c++)
            info[c].resize(size_t(cur.p[c].w / 8) * (cur.p[c].h / 8));
    }

    // Sections 5.5 to 5.8 and 6.2 to 6.6 for block (bx, by) of plane c.
    void block(BitReader &br, bool key, int c, int bx, int by, int &dc_pred, const uint8_t *q)
    {
        const int lc = c ? 1 : 0;
        Plane &out = cur.p[c];
        const size_t bw = out.w / 8;
        BlockInfo &bi = info[c][size_t(by) * bw + bx];
        at_c = c;       // for messages
        at_bx = bx;
        at_by = by;

        // Section 5.5: use_mv, reuse, vector.
        bi.use_mv = br.get(1);
        bi.mv_x = bi.mv_y = 0;
        if (bi.use_mv) {
            if (br.get(1)) {
                // Section 5.6: reuse the left neighbour's vector. The
                // reference decoder copies the vector of the block before
                // this one in its plane's raster order, whatever that block
                // is (quirk Q11).
                if (bx == 0)
                    misread("vector reuse in column 0 (section 5.6, quirk Q11); the reference "
                            "decoder copies the vector of the last block of the row above, (0, 0) "
                            "if not decoded yet, or reads before its array for the first block");
                const BlockInfo &left = info[c][size_t(by) * bw + bx - 1];
                if (!left.use_mv)
                    misread("vector reuse where the left neighbour has no vector (section 5.6, "
                            "quirk Q11); the reference decoder uses (0, 0)");
                bi.mv_x = left.mv_x;
                bi.mv_y = left.mv_y;
            } else {
                for (int *m : { &bi.mv_x, &bi.mv_y }) {
                    unsigned p = br.peek16();
                    if (tab.mv.len[p] == 0 && tab.dc[0].len[p] != 0)
                        misread("vector size category %d (section 5.6: 0 to 7); the reference "
                                "decoder's vector table lacks it and it stops", tab.dc[0].sym[p]);
                    int s = read_vlc(br, tab.mv, "vector size");
                    *m = extend(br.get(s), s);
                }
            }
            if (key)
                misread("use_mv = 1 in a keyframe (section 5.5); the reference decoder reads "
                        "the vector and ignores it");
        }

        // Section 5.7: DC. nz lists the zigzag positions of the non-zero
        // coefficients.
        int16_t coef[64] = { 0 };
        uint8_t nz[64];
        int n = 0;
        {
            int s = read_vlc(br, tab.dc[lc], "DC size");
            int dc = dc_pred + extend(br.get(s), s);
            if (dc < INT16_MIN || dc > INT16_MAX)
                misread("DC %d outside the int16 range (section 5.10); the reference decoder "
                        "wraps it", dc);
            coef[0] = int16_t(dc);
            dc_pred = dc;
            if (dc)
                nz[n++] = 0;
        }

        // Section 5.8: AC.
        bool zrl_pending = false;
        for (int k = 1; k <= 63;) {
            if (lc == 0 && br.peek16() == 0xFF83)
                misread("the luma AC code FF83 (run 0, size 10); the reference decoder's table "
                        "lacks it (quirk Q3) and it stops (\"VLC token not found (ac)\")");
            int rs = read_vlc(br, tab.ac[lc], "AC symbol");
            if (rs == 0x00) {
                if (zrl_pending)
                    misread("ZRL followed by EOB (section 5.8); no conforming encoder writes "
                            "this");
                break;
            }
            if (rs == 0xF0) {
                k += 16;
                zrl_pending = true;
                if (k > 63)
                    misread("ZRL past the end of the block (section 5.8); no conforming "
                            "encoder writes this");
                continue;
            }
            k += rs >> 4;
            if (k > 63)
                misread("AC run to position %d, past the block (section 5.8); the reference "
                        "decoder stores the coefficient outside the block", k);
            int s = rs & 15;
            coef[k] = int16_t(extend(br.get(s), s));
            nz[n++] = uint8_t(k);
            zrl_pending = false;
            k++;
        }

        // Section 6.2: prediction.
        uint8_t pred[64];
        if (!key && bi.use_mv) {
            const Plane &r = ref.p[c];
            int x0 = 8 * bx + bi.mv_x, y0 = 8 * by + bi.mv_y;
            if (x0 < 0 || y0 < 0 || x0 > r.w - 8 || y0 > r.h - 8)
                misread("vector (%d, %d) points outside the %dx%d plane (section 5.6); the "
                        "reference decoder does not check it (quirk Q11)",
                        bi.mv_x, bi.mv_y, r.w, r.h);
            for (int y = 0; y < 8; y++)
                std::memcpy(pred + 8 * y, r.row(y0 + y) + x0, 8);
        } else {
            std::memset(pred, 0, sizeof(pred));
        }

        // Sections 6.3 to 6.5.
        float R[64];
        inverse_transform(coef, q, nz, n, R);

        // Section 6.6. The reference decoder converts R to int16_t, adds
        // the prediction in int16_t and clamps.
        for (int y = 0; y < 8; y++) {
            uint8_t *o = out.row(8 * by + y) + 8 * bx;
            for (int x = 0; x < 8; x++) {
                float r = R[8 * y + x];
                if (!(r > -32769.0f && r < 32768.0f))
                    misread("sample residual %g outside the int16 range (section 6.6); the "
                            "reference decoder's conversion is undefined there", double(r));
                int v = int(r) + pred[8 * y + x];
                if (v > INT16_MAX)
                    misread("prediction plus residual %d outside the int16 range (section "
                            "6.6); the reference decoder wraps it", v);
                o[x] = uint8_t(v < 0 ? 0 : v > 255 ? 255 : v);
            }
        }
    }

    // Sections 6.3 to 6.5: coef in zigzag order, q the DQT table; R the
    // result in natural order. nz: the zigzag positions of the non-zero
    // coefficients, n of them.
    static void inverse_transform(const int16_t coef[64], const uint8_t q[64], const uint8_t *nz,
                                  int n, float R[64])
    {
        // 6.3: dequantisation, the product in float, /4 and rounding in
        // double. A zero coefficient gives 0.
        float F[64] = { 0 };
        for (int i = 0; i < n; i++) {
            const int k = nz[i];
            F[zigzag[k]] = float(std::round(double(float(coef[k]) * float(q[k])) / 4.0));
        }

        // 6.4: frequency scaling, by the column's factor, then the row's.
        float G[64];
        for (int v = 0; v < 8; v++)
            for (int u = 0; u < 8; u++)
                G[8 * v + u] = (F[8 * v + u] * (u ? 1.0f : A0)) * (v ? 1.0f : A0);

        if (n == 0 || (n == 1 && nz[0] == 0)) {
            // Section 6.5, informative: a block with no AC coefficient gives
            // 64 equal samples, G[0], every other product being zero.
            for (int i = 0; i < 64; i++)
                R[i] = G[0];
            return;
        }

        // 6.5: horizontal pass, then vertical; each output a sum from 0.0f
        // over the frequency in increasing order. The loops run over the
        // eight outputs innermost, which leaves each output's sequence of
        // operations as written (section 6.8). A row of G that is all zero
        // gives a row of H that is all +0.
        float H[64];
        for (int v = 0; v < 8; v++) {
            float acc[8] = { 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f };
            bool zero = true;
            for (int u = 0; u < 8; u++)
                zero = zero && G[8 * v + u] == 0.0f;
            if (!zero)
                for (int u = 0; u < 8; u++)
                    for (int x = 0; x < 8; x++)
                        acc[x] = acc[x] + G[8 * v + u] * Tt[u][x];
            for (int x = 0; x < 8; x++)
                H[8 * v + x] = acc[x];
        }
        for (int y = 0; y < 8; y++) {
            float acc[8] = { 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f };
            for (int v = 0; v < 8; v++)
                for (int x = 0; x < 8; x++)
                    acc[x] = acc[x] + H[8 * v + x] * T[y][v];
            for (int x = 0; x < 8; x++)
                R[8 * y + x] = acc[x];
        }
    }

    // One frame from buf[off]; returns the offset after its EOI.
    size_t frame(const uint8_t *buf, size_t size, size_t off, int n);
};

// ---------------------------------------------------------------------------
// Frame header (sections 3.2 to 3.7, Appendix A)

// The fixed bytes of a frame header (Appendix A), and what the reference
// decoder does where they differ. The other bytes are the DQT length (quirk
// Q1: never used, by the reference decoder either), the quantisers, the
// size, the frame type and the DHT payload, checked on their own.
struct Fixed {
    size_t at, n;
    const char *bytes, *name, *ref;
};
const Fixed header_fixed[] = {
    { 0, 2, "\xFF\xD8", "SOI (section 3.3)", "stops (\"Not an JPEG file\")" },
    { 2, 2, "\xFF\xDB", "the DQT marker (section 3.4)",
      "parses the segments in another order or stops" },
    { 6, 1, "\x00", "DQT table 0's index (section 3.4)", "stops (\"DQT: Expected 0\")" },
    { 71, 1, "\x01", "DQT table 1's index (section 3.4)", "stops (\"DQT: Expected 1\")" },
    { 136, 1, "\x02", "DQT table 2's index (section 3.4)", "stops (\"DQT: Expected 2\")" },
    { 201, 2, "\xFF\xC0", "the SOF0 marker (section 3.5)",
      "parses the segments in another order or stops" },
    { 203, 2, "\x00\x12", "SOF0's length (section 3.5)", "ignores it" },
    { 205, 1, "\x08", "SOF0's precision (section 3.5)", "stops (\"Only 8-bit precision\")" },
    { 210, 10, "\x03\x01\x22\x00\x02\x11\x01\x03\x11\x02", "SOF0's component list (section 3.5)",
      "ignores it" },
    { 221, 4, "\xFF\xC4\x01\xA2", "the DHT marker and length (section 3.6)",
      "parses the segments in another order, skips DHT by its length, or stops" },
    { 641, 4, "\xFF\xDA\x00\x0C", "the SOS marker and length (section 3.7)",
      "parses the segments in another order, skips SOS by its length, or stops" },
    { 645, 10, "\x03\x01\x00\x02\x11\x03\x11\x00\x3F\x00", "SOS's components and tables (section 3.7)",
      "ignores them" },
};

size_t Decoder::frame(const uint8_t *buf, size_t size, size_t off, int n)
{
    const uint8_t *f = buf + off;
    const size_t left = size - off;
    at_c = -1;

    if (left < 655) {
        if (left >= 2 && f[0] == 0xFF && f[1] == 0xD8)
            misread("the file ends inside the frame header (section 3.2); the reference decoder "
                    "stops at the end of the file");
        misread("%s: %zu bytes, not a frame (section 3.1); the reference decoder stops "
                "(\"Not an JPEG file\" or end of file)",
                n ? "after the last frame's EOI" : "the file", left);
    }
    for (const Fixed &fx : header_fixed)
        for (size_t i = 0; i < fx.n; i++)
            if (f[fx.at + i] != uint8_t(fx.bytes[i])) {
                if (fx.at == 0)
                    misread("the bytes after %s are not a frame (SOI expected, section 3.1); the "
                            "reference decoder stops (\"Not an JPEG file\")",
                            n ? "the last frame's EOI" : "the start of the file");
                misread("header byte %zu is %02X, not %02X: %s breaks the fixed layout of "
                        "section 3.2 (Appendix A); the reference decoder %s", fx.at + i,
                        f[fx.at + i], uint8_t(fx.bytes[i]), fx.name, fx.ref);
            }
    // Bytes 4-5, the DQT length, are ignored (quirk Q1), as the reference
    // decoder ignores them.
    if (std::memcmp(f + 225, dht_payload, sizeof(dht_payload)))
        misread("DHT differs from the standard tables (section 3.6, Appendix B); the reference "
                "decoder uses its built-in tables instead (quirk Q10)");

    const int h = f[206] << 8 | f[207], w = f[208] << 8 | f[209];
    const int kk = f[220];
    const uint8_t *q[3] = { f + 7, f + 72, f + 137 };

    // Section 3.5: the frame type; section 3.9, quirk Q10: the size.
    if (kk > 1)
        misread("frame type byte %d (section 3.5); the reference decoder takes any byte but 0 "
                "for a keyframe", kk);
    const bool key = kk == 1;
    if (n == 0) {
        if (w == 0 || h == 0)
            misread("size %dx%d; zero is not a size (section 2.1)", w, h);
        const uint64_t luma = uint64_t((w + 15) / 16 * 16) * ((h + 15) / 16 * 16);
        if (luma > uint64_t(INT_MAX))
            misread("size %dx%d: the reference decoder's int arithmetic on the plane size "
                    "overflows", w, h);
        if (!key)
            misread("the first frame is an inter frame (sections 3.9, 6.1); the reference "
                    "decoder has no reference picture and crashes");
    } else if (w != width || h != height) {
        misread("size %dx%d after %dx%d (section 3.9); the reference decoder keeps the first "
                "frame's size (quirk Q10)", w, h, width, height);
    }

    // Every luma block is at least 7 bits, every chroma block 5 (section
    // 5.10): refuse data too short for the size before allocating for it.
    const uint64_t mbs = uint64_t((w + 15) / 16) * ((h + 15) / 16);
    if (mbs * 38 > uint64_t(left - 655) * 8)
        misread("%zu bytes of data cannot hold the %" PRIu64 " macroblocks of %dx%d (section "
                "5.10); the reference decoder would read past the frame", left - 655, mbs, w, h);
    if (n == 0)
        setup(w, h);

    // Section 5.4: blocks macroblock by macroblock; section 5.7: the DC
    // predictors start at 0.
    BitReader br(f + 655, left - 655, f);
    int dc_pred[3] = { 0, 0, 0 };
    for (int v = 0; v < mb_h; v++)
        for (int u = 0; u < mb_w; u++) {
            block(br, key, 0, 2 * u, 2 * v, dc_pred[0], q[0]);
            block(br, key, 0, 2 * u + 1, 2 * v, dc_pred[0], q[0]);
            block(br, key, 0, 2 * u, 2 * v + 1, dc_pred[0], q[0]);
            block(br, key, 0, 2 * u + 1, 2 * v + 1, dc_pred[0], q[0]);
            block(br, key, 1, u, v, dc_pred[1], q[1]);
            block(br, key, 2, u, v, dc_pred[2], q[2]);
        }
    at_c = -1;

    // Section 5.9, quirk Q2: the reference decoder has read the data a
    // byte at a time as it needed bits, so it stands after the byte that
    // holds the last bit of the last block (and after the 00 that follows
    // it if that byte is FF). It skips one 00 byte, then needs EOI.
    const uint64_t bytes = (br.consumed() + 7) / 8;
    size_t p = off + 655;
    for (uint64_t i = 0; i < bytes; i++)
        p += buf[p] == 0xFF ? 2 : 1;
    const size_t data_end = p;
    if (p < size && buf[p] == 0x00)
        p++;
    if (p + 1 >= size || buf[p] != 0xFF || buf[p + 1] != 0xD9) {
        if (p >= size)
            misread("the file ends after the data without EOI (section 3.3); the reference "
                    "decoder stops at the end of the file");
        misread("the data's last block ends at byte %zu of the frame, followed by %02X%s: the "
                "reference decoder skips at most one 00 byte after the data and then needs EOI "
                "(section 5.9, quirk Q2)", data_end - off, buf[p],
                p + 1 < size ? "..." : " and the end of the file");
    }
    p += 2;

    if (verbose)
        std::fprintf(stderr, "frame %d: %s, %zu bytes, %" PRIu64 " bits of data\n", n,
                     key ? "keyframe" : "inter frame", p - off, br.consumed());

    std::swap(ref, cur);
    return p;
}

// ---------------------------------------------------------------------------
// Output (sections 6.7, 2.3; quirk Q12)

bool write_frame(FILE *out, const Picture &pic, int width, int height, bool stride)
{
    if (stride) {
        // What the reference decoder writes: the first width*height bytes
        // of the padded Y plane and the first width*height/4 bytes of each
        // padded chroma plane, rows of the padded width (quirk Q12).
        const size_t wh = size_t(width) * height;
        return std::fwrite(pic.p[0].s.data(), 1, wh, out) == wh &&
               std::fwrite(pic.p[1].s.data(), 1, wh / 4, out) == wh / 4 &&
               std::fwrite(pic.p[2].s.data(), 1, wh / 4, out) == wh / 4;
    }
    for (int c = 0; c < 3; c++) {
        const int w = c ? (width + 1) / 2 : width, h = c ? (height + 1) / 2 : height;
        for (int y = 0; y < h; y++)
            if (std::fwrite(pic.p[c].row(y), 1, w, out) != size_t(w))
                return false;
    }
    return true;
}

int usage()
{
    std::fprintf(stderr,
                 "usage: c63refdec [-stride] [-v] IN.c63 [OUT.yuv]\n"
                 "  decodes IN as the Codec63 reference decoder does; exit 0 when that gives\n"
                 "  the stream's intended pictures, 2 when it would not, 1 on usage or I/O errors\n"
                 "  -stride  write exactly the reference decoder's output (rows of the padded width)\n"
                 "  -v       a line a frame on standard error\n");
    return EXIT_USAGE;
}

} // namespace

int main(int argc, char **argv)
{
    bool stride = false, verbose = false;
    const char *in_name = nullptr, *out_name = nullptr;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "-stride"))
            stride = true;
        else if (!std::strcmp(argv[i], "-v"))
            verbose = true;
        else if (argv[i][0] == '-' && argv[i][1])
            return usage();
        else if (!in_name)
            in_name = argv[i];
        else if (!out_name)
            out_name = argv[i];
        else
            return usage();
    }
    if (!in_name)
        return usage();

    std::vector<uint8_t> buf;
    {
        FILE *in = std::fopen(in_name, "rb");
        if (!in) {
            std::fprintf(stderr, "c63refdec: cannot open %s: %s\n", in_name, std::strerror(errno));
            return EXIT_USAGE;
        }
        uint8_t chunk[1 << 16];
        size_t got;
        while ((got = std::fread(chunk, 1, sizeof(chunk), in)) > 0)
            buf.insert(buf.end(), chunk, chunk + got);
        bool err = std::ferror(in);
        std::fclose(in);
        if (err) {
            std::fprintf(stderr, "c63refdec: cannot read %s\n", in_name);
            return EXIT_USAGE;
        }
    }
    FILE *out = nullptr;
    if (out_name) {
        out = std::strcmp(out_name, "-") ? std::fopen(out_name, "wb") : stdout;
        if (!out) {
            std::fprintf(stderr, "c63refdec: cannot open %s: %s\n", out_name, std::strerror(errno));
            return EXIT_USAGE;
        }
    }

    int status = EXIT_OK, n = 0;
    try {
        static const Tables tables;
        Decoder dec(tables);
        dec.verbose = verbose;
        for (size_t off = 0; off < buf.size(); n++) {
            try {
                off = dec.frame(buf.data(), buf.size(), off, n);
            } catch (const Misread &m) {
                char at[64] = "";
                if (dec.at_c >= 0)
                    std::snprintf(at, sizeof(at), "%s block (%d, %d): ", plane_name[dec.at_c],
                                  dec.at_bx, dec.at_by);
                std::fprintf(stderr, "c63refdec: %s: frame %d: %s%s\n", in_name, n, at,
                             m.what.c_str());
                status = EXIT_MISREAD;
                break;
            }
            if (out && !write_frame(out, dec.ref, dec.width, dec.height, stride)) {
                std::fprintf(stderr, "c63refdec: cannot write %s\n", out_name);
                status = EXIT_USAGE;
                break;
            }
        }
    } catch (const std::bad_alloc &) {
        std::fprintf(stderr, "c63refdec: %s: frame %d: out of memory\n", in_name, n);
        status = EXIT_USAGE;
    }
    if (out && (std::fflush(out) || (out != stdout && std::fclose(out))) && status == EXIT_OK) {
        std::fprintf(stderr, "c63refdec: cannot write %s\n", out_name);
        status = EXIT_USAGE;
    }
    return status;
}
