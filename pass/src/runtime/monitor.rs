//! The monitoring slice's one-line cache simulation (`sl1.simulate`).

use inkwell::values::FunctionValue;
use inkwell::IntPredicate;

use super::base::Runtime;

impl<'ctx, 'm> Runtime<'ctx, 'm> {
    /// `sl1.simulate(addr, sim_tag, sim_hits, sim_accesses, count)`: one access
    /// of the monitoring slice against a simulated one-line cache.
    pub(super) fn simulate(&mut self) -> FunctionValue<'ctx> {
        let p = self.ptr().into();
        let ty = self.ctx.void_type().fn_type(&[p, p, p, p, p], false);
        self.helper("sl1.simulate".into(), ty, |rt, f, b| {
            let param = |i| f.get_nth_param(i).unwrap().into_pointer_value();
            let min_line = rt.i64().const_int(u64::from(rt.min_line), false);
            let (line, _) = rt.line_of(b, param(0), min_line)?;
            let tag = b.build_load(rt.i64(), param(1), "tag")?.into_int_value();
            let hit = b.build_int_compare(IntPredicate::EQ, tag, line, "hit")?;
            let hits = b.build_load(rt.i32(), param(2), "hits")?.into_int_value();
            let hit32 = b.build_int_z_extend(hit, rt.i32(), "")?;
            b.build_store(param(2), b.build_int_add(hits, hit32, "")?)?;
            let one = rt.i32().const_int(1, false);
            let acc = b.build_load(rt.i32(), param(3), "acc")?.into_int_value();
            b.build_store(param(3), b.build_int_add(acc, one, "")?)?;
            let count = b.build_load(rt.i32(), param(4), "count")?.into_int_value();
            b.build_store(param(4), b.build_int_add(count, one, "")?)?;
            b.build_store(param(1), line)?;
            b.build_return(None)?;
            Ok(())
        })
    }
}
