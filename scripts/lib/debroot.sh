# shellcheck shell=bash
# Making throwaway Debian roots with debootstrap, shared by the package test
# (tests/pkg/debroot.sh, a minbase root of the host's release) and the other
# distribution tier (tests/dist/root.sh, a Debian 13 root with the build,
# test and kernel packages).  Sourced, not run.
#
#   debian_mirror
#       Prints the first http(s) URI of an apt source of the host's own
#       release (deb822 .sources or one-line .list files under /etc/apt),
#       read at run time so that no host name is written into the project.
#   debootstrap_root SUITE DIR LOG [DEBOOTSTRAP_OPTION...]
#       debootstrap --variant=minbase SUITE into DIR from debian_mirror's
#       mirror, its output in LOG (printed when it fails).

debian_mirror() {
	local codename f
	# shellcheck source=/dev/null
	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	if [ -z "$codename" ]; then
		echo "debroot: /etc/os-release has no VERSION_CODENAME" >&2
		return 1
	fi
	local mirror
	mirror=$(
		{
			for f in /etc/apt/sources.list.d/*.sources; do
				[ -f "$f" ] || continue
				awk -v cn="$codename" '
					/^[ \t]*$/ { if (s && u) print u; s = 0; u = ""; next }
					$1 == "URIs:" { u = $2 }
					$1 == "Suites:" { for (i = 2; i <= NF; i++) if ($i == cn) s = 1 }
					END { if (s && u) print u }' "$f"
			done
			cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
				awk -v cn="$codename" '$1 == "deb" { i = 2; if ($2 ~ /^\[/) while ($i !~ /\]$/) i++; if ($2 ~ /^\[/) i++; if ($(i + 1) == cn) print $i }'
		} | awk '/^https?:\/\// && !n++'
	) || true
	if [ -z "$mirror" ]; then
		echo "debroot: no apt source for $codename found in /etc/apt" >&2
		return 1
	fi
	echo "$mirror"
}

debootstrap_root() {
	local suite=$1 dir=$2 log=$3 mirror script=()
	shift 3
	mirror=$(debian_mirror) || return 1
	# a release newer than the host's debootstrap (Debian 12's knows no
	# forky) is made as sid is: the script of every release after it
	[ -e "/usr/share/debootstrap/scripts/$suite" ] ||
		script=(/usr/share/debootstrap/scripts/sid)
	echo "debroot: debootstrap --variant=minbase $suite from $mirror ${script[*]}" >&2
	if ! debootstrap --variant=minbase "$@" "$suite" "$dir" "$mirror" "${script[@]}" >"$log" 2>&1; then
		cat "$log" >&2
		echo "debroot: debootstrap of $suite into $dir failed" >&2
		return 1
	fi
}

# chroot_mount ROOT: /proc, /sys and /dev (with /dev/pts and /dev/shm) of the
# host inside ROOT, for apt, the build and qemu run there.  chroot_umount
# ROOT undoes it (innermost first); both are safe to repeat.
chroot_mount() {
	local root=$1 m
	for m in proc sys dev; do
		mountpoint -q "$root/$m" || mount --rbind "/$m" "$root/$m"
		mount --make-rslave "$root/$m"
	done
}

chroot_umount() {
	local root=$1 m
	for m in dev sys proc; do
		if mountpoint -q "$root/$m"; then umount -R "$root/$m" || umount -R -l "$root/$m"; fi
	done
}

# in_root ROOT COMMAND...: COMMAND inside ROOT as root, with a clean
# environment (the host's PATH and HOME mean nothing there).
in_root() {
	local root=$1
	shift
	chroot "$root" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		LANG=C.UTF-8 HOME=/root DEBIAN_FRONTEND=noninteractive "$@"
}
