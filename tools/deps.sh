#!/bin/sh
# SPDX-License-Identifier: MIT
# Install the Debian packages a make target needs, when they are missing.
# Usage: deps.sh NAME...   (cc, cxx, check, valgrind, clang, afl, pgo, libfuzzer,
#                           python, capstone, jansson)
#        deps.sh --packages NAME...   the Debian packages of each NAME, one
#                           a line, without installing (tools/deps-check.sh)
set -u
# The Debian packages behind each name: the one list the install and the
# fresh-machine check read.
packages_of() {
	case "$1" in
	cc)        echo "libc6-dev" ;;
	cxx)       echo "g++" ;;
	check)     echo "check pkg-config" ;;
	capstone)  echo "libcapstone-dev pkg-config" ;;
	jansson)   echo "libjansson-dev pkg-config" ;;
	valgrind)  echo "valgrind" ;;
	clang)     echo "clang" ;;
	afl)       echo "afl++" ;;
	pgo)       echo "clang llvm libclang-rt-dev" ;;
	libfuzzer) echo "clang libclang-rt-dev" ;;
	python)    echo "python3 python3-yaml" ;;
	*) return 1 ;;
	esac
}
if [ "${1:-}" = --packages ]; then
	shift
	for want in "$@"; do
		packages_of "$want" | tr ' ' '\n' ||
			{ echo "deps.sh: unknown dependency '$want'" >&2; exit 2; }
	done
	exit 0
fi
# Under make -j several deps targets run at once; apt-get and dpkg take one
# lock and fail at once when it is held, so the checks and installs of this
# script run one at a time (flock is in util-linux, essential in Debian),
# and apt-get also waits for a dpkg lock held by another program.
if [ -z "${DFZ_DEPS_LOCKED:-}" ] && command -v flock >/dev/null 2>&1; then
	DFZ_DEPS_LOCKED=1
	export DFZ_DEPS_LOCKED
	exec flock "${TMPDIR:-/tmp}/dmafuzz-deps.lock" \
		sh "$0" "$@"
fi
missing=""
for want in "$@"; do
	case "$want" in
	cc)       # the C library's headers (gcc only recommends them)
	          printf '#include <stdio.h>\nint main(void) { return 0; }\n' |
	              ${CC:-cc} -x c -o /dev/null - >/dev/null 2>&1 ;;
	cxx)      # the C++ examples (mk/hostapi.mk): g++ and its library
	          printf '#include <vector>\nint main() { return 0; }\n' |
	              g++ -x c++ -std=c++17 -o /dev/null - >/dev/null 2>&1 ;;
	check)    pkg-config --exists check 2>/dev/null ;;
	capstone) pkg-config --exists capstone 2>/dev/null ;;
	jansson)  pkg-config --exists jansson 2>/dev/null ;;
	valgrind) command -v valgrind >/dev/null 2>&1 ;;
	clang)    command -v clang >/dev/null 2>&1 ;;
	afl)      { command -v afl-fuzz && command -v afl-clang-fast; } >/dev/null 2>&1 ;;
	pgo)      # clang's profile runtime (only recommended by clang) and
	          # llvm-profdata (mk/pgo.mk)
	          command -v llvm-profdata >/dev/null 2>&1 &&
	          printf 'int main(void) { return 0; }\n' |
	          clang -x c -fprofile-instr-generate -o /dev/null - \
	              >/dev/null 2>&1 ;;
	libfuzzer) # clang, and its runtimes (only recommended by clang)
	          printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n)%s\n' \
	              '{ (void)d; (void)n; return 0; }' |
	          clang -x c -fsanitize=fuzzer,address,undefined -o /dev/null - \
	              >/dev/null 2>&1 ;;
	python)   # the CI templates' checks: zipfile and yaml
	          python3 -c 'import yaml, zipfile' >/dev/null 2>&1 ;;
	*) echo "deps.sh: unknown dependency '$want'" >&2; exit 2 ;;
	esac || missing="$missing $(packages_of "$want")"
done
[ -z "$missing" ] && exit 0
echo "deps.sh: installing:$missing" >&2
if [ "$(id -u)" != 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null 2>&1 || true
# shellcheck disable=SC2086
$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq $missing >/dev/null || {
	echo "deps.sh: could not install:$missing (apt-get failed)" >&2
	exit 1
}
