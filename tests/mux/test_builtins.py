"""The __mux_* builtin tables and encodings against spec 003's text."""

from __future__ import annotations

import re

import pytest
from mux_spec import builtin_list, enum_values, group_examples, section

from kernelkit.ir import parse
from kernelkit.ir import types as T
from kernelkit.mux import names
from kernelkit.mux.builtins import (
    GROUP_OPERATIONS,
    MUX_BUILTINS,
    builtin_type,
    group_builtin_type,
    parse_group_builtin,
    type_suffix,
)

SPEC_TYPES = {"size_t": "size_t", "i1": "i1", "i32": "i32", "void": "void", "__mux_dma_event_t": "event"}


def test_every_spec_builtin_is_in_the_table():
    spec = builtin_list()
    assert len(spec) == 29
    assert set(spec) == set(MUX_BUILTINS)
    for name, (ret, count) in spec.items():
        our_ret, our_params = MUX_BUILTINS[name]
        assert our_ret == SPEC_TYPES[ret], name
        assert len(our_params) == count, name


@pytest.mark.parametrize("size_t", [T.i32, T.i64])
def test_builtin_types_resolve_size_t(size_t):
    assert builtin_type("__mux_get_global_id", size_t) == T.FunctionType(size_t, (T.i32,))
    assert builtin_type("__mux_get_work_dim", size_t) == T.FunctionType(T.i32, ())
    fty = builtin_type("__mux_dma_read_2D", size_t, T.pointer(0))
    assert fty.params[:2] == (T.pointer(3), T.pointer(1)) and fty.params[2:6] == (size_t,) * 4


def _declared(signature: str) -> T.FunctionType:
    """Function type of a spec example such as ``i32 @__mux_x(i32 %id, float %val)``."""
    text = re.sub(r"\s%\w+", "", signature)
    fn = parse(f"declare {text}\n").functions[0]
    return fn.function_type


# The spec's vec-group scan example returns the element type for a scalable vector input; kernelkit
# keeps a scan's result the type of its input (a scan yields one value per lane).
SPEC_EXAMPLE_EXCEPTIONS = {"__mux_vec_group_scan_exclusive_mul_nxv1i64"}


def test_group_examples_match():
    examples = group_examples()
    assert len(examples) >= 20
    checked = 0
    for sig in examples:
        name = re.search(r"@(\w+)\(", sig).group(1)
        builtin = parse_group_builtin(name)
        assert builtin is not None, name
        assert builtin.name == name
        fty = _declared(sig)
        value = fty.params[1] if builtin.scope == "work" else fty.params[0]
        assert type_suffix(value) == builtin.suffix
        if name in SPEC_EXAMPLE_EXCEPTIONS:
            continue
        assert group_builtin_type(builtin, value, T.i64) == fty, sig
        checked += 1
    assert checked == len(examples) - len(SPEC_EXAMPLE_EXCEPTIONS)


def test_group_operations_are_the_spec_list():
    block = section("The group operation may be specified as one of:", "Examples:")
    spec_ops = set(re.findall(r"\b(logical_and|logical_or|logical_xor|fadd|fmul|smin|umin|fmin|smax|umax|fmax|"
                              r"add|mul|and|or|xor)\b", block))
    assert spec_ops == set(GROUP_OPERATIONS)


def test_scope_and_semantics_enums_match_spec():
    scopes = enum_values("MemScope")
    assert {f"MemScope{k.replace('_', ' ').title().replace(' ', '')}": int(v)
            for k, v in names.MemScope.__members__.items()} == scopes
    sem = enum_values("MemSemantics")
    ours = {f"MemSemantics{k.replace('_', ' ').title().replace(' ', '')}": int(v)
            for k, v in names.MemSemantics.__members__.items()}
    assert ours == sem


def test_attribute_and_metadata_names_are_in_the_spec():
    text = section("Function Metadata", "mux-kernel attribute")
    for attr in (names.ATTR_KERNEL, names.ATTR_ORIG_FN, names.ATTR_BASE_FN_NAME, names.ATTR_LOCAL_MEM_USAGE,
                 names.ATTR_WORK_ITEM_ORDER, names.ATTR_BARRIER_SCHEDULE, names.ATTR_NO_SUBGROUPS):
        assert f'"{attr}"' in text
    for md in (names.MD_REQD_WORK_GROUP_SIZE, names.MD_MAX_WORK_DIM, names.MD_SCHEDULED_FN,
               names.MD_INTEL_REQD_SUB_GROUP_SIZE, names.MD_SCHEDULING_PARAMS, names.MD_OPENCL_VERSION):
        assert f"!{md}" in text
    assert f'"{names.KERNEL_ENTRY_POINT}"' in text
