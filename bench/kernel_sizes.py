#!/usr/bin/env python3
"""Code size, registers, stack and spills of every kernel of the CUDA units, without a GPU.

Compiles each unit to a cubin for one architecture (release flags, as cuda/CMakeLists.txt),
times nvcc, and reads:
  - ptxas -v: registers, stack frame and spill bytes per function;
  - the cubin's ELF section table: the size of each function's .text section (the code an
    SM's instruction cache has to hold).
Kernels are reported by the functor they run (for_each_index_kernel<F> -> F); Thrust's
kernels are summed into one line per unit.

usage: bench/kernel_sizes.py [--arch sm_90] [--out FILE] [UNIT.cu ...]
       (default unit: cuda/pipeline_cuda.cu)
"""
import argparse
import pathlib
import re
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_UNITS = ["cuda/pipeline_cuda.cu"]


def nvcc_command(unit, arch, cubin):
    return ["nvcc", "-std=c++20", "-O3", "-DNDEBUG", f"-arch={arch}", "--expt-relaxed-constexpr", "-lineinfo",
            f"-I{ROOT}/include", f"-I{ROOT}/host", f"-I{ROOT}/cuda", "-Xptxas", "-v", "-cubin", "-o", str(cubin),
            str(ROOT / unit)]


def demangle(names):
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True, check=True).stdout
    return out.splitlines()


def short_name(demangled):
    """for_each_index_kernel<perftkit::pipeline::LeafCount>(...) -> LeafCount; Thrust -> 'thrust'."""
    m = re.search(r"for_each_index_kernel<([^>]*?)>", demangled)
    if m:
        return m.group(1).split("::")[-1]
    if "thrust" in demangled or "cub::" in demangled or "CUB_" in demangled:
        return "thrust/cub"
    return re.sub(r"\(.*", "", demangled).split("::")[-1]


def parse_ptxas(text):
    """function -> dict(registers, stack, spill_stores, spill_loads)."""
    props, current = {}, None
    for line in text.splitlines():
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            current = m.group(1)
            props.setdefault(current, {})
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m and current:
            props[current].update(stack=int(m.group(1)), spill_stores=int(m.group(2)), spill_loads=int(m.group(3)))
            continue
        m = re.search(r"Compiling entry function '(\S+)'", line)
        if m:
            current = m.group(1)
            props.setdefault(current, {})
            continue
        m = re.search(r"Used (\d+) registers", line)
        if m and current:
            props[current]["registers"] = int(m.group(1))
    return props


def text_sizes(cubin):
    """function -> bytes of its .text section."""
    out = subprocess.run(["readelf", "-S", "-W", str(cubin)], capture_output=True, text=True, check=True).stdout
    sizes = {}
    for line in out.splitlines():
        m = re.search(r"\]\s+\.text\.(\S+)\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)", line)
        if m:
            sizes[m.group(1)] = int(m.group(2), 16)
    return sizes


def measure(unit, arch, work):
    cubin = pathlib.Path(work) / (pathlib.Path(unit).stem + ".cubin")
    start = time.monotonic()
    done = subprocess.run(nvcc_command(unit, arch, cubin), capture_output=True, text=True)
    seconds = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"nvcc failed on {unit}:\n{done.stderr[-4000:]}")
    props, sizes = parse_ptxas(done.stderr), text_sizes(cubin)
    names = sorted(set(props) | set(sizes))
    rows = {}
    for mangled, pretty in zip(names, demangle(names)):
        key = short_name(pretty)
        p = props.get(mangled, {})
        row = rows.setdefault(key, dict(code=0, registers=0, stack=0, spill_stores=0, spill_loads=0, functions=0))
        row["functions"] += 1
        row["code"] += sizes.get(mangled, 0)
        row["registers"] = max(row["registers"], p.get("registers", 0))
        for k in ("stack", "spill_stores", "spill_loads"):
            row[k] = max(row[k], p.get(k, 0))
    return seconds, rows


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("units", nargs="*", default=DEFAULT_UNITS)
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("--out", help="also write the table to this file")
    args = parser.parse_args()
    version = subprocess.run(["nvcc", "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
    lines = [f"# kernel sizes, {args.arch}, {version}", "# bench/kernel_sizes.py " + " ".join(args.units),
             "# code: bytes of .text (functions a kernel calls are listed on their own); stack, spills: bytes",
             f"{'unit':28} {'kernel':28} {'code':>9} {'regs':>5} {'stack':>6} {'spill st':>9} {'spill ld':>9} {'fns':>4}"]
    with tempfile.TemporaryDirectory() as work:
        for unit in args.units:
            seconds, rows = measure(unit, args.arch, work)
            lines.append(f"# {unit}: nvcc {seconds:.0f} s")
            for name, r in sorted(rows.items(), key=lambda kv: -kv[1]["code"]):
                lines.append(f"{pathlib.Path(unit).name:28} {name:28} {r['code']:9d} {r['registers']:5d} {r['stack']:6d} "
                             f"{r['spill_stores']:9d} {r['spill_loads']:9d} {r['functions']:4d}")
            print("\n".join(lines[-len(rows) - 1:]), flush=True)
    if args.out:
        pathlib.Path(args.out).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
