//! What the warp-range copies ask of the warp: NVVM's intrinsics, and
//! 64-bit values moved between lanes as two 32-bit shuffles.

use crate::llvm::ir::{Function, Value};
use crate::llvm::typed::TypedBuilder;

/// Lanes of a warp.
pub(super) const WARP: u64 = 32;
/// Every lane of a warp, as a shuffle's or vote's mask.
pub(super) const ALL_LANES: u64 = 0xffff_ffff;

/// `v` (an integer of at most 64 bits) zero-extended to 64 bits.
pub(super) fn widen<'m>(b: &TypedBuilder<'m>, v: Value<'m>) -> Value<'m> {
    if v.ty().integer_width() == Some(64) {
        v
    } else {
        b.zext(v, 64, c"sl1.warp.wide")
    }
}

/// A call of the (not overloaded) NVVM intrinsic `name`.
pub(super) fn nvvm<'m>(
    b: &TypedBuilder<'m>,
    function: Function<'m>,
    name: &str,
    args: &[Value<'m>],
) -> Value<'m> {
    b.call_intrinsic(function, name, args, c"")
}

/// `shfl.sync` of 64-bit `v` over the whole warp (`kind` `down` or `idx`,
/// by `lane`), as two 32-bit shuffles.
pub(super) fn shuffle<'m>(
    b: &TypedBuilder<'m>,
    function: Function<'m>,
    kind: &str,
    v: Value<'m>,
    lane: u64,
) -> Value<'m> {
    let (i32t, i64t) = (b.int_type(32), b.int_type(64));
    let name = format!("llvm.nvvm.shfl.sync.{kind}.i32");
    let half = |h: Value<'m>| {
        let args = [
            i32t.constant(ALL_LANES),
            h,
            i32t.constant(lane),
            i32t.constant(WARP - 1),
        ];
        b.zext(nvvm(b, function, &name, &args), 64, c"")
    };
    let low = half(b.trunc(v, i32t, c""));
    let high = half(b.trunc(b.lshr(v, i64t.constant(32), c""), i32t, c""));
    b.or(
        b.shl(high, i64t.constant(32), c""),
        low,
        c"sl1.warp.shuffled",
    )
}

/// The low `bits` bits set.
pub(super) fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}
