"""The mux API base classes against spec 003's text: Result codes, option syntax, argument checks."""

from __future__ import annotations

import threading

import pytest
from mux_spec import options_example, result_codes

from kernelkit.mux import Context, DeviceInfo, Info, MuxError, Result
from kernelkit.mux.device import AddressCapabilities, BuiltinCapabilities, FloatingPointCapabilities
from kernelkit.mux.kernel import Descriptor, DescriptorType, Kernel, NDRangeOptions
from kernelkit.mux.module import Module
from kernelkit.mux.options import SYNTAX_RULES, parse_compilation_options
from kernelkit.mux.target import Target


def test_every_result_code_the_spec_names_exists():
    names = result_codes()
    assert {"SUCCESS", "INVALID_VALUE", "OUT_OF_MEMORY", "FINALIZE_PROGRAM_FAILURE", "FEATURE_UNSUPPORTED"} <= names
    for name in names:
        assert Result[name].name == name
    assert Result.SUCCESS == 0
    assert len({int(r) for r in Result}) == len(Result)


def test_mux_error_carries_result():
    err = MuxError(Result.FEATURE_UNSUPPORTED, "no")
    assert err.result is Result.FEATURE_UNSUPPORTED and "FEATURE_UNSUPPORTED" in str(err)
    import kernelkit
    assert kernelkit.MuxError is MuxError and kernelkit.Result is Result


def test_spec_example_options_are_valid():
    text = options_example()
    assert text.startswith("--dummy-device-option,1,")
    opts = parse_compilation_options(text)
    assert [(o.name, o.takes_value) for o in opts] == [("--dummy-device-option", True), ("--dummy-device-flag", False)]
    assert opts[0].help == "takes an integer value"
    assert parse_compilation_options("") == []


@pytest.mark.parametrize(("text", "rule"), [
    ("-dummy,1,help", 1),                     # single hyphen
    ("dummy,1,help", 1),                      # no hyphen
    ("--dum my,1,help", 1),                   # whitespace in name
    ("--dum\tmy,0,help", 1),
    ("--", 1),
    ("--opt,2,help", 2),                      # neither 1 nor 0
    ("--opt,yes,help", 2),
    ("--opt", 2),                             # no second element
    ("--opt,1", 3),                           # no help
    ("--opt,1,", 3),
    ("--opt,1,tab\there", 3),                 # help whitespace must be ' '
    ("--opt,1,new\nline", 3),
    ("--a,1,first help,--b,0,second", 4),     # tuples not separated by ';'
    ("--a,1,first;;--b,0,second", 4),         # empty tuple
    ("--a,1,first;", 4),
])
def test_broken_rule_is_named(text, rule):
    with pytest.raises(MuxError) as exc:
        parse_compilation_options(text)
    assert exc.value.result is Result.INVALID_VALUE
    assert f"rule {rule} " in str(exc.value) and SYNTAX_RULES[rule] in str(exc.value)


def test_context_is_a_lock():
    ctx = Context()
    with ctx:
        assert ctx.try_lock()  # re-entrant for the owner
        ctx.unlock()
        got = []
        t = threading.Thread(target=lambda: got.append(ctx.try_lock()))
        t.start()
        t.join()
        assert got == [False]
    assert ctx.try_lock()
    ctx.unlock()
    assert ctx.is_valid_spirv(bytes.fromhex("03022307") + bytes(16))
    assert ctx.is_valid_spirv([0x07230203, 0x10000, 0, 1, 0])
    assert not ctx.is_valid_spirv(b"\x7fELF" + bytes(16))


class _Info(Info):
    name = "dummy"

    def _create_target(self, context, device, callback):
        return _Target(self, context, callback, device)


class _Target(Target):
    def _create_module(self):
        return Module(self)


# a device's reported option syntax (name,takes-value,help;...), as test_spec_example_options_are_valid
# checks on the spec's own example
DEVICE_OPTIONS = "--dummy-device-option,1,an integer;--dummy-device-flag,0,a switch"


def _info(**kw) -> _Info:
    return _Info(DeviceInfo("dummy-device", **kw), compilation_options=DEVICE_OPTIONS)


def test_info_fields_and_builtin_capabilities():
    info = _info()
    assert info.supports_deferred_compilation is False and info.vectorizable is False
    assert info.dma_optimizable is False and info.scalable_vector_support is False
    assert info.get_builtin_capabilities() == BuiltinCapabilities.FP64
    info32 = _info(address_capabilities=AddressCapabilities.BITS32,
                   half_capabilities=FloatingPointCapabilities.RTE,
                   double_capabilities=FloatingPointCapabilities(0))
    assert info32.get_builtin_capabilities() == BuiltinCapabilities.BITS32 | BuiltinCapabilities.FP16
    with pytest.raises(MuxError) as exc:
        _Info(DeviceInfo("x"), compilation_options="--bad,3,x")
    assert exc.value.result is Result.INVALID_VALUE


def test_create_target_needs_context():
    with pytest.raises(MuxError) as exc:
        _info().create_target(None)
    assert exc.value.result is Result.INVALID_VALUE
    target = _info().create_target(Context())
    assert target.get_compiler_info().name == "dummy"
    assert target.frontend_triple == "spir64-unknown-unknown"
    with pytest.raises(MuxError):
        _info().create_target(Context(), device="other")
    assert _info().parse_target("dummy") == "dummy-device"
    assert _info().parse_target("dummy:dummy-device") == "dummy-device"
    assert _info().parse_target("host") is None


def test_base_methods_are_unsupported_not_faked():
    with pytest.raises(MuxError) as exc:
        Info(DeviceInfo("x")).create_target(Context())
    assert exc.value.result is Result.FEATURE_UNSUPPORTED
    module = _info().create_target(Context()).create_module()
    assert module.num_errors == 0 and module.log == ""
    for call in (module.create_binary, lambda: module.create_kernel("k")):
        with pytest.raises(MuxError) as exc:
            call()
        assert exc.value.result is Result.FEATURE_UNSUPPORTED
    with pytest.raises(MuxError) as exc:
        module.compile_spirv(b"not spirv")
    assert exc.value.result is Result.INVALID_VALUE
    with pytest.raises(MuxError) as exc:   # a SPIR-V header whose bound is 0 (spec §2.3: bound > 0)
        module.compile_spirv([0x07230203, 0x10000, 0, 0, 0])
    assert exc.value.result is Result.COMPILE_PROGRAM_FAILURE and "bound" in module.log
    with pytest.raises(MuxError) as exc:
        module.serialize()
    assert exc.value.result is Result.INVALID_VALUE
    with pytest.raises(MuxError) as exc:
        module.deserialize(b"\x93garbage")
    assert exc.value.result is Result.INVALID_VALUE


def _kernel(**device) -> Kernel:
    module = _info(**device).create_target(Context()).create_module()
    return Kernel(module, "k", (4, 1, 1), 0)


@pytest.mark.parametrize("method", ["precache_local_size", "get_dynamic_work_width",
                                    "query_sub_group_size_for_local_size"])
@pytest.mark.parametrize("sizes", [(0, 1, 1), (1, 0, 1), (1, 1, 0)])
def test_zero_local_size_is_invalid_value(method, sizes):
    with pytest.raises(MuxError) as exc:
        getattr(_kernel(max_sub_group_count=4), method)(*sizes)
    assert exc.value.result is Result.INVALID_VALUE


def test_valid_queries_reach_the_target_hook():
    kernel = _kernel(max_sub_group_count=4)
    for call in (lambda: kernel.precache_local_size(4, 1, 1), lambda: kernel.get_dynamic_work_width(4, 1, 1),
                 kernel.get_sub_group_size, kernel.query_max_sub_group_count,
                 lambda: kernel.query_local_size_for_sub_group_count(2),
                 lambda: kernel.query_sub_group_size_for_local_size(4, 1, 1)):
        with pytest.raises(MuxError) as exc:
            call()
        assert exc.value.result is Result.FEATURE_UNSUPPORTED


def test_sub_group_queries_without_sub_groups():
    kernel = _kernel(max_sub_group_count=0)
    for call in (kernel.get_sub_group_size, kernel.query_max_sub_group_count,
                 lambda: kernel.query_local_size_for_sub_group_count(1),
                 lambda: kernel.query_sub_group_size_for_local_size(8, 1, 1)):
        with pytest.raises(MuxError) as exc:
            call()
        assert exc.value.result is Result.FEATURE_UNSUPPORTED


@pytest.mark.parametrize("opts", [
    NDRangeOptions(descriptors=[Descriptor(DescriptorType.BUFFER)], descriptors_length=0, global_size=(8,)),
    NDRangeOptions(descriptors=None, descriptors_length=1, global_size=(8,)),
    NDRangeOptions(local_size=(1, 0, 1), global_size=(8,)),
    NDRangeOptions(global_offset=None, global_size=(8,)),
    NDRangeOptions(global_size=None),
    NDRangeOptions(length=0, global_size=(8,)),
    NDRangeOptions(length=4, global_size=(8,)),
    NDRangeOptions(descriptors=[Descriptor(DescriptorType.CUSTOM_BUFFER)], descriptors_length=1, global_size=(8,)),
])
def test_specialize_argument_checks(opts):
    with pytest.raises(MuxError) as exc:
        _kernel().create_specialized_kernel(opts)
    assert exc.value.result is Result.INVALID_VALUE


def test_specialize_valid_options_reach_target():
    with pytest.raises(MuxError) as exc:
        _kernel().create_specialized_kernel(NDRangeOptions(global_size=(8,)))
    assert exc.value.result is Result.FEATURE_UNSUPPORTED


class _BadKernel(Kernel):
    def _get_dynamic_work_width(self, x, y, z):
        return 0

    def _query_local_size_for_sub_group_count(self, count):
        return (2, 2, 1)


def test_target_values_are_checked():
    module = _info(max_sub_group_count=2).create_target(Context()).create_module()
    kernel = _BadKernel(module, "k")
    with pytest.raises(MuxError) as exc:
        kernel.get_dynamic_work_width(1, 1, 1)
    assert exc.value.result is Result.FAILURE
    with pytest.raises(MuxError):
        kernel.query_local_size_for_sub_group_count(2)


def test_device_options_parse_against_reported_syntax():
    from kernelkit.mux.options import check_device_options

    reported = DEVICE_OPTIONS
    assert check_device_options(reported, ["--dummy-device-option=3", "--dummy-device-flag"]) == [
        ("--dummy-device-option", "3"), ("--dummy-device-flag", None)]
    assert check_device_options(reported, ["--dummy-device-option", "7"]) == [("--dummy-device-option", "7")]
    for bad in (["--unknown"], ["--dummy-device-option"], ["--dummy-device-flag=1"]):
        with pytest.raises(MuxError) as exc:
            check_device_options(reported, bad)
        assert exc.value.result is Result.INVALID_BUILD_OPTIONS
