#!/usr/bin/env python3
"""Runs the Khronos Vulkan CTS (deqp-vk) against a driver and judges the
results by the expectation lists kept beside this script.

    tests/cts/run_cts.py --deqp /path/to/deqp-vk --icd build/tessera_icd.json \
        --out /tmp/cts 'dEQP-VK.api.*' 'dEQP-VK.memory.*'

Cases run in parallel deqp-vk processes (--jobs), a chunk of cases each. A
process that crashes or whose current case runs past --timeout seconds is
killed; the case is recorded as Crash or Timeout and the rest of the chunk
resumes in a new process. Results go to <out>/results.csv (case,status),
group totals to <out>/summary.txt. Cases listed in skips.txt are not run.

The verdict compares each result with fails.txt (expected to fail, crash or
time out), flakes.txt (any result accepted): an unexpected failure, crash or
timeout, or an unexpected pass of a listed failure, makes the exit code 1.
See docs/conformance.md.
"""

import argparse
import collections
import concurrent.futures
import fnmatch
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BAD = {"Fail", "Crash", "Timeout", "InternalError", "ResourceError"}


def read_list(path):
    """Entries of an expectation file: 'case-or-glob,Status  # reason' (the
    status is optional in skips.txt and flakes.txt)."""
    entries = []
    if not os.path.exists(path):
        return entries
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            name, _, status = line.partition(",")
            entries.append((name.strip(), status.strip()))
    return entries


def matcher(entries):
    exact = {n: s for n, s in entries if not any(c in n for c in "*?[")}
    globs = [(n, s) for n, s in entries if n not in exact]

    def find(case):
        if case in exact:
            return exact[case]
        for pattern, status in globs:
            if fnmatch.fnmatchcase(case, pattern):
                return status
        return None

    return find


def case_list(deqp, patterns, env):
    """The cases deqp-vk has under each pattern, in its order."""
    cases = []
    for pattern in patterns:
        out = subprocess.run([deqp, "--deqp-runmode=stdout-caselist", "--deqp-case=" + pattern],
                             cwd=os.path.dirname(deqp), env=env, check=True, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True).stdout
        cases += [line[6:].strip() for line in out.splitlines() if line.startswith("TEST: ")]
    return list(dict.fromkeys(cases))


RESULT = re.compile(r'<Result StatusCode="([A-Za-z]+)"')


def run_chunk(deqp, cases, timeout, env, tmpdir, index, extra_args=()):
    """Runs cases in as many deqp-vk processes as crashes and timeouts need;
    returns {case: status}."""
    results = {}
    remaining = list(cases)
    attempt = 0
    while remaining:
        attempt += 1
        base = os.path.join(tmpdir, "chunk%d-%d" % (index, attempt))
        with open(base + ".txt", "w") as f:
            f.write("\n".join(remaining) + "\n")
        qpa = base + ".qpa"
        cmd = [deqp, "--deqp-caselist-file=" + base + ".txt", "--deqp-log-filename=" + qpa,
               "--deqp-log-images=disable", "--deqp-log-shader-sources=disable",
               "--deqp-shadercache=disable", "--deqp-surface-type=pbuffer", *extra_args]
        proc = subprocess.Popen(cmd, cwd=os.path.dirname(deqp), env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        current, started, offset, timed_out = None, time.monotonic(), 0, False
        pending_status = None
        while True:
            done = proc.poll() is not None
            if os.path.exists(qpa):
                with open(qpa, errors="replace") as f:
                    f.seek(offset)
                    chunk = f.read()
                # Only whole lines: the writer may be mid-line.
                cut = chunk.rfind("\n") + 1
                offset += len(chunk[:cut].encode(errors="replace"))
                for line in chunk[:cut].splitlines():
                    if line.startswith("#beginTestCaseResult "):
                        current, started, pending_status = line.split(" ", 1)[1].strip(), time.monotonic(), None
                    elif current and (m := RESULT.search(line)):
                        pending_status = m.group(1)
                    elif line.startswith("#endTestCaseResult") and current:
                        results[current] = pending_status or "InternalError"
                        current = None
                    elif line.startswith("#terminateTestCaseResult") and current:
                        results[current] = line.split(" ", 1)[1].strip() if " " in line else "Crash"
                        current = None
            if done:
                break
            if current and time.monotonic() - started > timeout:
                proc.kill()
                proc.wait()
                results[current] = "Timeout"
                timed_out = True
                current = None
                break
            time.sleep(0.2)
        if current:  # the process died inside this case
            results[current] = "Crash"
        remaining = [c for c in remaining if c not in results]
        if remaining and not timed_out and proc.returncode == 0:
            # deqp-vk ended without running them (should not happen): say so.
            for c in remaining:
                results[c] = "InternalError"
            remaining = []
        for path in (base + ".txt", qpa):
            if os.path.exists(path):
                os.remove(path)
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deqp", required=True, help="path to the deqp-vk binary (in its build folder)")
    ap.add_argument("--icd", required=True, help="the driver's ICD manifest (VK_DRIVER_FILES)")
    ap.add_argument("--out", required=True, help="folder for results.csv and summary.txt")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds one case may run")
    ap.add_argument("--chunk", type=int, default=500, help="cases per deqp-vk process")
    ap.add_argument("--expectations", default=HERE, help="folder of fails.txt, skips.txt, flakes.txt")
    ap.add_argument("--no-skips", action="store_true", help="run the cases skips.txt lists too")
    ap.add_argument("--case-file", help="a file of case names, one per line, run as well as the patterns")
    ap.add_argument("--direct", action="store_true",
                    help="load the manifest's driver library directly, without the loader "
                         "(--deqp-vk-library-path): the CTS then runs at the driver's Vulkan version, "
                         "not at the system loader's (Debian 12's reports 1.3)")
    ap.add_argument("patterns", nargs="*", help="case patterns, e.g. 'dEQP-VK.api.*'")
    args = ap.parse_args()

    deqp = os.path.abspath(args.deqp)
    os.makedirs(args.out, exist_ok=True)
    env = dict(os.environ, VK_DRIVER_FILES=os.path.abspath(args.icd))
    env.pop("VK_ICD_FILENAMES", None)
    workdir = os.path.join(args.out, "work")
    os.makedirs(workdir, exist_ok=True)

    cases = case_list(deqp, args.patterns, env)
    if args.case_file:
        with open(args.case_file) as f:
            cases = list(dict.fromkeys(cases + [line.strip() for line in f if line.strip()]))
    if not cases:
        ap.error("no cases: give patterns or --case-file")
    skip = matcher(read_list(os.path.join(args.expectations, "skips.txt")))
    skipped = [] if args.no_skips else [c for c in cases if skip(c) is not None]
    skipped_set = set(skipped)
    to_run = [c for c in cases if c not in skipped_set]
    print("%d cases match, %d skipped by skips.txt, %d to run in %d processes" %
          (len(cases), len(skipped), len(to_run), args.jobs), flush=True)

    results = {}
    start = time.monotonic()
    # Each chunk's results as it ends, so that a run stopped early still
    # says what it found (the bad ones among them: grep -v ',Pass$').
    partial = open(os.path.join(args.out, "results.partial.csv"), "w")
    with tempfile.TemporaryDirectory(dir=workdir) as tmpdir, \
            concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        chunks = [to_run[i:i + args.chunk] for i in range(0, len(to_run), args.chunk)]
        extra_args = []
        if args.direct:
            with open(args.icd) as f:
                library = json.load(f)["ICD"]["library_path"]
            extra_args.append("--deqp-vk-library-path=" + os.path.join(os.path.dirname(os.path.abspath(args.icd)),
                                                                        library))
        futures = [pool.submit(run_chunk, deqp, chunk, args.timeout, env, tmpdir, i, extra_args)
                   for i, chunk in enumerate(chunks)]
        for n, future in enumerate(concurrent.futures.as_completed(futures), 1):
            chunk_results = future.result()
            results.update(chunk_results)
            partial.writelines("%s,%s\n" % item for item in sorted(chunk_results.items()))
            partial.flush()
            print("  %d/%d chunks, %d cases, %.0f s" % (n, len(chunks), len(results), time.monotonic() - start),
                  flush=True)
    partial.close()
    for c in skipped:
        results[c] = "Skip"

    with open(os.path.join(args.out, "results.csv"), "w") as f:
        for c in cases:
            f.write("%s,%s\n" % (c, results.get(c, "Missing")))

    # Totals per group (the second part of the name: dEQP-VK.<group>.*).
    totals = collections.defaultdict(collections.Counter)
    for c in cases:
        group = ".".join(c.split(".")[:2])
        totals[group][results.get(c, "Missing")] += 1
    columns = ["Pass", "Fail", "Crash", "Timeout", "NotSupported", "Skip", "QualityWarning",
               "CompatibilityWarning", "InternalError", "ResourceError", "Missing"]
    lines = ["group," + ",".join(columns)]
    for group in sorted(totals):
        lines.append(group + "," + ",".join(str(totals[group][k]) for k in columns))
    summary = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "summary.txt"), "w") as f:
        f.write(summary)
    print(summary)

    fails = matcher(read_list(os.path.join(args.expectations, "fails.txt")))
    flakes = matcher(read_list(os.path.join(args.expectations, "flakes.txt")))
    unexpected, fixed = [], []
    for c in cases:
        status = results.get(c, "Missing")
        if flakes(c) is not None or status == "Skip":
            continue
        expected = fails(c)
        if status in BAD and expected != status:
            unexpected.append("%s,%s%s" % (c, status, "" if expected is None else " (listed: %s)" % expected))
        elif status not in BAD and expected is not None:
            fixed.append("%s,%s (listed: %s)" % (c, status, expected))
    for title, items in (("unexpected results", unexpected), ("listed failures that now pass", fixed)):
        if items:
            print("%s (%d):" % (title, len(items)))
            for item in items[:200]:
                print("  " + item)
            if len(items) > 200:
                print("  ... and %d more (results.csv)" % (len(items) - 200))
    print("%d passed, %d failed" % (sum(1 for s in results.values() if s not in BAD | {"Skip", "NotSupported"}),
                                    sum(1 for s in results.values() if s in BAD)))
    return 1 if unexpected or fixed else 0


if __name__ == "__main__":
    sys.exit(main())
