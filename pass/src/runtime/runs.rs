//! Accesses inside a line run: the line is resident, so no tag check,
//! no fill and no write-back (`sl1.hit.*`).

use inkwell::builder::Builder;
use inkwell::types::{BasicType, BasicTypeEnum};
use inkwell::values::{FunctionValue, IntValue, PointerValue};

use super::base::{set_align, type_tag, BuildResult, Runtime, SiteKind};

impl<'ctx, 'm> Runtime<'ctx, 'm> {
    /// `T sl1.hit.load.<T>.a<align>(addr, tag, line)`: a load of a line run
    /// (`transform::line_runs`), where the line is known to hold `addr`: no
    /// tag check, the offset is the distance from the line's address.
    pub(super) fn hit_load(
        &mut self,
        ty: BasicTypeEnum<'ctx>,
        site: SiteKind,
    ) -> FunctionValue<'ctx> {
        let name = format!("sl1.hit.load.{}.a{}", type_tag(ty), site.align);
        let p = self.ptr().into();
        let fn_ty = ty.fn_type(&[p, p, self.shared_ptr().into()], false);
        let align = self.in_line_align(site);
        self.helper(name, fn_ty, |rt, f, b| {
            let param = |i: u32| f.get_nth_param(i).unwrap();
            let at = rt.hit_at(b, param(0), param(1), param(2))?.0;
            let v = b.build_load(ty, at, "v")?;
            set_align(v, align);
            b.build_return(Some(&v))?;
            Ok(())
        })
    }

    /// `void sl1.hit.store.<T>.a<align>[.premarked](addr, value, tag, dirty,
    /// line)`: a store of a line run, which hits (see `hit_load`). It sets
    /// its dirty bits unless the run set them all before it started (`mark`).
    pub(super) fn hit_store(
        &mut self,
        ty: BasicTypeEnum<'ctx>,
        site: SiteKind,
        mark: bool,
    ) -> FunctionValue<'ctx> {
        let name = format!(
            "sl1.hit.store.{}.a{}{}",
            type_tag(ty),
            site.align,
            if mark { "" } else { ".premarked" }
        );
        let p = self.ptr().into();
        let fn_ty = self
            .ctx
            .void_type()
            .fn_type(&[p, ty.into(), p, p, self.shared_ptr().into()], false);
        let align = self.in_line_align(site);
        self.helper(name, fn_ty, |rt, f, b| {
            let param = |i: u32| f.get_nth_param(i).unwrap();
            let (at, off) = rt.hit_at(b, param(0), param(2), param(4))?;
            set_align(b.build_store(at, param(1))?, align);
            if mark {
                rt.mark_dirty(b, param(3).into_pointer_value(), off, site.size)?;
            }
            b.build_return(None)?;
            Ok(())
        })
    }

    /// Where a hit's `addr` sits in the line, and its offset there: the
    /// distance from the line's address, which a line run does not change
    /// (so the offset moves with the loop, unlike `addr & (bytes - 1)`).
    pub(super) fn hit_at(
        &self,
        b: &Builder<'ctx>,
        addr: inkwell::values::BasicValueEnum<'ctx>,
        tag_slot: inkwell::values::BasicValueEnum<'ctx>,
        line: inkwell::values::BasicValueEnum<'ctx>,
    ) -> BuildResult<(PointerValue<'ctx>, IntValue<'ctx>)> {
        let a = b.build_ptr_to_int(addr.into_pointer_value(), self.i64(), "a")?;
        let tag = b
            .build_load(self.i64(), tag_slot.into_pointer_value(), "tag")?
            .into_int_value();
        let off = b.build_int_sub(a, tag, "off")?;
        Ok((self.shared_at(b, line.into_pointer_value(), off)?, off))
    }
}
