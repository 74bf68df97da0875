#!/bin/bash -eu
# SPDX-License-Identifier: MIT
# ClusterFuzzLite's entry point ($SRC/build.sh in the image): the build
# itself lives in the source tree, shared with an OSS-Fuzz project.
exec bash -eu "$SRC/dmafuzz/fuzz/oss-fuzz/build.sh"
