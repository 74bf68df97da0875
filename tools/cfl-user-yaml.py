#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The YAML checks of tools/cfl-user-emulate.sh on the CI templates.

project.yaml: a mapping whose language is c or c++ (ClusterFuzzLite's
build integration). Each workflow: name, triggers (a schedule's cron has
five fields), jobs each with runs-on and steps, each step one of uses or
run; the inputs given to the actions the templates use are ones their
action.yml declares (ClusterFuzzLite v1, codeql-action upload-sarif,
upload-artifact v4, cache v4), run_fuzzers gets github-token and a known
mode; every run: script passes `bash -n` (with each ${{ ... }} taken as
a word); the nightly calls `dmafuzz campaign` with -o and -S.

With python3 but no yaml module, a structural check instead (said in
one line): no tabs, the top-level keys present. Exit 0 or 1, one line
per file or per problem.
"""
import re
import subprocess
import sys

INPUTS = {
    "google/clusterfuzzlite/actions/build_fuzzers@v1": {
        "language", "dry-run", "allowed-broken-targets-percentage",
        "sanitizer", "project-src-path", "bad-build-check",
        "keep-unaffected-fuzz-targets", "storage-repo", "storage-repo-branch",
        "storage-repo-branch-coverage", "upload-build", "github-token"},
    "google/clusterfuzzlite/actions/run_fuzzers@v1": {
        "language", "fuzz-seconds", "dry-run", "sanitizer", "mode",
        "github-token", "storage-repo", "storage-repo-branch",
        "storage-repo-branch-coverage", "report-unreproducible-crashes",
        "minimize-crashes", "parallel-fuzzing", "output-sarif",
        "report-timeouts", "report-ooms"},
    "github/codeql-action/upload-sarif@v3": {
        "sarif_file", "checkout_path", "ref", "sha", "token", "matrix",
        "category", "wait-for-processing"},
    "actions/upload-artifact@v4": {
        "name", "path", "if-no-files-found", "retention-days",
        "compression-level", "overwrite", "include-hidden-files"},
    "actions/cache/restore@v4": {
        "path", "key", "restore-keys", "enableCrossOsArchive",
        "fail-on-cache-miss", "lookup-only"},
    "actions/cache/save@v4": {
        "path", "key", "upload-chunk-size", "enableCrossOsArchive"},
    "actions/checkout@v4": {
        "repository", "ref", "token", "path", "fetch-depth", "submodules"},
}
MODES = {"code-change", "batch", "coverage", "prune"}
problems = []


def bad(path, what):
    problems.append(f"{path}: {what}")


def check_step(path, job, i, step):
    where = f"job {job} step {i + 1}"
    if not isinstance(step, dict) or ("uses" in step) == ("run" in step):
        bad(path, f"{where}: not one of uses or run")
        return
    if "run" in step:
        script = re.sub(r"\$\{\{[^}]*\}\}", "X", str(step["run"]))
        r = subprocess.run(["bash", "-n"], input=script, text=True,
                           capture_output=True)
        if r.returncode:
            bad(path, f"{where}: bash -n: {r.stderr.strip()}")
        return
    uses, given = step["uses"], set((step.get("with") or {}).keys())
    if uses not in INPUTS:
        bad(path, f"{where}: an action the check does not know: {uses}")
        return
    extra = given - INPUTS[uses]
    if extra:
        bad(path, f"{where}: {uses} has no input {sorted(extra)}")
    if uses.endswith("run_fuzzers@v1"):
        w = step.get("with") or {}
        if "github-token" not in w or w.get("mode") not in MODES:
            bad(path, f"{where}: run_fuzzers needs github-token and a mode")


def check_workflow(path, doc):
    on = doc.get("on", doc.get(True))  # YAML 1.1 reads a bare on as true
    if not doc.get("name") or not on or not isinstance(doc.get("jobs"), dict):
        bad(path, "not a workflow (name, on, jobs)")
        return
    for s in (on.get("schedule") or []) if isinstance(on, dict) else []:
        if len(str(s.get("cron", "")).split()) != 5:
            bad(path, f"a schedule's cron is not five fields: {s}")
    for job, body in doc["jobs"].items():
        if "runs-on" not in body or not isinstance(body.get("steps"), list):
            bad(path, f"job {job}: no runs-on or steps")
            continue
        for i, step in enumerate(body["steps"]):
            check_step(path, job, i, step)
    runs = " ".join(str(s.get("run", "")) for b in doc["jobs"].values()
                    for s in b.get("steps", []))
    if "dmafuzz-nightly" in path and not re.search(
            r"dmafuzz campaign -o \S+ -S \S+", runs):
        bad(path, "the nightly does not run `dmafuzz campaign -o OUT -S SECONDS`")


def structural(path, text):
    if "\t" in text:
        bad(path, "a tab")
    keys = set(re.findall(r"^([A-Za-z_-]+):", text, re.M))
    want = {"language"} if path.endswith("project.yaml") else {"name", "on", "jobs"}
    if not want <= keys:
        bad(path, f"top-level keys {sorted(want - keys)} missing")


def main(paths):
    try:
        import yaml
    except ImportError:
        yaml = None
        print("no python3 yaml: a structural check only (tabs, top-level keys)")
    for path in paths:
        text = open(path, encoding="utf-8").read()
        if yaml is None:
            structural(path, text)
            continue
        try:
            doc = yaml.safe_load(text)
        except yaml.YAMLError as e:
            bad(path, f"does not parse: {e}".replace("\n", " "))
            continue
        if not isinstance(doc, dict):
            bad(path, "not a mapping")
        elif path.endswith("project.yaml"):
            if doc.get("language") not in ("c", "c++"):
                bad(path, f"language is {doc.get('language')!r}, not c or c++")
        else:
            check_workflow(path, doc)
    for p in problems:
        print(p)
    if not problems:
        print(f"yaml: {len(paths)} files parse and hold "
              f"({'python3 yaml' if yaml else 'structural'})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
