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
#                            SCRIPT's exit status; one VM boot for this run
#   vm.sh group [--out DIR] [--timeout SEC] SCRIPT [ARGS...]
#                            the same, in the VM shared by the groups whose
#                            results dirs are beside DIR (started on demand,
#                            powered off when idle; vm-server.sh): the meson
#                            kernel tests
#   vm.sh stop DIR           powers off the shared VM of the groups in DIR
#
# Exit status of "run" and "group": the scenario's status; 99 (meson's "hard error")
# when the VM itself failed: no boot, a module or mount that failed, no exit-status
# marker on the console before the timeout, a VM that died during the group. A
# scenario exiting 77 ("skip") is turned into 1: this tier never skips silently.
#
# Environment (all optional):
#   FGRAB_BUILD_DIR    meson build dir (default: <source>/build if it has build.ninja);
#                      the guest gets GST_PLUGIN_PATH=$FGRAB_BUILD_DIR/gst/fgrab
#   FGRAB_SOURCE_DIR   source tree (default: two levels above this script)
#   FGRAB_VM_OUT       writable results dir (default: $FGRAB_BUILD_DIR/kernel-tests/<scenario>)
#   FGRAB_VM_TIMEOUT   hard limit for the whole qemu run (group: for the group's
#                      result), seconds (default 240)
#   FGRAB_VM_IDLE      seconds a shared VM waits for another group (default 30)
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
# (libav), GstRtspServer for Python (examples/rtsp-server.py); the browser
# group: chromium, firefox-esr
PACKAGES=(qemu-system-x86 linux-image-amd64 busybox-static linux-headers-amd64
	v4l2loopback-dkms dkms ffmpeg v4l-utils gstreamer1.0-plugins-base-apps
	gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly gstreamer1.0-libav
	gir1.2-gst-rtsp-server-1.0 chromium firefox-esr)
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

# parse_run_args ARGS...: the options and SCRIPT [ARGS...] of "run" and
# "group"; sets OPT_OUT, OPT_TMO, SCRIPT and SCRIPT_ARGS.
parse_run_args() {
	OPT_OUT=${FGRAB_VM_OUT:-} OPT_TMO=${FGRAB_VM_TIMEOUT:-240}
	while [ $# -gt 0 ]; do
		case $1 in
		--out) OPT_OUT=$2; shift 2 ;;
		--out=*) OPT_OUT=${1#--out=}; shift ;;
		--timeout) OPT_TMO=$2; shift 2 ;;
		--timeout=*) OPT_TMO=${1#--timeout=}; shift ;;
		--) shift; break ;;
		-*) die "unknown option $1" ;;
		*) break ;;
		esac
	done
	[ $# -ge 1 ] || die "usage: vm.sh run|group [--out DIR] [--timeout SEC] SCRIPT [ARGS...]"
	SCRIPT=$1
	shift
	SCRIPT_ARGS=("$@")
	[ -f "$SCRIPT" ] || [ -f "$srcdir/$SCRIPT" ] || die "scenario $SCRIPT not found"
	[ -f "$SCRIPT" ] || SCRIPT=$srcdir/$SCRIPT
	SCRIPT=$(readlink -f "$SCRIPT")
}

# resolve_host: the guest kernel (KVER) and the build dir (BUILD, may be
# empty); a host that cannot boot the VM is a VM failure.
resolve_host() {
	command -v "$QEMU" >/dev/null || vm_fail "$QEMU not found: run 'tests/kernel/vm.sh install' (kernel-tests cannot run on this host)"
	KVER=$(pick_kernel) || vm_fail "no guest kernel (/lib/modules/<ver> with vivid and /boot/vmlinuz-<ver>): run 'tests/kernel/vm.sh install'"
	[ -r "/boot/vmlinuz-$KVER" ] || vm_fail "/boot/vmlinuz-$KVER is not readable by $(id -un)"
	BUILD=${FGRAB_BUILD_DIR:-}
	if [ -z "$BUILD" ] && [ -f "$srcdir/build/build.ninja" ]; then BUILD=$srcdir/build; fi
	[ -z "$BUILD" ] || BUILD=$(readlink -f "$BUILD")
}

# prepare_out DIR: creates the results dir DIR of one scenario run (wiping
# a previous run's, nothing else) with its .vm/; prints its absolute path.
prepare_out() {
	local out=$1
	mkdir -p "$out"
	out=$(readlink -f "$out")
	if [ -n "$(ls -A "$out")" ]; then
		[ -d "$out/.vm" ] || die "--out $out is not empty and not a previous vm.sh results dir; refusing to wipe it"
		rm -rf "${out:?}"/* "$out"/.vm
	fi
	mkdir -p "$out/.vm"
	echo "$out"
}

# write_job_env OUT: OUT/.vm/env, what guest-stage2.sh runs (SCRIPT with
# SCRIPT_ARGS) and the environment it passes into the guest.
write_job_env() {
	local out=$1 n
	{
		printf 'FGRAB_OUT=%q\n' "$out"
		printf 'FGRAB_SCENARIO=%q\n' "$SCRIPT"
		printf 'FGRAB_ARGS=%q\n' "$(printf '%q ' "${SCRIPT_ARGS[@]}")"
		printf 'FGRAB_ARGS_TEXT=%q\n' "${SCRIPT_ARGS[*]}"
		printf 'FGRAB_SOURCE_DIR=%q\n' "$srcdir"
		printf 'FGRAB_BUILD_DIR=%q\n' "$BUILD"
		printf 'FGRAB_GUEST_KERNEL=%q\n' "$KVER"
		while IFS= read -r n; do
			case $n in
			FGRAB_OUT | FGRAB_SCENARIO | FGRAB_ARGS | FGRAB_ARGS_TEXT | FGRAB_SOURCE_DIR | FGRAB_BUILD_DIR) ;;
			FGRAB_* | GST_DEBUG* | GST_PLUGIN_PATH) printf '%s=%q\n' "$n" "${!n}" ;;
			esac
		done < <(compgen -e)
	} >"$out/.vm/env"
}

# guest_cache_dir: the persistent guest cache (GStreamer registry), or
# nothing if the guest could not see it.
guest_cache_dir() {
	local g
	g=$(cache_dir)/guest
	mkdir -p "$g"
	g=$(readlink -f "$g")
	case $g in /tmp/* | /run/* | *,* | *$'\n'*) return 0 ;; esac
	echo "$g"
}

# write_init_env SHARE STAGE2 GCACHE: SHARE/.vm/init.env, read by
# guest-init.sh: the writable share's host path, the stage 2 to run and
# the cache share's path.
write_init_env() {
	{
		echo "export FGRAB_OUT=$(sh_quote "$1")"
		echo "FGRAB_STAGE2=$(sh_quote "$2")"
		[ -z "$3" ] || echo "export FGRAB_GUEST_CACHE=$(sh_quote "$3")"
	} >"$1/.vm/init.env"
}

# set_qemu_cmd INITRD SHARE GCACHE: QEMU_CMD, the VM booting KVER with the
# host's / read-only, SHARE writable and GCACHE (if any) as the cache.
#
# The accelerator is TCG, always. KVM was tried on the build machines
# (docs/kernel-tier.md, "KVM"): their /dev/kvm is kvm_pvm (nested PVM), which
# runs only PVM-aware guest kernels; Debian's kernel either aborts qemu
# (-cpu max/host: "failed to set MSR 0x10a") or crawls through its boot
# hundreds of times slower than TCG.
#
# no_timer_check: on a loaded host TCG runs the guest so slowly that the
# kernel's IO-APIC timer check fails ("IO-APIC + timer doesn't work!", a
# panic at 0.02 s, seen with two VMs on two cores).
set_qemu_cmd() {
	local initrd=$1 share=$2 gcache=$3
	# shellcheck disable=SC2054 # the commas are qemu's
	QEMU_CMD=("$QEMU" -machine q35,accel=tcg -cpu max -m 1024 -smp 2 -nographic -no-reboot -nic none
		-kernel "/boot/vmlinuz-$KVER" -initrd "$initrd"
		-append "console=ttyS0 quiet loglevel=3 panic=-1 no_timer_check"
		-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap"
		-virtfs "local,path=$share,mount_tag=out,security_model=none,multidevs=remap")
	[ -z "$gcache" ] ||
		QEMU_CMD+=(-virtfs "local,path=$gcache,mount_tag=cache,security_model=none,multidevs=remap")
}

# console_filter: the serial console as plain text lines (no CRs, no
# terminal escapes).
console_filter() { sed -u -e 's/\r$//' -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/\x1bc//g'; }

# exit_for_status ST SCRIPT: exits with a scenario's status; 77 (skip) is a
# failure in this tier.
exit_for_status() {
	if [ "$1" -eq 77 ]; then
		log "FAIL: the scenario exited 77 (skip); the kernel tier does not allow skips"
		exit 1
	fi
	exit "$1"
}

cmd_run() {
	parse_run_args "$@"
	resolve_host
	local out=$OPT_OUT tmo=$OPT_TMO
	[ -n "$out" ] || out="${BUILD:-$srcdir/build}/kernel-tests/$(basename "$SCRIPT" .sh)"
	out=$(prepare_out "$out")
	local p
	for p in "$SCRIPT" "$here/guest-stage2.sh" "$out" "$srcdir" ${BUILD:+"$BUILD"}; do
		check_guest_visible "$p"
	done

	local initrd gcache
	initrd=$(build_initramfs "$KVER")
	gcache=$(guest_cache_dir)
	write_init_env "$out" "$here/guest-stage2.sh" "$gcache"
	write_job_env "$out"
	set_qemu_cmd "$initrd" "$out" "$gcache"
	log "booting $KVER (timeout ${tmo}s, accelerator TCG): $(basename "$SCRIPT") ${SCRIPT_ARGS[*]}"
	log "results in $out"
	local t0=$SECONDS st
	set +e
	timeout -k 10 "$tmo" "${QEMU_CMD[@]}" </dev/null 2>&1 | console_filter | tee "$out/console.log"
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
	log "guest finished in ${dt}s; scenario $(basename "$SCRIPT") exit status $marker"
	exit_for_status "$marker"
}

# shellcheck source=tests/kernel/vm-server.sh
. "$here/vm-server.sh"

# ------------------------------------------------------------------------------ main
[ $# -ge 1 ] || die "usage: vm.sh install | check | initramfs | run|group [--out DIR] [--timeout SEC] SCRIPT [ARGS...] | stop DIR"
cmd=$1
shift
case $cmd in
install) cmd_install "$@" ;;
check) cmd_check "$@" ;;
initramfs) cmd_initramfs "$@" ;;
run) cmd_run "$@" ;;
group) cmd_group "$@" ;;
serve) cmd_serve "$@" ;;
stop) cmd_stop "$@" ;;
*) die "unknown command $cmd" ;;
esac
