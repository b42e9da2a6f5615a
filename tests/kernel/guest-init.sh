#!/bin/sh
# /init of the fgrab test VM's initramfs (runs under static busybox as PID 1).
#
# Built into the initramfs by vm.sh; its content is part of the initramfs cache key.
# It loads the virtio/9p modules shipped next to it, mounts the host's root read-only
# and the per-run writable share, chroots into the host root to run stage 2
# (guest-stage2.sh from the checkout), prints the exit-status marker and powers off.
# Every failure prints a FGRAB-VM-SETUP-FAILED marker, so the host never mistakes a
# broken VM for a test result.

/bin/busybox mkdir -p /bin /sbin /usr/bin /usr/sbin /dev /proc /sys /host /out
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin

mount -t devtmpfs devtmpfs /dev 2>/dev/null
exec </dev/console >/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys

setup_failed() {
	echo
	echo "FGRAB-VM-SETUP-FAILED: $*"
	sync
	poweroff -f
	sleep 10
	exit 1
}

echo "fgrab-vm: kernel $(uname -r), initramfs up at $(cut -d' ' -f1 /proc/uptime) s"

while read -r mod; do
	[ -n "$mod" ] || continue
	insmod "/lib/fgrab-modules/$mod.ko" || setup_failed "insmod $mod"
done </lib/fgrab-modules/order

# msize: bigger 9p messages make loading libraries from the host noticeably faster.
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000,cache=loose hostroot /host ||
	setup_failed "mount of the host root (9p tag hostroot)"
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 out /out ||
	setup_failed "mount of the writable share (9p tag out)"
[ -r /out/.vm/init.env ] || setup_failed "missing /out/.vm/init.env on the writable share"
# init.env defines FGRAB_OUT (host path of the writable share), FGRAB_STAGE2 and
# FGRAB_GUEST_CACHE (host path of the cache share).
# shellcheck source=/dev/null
. /out/.vm/init.env

mount -t proc proc /host/proc || setup_failed "mount /host/proc"
mount -t sysfs sysfs /host/sys || setup_failed "mount /host/sys"
mount -t devtmpfs devtmpfs /host/dev || setup_failed "mount /host/dev"
mkdir -p /host/dev/pts /host/dev/shm
ln -sf /proc/self/fd /host/dev/fd
ln -sf /proc/self/fd/0 /host/dev/stdin
ln -sf /proc/self/fd/1 /host/dev/stdout
ln -sf /proc/self/fd/2 /host/dev/stderr
mount -t devpts devpts /host/dev/pts
mount -t tmpfs tmpfs /host/dev/shm
mount -t tmpfs tmpfs /host/tmp || setup_failed "mount /host/tmp"
mount -t tmpfs tmpfs /host/run || setup_failed "mount /host/run"
# The writable share appears at the same absolute path as on the host.
mount -o move /out "/host$FGRAB_OUT" || setup_failed "move the writable share to $FGRAB_OUT"
# Persistent guest cache (GStreamer registry), same path as on the host.
if [ -n "${FGRAB_GUEST_CACHE:-}" ]; then
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 cache "/host$FGRAB_GUEST_CACHE" ||
		setup_failed "mount of the cache share at $FGRAB_GUEST_CACHE"
fi

chroot /host /bin/bash "$FGRAB_STAGE2"
rc=$?
sync
echo
echo "FGRAB-VM-EXIT=$rc"
poweroff -f
sleep 10
