"""The machine a benchmark ran on, for its report: the CPU's model name,
its widest vector ISA and the cores this process may use. Shared by the
bench/ scripts that print one line about the machine."""

import os
import platform


def cpu_description():
    model, flags = None, set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "model name" and model is None:
                    model = value.strip()
                elif key == "flags" and not flags:
                    flags = set(value.split())
    except OSError:
        pass
    if "avx512f" in flags:
        isa = "AVX-512" + (" with VNNI" if "avx512_vnni" in flags else "")
    else:
        isa = "AVX2/FMA3" if "avx2" in flags else "no AVX2"
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"{model or platform.processor() or 'unknown CPU'} ({isa}, {cores} usable cores)"
