"""The c63 codecs and the framediff filters through PyAV.

    python test_pyav.py [--prefix PREFIX] [--samples DIR] [--ref DIR]

Run with the Python of a virtual environment whose PyAV was built against
the libraries in PREFIX (tests/clients/pyav.sh makes one). Checks, each as a
"PASS: ..." or "FAILED: ..." line:

  libraries  the libav* libraries mapped into this process are PREFIX's
             (/proc/self/maps; with --prefix);
  decode     each reference vector decodes, demuxed by probing, to the
             reference decoder's md5 (tests/fate/ref/c63-dec-NAME): the frames
             packed as av_image_copy_to_buffer() packs them with align 1,
             each plane's lines without their padding;
  encode     each vector's stored input (tests/fate/samples/NAME.yuv.xz, raw
             yuv420p) encoded by the c63 encoder with the FATE encoder
             tests' options (the encoder's defaults) gives the reference
             encoder's stream byte for byte: tests/fate/samples/NAME.c63, whose
             md5 is tests/fate/ref/c63-enc-NAME;
  framediff  buffer -> framediff=threshold=20:mode=mask:refresh=10 ->
             buffersink yields every frame, and iterating each frame's side
             data does not raise; each carries exactly one
             AV_FRAME_DATA_SEI_UNREGISTERED entry that starts with the
             frame difference list's UUID, and its list (libavutil/
             framediff.h) is version 2, has the picture's planes and their
             sizes, the filter's threshold, the frame's index, the refresh
             flag on frames 0, 10, 20, ..., nb_sent equal to the frame's
             lavfi.cudadiff.sent (and per plane to lavfi.cudadiff.sent.N),
             a bitmap with nb_sent bits set, the size 48 + bitmap + nb_sent,
             and a bitmap that is the mask picture (255 where sent);
  apply      framediffapply fed those frames outputs what framediff's
             mode=recon outputs for the same input (md5 of the pictures).

Prints "N passed, N failed" last; exits non-zero on any failure.
"""

import argparse
import hashlib
import lzma
import os
import re
import struct
import sys
import traceback
from fractions import Fraction

import av
import av.filter
from av.sidedata.sidedata import Type as SideDataType

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(os.path.dirname(HERE))

# FFmpeg's libraries, of any version
FFLIBS = re.compile(r"lib(avcodec|avformat|avutil|avfilter|avdevice|swscale|swresample|postproc|avresample)\.so")

VECTORS = ["tiny", "odd_height", "qcif_keyint", "cif_noise"]
# the vectors' sizes, as in tests/fate/c63-common.sh
SIZES = {"tiny": (16, 16), "odd_height": (176, 100), "qcif_keyint": (176, 144),
         "cif_noise": (352, 288)}

DIFF_UUID = bytes.fromhex("26faa26885054d31a960708f3fcca29e")
DIFF_VERSION = 2
DIFF_HEADER = 48
DIFF_FLAG_REFRESH = 1

FILTER_INPUT = "qcif_keyint"
THRESHOLD = 20
REFRESH = 10

passed = failed = 0


def ok(what):
    global passed
    passed += 1
    print(f"PASS: {what}", flush=True)


def bad(what):
    global failed
    failed += 1
    print(f"FAILED: {what}", flush=True)


def check(what, fn):
    """Runs fn(), which returns None (pass) or a reason (fail); an exception fails."""
    try:
        why = fn()
    except Exception as e:  # the test's verdict, whatever PyAV raised
        ours = [t for t in traceback.extract_tb(e.__traceback__) if t.filename == __file__]
        where = f" (at line {ours[-1].lineno})" if ours else ""
        why = f"{type(e).__name__}: {e}{where}"
    if why is None:
        ok(what)
    else:
        bad(f"{what} ({why})")


def packed_planes(frame):
    """The picture as av_image_copy_to_buffer(align 1) packs it: each plane's
    lines without padding, plane after plane. 8-bit planar formats only."""
    fmt = frame.format
    if any(c.bits != 8 for c in fmt.components) or fmt.name in ("pal8",) or \
            len(fmt.components) != len(frame.planes):
        raise ValueError(f"packing {fmt.name} is not implemented")
    out = []
    for plane in frame.planes:
        ls, w, h = plane.line_size, plane.width, plane.height
        mv = memoryview(plane)
        if ls == w:
            out.append(bytes(mv[: w * h]))
        else:
            out.append(b"".join(mv[y * ls: y * ls + w] for y in range(h)))
    return out


def picture_md5(frames):
    m = hashlib.md5()
    for f in frames:
        for p in packed_planes(f):
            m.update(p)
    return m.hexdigest()


def read_ref(name):
    with open(os.path.join(ARGS.ref, name)) as f:
        return f.read().split()[0]


def decode_file(path):
    with av.open(path) as c:
        if c.format.name != "c63":
            raise ValueError(f"{path} probed as {c.format.name}, not c63")
        st = c.streams.video[0]
        if st.codec_context.name != "c63":
            raise ValueError(f"{path}'s stream decodes with {st.codec_context.name}, not c63")
        return list(c.decode(st))


def yuv_frames(name):
    w, h = SIZES[name]
    cw, ch = (w + 1) // 2, (h + 1) // 2
    with lzma.open(os.path.join(ARGS.samples, name + ".yuv.xz")) as f:
        data = f.read()
    size = w * h + 2 * cw * ch
    if not data or len(data) % size:
        raise ValueError(f"{name}.yuv.xz: {len(data)} bytes is no whole number of {w}x{h} frames")
    frames = []
    for i in range(len(data) // size):
        frame = av.VideoFrame(w, h, "yuv420p")
        pos = i * size
        for plane, (pw, ph) in zip(frame.planes, ((w, h), (cw, ch), (cw, ch))):
            ls = plane.line_size
            mv = memoryview(plane)
            for y in range(ph):
                mv[y * ls: y * ls + pw] = data[pos: pos + pw]
                pos += pw
        frame.pts = i
        frame.time_base = Fraction(1, 25)
        frames.append(frame)
    return frames


# -- libraries ---------------------------------------------------------------

def test_libraries():
    libdir = os.path.realpath(os.path.join(ARGS.prefix, "lib"))
    mapped = set()
    with open("/proc/self/maps") as f:
        for line in f:
            parts = line.split(None, 5)
            if len(parts) == 6:
                path = parts[5].strip()
                if FFLIBS.match(os.path.basename(path)):
                    mapped.add(path)
    foreign = sorted(p for p in mapped if os.path.dirname(os.path.realpath(p)) != libdir)
    if not mapped:
        return "no libav* library mapped"
    if foreign:
        return "also mapped: " + ", ".join(foreign)
    return None


# -- decode --------------------------------------------------------------------

def test_decode(name):
    frames = decode_file(os.path.join(ARGS.samples, name + ".c63"))
    if not frames:
        return "no frame decoded"
    got, want = picture_md5(frames), read_ref("c63-dec-" + name)
    if got != want:
        return f"md5 {got} of {len(frames)} frames, want {want}"
    return None


# -- encode ----------------------------------------------------------------------

def test_encode(name):
    frames = yuv_frames(name)
    w, h = SIZES[name]
    enc = av.CodecContext.create("c63", "w")
    enc.width, enc.height = w, h
    enc.pix_fmt = "yuv420p"
    enc.time_base = Fraction(1, 25)
    enc.framerate = Fraction(25, 1)
    # no options: the FATE encoder tests (tests/fate/c63-test.sh enc) use the
    # encoder's defaults (-g 100, -quality and -me_range as defined)
    packets = []
    for f in frames:
        packets += enc.encode(f)
    packets += enc.encode(None)
    stream = b"".join(bytes(p) for p in packets)
    with open(os.path.join(ARGS.samples, name + ".c63"), "rb") as f:
        ref = f.read()
    got, want = hashlib.md5(stream).hexdigest(), read_ref("c63-enc-" + name)
    if hashlib.md5(ref).hexdigest() != want:
        return f"{name}.c63 does not have the md5 of tests/fate/ref/c63-enc-{name}"
    if len(packets) != len(frames):
        return f"{len(packets)} packets for {len(frames)} frames"
    if stream != ref:
        at = next((i for i, (a, b) in enumerate(zip(stream, ref)) if a != b), min(len(stream), len(ref)))
        return f"md5 {got} ({len(stream)} bytes), want {want} ({len(ref)} bytes); first difference at byte {at}"
    return None


# -- framediff ---------------------------------------------------------------------

def run_graph(frames, desc):
    """buffer -> DESC (one filter: name=args) -> buffersink; every output frame."""
    g = av.filter.Graph()
    src = g.add_buffer(template=None, width=frames[0].width, height=frames[0].height,
                       format=frames[0].format, time_base=Fraction(1, 25))
    name, _, args = desc.partition("=")
    flt = g.add(name, args or None)
    sink = g.add("buffersink")
    src.link_to(flt)
    flt.link_to(sink)
    g.configure()
    out = []

    def drain():
        while True:
            try:
                out.append(g.vpull())
            except (av.BlockingIOError, av.EOFError):
                return

    for i, f in enumerate(frames):
        f.pts = i
        f.time_base = Fraction(1, 25)
        g.vpush(f)
        drain()
    g.vpush(None)
    drain()
    return out


_BITS = [bytes(255 if b >> k & 1 else 0 for k in range(8)) for b in range(256)]


def check_list(i, frame):
    """None if frame i carries the right list, else what is wrong."""
    try:
        container = frame.side_data     # PyAV reads every entry's type here
        list(container)                 # iterating must not raise either
        sd = [container[k] for k in range(len(container))]
    except ValueError as e:
        return (f"frame {i}: reading its side data raised ValueError: {e}: a side data type "
                f"PyAV {av.__version__} does not know (the list as a type of its own, "
                "not as SEI_UNREGISTERED?)")
    sei = [s for s in sd if s.type == SideDataType.SEI_UNREGISTERED]
    ours = [bytes(s) for s in sei if bytes(s)[:16] == DIFF_UUID]
    if len(ours) != 1:
        return (f"frame {i}: {len(ours)} SEI_UNREGISTERED entries with the list's UUID "
                f"(side data: {[str(s.type) for s in sd]})")
    lst = ours[0][16:]
    if len(lst) < DIFF_HEADER:
        return f"frame {i}: a list of {len(lst)} bytes"
    version, flags, nb_planes, threshold, nb_sent, frame_size, frame_index = \
        struct.unpack_from("<BBBBIII", lst, 0)
    widths = struct.unpack_from("<4I", lst, 16)
    heights = struct.unpack_from("<4I", lst, 32)
    planes = packed_planes(frame)
    want_w = [p.width for p in frame.planes] + [0] * (4 - len(frame.planes))
    want_h = [p.height for p in frame.planes] + [0] * (4 - len(frame.planes))
    if version != DIFF_VERSION:
        return f"frame {i}: version {version}"
    if nb_planes != len(frame.planes):
        return f"frame {i}: nb_planes {nb_planes}, the picture has {len(frame.planes)}"
    if list(widths) != want_w or list(heights) != want_h:
        return f"frame {i}: plane sizes {widths} x {heights}, want {want_w} x {want_h}"
    if frame_size != sum(len(p) for p in planes):
        return f"frame {i}: frame_size {frame_size}"
    if threshold != THRESHOLD:
        return f"frame {i}: threshold {threshold}"
    if frame_index != i:
        return f"frame {i}: frame_index {frame_index}"
    refresh = i % REFRESH == 0
    if bool(flags & DIFF_FLAG_REFRESH) != refresh or flags & ~DIFF_FLAG_REFRESH:
        return f"frame {i}: flags {flags:#x}"
    md = frame.metadata
    if "lavfi.cudadiff.sent" not in md:
        return f"frame {i}: no lavfi.cudadiff.sent in the metadata {dict(md)}"
    if nb_sent != int(md["lavfi.cudadiff.sent"]):
        return f"frame {i}: nb_sent {nb_sent}, lavfi.cudadiff.sent {md['lavfi.cudadiff.sent']}"
    if refresh and nb_sent != frame_size:
        return f"frame {i}: a refresh frame sends {nb_sent} of {frame_size} bytes"
    pos = DIFF_HEADER
    for p in range(nb_planes):
        n = widths[p] * heights[p]
        bm = lst[pos: pos + (n + 7) // 8]
        pos += (n + 7) // 8
        count = sum(bin(b).count("1") for b in bm)
        key = f"lavfi.cudadiff.sent.{p}"
        if key in md and int(md[key]) != count:
            return f"frame {i}: plane {p}: {count} bits set, {key} {md[key]}"
        mask = b"".join(_BITS[b] for b in bm)
        if mask[:n] != planes[p] or any(mask[n:]):
            return f"frame {i}: plane {p}: the bitmap is not the mask picture"
    if pos + nb_sent != len(lst):
        return f"frame {i}: {len(lst)} bytes, want {pos} + {nb_sent}"
    if sum(bin(b).count("1") for b in lst[DIFF_HEADER:pos]) != nb_sent:
        return f"frame {i}: the bitmap does not hold nb_sent bits"
    return None


STATE = {}


def test_framediff():
    frames = decode_file(os.path.join(ARGS.samples, FILTER_INPUT + ".c63"))
    STATE["input"] = frames
    out = run_graph(frames, f"framediff=threshold={THRESHOLD}:mode=mask:refresh={REFRESH}")
    STATE["mask"] = out
    if len(out) != len(frames):
        return f"{len(out)} frames out of {len(frames)}"
    for i, f in enumerate(out):
        why = check_list(i, f)
        if why:
            return why
    return None


def test_apply():
    if "mask" not in STATE or len(STATE["mask"]) != len(STATE["input"]):
        return "no frames from framediff"
    applied = run_graph(STATE["mask"], "framediffapply")
    recon = run_graph(decode_file(os.path.join(ARGS.samples, FILTER_INPUT + ".c63")),
                      f"framediff=threshold={THRESHOLD}:mode=recon:refresh={REFRESH}")
    if len(applied) != len(recon):
        return f"{len(applied)} frames from framediffapply, {len(recon)} from mode=recon"
    got, want = picture_md5(applied), picture_md5(recon)
    if got != want:
        return f"md5 {got}, mode=recon {want}"
    return None


def main():
    global ARGS
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--prefix", help="the installed tree PyAV was built against")
    ap.add_argument("--samples", default=os.path.join(TESTS, "fate", "samples"))
    ap.add_argument("--ref", default=os.path.join(TESTS, "fate", "ref"))
    ARGS = ap.parse_args()

    print(f"PyAV {av.__version__}, FFmpeg {av.ffmpeg_version_info}, "
          + ", ".join(f"{k} {'.'.join(map(str, v))}" for k, v in sorted(av.library_versions.items())),
          flush=True)
    if ARGS.prefix:
        check(f"the libav* libraries loaded are {ARGS.prefix}/lib's", test_libraries)
    for name in VECTORS:
        check(f"decode {name}.c63: the reference decoder's md5", lambda: test_decode(name))
    for name in VECTORS:
        check(f"encode {name}.yuv.xz with c63: the reference encoder's {name}.c63",
              lambda: test_encode(name))
    check(f"framediff=threshold={THRESHOLD}:mode=mask:refresh={REFRESH} on {FILTER_INPUT}: "
          "every frame, one SEI_UNREGISTERED list each, its header and bitmap", test_framediff)
    check("framediffapply of those frames equals framediff mode=recon", test_apply)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
