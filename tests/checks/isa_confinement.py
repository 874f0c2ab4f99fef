#!/usr/bin/env python3
"""Checks that a portable perftkit binary keeps its newer instructions inside the CPU kernels
chosen at start-up: disassembles it (objdump) and lists every function that holds an AVX,
AVX2, AVX-512 (any v-prefixed or mask-register instruction, any ymm/zmm operand) or BMI1/BMI2
instruction outside the isa_avx2_bmi2 and isa_avx512 namespaces (include/perftkit/config.hpp)
and isa_avx512_vbmi2 (the FEN board writer, host/notation/fen_board_whole.cpp).
tzcnt is allowed: g++ writes bsf with a rep prefix, which older CPUs run as bsf.

Usage: tests/checks/isa_confinement.py [build/release/perftkit]   (ctest: isa_confinement)
Exit 0 when every such instruction is inside the dispatched namespaces, 1 otherwise.
"""
import collections
import os
import re
import subprocess
import sys

NEWER_SCALAR = {"pext", "pdep", "mulx", "shlx", "shrx", "sarx", "rorx", "andn", "blsr", "blsi", "blsmsk", "bzhi",
                "lzcnt", "movbe"}
DISPATCHED = ("isa_avx2_bmi2::", "isa_avx512::", "isa_avx512_vbmi2::")


def newer_instruction(mnemonic, operands):
    if mnemonic in NEWER_SCALAR or "%ymm" in operands or "%zmm" in operands:
        return True
    return (mnemonic.startswith("v") and mnemonic not in ("verr", "verw")) or re.match(r"^k(mov|and|or|xor|not|add|shift|test|unpck)", mnemonic)


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "build", "release", "perftkit")
    listing = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-C", binary], capture_output=True, text=True,
                             check=True).stdout
    found = collections.defaultdict(set)
    function = None
    for line in listing.splitlines():
        header = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if header:
            function = header.group(1)
            continue
        fields = line.split("\t")
        if function is None or len(fields) < 2:
            continue
        mnemonic, _, operands = fields[1].strip().partition(" ")
        if newer_instruction(mnemonic, operands):
            found[function].add(mnemonic)
    outside = {f: m for f, m in found.items() if not any(ns in f for ns in DISPATCHED)}
    print(f"{len(found)} functions hold AVX/BMI instructions; {len(outside)} of them outside the dispatched namespaces")
    for function, mnemonics in sorted(outside.items()):
        print(f"  {function[:160]}: {', '.join(sorted(mnemonics)[:8])}")
    sys.exit(1 if outside else 0)


if __name__ == "__main__":
    main()
