"""Machine-level helpers for the batch kernels, written as numba intrinsics.

numba exposes no popcount, no prefetch and no two-lane vector add; each is one LLVM
instruction here. ``is_wide`` is a compile-time constant per array type, so a kernel
specialised for 8-bit ids carries no code for the checks that wider ids need.
"""

from __future__ import annotations

from typing import Any

from llvmlite import ir  # type: ignore[import-untyped]
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

__all__: list[str] = []

_cg: Any = cgutils  # numba's code generation helpers carry no annotations
_unituple: Any = types.UniTuple

_I64 = ir.IntType(64)
_I32 = ir.IntType(32)
_PAIR = ir.VectorType(_I64, 2)


def _popcount(typingctx: Any, x: Any) -> Any:
    """The number of set bits of an int64."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


popcount: Any = intrinsic(_popcount)


def _trailing_zeros(typingctx: Any, x: Any) -> Any:
    """The number of trailing zero bits of a nonzero int64."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.int64(types.int64), codegen


trailing_zeros: Any = intrinsic(_trailing_zeros)


def _is_wide(typingctx: Any, array: Any) -> Any:
    """True when the array's items have more than 8 bits (a constant, folded at compile time)."""
    wide = array.dtype.bitwidth > 8

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return context.get_constant(types.boolean, wide)

    return types.boolean(array), codegen


is_wide: Any = intrinsic(_is_wide)


def _prefetch_row(typingctx: Any, array: Any, row: Any) -> Any:
    """Hint the cache to fetch ``array[row, 0]`` (a 2-D array of any layout; no bounds check)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        ary = context.make_array(array)(context, builder, args[0])
        zero = context.get_constant(types.intp, 0)
        ptr = _cg.get_item_pointer2(
            context,
            builder,
            data=ary.data,
            shape=_cg.unpack_tuple(builder, ary.shape),
            strides=_cg.unpack_tuple(builder, ary.strides),
            layout=array.layout,
            inds=[args[1], zero],
            wraparound=False,
            boundscheck=False,
        )
        byte_ptr = ir.IntType(8).as_pointer()
        fn = _cg.get_or_insert_function(
            builder.module,
            ir.FunctionType(ir.VoidType(), [byte_ptr, _I32, _I32, _I32]),
            "llvm.prefetch.p0i8",
        )
        # read, no temporal locality hint beyond L1 (0), data cache (1)
        builder.call(
            fn,
            [builder.bitcast(ptr, byte_ptr), _I32(0), _I32(0), _I32(1)],
        )
        return context.get_dummy_value()

    return types.void(array, row), codegen


prefetch_row: Any = intrinsic(_prefetch_row)


def _sum_pairs(
    typingctx: Any, pairs: Any, c0: Any, c1: Any, c2: Any, c3: Any, c4: Any, c5: Any, c6: Any
) -> Any:
    """Sum the int64 pairs ``pairs[2c], pairs[2c + 1]`` of seven indices with two-lane adds.

    One 128-bit load and add per card instead of two scalar ones: the kernel is bound by
    loads, and this halves the table loads per hand. ``pairs`` is a C-contiguous int64 array;
    the indices are uint64 and not checked.
    """
    result = _unituple(types.int64, 2)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        data = context.make_array(pairs)(context, builder, args[0]).data
        total = ir.Constant(_PAIR, None)
        for index in args[1:]:
            slot = builder.gep(data, [builder.shl(index, _I64(1))])
            total = builder.add(
                total, builder.load(builder.bitcast(slot, _PAIR.as_pointer()), align=8)
            )
        first = builder.extract_element(total, _I32(0))
        second = builder.extract_element(total, _I32(1))
        return context.make_tuple(builder, result, [first, second])

    ids = (types.uint64,) * 7
    return result(pairs, *ids), codegen


sum_pairs: Any = intrinsic(_sum_pairs)
