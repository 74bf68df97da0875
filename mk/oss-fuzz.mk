# SPDX-License-Identifier: MIT
# make oss-fuzz-check: fuzz/oss-fuzz/build.sh (the OSS-Fuzz / ClusterFuzzLite
# build, .clusterfuzzlite/) run as the libFuzzer builder image runs it, in
# a temporary $OUT/$SRC/$WORK, then every target on its seed corpus and a
# short fuzz. SANITIZER=address (default) or undefined; RUNS=, XFER_RUNS=.
# See tools/oss-fuzz-emulate.sh.
.PHONY: oss-fuzz-check
oss-fuzz-check: deps-libfuzzer
	sh tools/oss-fuzz-emulate.sh
