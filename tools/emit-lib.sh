# SPDX-License-Identifier: MIT
# Sourced by tools/emit-check.sh and tools/emit-dropin-check.sh: their
# common options and the installed library's build flags.
#   emit_options "$@"   -c CLI -r ROOT [-f CFLAGS]: sets cli, root (made
#                       absolute) and extra; shifts with $emit_shift
#   emit_flags PC       the --cflags --libs of package PC as installed
#                       under ROOT (a DESTDIR of make install), its paths
#                       taken relative to ROOT (PKG_CONFIG_SYSROOT_DIR)

emit_usage() {
	echo "usage: $(basename "$0") -c CLI -r ROOT [-f CFLAGS] PLAN..." >&2
	exit 2
}

emit_options() {
	cli=
	root=
	extra=
	OPTIND=1
	while getopts c:r:f: o; do
		case $o in
		c) cli=$OPTARG ;;
		r) root=$OPTARG ;;
		f) extra=$OPTARG ;;
		*) emit_usage ;;
		esac
	done
	emit_shift=$((OPTIND - 1))
	shift $emit_shift
	[ -n "$cli" ] && [ -n "$root" ] && [ $# -gt 0 ] || emit_usage
	root=$(cd "$root" && pwd) || exit 2
}

emit_flags() {
	pc=$(find "$root" -name "$1.pc" | head -n 1)
	[ -n "$pc" ] || { echo "$(basename "$0"): no $1.pc under $root" >&2; exit 2; }
	PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_PATH=$(dirname "$pc") \
		pkg-config --cflags --libs "$1" || exit 2
}
