#!/usr/bin/env python3
"""Checks that no CUDA kernel is compiled into two objects of the CUDA backend's library.

Each CUDA object has its own copy of the device attack tables (cuda/device_tables.cuh) and
fills it before its first launch. A kernel that two objects both define is run, whichever
object launches it, from one of them: with tables the other object's upload never filled
(cuda/pipeline_cuda.cu says where that was seen). The kernels are found by their host
stubs, which nvcc names `__device_stub__` + the kernel's mangled name, in `nm`'s listing.

Usage: tests/checks/cuda_kernels_in_one_object.py build/test/cuda/libperftkit_cuda.a
                                            (ctest: cuda_kernels_in_one_object)
Exit 0 when every kernel is in one object, 1 when one is in several or none is found.
"""
import collections
import re
import subprocess
import sys

# A stub is a local function, _ZL<length>__device_stub__<kernel>(...), the length counting
# the name that follows it; it is mostly inlined, but its local variables stay
# (_ZZL<length>__device_stub__<kernel>(...)E8__handle).
STUB = re.compile(r"^_ZZ?L(\d+)(__device_stub__\w+)")


def kernels_by_object(listing):
    objects = collections.defaultdict(set)
    for line in listing.splitlines():
        # nm -A: "archive:object:address type symbol"
        fields = line.split()
        if len(fields) != 3:
            continue
        match = STUB.match(fields[2])
        if not match:
            continue
        name = match.group(2)[: int(match.group(1))]
        obj = fields[0].split(":")[-2]
        objects[name[len("__device_stub__"):]].add(obj)
    return objects


def main():
    if len(sys.argv) != 2:
        print(next(line for line in __doc__.splitlines() if line.startswith("Usage:")), file=sys.stderr)
        return 2
    listing = subprocess.run(["nm", "-A", sys.argv[1]], capture_output=True, text=True, check=True).stdout
    objects = kernels_by_object(listing)
    if not objects:
        print(f"no kernel stubs found in {sys.argv[1]} (has nvcc changed how it names them?)")
        return 1
    shared = {kernel: sorted(objs) for kernel, objs in objects.items() if len(objs) > 1}
    for kernel, objs in sorted(shared.items()):
        demangled = subprocess.run(["c++filt", "_" + kernel], capture_output=True, text=True).stdout.strip()
        print(f"in {len(objs)} objects ({', '.join(objs)}): {demangled[:160]}")
    print(f"{len(objects)} kernels, {len(shared)} of them in more than one object")
    return 1 if shared else 0


if __name__ == "__main__":
    sys.exit(main())
