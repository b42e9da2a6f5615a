#!/bin/bash
# fgrab kernel-driver test harness: boots Debian's kernel under qemu with the host's
# root on 9p (read-only), loads vivid and v4l2loopback, and runs a scenario there.
#
#   vm.sh install            install the VM packages (apt-get, root; only what is
#                            missing) and make sure v4l2loopback.ko exists for the
#                            guest kernel
#   vm.sh check              say whether this host can run the VM (exit 0 if so)
#   vm.sh initramfs          build (or reuse) the cached initramfs and print its path
#   vm.sh run [--out DIR] [--timeout SEC] SCRIPT [ARGS...]
#                            run SCRIPT (bash) with ARGS inside the guest; exit with
#                            SCRIPT's exit status
#
# Exit status of "run": the scenario's status; 99 (meson's "hard error") when the VM
# itself failed: no boot, a module or mount that failed, no exit-status marker on the
# console before the timeout. A scenario exiting 77 ("skip") is turned into 1: this
# tier never skips silently.
#
# Environment (all optional):
#   FGRAB_BUILD_DIR    meson build dir (default: <source>/build if it has build.ninja);
#                      the guest gets GST_PLUGIN_PATH=$FGRAB_BUILD_DIR/gst/fgrab
#   FGRAB_SOURCE_DIR   source tree (default: two levels above this script)
#   FGRAB_VM_OUT       writable results dir (default: $FGRAB_BUILD_DIR/kernel-tests/<scenario>)
#   FGRAB_VM_TIMEOUT   hard limit for the whole qemu run, seconds (default 240)
#   FGRAB_VM_KERNEL    kernel version to boot (default: newest in /lib/modules with
#                      /boot/vmlinuz-<ver> and vivid)
#   FGRAB_VM_CACHE     initramfs cache dir (default ${XDG_CACHE_HOME:-$HOME/.cache}/fgrab-vm)
#   FGRAB_VM_VIVID, FGRAB_VM_LOOPBACK   module parameters ("none": do not load);
#                      a scenario may also set them with "#@vivid: ..." header lines
#   FGRAB_*, GST_DEBUG*, GST_PLUGIN_PATH are passed into the guest.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
srcdir=${FGRAB_SOURCE_DIR:-$(cd "$here/../.." && pwd -P)}
EXIT_VM_FAILURE=99

# the network group: x264enc (ugly), srt/mpegts/h264parse (bad), avdec_h264
# (libav), GstRtspServer for Python (examples/rtsp-server.py)
PACKAGES=(qemu-system-x86 linux-image-amd64 busybox-static linux-headers-amd64
	v4l2loopback-dkms dkms ffmpeg v4l-utils gstreamer1.0-plugins-base-apps
	gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly gstreamer1.0-libav
	gir1.2-gst-rtsp-server-1.0)
INITRD_MODULES=(virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci
	netfs fscache 9pnet 9pnet_virtio 9p)
# Modules that newer kernels no longer have on their own (6.12: fscache is
# part of netfs): missing is fine for these alone.
INITRD_MERGED_MODULES=(fscache)
QEMU=qemu-system-x86_64

log() { echo "vm.sh: $*" >&2; }
die() {
	log "ERROR: $*"
	exit 1
}
vm_fail() {
	echo >&2
	log "VM FAILURE: $*"
	exit "$EXIT_VM_FAILURE"
}

sh_quote() { # single-quote for POSIX sh
	local s=${1//\'/\'\\\'\'}
	printf "'%s'" "$s"
}

# The guest kernel: the newest installed kernel that has an image in /boot and the
# vivid module. Never a fixed version.
pick_kernel() {
	if [ -n "${FGRAB_VM_KERNEL:-}" ]; then
		echo "$FGRAB_VM_KERNEL"
		return 0
	fi
	local d v found=()
	for d in /lib/modules/*/; do
		[ -d "$d" ] || continue
		v=$(basename "$d")
		[ -e "/boot/vmlinuz-$v" ] || continue
		modinfo -k "$v" -n vivid >/dev/null 2>&1 || continue
		found+=("$v")
	done
	[ "${#found[@]}" -gt 0 ] || return 1
	printf '%s\n' "${found[@]}" | sort -V | tail -n1
}

find_busybox() {
	local b
	for b in /bin/busybox /usr/bin/busybox; do
		if [ -x "$b" ] && ! ldd "$b" >/dev/null 2>&1; then
			echo "$b"
			return 0
		fi
	done
	return 1
}

cache_dir() { echo "${FGRAB_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fgrab-vm}"; }

# --------------------------------------------------------------------------- install
# shellcheck source=scripts/lib/packages.sh
. "$here/../../scripts/lib/packages.sh"

cmd_install() {
	local v
	install_packages vm.sh "${PACKAGES[@]}" || die "the VM packages are not all installed (see above)"
	v=$(pick_kernel) || die "no kernel in /lib/modules with /boot/vmlinuz-<ver> and vivid.ko (is linux-image-amd64 installed?)"
	log "guest kernel: $v"
	if ! modinfo -k "$v" -n v4l2loopback >/dev/null 2>&1; then
		log "v4l2loopback.ko missing for $v: running dkms autoinstall -k $v"
		[ "$(id -u)" -eq 0 ] || die "v4l2loopback.ko missing for $v; run 'vm.sh install' as root"
		[ -d "/lib/modules/$v/build" ] || die "no headers for $v (/lib/modules/$v/build): apt-get install linux-headers-$v"
		dkms autoinstall -k "$v" || die "dkms autoinstall -k $v failed"
		modinfo -k "$v" -n v4l2loopback >/dev/null 2>&1 ||
			die "v4l2loopback.ko still missing for $v after dkms autoinstall (see 'dkms status')"
	fi
	log "v4l2loopback: $(modinfo -k "$v" -n v4l2loopback)"
	find_busybox >/dev/null || die "no static busybox found (install busybox-static)"
	command -v "$QEMU" >/dev/null || die "$QEMU not found (install qemu-system-x86)"
	log "install OK"
}

# ----------------------------------------------------------------------------- check
cmd_check() {
	local ok=0 v
	command -v "$QEMU" >/dev/null || {
		log "missing $QEMU (qemu-system-x86)"
		ok=1
	}
	find_busybox >/dev/null || {
		log "missing static busybox (busybox-static)"
		ok=1
	}
	if v=$(pick_kernel); then
		[ -r "/boot/vmlinuz-$v" ] || {
			log "/boot/vmlinuz-$v is not readable by $(id -un) (Debian installs it mode 0600)"
			ok=1
		}
		modinfo -k "$v" -n v4l2loopback >/dev/null 2>&1 || {
			log "no v4l2loopback.ko for $v (vm.sh install)"
			ok=1
		}
	else
		log "no kernel with vivid in /lib/modules (linux-image-amd64)"
		ok=1
	fi
	[ "$ok" -eq 0 ] && log "this host can run the kernel tier (guest kernel $v)"
	return "$ok"
}

# ------------------------------------------------------------------------- initramfs
# Prints the path of the cached initramfs for kernel $1, building it if the key
# (kernel version, init script, busybox, module files) changed.
build_initramfs() {
	local v=$1 bb init=$here/guest-init.sh m p key cdir out work
	bb=$(find_busybox) || vm_fail "no static busybox (install busybox-static)"
	[ -r "$init" ] || vm_fail "missing $init"
	local paths=()
	for m in "${INITRD_MODULES[@]}"; do
		if ! p=$(modinfo -k "$v" -n "$m" 2>/dev/null); then
			if [[ " ${INITRD_MERGED_MODULES[*]} " == *" $m "* ]]; then
				log "module $m does not exist in $v (merged into another)"
				continue
			fi
			vm_fail "module $m not found for kernel $v"
		fi
		# Built-in modules print "(builtin)" or "name"; skip those.
		case $p in /*) paths+=("$p") ;; *) log "module $m is built into $v" ;; esac
	done
	key=$( {
		echo "fgrab-vm-initramfs-v1 $v"
		sha256sum "$init" "$bb" "${paths[@]}"
		printf '%s\n' "${INITRD_MODULES[@]}"
	} | sha256sum | cut -c1-16)
	cdir=$(cache_dir)
	out="$cdir/initramfs-$v-$key.cpio.gz"
	if [ -s "$out" ]; then
		echo "$out"
		return 0
	fi
	mkdir -p "$cdir"
	work=$(mktemp -d "$cdir/build.XXXXXX")
	# shellcheck disable=SC2064 # expand now
	trap "rm -rf '$work'" RETURN
	mkdir -p "$work/bin" "$work/dev" "$work/proc" "$work/sys" "$work/host" "$work/out" \
		"$work/lib/fgrab-modules"
	cp "$bb" "$work/bin/busybox"
	ln -s busybox "$work/bin/sh"
	cp "$init" "$work/init"
	chmod 0755 "$work/init"
	: >"$work/lib/fgrab-modules/order"
	for p in "${paths[@]}"; do
		m=$(basename "$p")
		case $m in
		*.ko) cp "$p" "$work/lib/fgrab-modules/$m" ;;
		*.ko.xz) xz -dc "$p" >"$work/lib/fgrab-modules/${m%.xz}" ;;
		*.ko.zst) zstd -qdc "$p" >"$work/lib/fgrab-modules/${m%.zst}" ;;
		*.ko.gz) gzip -dc "$p" >"$work/lib/fgrab-modules/${m%.gz}" ;;
		*) vm_fail "unexpected module file $p" ;;
		esac
		m=${m%.ko*}
		echo "$m" >>"$work/lib/fgrab-modules/order"
	done
	(cd "$work" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
		gzip -1 >"$out.tmp.$$"
	mv -f "$out.tmp.$$" "$out"
	# Drop stale images of this kernel.
	find "$cdir" -maxdepth 1 -name "initramfs-$v-*.cpio.gz" ! -name "$(basename "$out")" -delete
	log "built initramfs $out"
	echo "$out"
}

cmd_initramfs() {
	local v
	v=$(pick_kernel) || vm_fail "no guest kernel found (vm.sh install)"
	build_initramfs "$v"
}

# ------------------------------------------------------------------------------- run
check_guest_visible() { # path: the guest mounts tmpfs on /tmp and /run
	case $1 in
	/tmp | /tmp/* | /run | /run/* | /proc/* | /sys/* | /dev/*)
		vm_fail "$1 is not visible inside the guest (its /tmp and /run are fresh tmpfs); use a path elsewhere"
		;;
	esac
	case $1 in *,* | *$'\n'*) vm_fail "path $1 contains a comma or newline (not supported by qemu -virtfs)" ;; esac
}

cmd_run() {
	local out=${FGRAB_VM_OUT:-} tmo=${FGRAB_VM_TIMEOUT:-240}
	while [ $# -gt 0 ]; do
		case $1 in
		--out) out=$2; shift 2 ;;
		--out=*) out=${1#--out=}; shift ;;
		--timeout) tmo=$2; shift 2 ;;
		--timeout=*) tmo=${1#--timeout=}; shift ;;
		--) shift; break ;;
		-*) die "unknown option $1" ;;
		*) break ;;
		esac
	done
	[ $# -ge 1 ] || die "usage: vm.sh run [--out DIR] [--timeout SEC] SCRIPT [ARGS...]"
	local script=$1
	shift
	[ -f "$script" ] || [ -f "$srcdir/$script" ] || die "scenario $script not found"
	[ -f "$script" ] || script=$srcdir/$script
	script=$(readlink -f "$script")

	command -v "$QEMU" >/dev/null || vm_fail "$QEMU not found: run 'tests/kernel/vm.sh install' (kernel-tests cannot run on this host)"
	local v
	v=$(pick_kernel) || vm_fail "no guest kernel (/lib/modules/<ver> with vivid and /boot/vmlinuz-<ver>): run 'tests/kernel/vm.sh install'"
	[ -r "/boot/vmlinuz-$v" ] || vm_fail "/boot/vmlinuz-$v is not readable by $(id -un)"

	local build=${FGRAB_BUILD_DIR:-}
	if [ -z "$build" ] && [ -f "$srcdir/build/build.ninja" ]; then build=$srcdir/build; fi
	[ -z "$build" ] || build=$(readlink -f "$build")
	if [ -z "$out" ]; then
		local name
		name=$(basename "$script" .sh)
		out="${build:-$srcdir/build}/kernel-tests/$name"
	fi
	mkdir -p "$out"
	out=$(readlink -f "$out")
	if [ -n "$(ls -A "$out")" ]; then
		[ -d "$out/.vm" ] || die "--out $out is not empty and not a previous vm.sh results dir; refusing to wipe it"
		rm -rf "${out:?}"/* "$out"/.vm
	fi
	mkdir -p "$out/.vm"
	local p
	for p in "$script" "$here/guest-stage2.sh" "$out" "$srcdir" ${build:+"$build"}; do
		check_guest_visible "$p"
	done

	local initrd gcache
	initrd=$(build_initramfs "$v")
	# Guest cache share (GStreamer registry); skipped if the guest could not see it.
	gcache=$(cache_dir)/guest
	mkdir -p "$gcache"
	gcache=$(readlink -f "$gcache")
	case $gcache in /tmp/* | /run/* | *,* | *$'\n'*) gcache= ;; esac
	local cache_share=()
	[ -z "$gcache" ] || cache_share=(-virtfs "local,path=$gcache,mount_tag=cache,security_model=none,multidevs=remap")

	# Files the guest reads.
	{
		echo "export FGRAB_OUT=$(sh_quote "$out")"
		echo "FGRAB_STAGE2=$(sh_quote "$here/guest-stage2.sh")"
		[ -z "$gcache" ] || echo "export FGRAB_GUEST_CACHE=$(sh_quote "$gcache")"
	} >"$out/.vm/init.env"
	{
		printf 'FGRAB_OUT=%q\n' "$out"
		printf 'FGRAB_SCENARIO=%q\n' "$script"
		printf 'FGRAB_ARGS=%q\n' "$(printf '%q ' "$@")"
		printf 'FGRAB_ARGS_TEXT=%q\n' "$*"
		printf 'FGRAB_SOURCE_DIR=%q\n' "$srcdir"
		printf 'FGRAB_BUILD_DIR=%q\n' "$build"
		printf 'FGRAB_GUEST_KERNEL=%q\n' "$v"
		local n
		while IFS= read -r n; do
			case $n in
			FGRAB_OUT | FGRAB_SCENARIO | FGRAB_ARGS | FGRAB_ARGS_TEXT | FGRAB_SOURCE_DIR | FGRAB_BUILD_DIR) ;;
			FGRAB_* | GST_DEBUG* | GST_PLUGIN_PATH) printf '%s=%q\n' "$n" "${!n}" ;;
			esac
		done < <(compgen -e)
	} >"$out/.vm/env"

	# no_timer_check: on a loaded host TCG runs the guest so slowly that the
	# kernel's IO-APIC timer check fails ("IO-APIC + timer doesn't work!",
	# a panic at 0.02 s, seen with two VMs on two cores).
	local qemu_cmd=("$QEMU" -machine q35 -cpu max -m 1024 -smp 2 -nographic -no-reboot -nic none
		-kernel "/boot/vmlinuz-$v" -initrd "$initrd"
		-append "console=ttyS0 quiet loglevel=3 panic=-1 no_timer_check"
		-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap"
		-virtfs "local,path=$out,mount_tag=out,security_model=none,multidevs=remap"
		"${cache_share[@]}")
	log "booting $v (timeout ${tmo}s): $(basename "$script") $*"
	log "results in $out"
	local t0=$SECONDS st
	set +e
	timeout -k 10 "$tmo" "${qemu_cmd[@]}" </dev/null 2>&1 |
		sed -u -e 's/\r$//' -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/\x1bc//g' | tee "$out/console.log"
	st=("${PIPESTATUS[@]}")
	set -e
	local dt=$((SECONDS - t0)) qst=${st[0]}
	local marker
	marker=$(sed -n 's/^FGRAB-VM-EXIT=\([0-9][0-9]*\)$/\1/p' "$out/console.log" | tail -n1)
	if grep -q 'FGRAB-VM-SETUP-FAILED:' "$out/console.log"; then
		vm_fail "guest setup failed after ${dt}s: $(sed -n 's/.*FGRAB-VM-SETUP-FAILED: //p' "$out/console.log" | head -n1)"
	fi
	if [ -z "$marker" ]; then
		if [ "$qst" -eq 124 ] || [ "$qst" -eq 137 ]; then
			vm_fail "no exit-status marker within ${tmo}s (VM killed by timeout; hung boot or scenario?). Console: $out/console.log"
		fi
		vm_fail "VM ended after ${dt}s without an exit-status marker (qemu status $qst; boot failure or kernel panic?). Console: $out/console.log"
	fi
	log "guest finished in ${dt}s; scenario $(basename "$script") exit status $marker"
	if [ "$marker" -eq 77 ]; then
		log "FAIL: the scenario exited 77 (skip); the kernel tier does not allow skips"
		exit 1
	fi
	exit "$marker"
}

# ------------------------------------------------------------------------------ main
[ $# -ge 1 ] || die "usage: vm.sh install | check | initramfs | run [--out DIR] [--timeout SEC] SCRIPT [ARGS...]"
cmd=$1
shift
case $cmd in
install) cmd_install "$@" ;;
check) cmd_check "$@" ;;
initramfs) cmd_initramfs "$@" ;;
run) cmd_run "$@" ;;
*) die "unknown command $cmd" ;;
esac
