"""Module lifecycle through a minimal target: compile, link, finalize (mux passes + late passes),
serialize/deserialize, build log, kernels; and the compiler registry."""

from __future__ import annotations

import llvmlite.binding as llvm
import pytest

from kernelkit.errors import CompileError
from kernelkit.mux import Context, DeviceInfo, Info, MuxError, Result
from kernelkit.mux.kernel import Kernel
from kernelkit.mux.module import InputHeader, Module
from kernelkit.mux.passes.pipeline import Pass
from kernelkit.mux.passes.scheduling import SchedulingParameter
from kernelkit.mux.registry import TARGET_PACKAGES, find_compiler, get_compilers, resolve_target
from kernelkit.mux.target import Target

LATE_RUNS: list[str] = []


class _Target(Target):
    def _create_module(self):
        return Module(self)

    def scheduling_parameters(self):
        return [SchedulingParameter("MuxWorkItemInfo")]

    def late_passes(self):
        def late(module):
            LATE_RUNS.append(",".join(f.name for f in module.functions if f.name.startswith("__mux_get")))
        return [Pass("record", late)]


class _Info(Info):
    name = "testdev"

    def _create_target(self, context, device, callback):
        return _Target(self, context, callback, device)


class _DeferredInfo(_Info):
    def _create_target(self, context, device, callback):
        return _DeferredTarget(self, context, callback, device)


class _DeferredModule(Module):
    def _create_kernel(self, name):
        return Kernel(self, name)


class _DeferredTarget(_Target):
    def _create_module(self):
        return _DeferredModule(self)


def _module(info_cls=_Info, **kw) -> Module:
    info = info_cls(DeviceInfo("testdev"), **kw)
    return info.create_target(Context()).create_module()


SRC = """
#include "helper.h"
kernel void add(global int *o) { o[get_global_id(0)] = HELPER_VALUE; }
kernel void other(global int *o) { barrier(CLK_GLOBAL_MEM_FENCE); o[0] = 1; }
"""


def test_compile_finalize_runs_mux_then_late_passes():
    module = _module()
    module.compile_opencl_c(SRC, ["-cl-std=CL2.0"], input_headers=[InputHeader("helper.h", "#define HELPER_VALUE 7\n")])
    LATE_RUNS.clear()
    info = module.finalize()
    assert [k.name for k in info.kernels] == ["add", "other"]
    assert LATE_RUNS == ["__mux_get_global_id"]  # late passes see the lowered module
    text = str(module.finalized_llvm_module)
    llvm.parse_assembly(text).verify()
    assert '"mux-kernel"="entry-point"' in text and "!mux-scheduling-params" in text
    assert "_Z13get_global_idj" in str(module.llvm_module)  # the front end's module is kept as it was
    assert module.state == Module.FINALIZED and module.num_errors == 0


def test_compile_error_is_counted_logged_and_located():
    module = _module()
    with pytest.raises(MuxError) as exc:
        module.compile_opencl_c("kernel void k(global int *o) { o[0] = undeclared; }", filename="bad.cl")
    assert exc.value.result is Result.COMPILE_PROGRAM_FAILURE
    assert isinstance(exc.value, CompileError) and exc.value.location.startswith("bad.cl:1:")
    assert module.num_errors == 1 and "undeclared" in module.log


def test_warnings_go_to_the_build_log_without_errors():
    module = _module()
    module.compile_opencl_c("#warning check this\nkernel void k(global int *o) { o[0] = 1; }", filename="w.cl")
    assert "w.cl:1:2: warning: check this" in module.log
    assert module.num_errors == 0 and module.state == Module.COMPILED


def test_embedded_profile_defines_macro():
    module = _module()
    module.compile_opencl_c("""
        #ifndef __EMBEDDED_PROFILE__
        #error not embedded
        #endif
        kernel void k(global int *o) { o[0] = 1; }""", device_profile="EMBEDDED_PROFILE")
    with pytest.raises(MuxError):
        _module().compile_opencl_c("kernel void k() {}", device_profile="TINY_PROFILE")


def test_link_two_modules():
    a, b = _module(), _module()
    a.compile_opencl_c("int helper(int x);\nkernel void k(global int *o) { o[0] = helper(o[1]); }")
    b.compile_opencl_c("int helper(int x) { return x * 3; }")
    a.link([b])
    text = str(a.llvm_module)
    llvm.parse_assembly(text).verify()
    assert a.llvm_module.get_function("helper") is not None
    assert not a.llvm_module.get_function("helper").is_declaration
    c = _module()
    c.compile_opencl_c("int helper(int x) { return x; }")
    with pytest.raises(MuxError) as exc:
        a.link([c])  # helper defined twice
    assert exc.value.result is Result.LINK_PROGRAM_FAILURE


def test_serialize_round_trip():
    module = _module()
    module.compile_opencl_c(SRC, ["-cl-std=CL2.0", "-DHELPER_VALUE=3"],
                            input_headers=[InputHeader("helper.h", "")])
    data = module.serialize()
    assert module.size() == len(data)
    again = _module()
    again.deserialize(data)
    assert str(again.llvm_module) == str(module.llvm_module)
    assert [k.name for k in again.finalize().kernels] == ["add", "other"]
    for bad in (data[:len(data) // 2], b"", b"\xc1", data.replace(b"kernelkit.mux.module", b"kernelkit.mux.modulX")):
        with pytest.raises(MuxError) as exc:
            _module().deserialize(bad)
        assert exc.value.result is Result.INVALID_VALUE


def test_get_kernel():
    module = _module()
    module.compile_opencl_c(SRC, ["-DHELPER_VALUE=1"], input_headers=[InputHeader("helper.h", "")])
    with pytest.raises(MuxError) as exc:
        module.get_kernel("add")  # Info.supports_deferred_compilation is False
    assert exc.value.result is Result.FEATURE_UNSUPPORTED
    deferred = _module(_DeferredInfo, supports_deferred_compilation=True)
    deferred.compile_opencl_c(SRC, ["-DHELPER_VALUE=1"], input_headers=[InputHeader("helper.h", "")])
    kernel = deferred.get_kernel("add")
    assert kernel.name == "add" and deferred.get_kernel("add") is kernel
    with pytest.raises(MuxError) as exc:
        deferred.get_kernel("missing")
    assert exc.value.result is Result.INVALID_VALUE


def test_registry_lists_present_targets():
    compilers = get_compilers()
    assert compilers, "at least one target package provides get_compilers()"
    for info in compilers:
        assert isinstance(info, Info)
        assert info.name in TARGET_PACKAGES
        assert info.devices()
        for device in info.devices():  # every listed device is reachable by a CLI target name
            names = [n for n in (f"{info.name}:{device}", device) if info.parse_target(n)]
            assert names, f"{info.name}: no target name selects {device}"
            found, dev = resolve_target(names[0])
            assert found is not None and found.name == info.name and dev
    with pytest.raises(MuxError) as exc:
        find_compiler("no-such-target")
    assert exc.value.result is Result.INVALID_VALUE


def test_targets_command(capsys):
    import json

    from kernelkit.cli import main

    assert main(["targets", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["targets"]
    assert [r["target"] for r in rows] == [i.name for i in get_compilers()]
    for row, info in zip(rows, get_compilers(), strict=True):
        assert row["devices"] == info.devices()
        assert [o["name"] for o in row["options"]] == [o.name for o in info.options()]
    assert main(["targets"]) == 0
    text = capsys.readouterr().out
    for info in get_compilers():
        assert text.count(f"{info.name}:") >= 1 and info.devices()[0] in text


class _IRModule(Module):
    def create_binary(self) -> bytes:
        if self.finalized_llvm_module is None:
            raise MuxError(Result.INVALID_VALUE, "not finalized")
        return str(self.finalized_llvm_module).encode()


class _IRTarget(_Target):
    def _create_module(self):
        return _IRModule(self)


class _IRInfo(_Info):
    name = "irdev"

    def _create_target(self, context, device, callback):
        return _IRTarget(self, context, callback, device)


def test_build_binary_runs_the_whole_chain(monkeypatch):
    import kernelkit.mux.registry as registry

    monkeypatch.setattr(registry, "get_compilers", lambda: [_IRInfo(DeviceInfo("irdev"))])
    data = registry.build_binary("kernel void k(global int *o) { o[get_global_id(0)] = 1; }", "irdev", ["-O1"])
    text = data.decode()
    llvm.parse_assembly(text).verify()
    assert "@__mux_get_global_id(" in text and "get_global_idj" not in text
    with pytest.raises(MuxError) as exc:
        registry.build_binary("kernel void k() {}", "irdev:other")
    assert exc.value.result is Result.INVALID_VALUE
    with pytest.raises(CompileError):
        registry.build_binary("kernel void k() { nope; }", "irdev")
