#!/bin/bash
# Stage 2 of the fgrab test VM: runs inside the guest, chrooted into the host's root
# (read-only), as root. Started by guest-init.sh; everything it needs comes from
# $FGRAB_OUT/.vm/ written by vm.sh on the host.
#
# It sets up a writable environment, loads the V4L2 drivers (vivid, v4l2loopback;
# parameters from the scenario's "#@vivid:" / "#@v4l2loopback:" header lines or from
# FGRAB_VM_VIVID / FGRAB_VM_LOOPBACK, "none" to skip a driver), runs the scenario and
# exits with its status. A driver that fails to load is a setup failure (marker line),
# not a test result.
set -uo pipefail

setup_failed() {
	echo
	echo "FGRAB-VM-SETUP-FAILED: $*"
	exit 1
}

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# init.env exported FGRAB_OUT; the full environment is in env (bash-quoted).
[ -n "${FGRAB_OUT:-}" ] || setup_failed "FGRAB_OUT not set by the init"
[ -r "$FGRAB_OUT/.vm/env" ] || setup_failed "missing $FGRAB_OUT/.vm/env"
set -a
# shellcheck source=/dev/null
. "$FGRAB_OUT/.vm/env"
set +a

export HOME="$FGRAB_OUT/home"
export XDG_CACHE_HOME=/tmp/xdg-cache
export XDG_CONFIG_HOME=/tmp/xdg-config
export XDG_DATA_HOME=/tmp/xdg-data
export XDG_RUNTIME_DIR=/run/user/0
# The registry persists in the cache share (a rescan costs ~10 s under TCG); GStreamer
# rescans only plugins whose files changed.
if [ -n "${FGRAB_GUEST_CACHE:-}" ] && [ -w "$FGRAB_GUEST_CACHE" ]; then
	GST_REGISTRY="$FGRAB_GUEST_CACHE/gst-registry-$(uname -r).bin"
	export GST_REGISTRY
else
	export GST_REGISTRY=/tmp/gst-registry.bin
fi
export TMPDIR=/tmp
export LANG=C.UTF-8
mkdir -p "$HOME" "$XDG_CACHE_HOME" "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR"
chmod 0700 "$XDG_RUNTIME_DIR"
if [ -n "${FGRAB_BUILD_DIR:-}" ] && [ -d "$FGRAB_BUILD_DIR/gst/fgrab" ]; then
	export GST_PLUGIN_PATH="$FGRAB_BUILD_DIR/gst/fgrab${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
fi
hostname fgrab-vm 2>/dev/null || true

scenario=${FGRAB_SCENARIO:?}
[ -r "$scenario" ] || setup_failed "scenario $scenario is not readable inside the guest"

# Module parameters: environment first, then the scenario's header, then defaults.
header_param() { sed -n "s/^#@$1:[[:space:]]*//p" "$scenario" | head -n1; }
vivid_params=${FGRAB_VM_VIVID:-$(header_param vivid)}
vivid_params=${vivid_params:-n_devs=1 node_types=0x101}
loop_params=${FGRAB_VM_LOOPBACK:-$(header_param v4l2loopback)}
loop_params=${loop_params:-devices=1 video_nr=10 card_label=loop}

load_module() { # name params
	local name=$1 params=$2
	[ "$params" = none ] && { echo "fgrab-vm: not loading $name"; return 0; }
	echo "fgrab-vm: modprobe $name $params"
	# shellcheck disable=SC2086 # params are word-split on purpose
	modprobe "$name" $params || setup_failed "modprobe $name $params failed"
}
echo "fgrab-vm: stage 2 at $(cut -d' ' -f1 /proc/uptime) s"
load_module vivid "$vivid_params"
load_module v4l2loopback "$loop_params"
# devtmpfs creates the nodes; give it a moment to settle.
for _ in 1 2 3 4 5 6 7 8 9 10; do
	[ "$vivid_params" = none ] || [ -e /dev/video0 ] && break
	sleep 0.2
done
echo "fgrab-vm: nodes: $(cd /dev && echo video* 2>/dev/null)"

# Only the environment is dumped, never to the console: the share has it.
env | sort >"$FGRAB_OUT/.vm/guest-env.txt"

cd "${FGRAB_SOURCE_DIR:-/}" || setup_failed "cannot cd to ${FGRAB_SOURCE_DIR:-/}"
echo "fgrab-vm: running $scenario ${FGRAB_ARGS_TEXT:-} (at $(cut -d' ' -f1 /proc/uptime) s)"
echo "------------------------------------------------------------------------"
# FGRAB_ARGS is a bash array assignment written by vm.sh.
eval "args=(${FGRAB_ARGS:-})"
# shellcheck disable=SC2154 # args is set by the eval above
bash "$scenario" "${args[@]}" </dev/null
rc=$?
echo "------------------------------------------------------------------------"
echo "fgrab-vm: scenario exit status $rc (at $(cut -d' ' -f1 /proc/uptime) s)"
exit "$rc"
