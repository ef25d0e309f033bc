"""dtype -> CUDA C++ types: storage type (in memory), compute type (in registers), and
how kernel parameters carry scalars of each dtype."""
from __future__ import annotations

import numpy as np

from .. import _dtypes as D

STORAGE = {
    D.bool_: "bool", D.int8: "signed char", D.int16: "short", D.int32: "int",
    D.int64: "long long", D.uint8: "unsigned char", D.uint16: "unsigned short",
    D.uint32: "unsigned int", D.uint64: "unsigned long long", D.float16: "unsigned short",
    D.float32: "float", D.float64: "double", D.complex64: "gn_c64", D.complex128: "gn_c128",
}
# float16 values live in registers as float, rounded to half after every op (NumPy's rule)
COMPUTE = dict(STORAGE)
COMPUTE[D.float16] = "float"

SHORT = {
    D.bool_: "b", D.int8: "i8", D.int16: "i16", D.int32: "i32", D.int64: "i64",
    D.uint8: "u8", D.uint16: "u16", D.uint32: "u32", D.uint64: "u64", D.float16: "f16",
    D.float32: "f32", D.float64: "f64", D.complex64: "c64", D.complex128: "c128",
}

# numpy scalar type used to pass a kernel parameter of each compute type
PARAM_NP = {
    D.bool_: np.uint8, D.int8: np.int8, D.int16: np.int16, D.int32: np.int32,
    D.int64: np.int64, D.uint8: np.uint8, D.uint16: np.uint16, D.uint32: np.uint32,
    D.uint64: np.uint64, D.float16: np.float32, D.float32: np.float32,
    D.float64: np.float64, D.complex64: np.float32, D.complex128: np.float64,
}




def is_complex(dt) -> bool:
    return dt.kind == "c"


def param_values(dt, value):
    """Kernel parameter values carrying scalar `value` of dtype `dt` (complex: re, im)."""
    t = PARAM_NP[dt]
    if dt.kind == "c":
        return [t(value.real), t(value.imag)]
    if dt.kind == "b":
        return [np.uint8(1 if value else 0)]
    return [t(int(value)) if dt.kind in "iu" else t(value)]


def param_decls(dt, name):
    """C declarations of the parameters carrying a scalar of dtype `dt`."""
    if dt.kind == "c":
        part = "float" if dt == D.complex64 else "double"
        return [f"{part} {name}_re", f"{part} {name}_im"]
    if dt.kind == "b":
        return [f"unsigned char {name}_b"]
    return [f"{COMPUTE[dt]} {name}"]


def param_value_expr(dt, name):
    """The C expression of a scalar parameter's value (after param_decls)."""
    if dt.kind == "c":
        return f"{COMPUTE[dt]}{{{name}_re, {name}_im}}"
    if dt.kind == "b":
        return f"((bool){name}_b)"
    return name


def load(dt, ptr, off):
    return f"gn_h2f({ptr}[{off}])" if dt == D.float16 else f"{ptr}[{off}]"


def store_value(dt, value):
    return f"gn_f2h({value})" if dt == D.float16 else value
