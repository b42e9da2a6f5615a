#!/usr/bin/python3
# fgrab
# Copyright (C) 2026 The fgrab authors
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
#
# This library is distributed in the hope that it will be useful,
# but WITHOUT ANY WARRANTY; without even the implied warranty of
# MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
# Library General Public License for more details.
#
# You should have received a copy of the GNU Library General Public
# License along with this library; if not, write to the
# Free Software Foundation, Inc., 51 Franklin St, Fifth Floor,
# Boston, MA 02110-1301, USA.
"""Serving an fgrab capture node over RTSP (gst-rtsp-server).

  rtsp-server.py [--device PATH] [--port N] [--address ADDR] [--mount NAME]
                 [--caps CAPS] [--bitrate KBITS] [--keyint FRAMES]

Serves the node as rtsp://HOST:PORT/NAME (default port 8554, NAME the
node's file name, e.g. video0):
- a raw capture node (webcam, TV card's raw node) is encoded to H.264
  (x264enc, tuned for latency) and sent as RTP H.264;
- an MPEG encoder node (ivtv, cx18, pvrusb2) is sent as it comes, without
  re-encoding: its program stream's video is remuxed to MPEG-TS (a
  transport stream card's stream is passed on) and sent as RTP MP2T.
  Only the video is carried.
One capture pipeline reads the node and encodes (or remuxes) once for
every client: the device is opened once, when the first client comes, and
closed after the last one has left.  Each client has its own RTSP media
fed from that pipeline (appsrc), so a client that leaves, or stops
reading, does not hold up the others (with one shared RTSP media, GStreamer
1.22's server stalled every client when a TCP client left mid-stream).

--caps (raw nodes) is a capsfilter after fgrabsrc, e.g.
"video/x-raw,width=640,height=360,framerate=30/1".

Output is "key: value" lines: the URL once the server listens, then one
line per client and per start and stop of the capture as they come and
go.  Exit status:
0 after SIGINT or SIGTERM, 1 when the device cannot be opened or the port
is taken (the reason is printed), 2 on bad arguments or a missing element.

Needs Debian's python3-gi, gir1.2-gstreamer-1.0, gir1.2-gst-rtsp-server-1.0;
gstreamer1.0-plugins-ugly (x264enc) for raw nodes, gstreamer1.0-plugins-bad
(mpegpsdemux, mpegtsmux, mpegvideoparse) for encoder nodes; the fgrab
plugin on GST_PLUGIN_PATH.
"""

import argparse
import os
import signal
import sys
import threading

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import GLib, Gst, GstRtspServer  # noqa: E402


# how long the node stays open after the last client left
STOP_GRACE_MS = 3000


def say(text):
    # flushed at once: a script waits for these lines while we run
    print(text, flush=True)


def error(text):
    print("error: %s" % text, file=sys.stderr, flush=True)


def require(*factories):
    missing = [f for f in factories if Gst.ElementFactory.find(f) is None]
    if missing:
        error("element(s) %s missing (fgrab plugin on GST_PLUGIN_PATH? "
              "gstreamer1.0-plugins-bad, -ugly installed?)" % ", ".join(missing))
        sys.exit(2)


def probe_device(device):
    """Opens the node as the served pipeline will (fgrabsrc NULL->READY
    opens it and checks its capabilities) and returns the caps it can
    deliver; prints the element's error and exits 1 if it cannot."""
    src = Gst.ElementFactory.make("fgrabsrc", None)
    src.set_property("device", device)
    bus = Gst.Bus.new()
    src.set_bus(bus)
    ret = src.set_state(Gst.State.READY)
    if ret == Gst.StateChangeReturn.FAILURE:
        msg = bus.pop_filtered(Gst.MessageType.ERROR)
        if msg is not None:
            err, dbg = msg.parse_error()
            error(err.message)
            print("debug: %s" % (dbg or "(none)"), file=sys.stderr)
        else:
            error("cannot open %s" % device)
        src.set_state(Gst.State.NULL)
        sys.exit(1)
    caps = src.get_static_pad("src").query_caps(None)
    card = src.get_property("device-name") or "(unknown)"
    src.set_state(Gst.State.NULL)
    src.set_bus(None)
    return caps, card


def stream_kind(caps):
    """'ts' for a transport stream node, 'ps' for an MPEG program stream
    (or elementary stream) node, 'raw' otherwise."""
    for i in range(caps.get_size()):
        name = caps.get_structure(i).get_name()
        if name == "video/mpegts":
            return "ts"
        if name == "video/mpeg":
            return "ps"
    return "raw"


def capture_line(args, kind):
    """The one pipeline that reads the node and encodes (or remuxes) it;
    every client's media is fed from its appsink."""
    src = 'fgrabsrc device="%s"' % args.device.replace('"', '\\"')
    sink = "appsink name=out emit-signals=true sync=false max-buffers=64 drop=true"
    if kind == "ts":
        # the card's own transport stream, packets as they come
        return "%s ! tsparse set-timestamps=true ! %s" % (src, sink)
    if kind == "ps":
        # the card's MPEG video, remuxed, not re-encoded
        return ("%s ! mpegpsdemux ! queue ! mpegvideoparse ! mpegtsmux ! %s"
                % (src, sink))
    caps = " ! %s" % args.caps if args.caps else ""
    return ("%s%s ! queue ! videoconvert ! video/x-raw,format=I420 "
            "! x264enc tune=zerolatency speed-preset=ultrafast bitrate=%d "
            "key-int-max=%d ! h264parse config-interval=-1 "
            "! video/x-h264,stream-format=byte-stream,alignment=au ! %s"
            % (src, caps, args.bitrate, args.keyint, sink))


def client_line(kind):
    """A client's own media: what the capture made, payloaded.  Each client
    has its own, so a client that stops reading (or leaves while data is
    on its way) holds up no one else; leaky: a slow client loses data."""
    src = ("appsrc name=src is-live=true format=time do-timestamp=true "
           "leaky-type=downstream max-bytes=4000000")
    if kind == "raw":
        return ("( %s ! h264parse ! rtph264pay name=pay0 pt=96 "
                "config-interval=-1 )" % src)
    return "( %s ! rtpmp2tpay name=pay0 pt=33 )" % src


class Client:
    def __init__(self, appsrc):
        self.appsrc = appsrc
        self.started = False  # its media has had its first buffer
        self.prepared = False  # its media knows its caps
        self.playing = False  # its media plays
        self.flowing = False  # it gets every buffer (from a key frame on)


class Capture:
    """The node's pipeline, shared by the clients: started with the first
    client's media, stopped after the last one's."""

    def __init__(self, args, kind):
        self.device = args.device
        self.line = capture_line(args, kind)
        # a client must start on a key frame (H.264); a transport stream
        # carries its tables again and again, any packet will do
        self.need_key = kind == "raw"
        self.lock = threading.Lock()
        self.clients = []
        self.pipeline = None

    def add(self, appsrc):
        with self.lock:
            self.clients.append(Client(appsrc))
            first = self.pipeline is None
            if first:
                self.pipeline = Gst.parse_launch(self.line)
                self.pipeline.get_by_name("out").connect("new-sample",
                                                         self.on_sample)
                bus = self.pipeline.get_bus()
                bus.add_signal_watch()
                bus.connect("message::error", self.on_error)
                pipeline = self.pipeline
        if first:
            say("capture: started, %s opened" % self.device)
            pipeline.set_state(Gst.State.PLAYING)

    def remove(self, appsrc):
        with self.lock:
            self.clients = [c for c in self.clients if c.appsrc is not appsrc]
            idle = not self.clients
        if idle:
            # a grace period: a client that reconnects at once (rtspsrc
            # falling back from UDP to TCP) finds the node still open
            GLib.timeout_add(STOP_GRACE_MS, self.stop_if_idle)

    def stop_if_idle(self):
        with self.lock:
            pipeline = self.pipeline if not self.clients else None
            if pipeline is not None:
                self.pipeline = None
        if pipeline is not None:
            self.stop(pipeline)
        return GLib.SOURCE_REMOVE

    def stop(self, pipeline):
        pipeline.set_state(Gst.State.NULL)
        pipeline.get_bus().remove_signal_watch()
        say("capture: stopped, %s closed" % self.device)

    def stop_all(self):
        with self.lock:
            pipeline, self.pipeline = self.pipeline, None
        if pipeline is not None:
            self.stop(pipeline)

    def set_prepared(self, appsrc):
        with self.lock:
            for c in self.clients:
                if c.appsrc is appsrc:
                    c.prepared = True

    def set_playing(self, appsrc, playing):
        with self.lock:
            for c in self.clients:
                if c.appsrc is appsrc:
                    c.playing = playing
                    c.flowing = c.flowing and playing

    def on_sample(self, appsink):
        # the streaming thread: hand a copy of the buffer to every client
        sample = appsink.emit("pull-sample")
        buf = sample.get_buffer()
        key = not buf.has_flags(Gst.BufferFlags.DELTA_UNIT)
        push = []
        with self.lock:
            for c in self.clients:
                if not c.prepared:
                    # while the client's media prepares: from a key frame
                    # on, until the payloader knows its caps (for the SDP)
                    if not c.started:
                        if self.need_key and not key:
                            continue
                        c.appsrc.set_property("caps", sample.get_caps())
                        c.started = True
                elif not c.playing:
                    # nothing piles up before the client plays
                    continue
                elif not c.flowing:
                    if self.need_key and not key:
                        continue
                    c.flowing = True
                push.append(c.appsrc)
        for appsrc in push:
            out = buf.copy()
            # each client's own clock: its appsrc stamps what it sends
            out.pts = out.dts = Gst.CLOCK_TIME_NONE
            appsrc.emit("push-buffer", out)
        return Gst.FlowReturn.OK

    def on_error(self, bus, message):
        err, dbg = message.parse_error()
        error("%s: %s" % (message.src.get_name(), err.message))
        print("debug: %s" % (dbg or "(none)"), file=sys.stderr, flush=True)
        with self.lock:
            clients = list(self.clients)
        # the clients' streams end; the capture stops with the last one
        for c in clients:
            c.appsrc.emit("end-of-stream")


def main():
    Gst.init(None)
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--device", "-d", default="/dev/video0")
    p.add_argument("--port", "-p", type=int, default=8554)
    p.add_argument("--address", "-a", default="0.0.0.0",
                   help="address to listen on (default all)")
    p.add_argument("--mount", "-m",
                   help="the path of the stream (default: the node's name)")
    p.add_argument("--caps", "-c", help="raw nodes: caps after fgrabsrc")
    p.add_argument("--bitrate", type=int, default=2000,
                   help="raw nodes: H.264 bit rate, kbit/s (default 2000)")
    p.add_argument("--keyint", type=int, default=30,
                   help="raw nodes: frames between key frames, so that a "
                   "client joining late waits at most that long (default 30)")
    args = p.parse_args()
    if not 0 <= args.port <= 65535:
        p.error("--port must be 0..65535")
    if args.bitrate < 1 or args.keyint < 1:
        p.error("--bitrate and --keyint must be at least 1")
    if args.caps and Gst.Caps.from_string(args.caps) is None:
        p.error("cannot parse caps '%s'" % args.caps)
    mount = args.mount or os.path.basename(args.device)
    mount = "/" + mount.strip("/")
    if mount == "/":
        p.error("--mount must not be empty")

    require("fgrabsrc")
    caps, card = probe_device(args.device)
    kind = stream_kind(caps)
    if kind == "raw":
        require("videoconvert", "x264enc", "h264parse", "rtph264pay")
    elif kind == "ps":
        require("mpegpsdemux", "mpegvideoparse", "mpegtsmux", "rtpmp2tpay")
    else:
        require("tsparse", "rtpmp2tpay")

    capture = Capture(args, kind)
    factory = GstRtspServer.RTSPMediaFactory()
    factory.set_launch(client_line(kind))

    def on_media_configure(factory, media):
        appsrc = media.get_element().get_by_name("src")
        media.connect("unprepared", lambda m: capture.remove(appsrc))
        media.connect("prepared", lambda m: capture.set_prepared(appsrc))
        media.connect("new-state", lambda m, state: capture.set_playing(
            appsrc, state == Gst.State.PLAYING))
        capture.add(appsrc)

    factory.connect("media-configure", on_media_configure)

    server = GstRtspServer.RTSPServer()
    server.set_address(args.address)
    server.set_service(str(args.port))
    server.get_mount_points().add_factory(mount, factory)

    def on_client(server, client):
        conn = client.get_connection()
        peer = conn.get_ip() if conn is not None else "?"
        say("client: connected from %s" % peer)
        client.connect("closed", lambda c: say("client: left (%s)" % peer))

    server.connect("client-connected", on_client)
    if server.attach(None) == 0:
        error("cannot listen on %s port %d (in use?)" % (args.address,
                                                          args.port))
        return 1

    loop = GLib.MainLoop()
    stopped = []

    def on_signal(signum):
        stopped.append(signum)
        loop.quit()
        return GLib.SOURCE_REMOVE

    for signum in (signal.SIGINT, signal.SIGTERM):
        GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signum, on_signal, signum)

    host = args.address if args.address not in ("0.0.0.0", "::") else "127.0.0.1"
    say("device: %s" % args.device)
    say("card: %s" % card)
    say("stream: %s" % {"raw": "H.264 (x264enc) over RTP",
                        "ps": "MPEG program stream remuxed to MPEG-TS over RTP",
                        "ts": "MPEG-TS over RTP"}[kind])
    say("url: rtsp://%s:%d%s" % (host, server.get_bound_port(), mount))
    loop.run()

    # close the sessions, so the shared pipeline stops and the node closes
    # before the process ends
    server.client_filter(lambda s, c: GstRtspServer.RTSPFilterResult.REMOVE)
    ctx = GLib.MainContext.default()
    while ctx.pending():
        ctx.iteration(False)
    capture.stop_all()
    say("stopped: %s" % signal.Signals(stopped[0]).name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
