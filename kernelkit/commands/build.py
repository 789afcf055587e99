"""`kernelkit build SRC... -t TARGET... [-o OUT|DIR] [-j N] [-D NAME[=V]] [-I DIR] [--cl-std V] [-O0..-O3]
[--emit llvm|spirv] [--code-object-version N] [--mcpu CPU]`, with clang's spellings (``-mcpu=``, ``--offload-arch=``,
``-mcode-object-version=``, ``-c``, ``-S``, ``-emit-llvm``, ``-cl-std=``).

``--emit llvm`` (or ``-S -emit-llvm``; ``-c -emit-llvm`` for bitcode) writes the frontend's SPIR IR
(for TARGET's pointer size and frontend options when ``-t`` is given, else spir64, or spir with
``-m32``); ``--emit spirv`` a SPIR-V module (LLVM's SPIR-V backend, spirv64 or ``-m32`` spirv32);
otherwise each source is built for each TARGET (``kernelkit.builder``: the whole-binary
cache, else a worker process that LLVM cannot take down with it). Without ``-o`` the output goes
beside the source with the format's usual suffix (.kkhost, .hsaco, .il, .clo, .isa) and the
command says where. Several sources or targets build in parallel (``-j N``) into the folder
``-o DIR``, one line per output; the exit status is non-zero if any failed, and each failure is
named. ``--option=-cl-...`` passes any other OpenCL build option; ``--no-cache`` neither reads nor
writes the cache. Compile errors print clang's diagnostics and exit 1.
"""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

from kernelkit.commands.common import (
    BINARY_SUFFIXES,
    CL_STDS,
    EMIT_SUFFIXES,
    add_frontend_arguments,
    check_output,
    default_output,
    frontend_options,
    read_source,
    read_spirv,
    target_kind,
    write_output,
)
from kernelkit.errors import CompileError, FormatError, KernelkitError

__all__ = ["CL_STDS", "add_frontend_arguments", "build_options", "frontend_options", "job_options", "read_source",
           "register", "run"]


def register(sub) -> None:
    p = sub.add_parser("build", help="compile OpenCL C for targets (or to LLVM IR with --emit llvm)")
    add_frontend_arguments(p, source=False)
    p.add_argument("sources", metavar="SRC", nargs="+", help="OpenCL C source files or SPIR-V modules")
    p.add_argument("-t", "--target", "-mcpu", "--offload-arch", dest="targets", action="append", default=[],
                   metavar="TARGET", help="target name: host, gfx90a:xnack-, amdil:juniper, amdcl2:bonaire, "
                                          "visa:tgllp, ... (see `kernelkit targets`); repeat for several")
    p.add_argument("-o", "--output", metavar="OUT", help="output file ('-' for standard output), or the folder "
                                                        "of the outputs when there are several")
    p.add_argument("--emit", choices=("llvm", "asm", "binary", "visaasm", "spirv"), default="binary",
                   help="llvm: the frontend's LLVM IR; asm: the target's assembly (amdhsa, amdcl2); "
                        "binary (default): the target's binary; visaasm: vISA text (visa targets); "
                        "spirv: a SPIR-V module (LLVM's SPIR-V backend)")
    p.add_argument("-S", dest="clang_S", action="store_true", help="as clang: with -emit-llvm, LLVM IR text")
    p.add_argument("-c", dest="clang_c", action="store_true", help="as clang: an object (the target's binary; "
                                                                  "with -emit-llvm, LLVM bitcode)")
    p.add_argument("-emit-llvm", dest="clang_emit_llvm", action="store_true", help="as clang: LLVM IR")
    p.add_argument("--code-object-version", "-mcode-object-version", dest="code_object_version", type=int,
                   choices=range(2, 7), metavar="2..6",
                   help="AMDGPU code object version (also -mcode-object-version=N)")
    p.add_argument("--driver-version", type=int, metavar="N",
                   help="AMD CL2 driver whose binary layout to write, e.g. 203603 (the build option "
                        "-mamdcl2-driver-version=N; default the newest kernelkit knows)")
    p.add_argument("-m", dest="bits", choices=("32", "64"), default="64",
                   help="with --emit llvm/spirv: spir (-m32) or spir64 (-m64, default) IR, spirv32/spirv64")
    p.add_argument("--mcpu", dest="host_cpu", metavar="CPU",
                   help="host target: the CPU to compile for, as clang names it: native (default), x86-64, "
                        "x86-64-v2, x86-64-v3, x86-64-v4 or an LLVM CPU name (skylake-avx512, znver3, ...)")
    p.add_argument("--simd", type=int, choices=(8, 16, 32), metavar="8|16|32",
                   help="visa targets: the SIMD width of every kernel (default: chosen per kernel as IGC does)")
    p.add_argument("-j", "--jobs", type=int, default=None, metavar="N",
                   help="builds at a time when there are several (default: the number of CPUs)")
    p.set_defaults(func=run)


def _emit(args) -> str:
    """What to write: binary, llvm (text) or bitcode, from --emit and clang's -S/-c/-emit-llvm."""
    if args.clang_emit_llvm:
        return "bitcode" if args.clang_c and not args.clang_S else "llvm"
    if args.clang_S and args.emit == "binary":
        return "asm"                     # as clang: -S is the target's assembly
    return args.emit


def _target_frontend(target_name: str) -> tuple[str, list[str], bool]:
    """(SPIR triple, extra frontend options, whether clang's LLVM passes run) of a target, from
    the compiler registry."""
    from kernelkit.mux.context import Context
    from kernelkit.mux.registry import resolve_target
    from kernelkit.mux.result import MuxError

    info, device = resolve_target(target_name)
    try:
        target = info.create_target(Context(), device)
    except MuxError:  # a target that cannot compile yet still has a pointer size
        return ("spir64-unknown-unknown" if info.device_info.pointer_size == 8 else "spir-unknown-unknown"), [], True
    return target.frontend_triple, list(target.frontend_options()), target.frontend_llvm_passes


def _emit_asm(args) -> int:
    """``--emit asm`` (or clang's ``-S``): the target module's assembly text (targets whose module has
    ``create_assembly``)."""
    from kernelkit.builder.pool import raise_reply, run_request

    if len(args.sources) != 1 or len(args.targets) != 1:
        raise KernelkitError("--emit asm takes one source and one target")
    source, target_name = args.sources[0], args.targets[0]
    options = build_options(args)
    output = check_output(args.output, [source]) if args.output else default_output(source, EMIT_SUFFIXES["asm"])
    # in a worker process, like every build that reaches LLVM's backend
    reply = run_request({"kind": "asm", "source": read_source(source), "target": target_name, "options": options,
                         "filename": source, "env": {k: v for k, v in os.environ.items() if k.startswith("KERNELKIT_")},
                         "cwd": os.getcwd()})
    if not reply.get("ok"):
        raise_reply(reply)
    _print_log(reply.get("log") or "")
    write_output(output, reply["binary"])
    if not args.output:
        sys.stderr.write(f"kernelkit build: wrote {output}\n")
    return 0


def _print_log(log: str) -> None:
    if log:
        sys.stderr.write(log if log.endswith("\n") else log + "\n")


def _emit_llvm(args, emit: str) -> int:
    from kernelkit.frontend import compile_opencl

    if len(args.sources) != 1 or len(args.targets) > 1:
        raise KernelkitError("--emit llvm takes one source and at most one target")
    source = args.sources[0]
    options = frontend_options(args)
    triple, llvm_passes = ("spir-unknown-unknown" if args.bits == "32" else "spir64-unknown-unknown"), True
    if args.targets:  # the IR the target's frontend stage sees: its triple, extra options, passes
        triple, target_options, llvm_passes = _target_frontend(args.targets[0])
        options = [*target_options, *options]
    output = check_output(args.output, [source]) if args.output else default_output(source, EMIT_SUFFIXES[emit])
    spirv = read_spirv(source)
    if spirv is not None:      # a SPIR-V module: the IR kernelkit's SPIR-V reader gives every target
        from kernelkit.frontend.spirv import translate

        try:
            ir_text = str(translate(spirv))
        except FormatError as exc:
            raise CompileError(f"{source}: {exc}") from None
    else:
        compiled = compile_opencl(read_source(source), options, filename=source, triple=triple,
                                  use_cache=not args.no_cache, llvm_passes=llvm_passes)
        _print_log(compiled.log)
        ir_text = compiled.ir_text
    data = ir_text.encode()
    if emit == "bitcode":
        from kernelkit.llvm_binding import llvm

        data = llvm().parse_assembly(ir_text).as_bitcode()
    write_output(output, data)
    if not args.output:
        sys.stderr.write(f"kernelkit build: wrote {output}\n")
    return 0


def _emit_spirv(args) -> int:
    """``--emit spirv``: OpenCL C -> SPIR-V (LLVM's SPIR-V backend, in a worker process)."""
    from kernelkit.builder import build_spirv

    if len(args.sources) != 1 or args.targets:
        raise KernelkitError("--emit spirv takes one source and no target (-m 32 for spirv32)")
    source = args.sources[0]
    output = check_output(args.output, [source]) if args.output else default_output(source, ".spv")
    result = build_spirv(read_source(source), frontend_options(args), filename=source, bits=int(args.bits),
                         use_cache=not args.no_cache)
    _print_log(result.log)
    write_output(output, result.binary)
    if not args.output:
        sys.stderr.write(f"kernelkit build: wrote {output}\n")
    return 0


def visaasm_text(source_text: str, options: list[str], target: str, filename: str) -> str:
    from kernelkit.mux.registry import resolve_target
    from kernelkit.targets.visa.runner import visa_program

    _, device = resolve_target(target)
    binary, _run = visa_program(source_text, options, device, filename)
    return binary.visaasm()


def _emit_visaasm(args) -> int:
    """vISA text of one source for one visa target, compiled in a build worker as every build is."""
    from kernelkit.llvm_binding import in_worker

    if len(args.sources) != 1 or len(args.targets) != 1 or target_kind(args.targets[0]) != "visa":
        raise KernelkitError("--emit visaasm takes one source and one visa target (-t visa:<platform>)")
    source = args.sources[0]
    text = in_worker(visaasm_text, read_source(source), job_options(args, args.targets[0], frontend_options(args)),
                     args.targets[0], source,
                     target=args.targets[0], source_name=source, stage="frontend")
    output = check_output(args.output, [source]) if args.output else default_output(source, ".visaasm")
    write_output(output, text.encode())
    if not args.output:
        sys.stderr.write(f"kernelkit build: wrote {output}\n")
    return 0


def _outputs(args, jobs) -> list[str]:
    """The output path of each (source, target) job."""
    sources = [s for s, _ in jobs]
    several = len(jobs) > 1
    if several and args.output == "-":
        raise KernelkitError("several outputs cannot all go to standard output: give -o DIR")
    if not several:
        source, target = jobs[0]
        suffix = BINARY_SUFFIXES[target_kind(target)]
        if args.output and Path(args.output).is_dir():   # -o DIR: into that folder, as cp does
            return [check_output(str(Path(args.output) / (Path(source).stem + suffix)), sources)]
        return [check_output(args.output, sources) if args.output else default_output(source, suffix)]
    folder = Path(args.output) if args.output else None
    if folder is not None:
        if folder.exists() and not folder.is_dir():
            raise KernelkitError(f"-o {folder}: several outputs need a folder, and this is a file")
        folder.mkdir(parents=True, exist_ok=True)
    many_targets = len({t for _, t in jobs}) > 1
    outputs = []
    for source, target in jobs:
        src = Path(source)
        stem = src.stem + ("." + target.replace(":", "_").replace("/", "_") if many_targets else "")
        out = str((folder or src.parent) / (stem + BINARY_SUFFIXES[target_kind(target)]))
        outputs.append(check_output(out, sources))
    if len(set(outputs)) != len(outputs):
        raise KernelkitError("two sources have the same name: their outputs would overwrite each other "
                             "(build them into different folders)")
    return outputs


def _label(source: str, target: str) -> str:
    return f"{source} -> {target}"


def clang_target_pairs(targets: list[str]) -> list[str]:
    """clang's ``--target=<triple> -mcpu=<processor>`` (or ``--offload-arch=``): one triple without a
    processor and AMDGPU processor names build each processor under that triple (``<triple>--<processor>``,
    LLVM's target-ID form), so an OS the triple names is produced or refused, never silently replaced."""
    triples = [t for t in targets if re.fullmatch(r"(amdgcn|r600)-\w*-\w+", t)]
    processors = [t for t in targets if t.startswith("gfx")]
    if len(triples) != 1 or not processors:
        return targets
    return [f"{triples[0]}--{t}" if t in processors else t for t in targets if t not in triples]


def run(args) -> int:
    if args.no_cache:
        os.environ["KERNELKIT_NO_CACHE"] = "1"
    emit = _emit(args)
    if emit in ("llvm", "bitcode"):
        return _emit_llvm(args, emit)
    if emit == "asm":
        return _emit_asm(args)
    if emit == "visaasm":
        return _emit_visaasm(args)
    if emit == "spirv":
        return _emit_spirv(args)
    if not args.targets:
        sys.stderr.write("kernelkit build: error: a target is needed (-t TARGET), or --emit llvm\n")
        return 2
    args.targets = clang_target_pairs(args.targets)
    options = build_options(args)
    jobs = [(source, target) for source in args.sources for target in args.targets]
    if args.host_cpu is not None and not any(target_kind(t) == "host" for _, t in jobs):
        raise KernelkitError("--mcpu chooses the host target's CPU: build for -t host")
    if args.simd is not None and not any(target_kind(t) == "visa" for _, t in jobs):
        raise KernelkitError("--simd chooses the SIMD width of vISA kernels: build for -t visa:<platform>")
    outputs = _outputs(args, jobs)
    spirv = {source: read_spirv(source) for source in args.sources}   # SPIR-V modules build as such
    texts = {source: "" if spirv[source] else read_source(source) for source in args.sources}
    args.spirv_modules = spirv
    if len(jobs) == 1:
        return _build_one(args, jobs[0], outputs[0], texts, options)
    return _build_many(args, jobs, outputs, texts, options)


def build_options(args) -> list[str]:
    """The build options of the parsed arguments, for every target (``job_options`` adds a target's own)."""
    options = frontend_options(args)
    if args.code_object_version is not None:
        options.append(f"-mcode-object-version={args.code_object_version}")
    if args.driver_version is not None:
        options.append(f"-mamdcl2-driver-version={args.driver_version}")
    return options


def job_options(args, target: str, options: list[str]) -> list[str]:
    """The build options of one target: the host's also name its CPU (``--mcpu``), vISA's its SIMD width."""
    if args.host_cpu is not None and target_kind(target) == "host":
        return [*options, f"-mcpu={args.host_cpu}"]
    if args.simd is not None and target_kind(target) == "visa":
        return [*options, f"--simd={args.simd}"]
    return options


def _stage_text(label: str, stage: dict) -> str:
    kernels = stage.get("kernels") or []
    named = f" ({', '.join(kernels[:3])}{', ...' if len(kernels) > 3 else ''})" if kernels else ""
    return f"building {label}: {stage.get('stage')}{named}"


def _build_one(args, job, output: str, texts: dict, options: list[str]) -> int:
    from kernelkit.builder import build
    from kernelkit.builder.progress import Progress

    source, target = job
    label = _label(source, target)
    with Progress() as progress:
        progress.update(label, f"building {label}")
        result = build(texts[source], target, job_options(args, target, options), filename=source, use_cache=not args.no_cache,
                       spirv=args.spirv_modules[source], on_stage=lambda stage: progress.update(label, _stage_text(label, stage)))
        progress.done(label)
    _print_log(result.log)
    write_output(output, result.binary)
    if not args.output:
        sys.stderr.write(f"kernelkit build: wrote {output} ({len(result.binary)} bytes)\n")
    return 0


def _build_many(args, jobs, outputs, texts: dict, options: list[str]) -> int:
    from kernelkit.builder import BuildJob, build_many
    from kernelkit.builder.progress import Progress
    from kernelkit.errors import CompileError

    build_jobs = [BuildJob(texts[s], t, job_options(args, t, options), s, args.spirv_modules[s]) for s, t in jobs]
    where = {id(j): (i, out) for i, (j, out) in enumerate(zip(build_jobs, outputs, strict=True))}
    failures: list[str] = []
    started = {id(j): time.monotonic() for j in build_jobs}
    total = len(build_jobs)
    finished = [0]

    with Progress() as progress:
        def on_stage(job, stage):
            progress.update(_label(job.filename, job.target), _stage_text(_label(job.filename, job.target), stage))

        def on_done(job, outcome):
            index, out = where[id(job)]
            label = _label(job.filename, job.target)
            progress.done(label)
            finished[0] += 1
            count = f"[{finished[0]}/{total}]"
            elapsed = time.monotonic() - started[id(job)]
            if isinstance(outcome, BaseException):
                message = str(outcome) if not isinstance(outcome, CompileError) or not outcome.log else \
                    outcome.log.strip()
                failures.append(f"{label}: {str(outcome).splitlines()[0] if str(outcome) else type(outcome).__name__}")
                progress.line(f"{count} FAILED {label}\n{message}", sys.stderr)
                return
            try:
                write_output(out, outcome.binary)
            except OSError as exc:
                failures.append(f"{label}: cannot write {out}: {exc}")
                progress.line(f"{count} FAILED {label}: cannot write {out}: {exc}", sys.stderr)
                return
            if outcome.log:
                progress.line(outcome.log.rstrip("\n"), sys.stderr)
            cached = ", cached" if outcome.from_cache else ""
            progress.line(f"{count} {out} ({len(outcome.binary)} bytes, {elapsed:.1f} s{cached})", sys.stdout)

        build_many(build_jobs, workers=args.jobs, use_cache=not args.no_cache, on_stage=on_stage,
                   on_done=on_done)
    if failures:
        sys.stderr.write(f"kernelkit build: {len(failures)} of {total} builds failed:\n")
        for failure in failures:
            sys.stderr.write(f"  {failure}\n")
        return 1
    return 0
