//! The integer arithmetic the host-side launch code builds.

use inkwell::builder::{Builder, BuilderError};
use inkwell::values::IntValue;
use inkwell::IntPredicate;

/// The count of a `dim3` as `cudaLaunchKernel` takes it: x | y << 32 in
/// an i64, z in an i32.
pub(super) fn dim3_count<'ctx>(
    b: &Builder<'ctx>,
    xy: IntValue<'ctx>,
    z: IntValue<'ctx>,
) -> Result<IntValue<'ctx>, BuilderError> {
    let i64t = xy.get_type();
    let x = b.build_and(xy, i64t.const_int(0xffff_ffff, false), "")?;
    let y = b.build_right_shift(xy, i64t.const_int(32, false), false, "")?;
    let z = b.build_int_z_extend(z, i64t, "")?;
    b.build_int_mul(b.build_int_mul(x, y, "")?, z, "sl1.dim3")
}

/// The smaller of `a` and `v`, unsigned.
pub(super) fn umin<'ctx>(
    b: &Builder<'ctx>,
    a: IntValue<'ctx>,
    v: IntValue<'ctx>,
) -> Result<IntValue<'ctx>, BuilderError> {
    let less = b.build_int_compare(IntPredicate::ULT, a, v, "")?;
    Ok(b.build_select(less, a, v, "")?.into_int_value())
}

/// The larger of `a` and `v`, unsigned.
pub(super) fn umax<'ctx>(
    b: &Builder<'ctx>,
    a: IntValue<'ctx>,
    v: IntValue<'ctx>,
) -> Result<IntValue<'ctx>, BuilderError> {
    let more = b.build_int_compare(IntPredicate::UGT, a, v, "")?;
    Ok(b.build_select(more, a, v, "")?.into_int_value())
}
