"""`kernelkit build SRC -t TARGET [-o OUT]` served from the whole-binary cache before argparse, pathlib,
threading or the builder's client are imported (#18 item 1: a cached CLI build costs little more than
the interpreter's own start).

``serve(words)`` takes the words after ``build``. It reads one source and one target in the spellings
``kernelkit build`` takes (kernelkit.commands.build): ``-t``/``--target``/``-mcpu``/``--offload-arch``,
``-o``/``--output``, ``-D``, ``-I``, ``-O0``..``-O3``, ``--cl-std``/``-cl-std``, ``--option``, ``-c``,
``--code-object-version``/``-mcode-object-version``, ``--driver-version``, ``--mcpu``, ``--simd``. The
build options and cache key are the ones the full command makes of the same words. On a hit it writes
the output as the full command does and returns 0.

Anything else returns None and the full command (argparse, kernelkit.commands.build) runs as ever, so
every message and exit status stays its own: another spelling, several sources or targets,
``--no-cache``, ``--emit``, ``-o -`` or a folder, an input that is not a regular file or cannot be read,
a miss, an output that cannot be written. Nothing is printed before the output is written.
"""

from __future__ import annotations

import os
import sys

from kernelkit.commands.common import (
    BINARY_SUFFIXES,
    CL_STDS,
    check_output,
    default_output,
    is_spirv,
    target_kind,
    write_output,
)
from kernelkit.errors import KernelkitError

__all__ = ["parse", "serve"]

# option words that take a value (the next word, or after '=' for long spellings), by destination
_VALUED = {"-t": "targets", "--target": "targets", "-mcpu": "targets", "--offload-arch": "targets",
           "-o": "output", "--output": "output", "-D": "defines", "-I": "include_dirs", "-O": "opt_level",
           "--cl-std": "cl_std", "-cl-std": "cl_std", "--option": "extra_options",
           "--code-object-version": "code_object_version", "-mcode-object-version": "code_object_version",
           "--driver-version": "driver_version", "--mcpu": "host_cpu", "--simd": "simd"}
_APPENDED = ("targets", "defines", "include_dirs", "extra_options")
_EQUALS = ("--", "-mcpu=", "-cl-std=", "-mcode-object-version=")   # long options: also NAME=VALUE
_ATTACHED = ("-D", "-I", "-O")        # short options whose value may follow without a space (-DN=1, -O2)
# the values argparse accepts for the options with choices (kernelkit.commands.build / common), as written
_CHOICES = {"opt_level": ("0", "1", "2", "3"), "cl_std": CL_STDS,
            "code_object_version": ("2", "3", "4", "5", "6"), "simd": ("8", "16", "32")}


def parse(words: list[str]) -> tuple[str, str, list[str], str | None] | None:
    """(source, target, build options, -o value or None) of a ``build`` command line this module
    serves, the options exactly as kernelkit.commands.build makes them; None for any other."""
    found: dict[str, list[str]] = {}
    sources: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if not word.startswith("-"):
            sources.append(word)
            continue
        if word == "-c":               # as clang: an object, which a binary build writes anyway
            continue
        name, value = word, None
        if word in _VALUED:
            if i == len(words) or words[i].startswith("-"):
                return None
            value = words[i]
            i += 1
        elif word.startswith(_EQUALS) and word.split("=", 1)[0] in _VALUED:
            name, value = word.split("=", 1)
        elif word[:2] in _ATTACHED and len(word) > 2 and word[2] != "=":
            name, value = word[:2], word[2:]
        if value is None or not value:
            return None
        dest = _VALUED[name]
        if value not in _CHOICES.get(dest, (value,)):
            return None
        found.setdefault(dest, []).append(value)
    targets = found.get("targets", [])
    if len(sources) != 1 or len(targets) != 1:
        return None
    last = {dest: values[-1] for dest, values in found.items() if dest not in _APPENDED}
    if "driver_version" in last and not (last["driver_version"].isascii() and last["driver_version"].isdigit()):
        return None
    target, kind = targets[0], target_kind(targets[0])
    if ("host_cpu" in last and kind != "host") or ("simd" in last and kind != "visa"):
        return None                    # the full command's error
    options = [f"-D{d}" for d in found.get("defines", [])]
    for folder in found.get("include_dirs", []):
        options += ["-I", folder]
    if "cl_std" in last:
        options.append(f"-cl-std={last['cl_std']}")
    if "opt_level" in last:
        options.append(f"-O{last['opt_level']}")
    options += found.get("extra_options", [])
    if "code_object_version" in last:
        options.append(f"-mcode-object-version={last['code_object_version']}")
    if "driver_version" in last:
        options.append(f"-mamdcl2-driver-version={int(last['driver_version'])}")
    if "host_cpu" in last:
        options.append(f"-mcpu={last['host_cpu']}")
    if "simd" in last:
        options.append(f"--simd={last['simd']}")
    return sources[0], target, options, last.get("output")


def serve(words: list[str]) -> int | None:
    """Serve ``kernelkit build <words>`` from the cache: 0 when done, None when the full command must run."""
    parsed = parse(words)
    if parsed is None:
        return None
    from kernelkit.cache import cache_disabled

    if cache_disabled():
        return None
    source, target, options, output = parsed
    if not os.path.isfile(source) or output == "-" or (output and os.path.isdir(output)):
        return None                    # (a pipe is read once: by the full command)
    from kernelkit.builder import key as binary_cache
    from kernelkit.formats.limits import read_input

    try:
        out = check_output(output, [source]) if output else \
            default_output(source, BINARY_SUFFIXES[target_kind(target)])
        data = read_input(source)
        variant, text = ("spirv:" + data.hex() + repr([]), "") if is_spirv(data) else ("", data.decode("utf-8"))
        hit = binary_cache.lookup(binary_cache.binary_key(text, target, options, source, variant=variant))
        if hit is None:
            return None
        write_output(out, hit.binary)
    except (KernelkitError, OSError, ValueError):
        return None
    if hit.log:
        sys.stderr.write(hit.log if hit.log.endswith("\n") else hit.log + "\n")
    if not output:
        sys.stderr.write(f"kernelkit build: wrote {out} ({len(hit.binary)} bytes)\n")
    return 0
