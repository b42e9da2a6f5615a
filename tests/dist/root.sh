#!/usr/bin/env bash
# A cached Debian root of another release for the distribution tier
# (tests/dist/run.sh): debootstrap from Debian's registry, then the build
# and test dependencies, GStreamer, the release's kernel and v4l2loopback
# built by dkms for that kernel, and qemu so that the kernel tier can boot
# the VM from inside the root (vm.sh shares the root it runs in).
#
#   tests/dist/root.sh SUITE CACHE_DIR
#       Prints the path of the root, CACHE_DIR/SUITE-<key>/root.  <key> is a
#       hash of the package list and ROOT_FORMAT: a changed list makes a
#       new root and removes the old ones.  First run: debootstrap
#       and apt-get, about 6 minutes.  Needs root and debootstrap.
set -euo pipefail

suite=${1:?usage: root.sh SUITE CACHE_DIR}
cache=${2:?usage: root.sh SUITE CACHE_DIR}
here=$(cd "$(dirname "$0")" && pwd -P)

PACKAGES=(
	# build and unit tier (as scripts/test.sh installs on the host)
	meson ninja-build pkg-config gcc libc6-dev linux-libc-dev
	libglib2.0-dev libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
	gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
	gstreamer1.0-plugins-base-apps python3-gi gir1.2-gstreamer-1.0 indent
	# libv4lconvert, the reference of check-fgrabhm12ref and -formatref
	libv4l-dev
	# libzvbi, the reference of test-fakev4l2-vbi
	libzvbi-dev
	# the MPEG peers (fgrabmpegpeers), the network examples and the
	# network and vbi-captions groups, as on the host
	gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly gstreamer1.0-libav
	gir1.2-gst-rtsp-server-1.0
	# kernel tier (as tests/kernel/vm.sh installs on the host)
	qemu-system-x86 linux-image-amd64 linux-headers-amd64 busybox-static
	v4l2loopback-dkms dkms ffmpeg v4l-utils kmod cpio xz-utils
	# the browser group (tests/kernel/scenarios/browser.sh)
	chromium firefox-esr
	# the pipewire group (tests/kernel/scenarios/pipewire.sh): the daemons,
	# pw-dump and pw-cli (pipewire-bin), pipewiresrc, a session bus for
	# WirePlumber and systemd-udevd for the udev properties PipeWire's V4L2
	# monitor reads
	pipewire pipewire-bin wireplumber gstreamer1.0-pipewire dbus-daemon udev
)

log() { echo "root.sh: $*" >&2; }

# Bump when the steps below change what a root contains.
ROOT_FORMAT=1
key=$(printf '%s\n' "$suite" "$ROOT_FORMAT" "${PACKAGES[@]}" | sha256sum | cut -c1-12)
dest=$cache/$suite-$key
if [ -f "$dest/ok" ]; then
	echo "$dest/root"
	exit 0
fi

# shellcheck source=scripts/lib/debroot.sh
. "$here/../../scripts/lib/debroot.sh"
mkdir -p "$cache"
work=$(mktemp -d "$cache/$suite-new.XXXXXX")
root=$work/root
cleanup() {
	[ ! -d "$root" ] || chroot_umount "$root"
	rm -rf --one-file-system "$work"
}
trap cleanup EXIT
t0=$SECONDS
debootstrap_root "$suite" "$root" "$work/debootstrap.log" || exit 1
log "debootstrap took $((SECONDS - t0)) s"

# No initramfs for the release's kernel (the VM brings its own, vm.sh), no
# documentation, no fsync: a throwaway root.
chroot "$root" dpkg-divert --local --rename --add /usr/sbin/update-initramfs >/dev/null
ln -sf /bin/true "$root/usr/sbin/update-initramfs"
cat >"$root/etc/dpkg/dpkg.cfg.d/fgrab" <<'CFG'
force-unsafe-io
path-exclude=/usr/share/doc/*
path-exclude=/usr/share/man/*
path-exclude=/usr/share/locale/*
CFG
echo "deb $(debian_mirror) $suite main" >"$root/etc/apt/sources.list"
# A testing release's Release file is valid for a week only (Valid-Until);
# the registry this runs against may serve a snapshot older than that.
# The files are still checked against their signatures, only not for
# freshness: a test root needs the release as served, not the newest.
echo 'Acquire::Check-Valid-Until "false";' >"$root/etc/apt/apt.conf.d/90fgrab-snapshot"
chroot_mount "$root"
t0=$SECONDS
if ! in_root "$root" apt-get update -q >"$work/apt.log" 2>&1 ||
	! in_root "$root" apt-get install -y -q --no-install-recommends "${PACKAGES[@]}" >>"$work/apt.log" 2>&1; then
	tail -n 60 "$work/apt.log" >&2
	log "apt-get in the $suite root failed"
	exit 1
fi
log "apt-get took $((SECONDS - t0)) s"

# dkms in a chroot builds for the running (host) kernel unless told: build
# v4l2loopback for the root's own kernel explicitly.
kver=$(cd "$root/lib/modules" && for d in *; do [ -e "$root/boot/vmlinuz-$d" ] && echo "$d"; done | sort -V | tail -n1)
[ -n "$kver" ] || { log "no kernel in the $suite root"; exit 1; }
if ! in_root "$root" modinfo -k "$kver" -n v4l2loopback >/dev/null 2>&1; then
	in_root "$root" dkms autoinstall -k "$kver" >>"$work/apt.log" 2>&1 ||
		{ tail -n 40 "$work/apt.log" >&2; log "dkms autoinstall -k $kver failed"; exit 1; }
fi
in_root "$root" modinfo -k "$kver" -n v4l2loopback >/dev/null ||
	{ log "no v4l2loopback.ko for $kver in the $suite root"; exit 1; }
log "$suite root: kernel $kver, v4l2loopback $(in_root "$root" modinfo -k "$kver" -F version v4l2loopback)"
# Debian installs the kernel image mode 0600; the VM reads it.
chmod a+r "$root/boot/vmlinuz-$kver"
in_root "$root" apt-get clean

chroot_umount "$root"
find "$cache" -maxdepth 1 -name "$suite-*" ! -name "$(basename "$work")" -exec rm -rf --one-file-system {} +
mkdir -p "$dest"
mv "$root" "$dest/root"
cp "$work"/*.log "$dest/"
touch "$dest/ok"
echo "$dest/root"
